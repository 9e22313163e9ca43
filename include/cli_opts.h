/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLI_OPTS_H
#define GPUT_CLI_OPTS_H

/*
 * The command line's options, for the parser's files (cli*.c) alone: the
 * codes of the long options, the option table's rows (cli_table.c) and
 * what is made of them (cli_opts.c), and the state a parse pass keeps.
 * Nothing outside the command line includes this.
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
       OPT_RETRIES, OPT_GBN, OPT_SOURCE_PREFIX, OPT_PEER_TIMEOUT,
       OPT_MAX_PEER_TIMEOUT, OPT_PARAMS_GRACE, OPT_MAX };
struct cli_state;

/* Where an option may stand (struct cli_opt's scope): anywhere before the
 * partners and for every mode (0), after a partner's name too, for that
 * partner's side (CLI_SIDE), or with gput -i alone (CLI_PARTNER).
 * CLI_HELP_ONLY: a line of -h that is no option of its own. */
#define CLI_SIDE      0x1u
#define CLI_PARTNER   0x2u
#define CLI_HELP_ONLY 0x4u

/* The trivial values an option's row keeps itself (struct cli_opt's to):
 * a constant into a field (a flag, or one of an enum's values), or a
 * number in [min, max] (units_parse_int; _SIZE: units_parse_size, with
 * B, K, M, G) into a field of 1, 2, 4 or 8 bytes. CLI_FN: the row's
 * function does it. Fields live in the side (ps->s) or the config (ps->c). */
enum cli_to { CLI_FN, CLI_SET_SIDE, CLI_SET_CONF, CLI_INT_SIDE, CLI_INT_CONF,
              CLI_SIZE_SIDE,
              CLI_SIZE_CONF };

/* The -h groups, in their order. */
enum cli_group { CLI_G_TEST, CLI_G_OUTPUT, CLI_G_UDP, CLI_G_STREAMS,
                 CLI_G_REPEAT, CLI_G_PARTNER, CLI_G_LINK, CLI_G_LATENCY,
                 CLI_G_N };

/* One option: the one table the parser (getopt's short string and long
 * array), -h and the scope checks read. */
struct cli_opt {
	const char *name;       /* long name; NULL: a help line of no option */
	int code;               /* its letter, or an OPT_* code */
	const char *arg;        /* its value's name in -h; NULL: takes none */
	unsigned scope;         /* CLI_SIDE, CLI_PARTNER, CLI_HELP_ONLY */
	enum cli_group group;   /* -h's group; its line in table order */
	const char *help;       /* -h's line */
	enum cli_to to;
	size_t off;             /* the field (offsetof) */
	unsigned char width;    /* its size */
	uint64_t min, max;      /* CLI_SET_*: max is the value set */
	int (*fn)(struct cli_state *ps, int o, const char *arg);
};

/* The table (cli_table.c), ending in a row of help NULL. */
extern const struct cli_opt cli_opts[];

/* usage()'s synopses, ending in NULL: a line of words each: "-46cD" a
 * cluster of flags, "l" or "rate" an option of the table (with its value's
 * name), "a|b" alternatives, "!i" an option without brackets, "@..." words
 * as they stand, "/" a new line. cli_help.c prints them. */
extern const char *const cli_synopses[];  /* cli_table.c */

/* Option code o's row (never a help-only one), or NULL. */
const struct cli_opt *cli_opt_find(int o);

/* Option code o's scope (CLI_SIDE, CLI_PARTNER), 0 for none or unknown. */
unsigned cli_opt_scope(int o);

/* getopt_long's short string and long array (ending in a NULL name), made
 * from the table. */
const char *cli_shortopts(void);
const struct option *cli_opts_long(void);

/* Apply option o's value from its row: the trivial cases here, the rest
 * by the row's function. Returns 0, or -1 with ps->err filled. */
int cli_opt_apply(struct cli_state *ps, const struct cli_opt *r,
                  const char *arg);

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
