/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_STATE_H
#define GPUT_CLIENT_STATE_H

/* One run of the client against one partner, shared by the files of the
 * run alone: client.c (its course and its output), client_open.c (the
 * handshake and the data path up to START) and client_transfer.c (the
 * transfer and the partner's results). */

#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "auth.h"
#include "client_prober.h"
#include "config.h"
#include "hostudp.h"
#include "ctl.h"
#include "linkconn.h"
#include "meter.h"
#include "model.h"
#include "watch.h"
#include "stop.h"
#include "stream.h"
#include "xfer_params.h"

struct client_hooks;

/* The words of a reason, and of the partner's or a check's reason that a
 * run's error quotes (one size for the client's files). */
#define CLIENT_WHY_LEN 320

/* Why a run failed: one record. */
struct run_err {
	enum run_error code;            /* what it is (RUN_OK: not set) */
	int  said;                      /* text is on stderr already */
	char text[CLIENT_WHY_LEN + 320];/* the words ("": none yet): a
	                                   reason, the partner's words */
};

struct run {
	const struct config *c;
	const struct client_hooks *hooks;   /* several partners (NULL: none) */
	struct xfer_params lp, rp;      /* local and partner halves */
	struct hostudp hu0;             /* -r -u: this host's UDP counters
	                                   before the data path opened */
	int hu_ok;                      /*   (read: hu0 holds them) */
	int hostudp_off;                /* an older partner refused
	                                   CTL_XF_HOSTUDP: asked no more */
	int ctl;
	struct stream *st;              /* the local streams, nst of them */
	uint32_t nst;
	struct stopreq *stop;           /* the process's: ^C */
	struct sockaddr_storage local, peer;
	struct auth_key key;
	int have_key;
	struct ctl_msg hello, params, ready;
	int have_rr, interrupted;       /* the partner's results (model.side[1])
	                                   were accepted; ^C */
	mono_ns t_open;                 /* the data path began to open: the
	                                   partner's times lie after it */
	mono_ns t0;                     /* START arrived: the transfer began */
	struct run_model model;         /* intervals and the rest, for output */
	int      filled;                /* model holds the run's results */
	int      keep;                  /* a --repeat run: the caller renders
	                                   everything but the table */
	struct watch w;
	FILE    *log;                   /* --log: binary records until the end */
	struct link_conn lc;            /* --link: the connection as it was */
	struct link_pred pred;          /* --link: its prediction (fill_model) */
	int pred_ok;                    /*   pred is filled, else pred_err */
	char pred_err[200];
	uint64_t nonce_bytes, nonce_segs;  /* TCP: what the nonce took */
	struct prober lat;              /* --latency (have_lat) */
	int have_lat;
	struct run_err e;               /* why it failed */
};

#endif
