/* SPDX-License-Identifier: BSD-2-Clause */
/* cli.c: the command line (and GPUT_LOC_OPT/GPUT_REM_OPT) into a config. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cli_check.h"
#include "cli_hints.h"
#include "cli_opts.h"
#include "cli_repeat.h"
#include "net.h"

const struct option *
cli_longopts(void)
{
	return cli_opts_long();
}

/* Parse argv[0..argc) (argv[0] is a placeholder). Returns the index of the
 * first operand, or -1 with err filled. */
static int
parse_opts(struct cli_state *ps, int argc, char **argv)
{
	const struct cli_opt *r;
	char nm[32];
	int o, li;

	optind = 0;                             /* GNU: fully reinitialise */
	opterr = 0;
	while ((o = getopt_long(argc, argv, cli_shortopts(), cli_opts_long(),
	    &li)) != -1) {
		if (o == '?' || o == ':') {
			/* glibc sets optopt for long options too: look at the word */
			const char *a = argv[optind - 1];
			if (strncmp(a, "--", 2) == 0)
				snprintf(ps->err, ps->errlen, o == '?' ? "unknown option %s"
				         : "option %s needs a value", a);
			else
				snprintf(ps->err, ps->errlen, o == '?' ? "unknown option -%c"
				         : "option -%c needs a value", optopt);
			return -1;
		}
		r = cli_opt_find(o);
		if (ps->remote && !(r->scope & CLI_SIDE)) {
			snprintf(ps->err, ps->errlen, "%s must come before the partner "
			         "name (it applies to both sides)",
			         cli_opt_name(o, nm, sizeof nm));
			return -1;
		}
		ps->seen[o] = 1;
		if (cli_opt_apply(ps, r, optarg) == -1)
			return -1;
	}
	return optind;
}

/* Split an environment value on white space into a fresh argv with a
 * placeholder argv[0]. The tokens live in *store until cli_free(). */
static char **
env_argv(const char *val, int *argc, char **store)
{
	size_t cap = 2 + (val ? strlen(val) / 2 + 1 : 0);
	char **v = calloc(cap, sizeof *v), *copy, *tok, *save = NULL;
	int n = 0;

	if (v == NULL)
		abort();
	v[n++] = "gput";
	copy = val ? strdup(val) : NULL;
	*store = copy;
	for (tok = copy ? strtok_r(copy, " \t\n", &save) : NULL; tok != NULL;
	    tok = strtok_r(NULL, " \t\n", &save))
		v[n++] = tok;
	v[n] = NULL;
	*argc = n;
	return v;
}

static void
side_defaults(struct side_opts *s)
{
	memset(s, 0, sizeof *s);
	s->len = GPUT_DEFAULT_LEN;
	s->count = GPUT_DEFAULT_COUNT;
	s->format = GPUT_DEFAULT_FORMAT;
}

/* Parse one option list (environment or command line) into side s; a
 * remote list (rport not NULL) may set a partner's control port there. */
static int
parse_pass(struct config *c, struct side_opts *s, uint16_t *rport,
           uint16_t *rstreams, int argc, char **argv, unsigned char *seen,
           char *err, size_t errlen)
{
	struct cli_state ps;
	int first, i;

	memset(&ps, 0, sizeof ps);
	ps.c = c;
	ps.s = s;
	ps.rport = rport;
	ps.rstreams = rstreams;
	ps.remote = rport != NULL;
	ps.err = err;
	ps.errlen = errlen;
	first = parse_opts(&ps, argc, argv);
	if (first == -1)
		return -1;
	if (ps.seen['n'] && ps.seen['x']) {
		snprintf(err, errlen, "-n and -x cannot be used together");
		return -1;
	}
	for (i = 0; i < OPT_MAX; i++)
		seen[i] |= ps.seen[i];
	return first;
}

/* Parse the options of environment variable name into s, in a pass of their
 * own so that the command line can override them. They do not count for
 * the mode checks: GPUT_LOC_OPT set for clients must not stop gput -i. */
static int
parse_env(struct config *c, struct side_opts *s, uint16_t *rport,
          uint16_t *rstreams, const char *name, const char *val, char **store, char *err,
          size_t errlen)
{
	unsigned char seen[OPT_MAX] = { 0 };
	char why[256] = "";
	int n, first;
	char **v = env_argv(val, &n, store);

	first = parse_pass(c, s, rport, rstreams, n, v, seen, why, sizeof why);
	if (first != -1 && first < n) {
		snprintf(why, sizeof why, "'%s' is not an option", v[first]);
		first = -1;
	}
	if (first == -1)
		snprintf(err, errlen, "%s: %s", name, why);
	free(v);
	return first == -1 ? -1 : 0;
}

/* One partner: its name at argv[*at], then its remote options, into a new
 * entry that starts from base. Returns 0 with *at past them, or -1. */
