/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_STATE_H
#define GPUT_PARTNER_STATE_H

/* One client's session on the partner, shared by the files of the session
 * alone: partner_session.c (its control flow and results) and
 * partner_open.c (its data sockets and their proofs). */

#include <stdint.h>
#include <sys/socket.h>

#include "auth.h"
#include "config.h"
#include "ctl.h"
#include "meter.h"
#include "model.h"
#include "net.h"
#include "partner_echo.h"
#include "partner_gate.h"
#include "hostudp.h"
#include "stop.h"
#include "stream.h"

struct session {
	const struct config *c;
	const struct auth_key *key;
	struct gate *gate;                      /* this session's place: slot */
	int slot;
	int ctl;
	struct stream *st;                      /* the test's streams */
	uint32_t nst;
	struct udp_stats *udp;                  /* a UDP receiver's accounting,
	                                           one per stream */
	struct stopreq *stop;
	struct sockaddr_storage local, peer;
	mono_ns deadline;                       /* of the whole handshake */
	unsigned peer_s;                        /* the dead-peer deadline, s:
	                                           NET_PEER_TIMEOUT_S, or the
	                                           client's --peer-timeout */
	mono_ns t0;                             /* START went out */
	struct ctl_msg hello, req, ready;
	uint64_t asked_bytes;                   /* PARAMS' data_bytes, before
	                                           --max-bytes: the client's
	                                           lengths (xfer_path.h) */
	struct run_model model;                 /* the streams, their sums */
	struct echo echo;                       /* --latency (fd -1: none) */
	struct hostudp hu;                      /* CTL_XF_HOSTUDP: the host's
	                                           UDP counters before the
	                                           transfer, then their deltas */
	int hu_ok;                              /* hu holds them: HOSTUDP goes */
	char who[NET_ADDRSTRLEN + 16];          /* "ADDR port N" */
};

#endif
