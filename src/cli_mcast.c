/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_mcast.c: -m, --ttl and --mport into the config, and their checks. */
#include "cli_mcast.h"

#include <stdio.h>
#include <sys/socket.h>

#include "mcast.h"
#include "units.h"

/* An option of -m's: which is 'm' (-m group: also makes the test UDP),
 * 't' (--ttl n) or 'p' (--mport port). Returns 0, or -1 with why filled. */
int
cli_mcast_opt(struct config *c, int which, const char *arg, char *why,
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

/* The options -m cannot be used with, and --ttl or --mport without it. */
int
cli_mcast_check(const struct config *c, char *err, size_t errlen)
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
