/* cli.c: the command line (and GPUT_LOC_OPT/GPUT_REM_OPT) into a config. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "affinity.h"
#include "cli_hints.h"
#include "cli_repeat.h"
#include "ctl.h"
#include "mcast.h"
#include "report.h"
#include "tcpinfo.h"
#include "units.h"

enum { OPT_LINK = 256, OPT_PREDICT, OPT_MTU, OPT_NOTS, OPT_VLAN, OPT_PPPOE,
       OPT_KEY_FILE, OPT_MAX_SESSIONS, OPT_MAX_TIME, OPT_MAX_BYTES,
       OPT_MAX_BUFFER, OPT_MAX_RATE, OPT_ALLOW, OPT_USER, OPT_ONCE, OPT_INETD,
       OPT_TIME, OPT_INTERVAL, OPT_OMIT, OPT_CC, OPT_JSON, OPT_JSON_LINES,
       OPT_CSV, OPT_RATE, OPT_BURST, OPT_LOG, OPT_SAME_CLOCK, OPT_MAX_STREAMS,
       OPT_BIDIR, OPT_TTL, OPT_MPORT, OPT_NO_MCAST, OPT_BATCH, OPT_GSO,
       OPT_DISCARD, OPT_RTT, OPT_LOSS, OPT_AFFINITY, OPT_REPEAT, OPT_PAUSE,
       OPT_CI, OPT_LATENCY, OPT_LAT_IDLE, OPT_LAT_INTERVAL, OPT_QUEUE_BYTES,
       OPT_PROMETHEUS, OPT_ECN, OPT_ALLOW_CC, OPT_ZEROCOPY, OPT_MAX_PER_SOURCE,
       OPT_MAX_HANDSHAKES, OPT_MAX };
/* Options of gput -i alone. */
#define IS_PARTNER_OPT(o) (((o) >= OPT_MAX_SESSIONS && (o) <= OPT_INETD) || \
	(o) == OPT_MAX_STREAMS || (o) == OPT_NO_MCAST || (o) == OPT_ALLOW_CC || \
	(o) == OPT_MAX_PER_SOURCE || (o) == OPT_MAX_HANDSHAKES)

/* Long options that set one side, like -l: they may follow a partner name. */
#define IS_SIDE_OPT(o) ((o) == OPT_BATCH || (o) == OPT_GSO || (o) == OPT_DISCARD || \
	(o) == OPT_AFFINITY || (o) == OPT_ZEROCOPY)

#define SHORTOPTS "+:46cDf:g:hil:m:n:p:P:qrsS:tTuvVw:x:"

static const struct option longopts[] = {
	{ "ipv4",     no_argument,       NULL, '4' },
	{ "ipv6",     no_argument,       NULL, '6' },
	{ "verify",   no_argument,       NULL, 'c' },
	{ "nodelay",  no_argument,       NULL, 'D' },
	{ "format",   required_argument, NULL, 'f' },
	{ "gap",      required_argument, NULL, 'g' },
	{ "help",     no_argument,       NULL, 'h' },
	{ "daemon",   no_argument,       NULL, 'i' },
	{ "length",   required_argument, NULL, 'l' },
	{ "count",    required_argument, NULL, 'n' },
	{ "port",     required_argument, NULL, 'p' },
	{ "receive",  no_argument,       NULL, 'r' },
	{ "stream",   no_argument,       NULL, 's' },
	{ "seed",     required_argument, NULL, 'S' },
	{ "transmit", no_argument,       NULL, 't' },
	{ "title",    no_argument,       NULL, 'T' },
	{ "udp",      no_argument,       NULL, 'u' },
	{ "verbose",  no_argument,       NULL, 'v' },
	{ "version",  no_argument,       NULL, 'V' },
	{ "window",   required_argument, NULL, 'w' },
	{ "bytes",    required_argument, NULL, 'x' },
	{ "link",     required_argument, NULL, OPT_LINK },
	{ "predict",  no_argument,       NULL, OPT_PREDICT },
	{ "mtu",      required_argument, NULL, OPT_MTU },
	{ "no-timestamps", no_argument,  NULL, OPT_NOTS },
	{ "vlan",     required_argument, NULL, OPT_VLAN },
	{ "pppoe",    no_argument,       NULL, OPT_PPPOE },
	{ "key-file", required_argument, NULL, OPT_KEY_FILE },
	{ "max-sessions", required_argument, NULL, OPT_MAX_SESSIONS },
	{ "max-per-source", required_argument, NULL, OPT_MAX_PER_SOURCE },
	{ "max-handshakes", required_argument, NULL, OPT_MAX_HANDSHAKES },
	{ "max-streams", required_argument, NULL, OPT_MAX_STREAMS },
	{ "parallel", required_argument, NULL, 'P' },
	{ "bidir",    no_argument,       NULL, OPT_BIDIR },
	{ "max-time", required_argument, NULL, OPT_MAX_TIME },
	{ "max-bytes", required_argument, NULL, OPT_MAX_BYTES },
	{ "max-buffer", required_argument, NULL, OPT_MAX_BUFFER },
	{ "max-rate", required_argument, NULL, OPT_MAX_RATE },
	{ "allow",    required_argument, NULL, OPT_ALLOW },
	{ "allow-cc", required_argument, NULL, OPT_ALLOW_CC },
	{ "user",     required_argument, NULL, OPT_USER },
	{ "once",     no_argument,       NULL, OPT_ONCE },
	{ "inetd",    no_argument,       NULL, OPT_INETD },
	{ "time",     required_argument, NULL, OPT_TIME },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "omit",     required_argument, NULL, OPT_OMIT },
	{ "cc",       required_argument, NULL, OPT_CC },
	{ "json",     no_argument,       NULL, OPT_JSON },
	{ "json-lines", no_argument,     NULL, OPT_JSON_LINES },
	{ "csv",      no_argument,       NULL, OPT_CSV },
	{ "prometheus", no_argument,     NULL, OPT_PROMETHEUS },
	{ "quiet",    no_argument,       NULL, 'q' },
	{ "rate",     required_argument, NULL, OPT_RATE },
	{ "burst",    required_argument, NULL, OPT_BURST },
	{ "log",      required_argument, NULL, OPT_LOG },
	{ "same-clock", no_argument,     NULL, OPT_SAME_CLOCK },
	{ "multicast", required_argument, NULL, 'm' },
	{ "ttl",      required_argument, NULL, OPT_TTL },
	{ "mport",    required_argument, NULL, OPT_MPORT },
	{ "no-multicast", no_argument,   NULL, OPT_NO_MCAST },
	{ "batch",    required_argument, NULL, OPT_BATCH },
	{ "gso",      no_argument,       NULL, OPT_GSO },
	{ "discard",  no_argument,       NULL, OPT_DISCARD },
	{ "affinity", required_argument, NULL, OPT_AFFINITY },
	{ "zerocopy", no_argument,       NULL, OPT_ZEROCOPY },
	{ "rtt",      required_argument, NULL, OPT_RTT },
	{ "loss",     required_argument, NULL, OPT_LOSS },
	{ "repeat",   required_argument, NULL, OPT_REPEAT },
	{ "pause",    required_argument, NULL, OPT_PAUSE },
	{ "ci",       required_argument, NULL, OPT_CI },
	{ "latency",  no_argument,       NULL, OPT_LATENCY },
	{ "latency-idle", required_argument, NULL, OPT_LAT_IDLE },
	{ "latency-interval", required_argument, NULL, OPT_LAT_INTERVAL },
	{ "queue-bytes", required_argument, NULL, OPT_QUEUE_BYTES },
	{ "ecn",      no_argument,       NULL, OPT_ECN },
	{ NULL, 0, NULL, 0 },
};

