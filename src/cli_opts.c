/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_opts.c: the table of the command line's options and their names. */
#include "cli_opts.h"

#include <getopt.h>
#include <stdio.h>

const struct option cli_opts_long[] = {
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
	{ "source-prefix", required_argument, NULL, OPT_SOURCE_PREFIX },
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
	{ "full-reads", no_argument,     NULL, OPT_FULL_READS },
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
	{ "start-at", required_argument, NULL, OPT_START_AT },
	{ "sliding-window", required_argument, NULL, OPT_SWIN },
	{ "rto",      required_argument, NULL, OPT_RTO },
	{ "retries",  required_argument, NULL, OPT_RETRIES },
	{ "go-back-n", no_argument,      NULL, OPT_GBN },
	{ NULL, 0, NULL, 0 },
};

/* The name of option code o as a user typed it, for messages. */
const char *
cli_opt_name(int o, char *buf, size_t len)
{
	const struct option *lo;

	if (o < 256) {
		snprintf(buf, len, "-%c", o);
		return buf;
	}
	for (lo = cli_opts_long; lo->name != NULL; lo++)
		if (lo->val == o)
			break;
	snprintf(buf, len, "--%s", lo->name ? lo->name : "?");
	return buf;
}

/* Prefix a value error with the option's name. */
int
cli_bad_value(struct cli_state *ps, int o, const char *why)
{
	char nm[32];

	snprintf(ps->err, ps->errlen, "%s: %s", cli_opt_name(o, nm, sizeof nm),
	         why);
	return -1;
}
