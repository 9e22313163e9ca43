/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_LINKCONN_H
#define GPUT_LINKCONN_H

#include <stdint.h>

#include "overhead.h"
#include "pathlim.h"

/*
 * The types of --link: a data connection as the overhead model sees it,
 * and its prediction. linkpred.c fills them, the result model carries
 * them, report_link.c prints them. Types only: pure.
 */

/* A data connection as it really was, for --link. */
struct link_conn {
	struct ovh_conf oc;   /* address family, path MTU, MSS, TCP options,
	                         and the framing given by --vlan/--pppoe */
	uint64_t tcp_bytes;   /* TCP: payload bytes this socket sent (or
	                         received) in tcp_segs data segments, from
	                         TCP_INFO; tcp_segs = 0 when the kernel does not
	                         say, and the model's segments are used */
	uint64_t tcp_segs;
	/* What the user said of the path (--rtt, --loss, -w), 0 when not: */
	double   rtt_s, loss;
	uint64_t window;      /* the smaller -w of the two sides, bytes */
	uint32_t dgrams;      /* UDP --sliding-window: its datagrams, 0: none */
	unsigned snd_mss;     /* TCP sender (this side): the MSS its kernel
	                         chose (TCP_INFO), 0: not known */
};

/* The prediction for a connection: eta * C, and with an RTT what the
 * window and loss allow (pathlim.h). */
struct link_pred {
	struct ovh_msg m;     /* the model of the connection */
	uint64_t segs;        /* the data segments modelled, 0: the message */
	double   link_bps;
	double   expected_bps;/* eta * C */
	int      have_path;   /* an RTT was given: path is filled */
	struct plim path;
};

#endif