/* Options that may follow a partner name: they set the partner's side, and
 * -p its control port. */
static const char remote_ok[] = "cDfglnpPsSvwx";
/* Options each mode accepts besides its own; the rest are usage errors. */
static const char daemon_ok[] = "ipv";
static const char predict_ok[] = "46Dluvw";

const struct option *
cli_longopts(void)
{
	return longopts;
}

void
cli_usage(FILE *f)
{
	fputs("usage: gput [-46cDqrsTtuv] [-f format] [-g gap] [-l length] [-m group]\n"
	      "            [-n count] [-p port] [-P streams] [-S seed] [-w kbytes]\n"
	      "            [-x bytes] [--affinity cpus] [--batch n] [--bidir] [--burst n]\n"
	      "            [--cc algo[,algo ...]] [--ci level[,width]]\n"
	      "            [--csv | --json | --json-lines | --prometheus]\n"
	      "            [--discard] [--ecn] [--gso] [--interval s] [--key-file file]\n"
	      "            [--latency] [--latency-idle s] [--latency-interval ms]\n"
	      "            [--link rate] [--log file] [--loss pct] [--mport port]\n"
	      "            [--omit s] [--pause s] [--pppoe] [--queue-bytes size]\n"
	      "            [--rate rate] [--repeat n | min,max] [--rtt ms] [--same-clock]\n"
	      "            [--time s] [--ttl n] [--vlan tags] [--zerocopy]\n"
	      "            partner [remote options] ...\n"
	      "       gput -i [-v] [-p port] [--allow cidr] [--inetd] [--key-file file]\n"
	      "            [--max-buffer size] [--max-bytes size] [--max-handshakes n]\n"
	      "            [--max-per-source n] [--max-rate rate]\n"
	      "            [--max-sessions n] [--max-streams n] [--max-time s]\n"
	      "            [--no-multicast] [--once]\n"
	      "            [--allow-cc algo[,algo ...]] [--user name]\n"
	      "       gput --predict [-46Du] [-l length] [-w kbytes] [--link rate]\n"
	      "            [--loss pct] [--mtu mtu] [--no-timestamps] [--pppoe] [--rtt ms]\n"
	      "            [--vlan tags]\n"
	      "       gput -h | -V\n", f);
}

/* The name of option code o as a user typed it, for messages. */
static const char *
opt_name(int o, char *buf, size_t len)
{
	const struct option *lo;

	if (o < 256) {
		snprintf(buf, len, "-%c", o);
		return buf;
	}
	for (lo = longopts; lo->name != NULL; lo++)
		if (lo->val == o)
			break;
	snprintf(buf, len, "--%s", lo->name ? lo->name : "?");
	return buf;
}

/* --cc: one name, or a comma list the streams take in turn; every name
 * one this host offers. Returns 0, or -1 with why filled. */