static int
parse_partner(struct config *c, const struct partner *base, int argc,
              char **argv, int *at, unsigned char *seen, char *err,
              size_t errlen)
{
	unsigned char mine[OPT_MAX] = { 0 };
	struct partner *p;
	char **v;
	int n, first, i;

	if (c->npartners > 0 && argv[*at][0] == '-') {  /* only after "--" */
		snprintf(err, errlen, "unexpected argument '%s' after the "
		         "partner's options", argv[*at]);
		return -1;
	}
	if (c->npartners == GPUT_MAX_PARTNERS) {
		snprintf(err, errlen, "at most %d partners (their lines are tagged "
		         "1 to %d): '%s' is one too many", GPUT_MAX_PARTNERS,
		         GPUT_MAX_PARTNERS, argv[*at]);
		return -1;
	}
	p = &c->partners[c->npartners++];
	*p = *base;
	p->host = argv[(*at)++];
	/* the partner's name stands in for argv[0] */
	n = argc - *at + 1;
	v = argv + *at - 1;
	first = parse_pass(c, &p->rem, &p->port, &p->streams, n, v, mine, err,
	    errlen);
	if (first == -1)
		return -1;
	for (i = 0; i < OPT_MAX; i++)
		seen[i] |= mine[i];
	/* the sender's -n or -x sizes the stream: a receiving partner's own
	 * would be ignored without a word */
	if ((mine['n'] || mine['x']) && c->role == ROLE_SEND && !c->bidir) {
		snprintf(err, errlen, "%s after %s's name has no effect: the partner "
		         "receives, and the sender (this host) sizes the stream; "
		         "put it before the partner's name", mine['n'] ? "-n" : "-x",
		         p->host);
		return -1;
	}
	*at += first - 1;
	return 0;
}

/* The partners from argv[first] on. Each one's options: the local ones,
 * then GPUT_REM_OPT, then the words after its name up to the next name.
 * The first partner is also c->host, c->port, c->rem. Returns 0 or -1. */
static int
parse_partners(struct config *c, const char *rem_env, int argc, char **argv,
               int first, unsigned char *seen, char *err, size_t errlen)
{
	struct partner base = { .host = NULL, .port = c->port, .rem = c->loc,
	    .streams = c->streams };

	if (parse_env(c, &base.rem, &base.port, &base.streams, "GPUT_REM_OPT", rem_env,
	    &c->env_store[1], err, errlen) == -1)
		return -1;
	while (first < argc)
		if (parse_partner(c, &base, argc, argv, &first, seen, err,
		    errlen) == -1)
			return -1;
	c->host = c->partners[0].host;
	c->port = c->partners[0].port;
	c->rem = c->partners[0].rem;
	c->streams = c->partners[0].streams;
	if (c->bidir && c->npartners == 1) {    /* both ways: the test and its reverse */
		c->partners[1] = c->partners[0];
		c->partners[1].reverse = 1;
		c->npartners = 2;
	} else if (c->bidir) {
		snprintf(err, errlen, "--bidir runs one partner both ways: give one "
		         "partner");
		return -1;
	}
	return 0;
}

int
cli_parse(int argc, char **argv, const char *loc_env, const char *rem_env,
          struct config *c, char *err, size_t errlen)
{
	unsigned char seen[OPT_MAX] = { 0 };
	int first;

	memset(c, 0, sizeof *c);
	c->mode = MODE_CLIENT;
	c->port = GPUT_DEFAULT_PORT;
	c->lim.max_sessions = PARTNER_MAX_SESSIONS;
	c->lim.max_per_source = PARTNER_MAX_PER_SOURCE;
	c->lim.src_prefix4 = PARTNER_SRC_PREFIX4;
	c->lim.src_prefix6 = PARTNER_SRC_PREFIX6;
	c->lim.max_handshakes = PARTNER_MAX_HANDSHAKES;
	c->lim.max_streams = PARTNER_MAX_STREAMS;
	c->streams = 1;
	c->lat_idle_ms = LAT_DEFAULT_IDLE_MS;
	c->lat_interval_us = LAT_DEFAULT_INTERVAL_US;
	c->lim.max_time_s = PARTNER_MAX_TIME_S;
	c->lim.max_peer_timeout_s = PARTNER_MAX_PEER_TIMEOUT_S;
	c->lim.params_grace_s = PARTNER_PARAMS_GRACE_S;
	c->peer_timeout_s = NET_PEER_TIMEOUT_S;
	c->lim.max_buffer = PARTNER_MAX_BUFFER;
	c->mtu = 1500;
	c->retries = SWIN_RETRIES;
	repeat_defaults(&c->rep);
	side_defaults(&c->loc);
	err[0] = '\0';
	/* iperf's habits first: "-t 10 host" must not test a partner "10" */
	if (cli_hint(argc, argv, cli_shortopts(), cli_opts_long(), err, errlen))
		return -1;
	/* Local options: the environment's first, then the command line's. */
	if (parse_env(c, &c->loc, NULL, NULL, "GPUT_LOC_OPT", loc_env,
	    &c->env_store[0], err, errlen) == -1)
		return -1;
	first = parse_pass(c, &c->loc, NULL, NULL, argc, argv, seen, err, errlen);
	if (first == -1)
		return -1;
	c->rem = c->loc;
	c->tag = '1';
	if (first < argc && parse_partners(c, rem_env, argc, argv, first, seen,
	    err, errlen) == -1)
		return -1;
	return cli_check(c, seen, err, errlen);
}

void
cli_free(struct config *c)
{
	free(c->env_store[0]);
	free(c->env_store[1]);
	c->env_store[0] = c->env_store[1] = NULL;
}

int
cli_stdout_done(const char *prog)
{
	int e = errno;  /* an earlier flush's failure, if that was the last */

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	if (errno != 0)
		e = errno;
	fprintf(stderr, "%s: writing the results: %s\n", prog,
	        e != 0 ? strerror(e) : "write error");
	return -1;
}
