/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLI_OPTS_H
#define GPUT_CLI_OPTS_H

/*
 * The command line's options, for the parser's files (cli*.c) alone: the
 * codes of the long options, getopt's tables, and the state a parse pass
 * keeps. Nothing outside the command line includes this.
 */

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

enum { OPT_LINK = 256, OPT_PREDICT, OPT_MTU, OPT_NOTS, OPT_VLAN, OPT_PPPOE,
       OPT_KEY_FILE, OPT_MAX_SESSIONS, OPT_MAX_TIME, OPT_MAX_BYTES,
       OPT_MAX_BUFFER, OPT_MAX_RATE, OPT_ALLOW, OPT_USER, OPT_ONCE, OPT_INETD,
       OPT_TIME, OPT_INTERVAL, OPT_OMIT, OPT_CC, OPT_JSON, OPT_JSON_LINES,
       OPT_CSV, OPT_RATE, OPT_BURST, OPT_LOG, OPT_SAME_CLOCK, OPT_MAX_STREAMS,
       OPT_BIDIR, OPT_TTL, OPT_MPORT, OPT_NO_MCAST, OPT_BATCH, OPT_GSO,
       OPT_DISCARD, OPT_RTT, OPT_LOSS, OPT_AFFINITY, OPT_REPEAT, OPT_PAUSE,
       OPT_CI, OPT_LATENCY, OPT_LAT_IDLE, OPT_LAT_INTERVAL, OPT_QUEUE_BYTES,
       OPT_PROMETHEUS, OPT_ECN, OPT_ALLOW_CC, OPT_ZEROCOPY, OPT_MAX_PER_SOURCE,
       OPT_MAX_HANDSHAKES, OPT_FULL_READS, OPT_START_AT, OPT_SWIN, OPT_RTO,
       OPT_RETRIES, OPT_GBN, OPT_SOURCE_PREFIX, OPT_MAX };
/* Options of gput -i alone. */
#define IS_PARTNER_OPT(o) (((o) >= OPT_MAX_SESSIONS && (o) <= OPT_INETD) || \
	(o) == OPT_MAX_STREAMS || (o) == OPT_NO_MCAST || (o) == OPT_ALLOW_CC || \
	(o) == OPT_MAX_PER_SOURCE || (o) == OPT_MAX_HANDSHAKES || \
	(o) == OPT_SOURCE_PREFIX)

/* Long options that set one side, like -l: they may follow a partner name. */
#define IS_SIDE_OPT(o) ((o) == OPT_BATCH || (o) == OPT_GSO || \
	(o) == OPT_DISCARD || (o) == OPT_AFFINITY || (o) == OPT_ZEROCOPY || \
	(o) == OPT_FULL_READS)

#define CLI_SHORTOPTS "+:46cDf:g:hil:m:n:p:P:qrsS:tTuvVw:x:"

/* getopt_long's table, ending in a NULL name. */
extern const struct option cli_opts_long[];

/* One parse pass: the command line's or an environment variable's words,
 * before the partners (local) or after one (remote). */
struct cli_state {
	struct config *c;
	struct side_opts *s;
	uint16_t *rport;        /* remote: where -p goes (the partner's port) */
	uint16_t *rstreams;     /* remote: where -P goes (the partner's streams) */
	int remote;
	unsigned char seen[OPT_MAX];
	char *err;
	size_t errlen;
};

/* The name of option code o as a user typed it ("-l", "--rate"), for
 * messages. Returns buf. */
const char *cli_opt_name(int o, char *buf, size_t len);

/* A value error of option o: "NAME: why" into ps->err. Returns -1. */
int cli_bad_value(struct cli_state *ps, int o, const char *why);

#endif
