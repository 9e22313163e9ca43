/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_LINKPRED_H
#define GPUT_LINKPRED_H

#include <stddef.h>
#include <stdint.h>

#include "linkconn.h"
#include "overhead.h"
#include "pathlim.h"

/*
 * --link and --predict: the overhead model (overhead.h) and the path's
 * limits (pathlim.h) applied to gput's own connection or options. It
 * computes and prints nothing: report_link.h renders what it returns.
 */

struct config;
struct xfer_params;

/* Describe the live data connection fd of the side that ran p, once the
 * transfer is over: address family, path MTU, and for TCP the MSS, the
 * timestamp option and the data segments really sent or received (TCP_INFO).
 * Returns 0, or -1 with err filled. */
int linkpred_from_socket(int fd, const struct xfer_params *p,
                         const struct config *c, struct link_conn *lc,
                         char *err, size_t errlen);

/* What a TCP socket has sent so far (bytes, data segments), from TCP_INFO;
 * 0 when the kernel does not say. The client reads it after the data
 * connection's nonce, which is not part of the measured stream. */
void linkpred_tcp_sent(int fd, uint64_t *bytes, uint64_t *segs);


/* The prediction for the connection lc as it was (msg: the sender's write
 * length) on a link of link_bps. Returns 0 or -1 with err filled. */
int linkpred_compute(const struct link_conn *lc, uint64_t msg,
                     double link_bps, struct link_pred *out, char *err,
                     size_t errlen);

/* The frames a run of bytes took on the link, as pr models them (TCP:
 * its data segments when the kernel counted them; else every write's
 * frames); 0 when unknown. */
double linkpred_frames(const struct link_pred *pr, uint64_t msg,
                       uint64_t bytes);

/* A run of fewer frames than this prints how far its ratio may read high:
 * 2/(N-2) of N frames (gput(1), LINK PREDICTION). */
#define LINKPRED_SHORT_FRAMES 40000

/* gput --predict: one message's model, no transfer. */
struct link_predict {
	struct ovh_conf oc;   /* from the options (linkpred_from_config) */
	uint64_t msg;         /* -l */
	struct ovh_msg m;
	double   link_bps;    /* --link, 0: none */
	double   expected_bps;/* eta * C, 0 without a link */
	int      have_path;   /* --rtt was given: path is filled */
	struct plim path;
};

/* The prediction --predict prints, from c's options. Returns 0, or -1
 * with err filled. */
int linkpred_predict(const struct config *c, struct link_predict *out,
                     char *err, size_t errlen);

#endif
