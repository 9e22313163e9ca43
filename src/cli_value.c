/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_value.c: each option's value, checked, into the config. */
#include "cli_value.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "affinity.h"
#include "cli_mcast.h"
#include "cli_repeat.h"
#include "pattern.h"
#include "wire_ctl.h"
#include "report.h"
#include "startat.h"
#include "swin.h"
#include "tcpinfo.h"
#include "units.h"
#include "xfer_params.h"

int
cli_value_cc(const char *list, char *why, size_t len)
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

int
cli_value_port(struct cli_state *ps, const char *arg, uint16_t *port)
{
	char why[160];
	uint64_t v;

	if (units_parse_int(arg, 0, 65535, &v, why, sizeof why) == -1)
		return cli_bad_value(ps, 'p', why);
	*port = (uint16_t)v;
	return 0;
}

int
cli_value_streams(struct cli_state *ps, const char *arg,
                  uint16_t *streams)
{
	char why[160];
	uint64_t v;

	if (units_parse_int(arg, 1, STREAM_MAX, &v, why, sizeof why) == -1)
		return cli_bad_value(ps, 'P', why);
	*streams = (uint16_t)v;
	return 0;
}

int
cli_value_side(struct cli_state *ps, int o, const char *arg)
{
	struct side_opts *s = ps->s;
	char why[160];
	uint64_t v;

	switch (o) {
	case OPT_AFFINITY:
		if (affinity_parse(arg, &s->cpus, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		return 0;
	case 'S':
		if (*arg == '\0' || strlen(arg) > 256)
			return cli_bad_value(ps, o, "seed must be 1 to 256 characters");
		s->seed = pattern_seed(arg);
		return 0;
	case 'f':
		if (report_check_format(arg, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		s->format = arg;
		return 0;
	case 'n':
		if (units_parse_int(arg, 1, 1ULL << 62, &v, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		s->count = v;
		s->total = 0;                   /* -n replaces an inherited -x */
		return 0;
	case 'w':
		if (units_parse_kbytes(arg, 1, 1u << 20, &v, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		s->window = (uint32_t)v;
		return 0;
	}
	return cli_bad_value(ps, o, "unknown option");
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

/* The link and the path (--predict, --link): --mtu, --no-timestamps, --vlan,
 * --pppoe, --link, --rtt, --loss. 1: o is not one of them. */
static int
value_path(struct cli_state *ps, int o, const char *arg)
{
	struct config *c = ps->c;
	char why[160];
	uint64_t v;
	double d;

	switch (o) {
	case OPT_MTU:
		if (units_parse_int(arg, 68, 65535, &v, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		c->mtu = (unsigned)v;
		c->mtu_set = 1;
		return 0;
	case OPT_LINK:
		if (units_parse_rate(arg, UNITS_RATE_MIN, UNITS_RATE_MAX,
		    &c->link_bps, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		return 0;
	case OPT_RTT:
		if (units_parse_decimal(arg, 0.001, 600000, &d, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		c->rtt_s = d / 1e3;
		return 0;
	case OPT_LOSS:
		if (parse_percent(arg, &d, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		c->loss = d / 100;
		return 0;
	}
	return 1;
}

/* --latency and its options, --same-clock. 1: o is not one of them. */
static int
value_latency(struct cli_state *ps, int o, const char *arg)
{
	struct config *c = ps->c;
	char why[160];
	uint64_t v;

	switch (o) {
	case OPT_LAT_IDLE:
		if (parse_seconds(arg, 0, &v, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		if (v > CTL_LAT_MAX_IDLE_MS)
			return cli_bad_value(ps, o, "at most 60 seconds");
		c->lat_idle_ms = (uint32_t)v;
		return 0;
	case OPT_LAT_INTERVAL:
		if (units_parse_int(arg, CTL_LAT_MIN_US / 1000, CTL_LAT_MAX_US / 1000,
		    &v, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		c->lat_interval_us = (uint32_t)v * 1000u;
		return 0;
	}
	return 1;
}

/* How long and how fast: --time, --interval, --omit, --rate, --burst,
 * --repeat, --ci, --pause. 1: o is not one of them. */
static int
value_timing(struct cli_state *ps, int o, const char *arg)
{
	struct config *c = ps->c;
	char why[160];
	uint64_t v;

	switch (o) {
	case OPT_RATE:
		if (units_parse_rate(arg, UNITS_RATE_MIN, UNITS_RATE_MAX, &c->rate_bps,
		    why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		return 0;
	case OPT_REPEAT:
		if (repeat_parse_count(arg, &c->rep, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		return 0;
	case OPT_CI:
		if (repeat_parse_ci(arg, &c->rep, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		return 0;
	case OPT_PAUSE:
		if (parse_seconds(arg, 0, &v, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		c->rep.pause_ms = (uint32_t)v;
		c->rep.pause_set = 1;
		return 0;
	case OPT_START_AT:
		if (startat_parse(arg, startat_now(), &c->start_at_ns, why,
		    sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		return 0;
	case OPT_TIME:
	case OPT_INTERVAL:
	case OPT_OMIT:
		if (parse_seconds(arg, o == OPT_INTERVAL ? CTL_MIN_INTERVAL_MS : o ==
		    OPT_TIME ? 1 : 0, &v, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		*(o == OPT_TIME ? &c->duration_ms : o == OPT_INTERVAL ?
		    &c->interval_ms : &c->omit_ms) = (uint32_t)v;
		return 0;
	}
	return 1;
}

int
cli_value_global(struct cli_state *ps, int o, const char *arg)
{
	struct config *c = ps->c;
	char why[160];
	int r;

	switch (o) {
	case 'p':                       /* after a partner's name: its own */
		if (ps->remote)
			return cli_value_port(ps, arg, ps->rport);
		c->port_set = 1;
		return cli_value_port(ps, arg, &c->port);
	case OPT_KEY_FILE: c->key_file = arg; return 0;
	case 'm':
	case OPT_TTL:
	case OPT_MPORT:
		if (cli_mcast_opt(c, o == 'm' ? 'm' : o == OPT_TTL ? 't' : 'p',
		    arg, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		return 0;
	case OPT_LOG:
		if (*arg == '\0')
			return cli_bad_value(ps, o, "empty file name");
		c->log_file = arg;
		return 0;
	case OPT_CC:
		if (cli_value_cc(arg, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		c->cc = arg;
		return 0;
	case 'P':                       /* after a partner's name: its own */
		return cli_value_streams(ps, arg, ps->remote ? ps->rstreams :
		    &c->streams);
	}
	if ((r = value_path(ps, o, arg)) != 1 ||
	    (r = value_latency(ps, o, arg)) != 1)
		return r;
	if ((r = value_timing(ps, o, arg)) != 1)
		return r;
	return cli_bad_value(ps, o, "unknown option");
}