static int
cc_list_check(const char *list, char *why, size_t len)
{
	char name[16];
	const char *p = list;

	if (strlen(list) >= XFER_CC_LIST) {
		snprintf(why, len, "a list of at most %d characters", XFER_CC_LIST - 1);
		return -1;
	}
	for (;;) {
		size_t n = strcspn(p, ",");

		if (n == 0 || n >= sizeof name) {
			snprintf(why, len, "an empty or overlong name in '%s'", list);
			return -1;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		if (tcpinfo_cc_check(name, why, len) == -1)
			return -1;
		if (p[n] == '\0')
			return 0;
		p += n + 1;
	}
}

struct parse_state {
	struct config *c;
	struct side_opts *s;
	uint16_t *rport;        /* remote: where -p goes (the partner's port) */
	uint16_t *rstreams;     /* remote: where -P goes (the partner's streams) */
	int remote;
	unsigned char seen[OPT_MAX];
	char *err;
	size_t errlen;
};

/* Prefix a value error with the option's name. */
static int
bad_value(struct parse_state *ps, int o, const char *why)
{
	char nm[32];

	snprintf(ps->err, ps->errlen, "%s: %s", opt_name(o, nm, sizeof nm), why);
	return -1;
}

/* -p: a control port, before the partners (theirs by default) or after one
 * (its own). */
static int
parse_port(struct parse_state *ps, const char *arg, uint16_t *port)
{
	char why[160];
	uint64_t v;

	if (units_parse_int(arg, 0, 65535, &v, why, sizeof why) == -1)
		return bad_value(ps, 'p', why);
	*port = (uint16_t)v;
	return 0;
}

/* -P: parallel streams, before the partners (everyone's) or after one
 * (its own). */
static int
parse_streams(struct parse_state *ps, const char *arg, uint16_t *streams)
{
	char why[160];
	uint64_t v;

	if (units_parse_int(arg, 1, STREAM_MAX, &v, why, sizeof why) == -1)
		return bad_value(ps, 'P', why);
	*streams = (uint16_t)v;
	return 0;
}

static int
parse_side_opt(struct parse_state *ps, int o, const char *arg)
{
	struct side_opts *s = ps->s;
	char why[160];
	uint64_t v;

	switch (o) {
	case 'c': s->verify = 1; return 0;
	case 'D': s->nodelay = 1; return 0;
	case 's': s->stream = 1; return 0;
	case 'v': s->verbose = 1; return 0;
	case OPT_GSO: s->gso = 1; return 0;
	case OPT_DISCARD: s->discard = 1; return 0;
	case OPT_ZEROCOPY: s->zerocopy = 1; return 0;
	case OPT_AFFINITY:
		if (affinity_parse(arg, &s->cpus, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		return 0;
	case OPT_BATCH:
		if (units_parse_int(arg, 1, XFER_BATCH_MAX, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		s->batch = (uint8_t)v;
		return 0;
	case 'S':
		if (*arg == '\0' || strlen(arg) > 256)
			return bad_value(ps, o, "seed must be 1 to 256 characters");
		s->seed = pattern_seed(arg);
		return 0;
	case 'f':
		if (report_check_format(arg, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		s->format = arg;
		return 0;
	case 'l':
		if (units_parse_size(arg, 1, XFER_TCP_MAX, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		s->len = (uint32_t)v;
		return 0;
	case 'n':
		if (units_parse_int(arg, 1, 1ULL << 62, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		s->count = v;
		s->total = 0;                   /* -n replaces an inherited -x */
		return 0;
	case 'x':
		if (units_parse_size(arg, 1, 1ULL << 62, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		s->total = v;
		return 0;
	case 'w':
		if (units_parse_kbytes(arg, 1, 1u << 20, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		s->window = (uint32_t)v;
		return 0;
	case 'g':
		if (units_parse_int(arg, 0, 10000000, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		s->gap_us = (uint32_t)v;
		return 0;
	}
	return 1;                               /* not a per-side option */
}

/* Seconds with up to three decimals ("2.5") into ms, in [min_ms, a day].
 * Returns 0, or -1 with err filled. */
static int
parse_seconds(const char *s, uint64_t min_ms, uint64_t *ms, char *err,
              size_t errlen)
{
	uint64_t whole = 0, frac = 0, scale = 100;
	const char *p = s;

	if (*p < '0' || *p > '9') {
		snprintf(err, errlen, "'%s' is not a number of seconds", s);
		return -1;
	}
	for (; *p >= '0' && *p <= '9' && whole <= CTL_MAX_MS; p++)
		whole = whole * 10 + (uint64_t)(*p - '0');
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10) {
			if (scale == 0) {
				snprintf(err, errlen, "'%s': at most three decimals "
				         "(milliseconds)", s);
				return -1;
			}
			frac += (uint64_t)(*p - '0') * scale;
		}
	}
	if (*p != '\0') {
		snprintf(err, errlen, "'%s' is not a number of seconds", s);
		return -1;
	}
	*ms = whole * 1000 + frac;
	if (whole > CTL_MAX_MS / 1000 || *ms > CTL_MAX_MS || *ms < min_ms) {
		snprintf(err, errlen, "'%s': from %.3g s to %u s", s, min_ms / 1e3,
		         CTL_MAX_MS / 1000);
		return -1;
	}
	return 0;
}

/* The partner's own options (gput -i). */
static int
parse_partner_opt(struct parse_state *ps, int o, const char *arg)
{
	struct config *c = ps->c;
	struct partner_limits *l = &c->lim;
	char why[160];
	uint64_t v;

	switch (o) {
	case OPT_ONCE: c->once = 1; return 0;
	case OPT_INETD: c->inetd = 1; return 0;
	case OPT_NO_MCAST: c->no_multicast = 1; return 0;
	case OPT_USER:
		if (*arg == '\0')
			return bad_value(ps, o, "empty user name");
		c->user = arg;
		return 0;
	case OPT_ALLOW:
		if (acl_add(&c->allow, arg, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		return 0;
	case OPT_ALLOW_CC:              /* each one this host offers */
		if (cc_list_check(arg, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		c->allow_cc = arg;
		return 0;
	case OPT_MAX_SESSIONS:
		if (units_parse_int(arg, 1, 1024, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		l->max_sessions = (unsigned)v;
		return 0;
	case OPT_MAX_PER_SOURCE:
		if (units_parse_int(arg, 1, 1024, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		l->max_per_source = (unsigned)v;
		return 0;
	case OPT_MAX_HANDSHAKES:
		if (units_parse_int(arg, 1, 1024, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		l->max_handshakes = (unsigned)v;
		return 0;
	case OPT_MAX_STREAMS:
		if (units_parse_int(arg, 1, STREAM_MAX, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		l->max_streams = (unsigned)v;
		return 0;
	case OPT_MAX_TIME:
		if (units_parse_int(arg, 1, 86400, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		l->max_time_s = (unsigned)v;
		return 0;
	case OPT_MAX_BYTES:
		if (units_parse_size(arg, 0, 1ULL << 62, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		l->max_bytes = v;
		return 0;
	case OPT_MAX_BUFFER:
		if (units_parse_size(arg, 1, XFER_TCP_MAX, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		l->max_buffer = (uint32_t)v;
		return 0;
	case OPT_MAX_RATE:
		if (strcmp(arg, "0") == 0) {
			l->max_rate = 0;
			return 0;
		}
		if (units_parse_rate(arg, 1e3, 1e13, &l->max_rate, why,
		    sizeof why) == -1)
			return bad_value(ps, o, why);
		return 0;
	}
	return bad_value(ps, o, "unknown option");
}

/* --loss: a percentage ("1", "0.5%"), above 0 and at most 100. Returns 0,
 * or -1 with why filled. */
static int
parse_percent(const char *arg, double *pct, char *why, size_t len)
{
	char num[32];
	size_t n = strlen(arg);

	if (n > 0 && arg[n - 1] == '%')
		n--;
	if (n < sizeof num) {
		memcpy(num, arg, n);
		num[n] = '\0';
	}
	if (n >= sizeof num || units_parse_decimal(num, 0, 1e6, pct, why,
	    len) == -1) {
		snprintf(why, len, "'%s' is not a percentage (1 or 1%% is a loss "
		         "of one segment in 100)", arg);
		return -1;
	}
	if (*pct > 100) {
		snprintf(why, len, "'%s' is out of range (above 0 to 100%%)", arg);
		return -1;
	}
	if (*pct == 0) {
		snprintf(why, len, "'%s': a loss above 0%% (the bound of no loss "
		         "is the link's)", arg);
		return -1;
	}
	return 0;
}

/* An option of -m's: which is 'm' (-m group: also makes the test UDP),
 * 't' (--ttl n) or 'p' (--mport port). Returns 0, or -1 with why filled. */
static int
parse_mcast_opt(struct config *c, int which, const char *arg, char *why,
                size_t len)
{
	uint64_t v;

	switch (which) {
	case 'm':
		if (mcast_parse(arg, &c->mcast, why, len) == -1)
			return -1;
		c->proto = PROTO_UDP;           /* a group takes datagrams */
		return 0;
	case 't':
		if (units_parse_int(arg, 1, 255, &v, why, len) == -1)
			return -1;
		c->mcast.ttl = (uint8_t)v;
		return 0;
	default:
		if (units_parse_int(arg, MCAST_MIN_PORT, 65535, &v, why, len) == -1)
			return -1;
		c->mcast.port = (uint16_t)v;
		return 0;
	}
}

static int
parse_global_opt(struct parse_state *ps, int o, const char *arg)
{
	struct config *c = ps->c;
	char why[160];
	uint64_t v;
	double d;

	switch (o) {
	case '4': c->family = AF_INET; return 0;
	case '6': c->family = AF_INET6; return 0;
	case 'h': c->mode = MODE_HELP; return 0;
	case 'V': c->mode = MODE_VERSION; return 0;
	case 'i': c->mode = MODE_DAEMON; return 0;
	case OPT_PREDICT: c->mode = MODE_PREDICT; return 0;
	case 'r': c->role = ROLE_RECV; return 0;
	case 't': c->role = ROLE_SEND; return 0;
	case 'T': c->title = 1; return 0;
	case 'u': c->proto = PROTO_UDP; return 0;
	case OPT_NOTS: c->no_ts = 1; return 0;
	case OPT_PPPOE: c->pppoe = 1; return 0;
	case OPT_VLAN:
		if (units_parse_int(arg, 0, 8, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		c->vlan_tags = (unsigned)v;
		return 0;
	case 'p':
		c->port_set = 1;
		return parse_port(ps, arg, &c->port);
	case OPT_MTU:
		if (units_parse_int(arg, 68, 65535, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		c->mtu = (unsigned)v;
		c->mtu_set = 1;
		return 0;
	case OPT_LINK:
		if (units_parse_rate(arg, UNITS_RATE_MIN, UNITS_RATE_MAX,
		    &c->link_bps, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		return 0;
	case OPT_RTT:
		if (units_parse_decimal(arg, 0.001, 600000, &d, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		c->rtt_s = d / 1e3;
		return 0;
	case OPT_LOSS:
		if (parse_percent(arg, &d, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		c->loss = d / 100;
		return 0;
	case OPT_KEY_FILE: c->key_file = arg; return 0;
	case 'q': c->quiet = 1; return 0;
	case OPT_JSON: c->out = OUT_JSON; return 0;
	case OPT_JSON_LINES: c->out = OUT_JSON_LINES; return 0;
	case OPT_CSV: c->out = OUT_CSV; return 0;
	case OPT_PROMETHEUS: c->out = OUT_PROM; return 0;
	case OPT_SAME_CLOCK: c->same_clock = 1; return 0;
	case OPT_LATENCY: c->latency = 1; return 0;
	case OPT_LAT_IDLE:
		if (parse_seconds(arg, 0, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		if (v > CTL_LAT_MAX_IDLE_MS)
			return bad_value(ps, o, "at most 60 seconds");
		c->lat_idle_ms = (uint32_t)v;
		return 0;
	case OPT_LAT_INTERVAL:
		if (units_parse_int(arg, CTL_LAT_MIN_US / 1000, CTL_LAT_MAX_US / 1000,
		    &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		c->lat_interval_us = (uint32_t)v * 1000u;
		return 0;
	case OPT_QUEUE_BYTES:
		if (units_parse_size(arg, 1, UINT32_MAX, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		c->queue_bytes = v;
		return 0;
	case 'm':
	case OPT_TTL:
	case OPT_MPORT:
		if (parse_mcast_opt(c, o == 'm' ? 'm' : o == OPT_TTL ? 't' : 'p',
		    arg, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		return 0;
	case OPT_LOG:
		if (*arg == '\0')
			return bad_value(ps, o, "empty file name");
		c->log_file = arg;
		return 0;
	case OPT_RATE:
		if (units_parse_rate(arg, UNITS_RATE_MIN, UNITS_RATE_MAX, &c->rate_bps,
		    why, sizeof why) == -1)
			return bad_value(ps, o, why);
		return 0;
	case OPT_BURST:
		if (units_parse_int(arg, 1, XFER_MAX_BURST, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		c->burst = (uint32_t)v;
		return 0;
	case OPT_CC:
		if (cc_list_check(arg, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		c->cc = arg;
		return 0;
	case OPT_BIDIR:
		c->bidir = 1;
		return 0;
	case OPT_ECN:
		c->ecn = 1;
		return 0;
	case 'P':
		return parse_streams(ps, arg, &c->streams);
	case OPT_REPEAT:
		if (repeat_parse_count(arg, &c->rep, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		return 0;
	case OPT_CI:
		if (repeat_parse_ci(arg, &c->rep, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		return 0;
	case OPT_PAUSE:
		if (parse_seconds(arg, 0, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		c->rep.pause_ms = (uint32_t)v;
		c->rep.pause_set = 1;
		return 0;
	case OPT_TIME:
	case OPT_INTERVAL:
	case OPT_OMIT:
		if (parse_seconds(arg, o == OPT_INTERVAL ? CTL_MIN_INTERVAL_MS : o ==
		    OPT_TIME ? 1 : 0, &v, why, sizeof why) == -1)
			return bad_value(ps, o, why);
		*(o == OPT_TIME ? &c->duration_ms : o == OPT_INTERVAL ?
		    &c->interval_ms : &c->omit_ms) = (uint32_t)v;
		return 0;
	}
	return parse_partner_opt(ps, o, arg);
}

/* Parse argv[0..argc) (argv[0] is a placeholder). Returns the index of the
 * first operand, or -1 with err filled. */
static int
parse_opts(struct parse_state *ps, int argc, char **argv)
{
	char nm[32];
	int o, li;

	optind = 0;                             /* GNU: fully reinitialise */
	opterr = 0;
	while ((o = getopt_long(argc, argv, SHORTOPTS, longopts, &li)) != -1) {
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
		if (ps->remote && (o >= 256 ? !IS_SIDE_OPT(o) :
		    strchr(remote_ok, o) == NULL)) {
			snprintf(ps->err, ps->errlen, "%s must come before the partner "
			         "name (it applies to both sides)", opt_name(o, nm, sizeof nm));
			return -1;
		}
		ps->seen[o] = 1;
		if (ps->remote && o == 'p') {   /* this partner's control port */
			if (parse_port(ps, optarg, ps->rport) == -1)
				return -1;
			continue;
		}
		if (ps->remote && o == 'P') {   /* this partner's streams */
			if (parse_streams(ps, optarg, ps->rstreams) == -1)
				return -1;
			continue;
		}
		switch (parse_side_opt(ps, o, optarg)) {
		case -1: return -1;
		case 0:  continue;
		}
		if (parse_global_opt(ps, o, optarg) == -1)
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
	struct parse_state ps;
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

/* --rtt and --loss: TCP's limits across a path (--link, --predict). */
static int
check_path(const struct config *c, const unsigned char *seen, char *err,
           size_t errlen)
{
	const char *why = NULL;

	if (seen[OPT_LOSS] && !seen[OPT_RTT])
		why = "--loss needs --rtt (the Mathis bound is segments per RTT)";
	else if (seen[OPT_RTT] && c->proto == PROTO_UDP)
		why = "--rtt and --loss model TCP's window and loss recovery: no "
		      "meaning with -u";
	if (why == NULL)
		return 0;
	snprintf(err, errlen, "%s", why);
	return -1;
}

/* Options given that the chosen mode does not take. */
static int
check_mode(const struct config *c, const unsigned char *seen, char *err,
           size_t errlen)
{
	const char *ok = c->mode == MODE_DAEMON ? daemon_ok : predict_ok;
	char nm[32];
	int o;

	for (o = OPT_MAX_SESSIONS; o < OPT_MAX && c->mode != MODE_DAEMON; o++) {
		if (seen[o] && IS_PARTNER_OPT(o) && c->mode != MODE_HELP &&
		    c->mode != MODE_VERSION) {
			snprintf(err, errlen, "%s only applies to the partner (-i)",
			         opt_name(o, nm, sizeof nm));
			return -1;
		}
	}
	if (c->mode == MODE_CLIENT) {
		if (seen[OPT_MTU] || seen[OPT_NOTS]) {
			snprintf(err, errlen, "%s only applies to --predict",
			         opt_name(seen[OPT_MTU] ? OPT_MTU : OPT_NOTS, nm, sizeof nm));
			return -1;
		}
		/* the framing of the link only matters for a prediction */
		if ((seen[OPT_VLAN] || seen[OPT_PPPOE]) && c->link_bps == 0) {
			snprintf(err, errlen, "%s only applies with --link or --predict",
			         opt_name(seen[OPT_VLAN] ? OPT_VLAN : OPT_PPPOE, nm, sizeof nm));
			return -1;
		}
		if ((seen[OPT_RTT] || seen[OPT_LOSS]) && c->link_bps == 0) {
			snprintf(err, errlen, "%s only applies with --link or --predict",
			         opt_name(seen[OPT_RTT] ? OPT_RTT : OPT_LOSS, nm, sizeof nm));
			return -1;
		}
		return check_path(c, seen, err, errlen);
	}
	if (c->mode != MODE_DAEMON && c->mode != MODE_PREDICT)
		return 0;
	for (o = 0; o < OPT_MAX; o++) {
		if (!seen[o] || o == 'i' || o == OPT_PREDICT)
			continue;
		if (c->mode == MODE_PREDICT && (o == OPT_MTU || o == OPT_NOTS ||
		    o == OPT_LINK || o == OPT_VLAN || o == OPT_PPPOE ||
		    o == OPT_RTT || o == OPT_LOSS))
			continue;
		if (c->mode == MODE_DAEMON && (IS_PARTNER_OPT(o) ||
		    o == OPT_KEY_FILE))
			continue;
		if (o < 256 && strchr(ok, o) != NULL)
			continue;
		snprintf(err, errlen, "%s has no meaning with %s", opt_name(o, nm,
		         sizeof nm), c->mode == MODE_DAEMON ? "-i" : "--predict");
		return -1;
	}
	if (c->mode == MODE_PREDICT && seen['w'] && !seen[OPT_RTT]) {
		snprintf(err, errlen, "-w with --predict needs --rtt (a window "
		         "limits goodput to window/RTT)");
		return -1;
	}
	return c->mode == MODE_PREDICT ? check_path(c, seen, err, errlen) : 0;
}

/* --time, --interval, --omit, --cc and the output formats together. */
static int
check_timing(const struct config *c, const unsigned char *seen, char *err,
             size_t errlen)
{
	const char *why = NULL;

	if (c->duration_ms && (seen['n'] || seen['x']))
		why = "--time and -n/-x cannot be used together";
	else if (c->duration_ms && c->omit_ms >= c->duration_ms)
		why = "--omit must be shorter than --time";
	else if (c->omit_ms && c->interval_ms && c->omit_ms % c->interval_ms)
		why = "--omit must be a whole number of --interval";
	else if (c->cc && c->proto == PROTO_UDP)
		why = "--cc applies to TCP only";
	else if (c->streams > 1 && c->log_file)
		why = "--log records one stream: it cannot be used with -P";
	else if (c->streams > 1 && c->link_bps > 0)
		why = "--link describes one connection: it cannot be used with -P";
	else if (c->rate_bps > 0 && (seen['g']))
		why = "--rate and -g cannot be used together";
	else if (c->burst > 1 && c->rate_bps == 0 && !seen['g'])
		why = "--burst needs --rate or -g";
	else if (c->log_file && c->role != ROLE_RECV)
		why = "--log writes what the local side receives: use it with -r";
	else if (c->log_file && c->proto != PROTO_UDP)
		why = "--log applies to UDP only";
	else if (c->same_clock && c->proto != PROTO_UDP && !c->latency)
		why = "--same-clock applies to UDP or --latency";
	else if ((seen[OPT_LAT_IDLE] || seen[OPT_LAT_INTERVAL] ||
	    seen[OPT_QUEUE_BYTES]) && !c->latency)
		why = "--latency-idle, --latency-interval and --queue-bytes need "
		      "--latency";
	else if (c->latency && c->duration_ms == 0)
		why = "--latency needs --time (the probes' memory is sized by the "
		      "run's length)";
	else if (c->latency && c->mcast.family != 0)
		why = "--latency probes a partner that echoes: not with -m";
	else if (c->latency && c->bidir)
		why = "--latency probes one test: not with --bidir";
	else if (c->latency && ((uint64_t)c->lat_idle_ms + c->duration_ms +
	    LAT_SLACK_MS) * 1000u / c->lat_interval_us > LAT_MAX_PROBES)
		why = "--latency: more than 1000000 probes; raise "
		      "--latency-interval or shorten --time";
	else if (seen[OPT_QUEUE_BYTES] && c->link_bps == 0)
		why = "--queue-bytes needs --link (the queue drains at its rate)";
	else if (c->ecn && c->mcast.family != 0)
		why = "--ecn: not with -m (a group's receivers report no ECN)";
	else if ((seen[OPT_BATCH] || seen[OPT_GSO]) && c->proto != PROTO_UDP)
		why = "--batch and --gso apply to UDP only";
	else if (c->out != OUT_TABLE && (seen['f'] || seen['T']))
		why = "-f and -T shape the table: no meaning with --csv, --json, "
		      "--json-lines or --prometheus";
	else if ((seen[OPT_JSON] + seen[OPT_JSON_LINES] + seen[OPT_CSV] +
	    seen[OPT_PROMETHEUS]) > 1)
		why = "--csv, --json, --json-lines and --prometheus cannot be used "
		      "together";
	if (why == NULL)
		return 0;
	snprintf(err, errlen, "%s", why);
	return -1;
}

/* Options that describe one connection or write one file: refused with
 * several partners rather than reported for one of them. */
static int
check_partners(const struct config *c, char *err, size_t errlen)
{
	const char *why = NULL;

	if (c->npartners < 2)
		return 0;
	if (c->link_bps > 0)
		why = "--link predicts one connection on a link of its own: give "
		      "one partner";
	else if (c->log_file != NULL)
		why = "--log writes one partner's datagrams: give one partner";
	else if (c->latency)
		why = "--latency probes one partner: give one partner";
	else if (c->out == OUT_PROM)
		why = "--prometheus describes one test: give one partner, without "
		      "--bidir";
	if (why == NULL)
		return 0;
	snprintf(err, errlen, "%s", why);
	return -1;
}

/* Cross-option checks once both sides of the test with partner p are
 * known. */
static int
check_side_pair(const struct config *c, const struct partner *p, char *err,
                size_t errlen)
{
	const struct side_opts *snd = cli_role(c, p) == ROLE_SEND ? &c->loc :
	    &p->rem;

	if (p->port == 0) {
		snprintf(err, errlen, "-p: port 0 only makes sense with -i");
		return -1;
	}
	if ((c->loc.discard && c->loc.verify) || (p->rem.discard && p->rem.verify)) {
		snprintf(err, errlen, "--discard and -c cannot be used together "
		         "(-c checks the data that --discard drops)");
		return -1;
	}
	if ((c->loc.zerocopy || p->rem.zerocopy) && c->proto != PROTO_TCP) {
		snprintf(err, errlen, "--zerocopy applies to TCP only");
		return -1;
	}
	if ((c->loc.zerocopy && c->loc.discard) ||
	    (p->rem.zerocopy && p->rem.discard)) {
		snprintf(err, errlen, "--zerocopy and --discard cannot be used "
		         "together (--discard receives no data to map)");
		return -1;
	}
	if (c->proto == PROTO_UDP && snd->len > XFER_UDP_MAX) {
		snprintf(err, errlen, "-l: a UDP datagram carries at most %u bytes",
		         XFER_UDP_MAX);
		return -1;
	}
	if (snd->total == 0 && snd->count > (1ULL << 62) / snd->len) {
		snprintf(err, errlen, "-n times -l is too large");
		return -1;
	}
	return 0;
}

/* --affinity before the partners: CPUs this process may run on (the
 * partner checks its own). */
static int
check_local_cpus(const struct config *c, char *err, size_t errlen)
{
	char have[192];
	int miss = affinity_unavailable(c->loc.cpus, have, sizeof have);

	if (miss == -1)
		return 0;
	snprintf(err, errlen, "--affinity: CPU %d is not available here (this "
	         "process may run on %s)", miss, have);
	return -1;
}

/* The options -m cannot be used with, and --ttl or --mport without it. */
static int
check_mcast(const struct config *c, char *err, size_t errlen)
{
	const char *why = NULL;

	if (c->mcast.family == 0) {
		if (c->mcast.ttl == 0 && c->mcast.port == 0)
			return 0;
		why = "--ttl and --mport need -m";
	} else if (c->role == ROLE_RECV) {
		why = "-m: only the local side sends to a group, so it cannot be "
		      "used with -r";
	} else if ((c->family == AF_INET && c->mcast.family == MCAST_V6) ||
	    (c->family == AF_INET6 && c->mcast.family == MCAST_V4)) {
		why = "-m: the group's address family disagrees with -4/-6";
	} else if (c->streams > 1) {
		why = "-m sends one stream: it cannot be used with -P";
	} else if (c->duration_ms || c->interval_ms || c->omit_ms) {
		why = "-m: --time, --interval and --omit are not supported with "
		      "multicast";
	} else if (c->out != OUT_TABLE) {
		why = "-m prints the table: --csv, --json, --json-lines and "
		      "--prometheus are not supported with multicast";
	} else if (c->link_bps > 0) {
		why = "-m: --link predicts one connection, not a group";
	}
	if (why == NULL)
		return 0;
	snprintf(err, errlen, "%s", why);
	return -1;
}

/* --repeat, --pause and --ci together with the rest of c (--pause and --ci
 * need --repeat; one partner; no --log). Sets the default target width for
 * MIN,MAX. */
static int
check_repeat(struct config *c, char *err, size_t errlen)
{
	const char *why = NULL;

	if (c->rep.max == 0) {
		if (c->rep.pause_set || c->rep.ci_set)
			why = c->rep.ci_set ? "--ci needs --repeat" :
			    "--pause needs --repeat";
	} else if (c->npartners > 1 || c->mcast.family != 0) {
		why = "--repeat runs one partner's test: give one partner, no -m "
		      "or --bidir";
	} else if (c->log_file != NULL) {
		why = "--log writes one run's datagrams: it cannot be used with "
		      "--repeat";
	} else if (c->out == OUT_PROM) {
		why = "--prometheus describes one run: it cannot be used with "
		      "--repeat";
	}
	if (why != NULL) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	if (c->rep.max > c->rep.min && !c->rep.width_set)
		c->rep.width_pct = REPEAT_WIDTH;
	return 0;
}

static int
check_client(const struct config *c, char *err, size_t errlen)
{
	unsigned i;

	if (c->npartners == 0) {
		snprintf(err, errlen, "no partner host given (start the partner "
		         "with gput -i)");
		return -1;
	}
	for (i = 0; i < c->npartners; i++) {
		if (check_side_pair(c, &c->partners[i], err, errlen) == -1)
			return -1;
		if (c->mcast.family != 0 && c->partners[i].streams > 1) {
			snprintf(err, errlen, "-m sends one stream: it cannot be used "
			         "with -P");            /* -P after a partner's name */
			return -1;
		}
	}
	if (check_local_cpus(c, err, errlen) == -1)
		return -1;
	return check_partners(c, err, errlen);
}

/* One partner: its name at argv[*at], then its remote options, into a new
 * entry that starts from base. Returns 0 with *at past them, or -1. */
static int
parse_partner(struct config *c, const struct partner *base, int argc,
              char **argv, int *at, unsigned char *seen, char *err,
              size_t errlen)
{
	struct partner *p;
	char **v;
	int n, first;

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
	first = parse_pass(c, &p->rem, &p->port, &p->streams, n, v, seen, err,
	    errlen);
	if (first == -1)
		return -1;
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
	c->lim.max_handshakes = PARTNER_MAX_HANDSHAKES;
	c->lim.max_streams = PARTNER_MAX_STREAMS;
	c->streams = 1;
	c->lat_idle_ms = LAT_DEFAULT_IDLE_MS;
	c->lat_interval_us = LAT_DEFAULT_INTERVAL_US;
	c->lim.max_time_s = PARTNER_MAX_TIME_S;
	c->lim.max_buffer = PARTNER_MAX_BUFFER;
	c->mtu = 1500;
	repeat_defaults(&c->rep);
	side_defaults(&c->loc);
	err[0] = '\0';
	/* iperf's habits first: "-t 10 host" must not test a partner "10" */
	if (cli_hint(argc, argv, SHORTOPTS, longopts, err, errlen))
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
	if (c->mode != MODE_CLIENT && c->host != NULL &&
	    c->mode != MODE_HELP && c->mode != MODE_VERSION) {
		snprintf(err, errlen, "%s takes no partner host",
		         c->mode == MODE_DAEMON ? "-i" : "--predict");
		return -1;
	}
	if (check_mode(c, seen, err, errlen) == -1)
		return -1;
	if (c->mode == MODE_DAEMON && c->inetd && (c->once || c->port_set)) {
		snprintf(err, errlen, "--inetd serves the connection on standard "
		         "input: %s has no meaning with it", c->once ? "--once" : "-p");
		return -1;
	}
	if (c->mode == MODE_PREDICT && c->pppoe && !c->mtu_set)
		c->mtu = 1492;              /* 1500 less the 8 bytes of PPPoE */
	if (c->mode == MODE_PREDICT && c->proto == PROTO_UDP &&
	    c->loc.len > XFER_UDP_MAX) {
		snprintf(err, errlen, "-l: a UDP datagram carries at most %u bytes",
		         XFER_UDP_MAX);
		return -1;
	}
	if (c->mode == MODE_CLIENT && (check_timing(c, seen, err, errlen) == -1 ||
	    check_mcast(c, err, errlen) == -1))
		return -1;
	if (c->mode == MODE_CLIENT && check_client(c, err, errlen) == -1)
		return -1;
	return c->mode == MODE_CLIENT ? check_repeat(c, err, errlen) : 0;
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
