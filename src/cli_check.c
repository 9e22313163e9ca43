/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_check.c: the command line's options checked together. */
#include "cli_check.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "affinity.h"
#include "cli_mcast.h"
#include "cli_opts.h"
#include "cli_params.h"
#include "wire_udp.h"
#include "xfer_params.h"

/* Options each mode accepts besides its own; the rest are usage errors. */
static const char daemon_ok[] = "ipv";
static const char predict_ok[] = "46Dlnuvw";

/* --rtt and --loss: TCP's limits across a path (--link, --predict). */
static int
check_path(const struct config *c, const unsigned char *seen, char *err,
           size_t errlen)
{
	const char *why = NULL;

	if (seen[OPT_LOSS] && !seen[OPT_RTT])
		why = "--loss needs --rtt (the Mathis bound is segments per RTT)";
	else if (seen[OPT_LOSS] && c->proto == PROTO_UDP)
		why = "--loss models TCP's loss recovery: no meaning with -u";
	else if (seen[OPT_RTT] && c->proto == PROTO_UDP && c->swin == 0)
		why = "--rtt with -u needs --sliding-window (the window it limits); "
		      "--rtt and --loss otherwise model TCP";
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
		if (seen[o] && (cli_opt_scope(o) & CLI_PARTNER) && c->mode != MODE_HELP &&
		    c->mode != MODE_VERSION) {
			snprintf(err, errlen, "%s only applies to the partner (-i)",
			         cli_opt_name(o, nm, sizeof nm));
			return -1;
		}
	}
	if (c->mode == MODE_CLIENT) {
		if (seen[OPT_MTU] || seen[OPT_NOTS]) {
			snprintf(err, errlen, "%s only applies to --predict",
			         cli_opt_name(seen[OPT_MTU] ? OPT_MTU : OPT_NOTS, nm, sizeof nm));
			return -1;
		}
		/* the framing of the link only matters for a prediction */
		if ((seen[OPT_VLAN] || seen[OPT_PPPOE]) && c->link_bps == 0) {
			snprintf(err, errlen, "%s only applies with --link or --predict",
			         cli_opt_name(seen[OPT_VLAN] ? OPT_VLAN : OPT_PPPOE, nm, sizeof nm));
			return -1;
		}
		if ((seen[OPT_RTT] || seen[OPT_LOSS]) && c->link_bps == 0) {
			snprintf(err, errlen, "%s only applies with --link or --predict",
			         cli_opt_name(seen[OPT_RTT] ? OPT_RTT : OPT_LOSS, nm, sizeof nm));
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
		    o == OPT_RTT || o == OPT_LOSS || o == OPT_SWIN))
			continue;
		if (c->mode == MODE_DAEMON && ((cli_opt_scope(o) & CLI_PARTNER) ||
		    o == OPT_KEY_FILE))
			continue;
		if (o < 256 && strchr(ok, o) != NULL)
			continue;
		snprintf(err, errlen, "%s has no meaning with %s", cli_opt_name(o, nm,
		         sizeof nm), c->mode == MODE_DAEMON ? "-i" : "--predict");
		return -1;
	}
	if (c->mode == MODE_PREDICT && seen['n'] && !seen[OPT_RTT]) {
		snprintf(err, errlen, "-n with --predict needs --rtt (the time to "
		         "send them at the path's bound)");
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
	if ((c->loc.fullreads || p->rem.fullreads) && c->proto != PROTO_TCP) {
		snprintf(err, errlen, "--full-reads applies to TCP only (a UDP "
		         "read is one datagram)");
		return -1;
	}
	if ((c->loc.fullreads && c->loc.zerocopy) ||
	    (p->rem.fullreads && p->rem.zerocopy)) {
		snprintf(err, errlen, "--full-reads and --zerocopy cannot be used "
		         "together (a zero-copy receive maps what is queued, it "
		         "does not wait)");
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
	int miss;

	if (c->loc.cpus == 0)           /* no --affinity: anywhere */
		return 0;
	if ((miss = affinity_unavailable(c->loc.cpus, have, sizeof have)) == -1)
		return 0;
	snprintf(err, errlen, "--affinity: CPU %d is not available here (this "
	         "process may run on %s)", miss, have);
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

/* --start-at: the client's own first byte is the transfer's start, so the
 * client sends; one run (a repeat's second run would start late). */
static int
check_start_at(const struct config *c, char *err, size_t errlen)
{
	const char *why = NULL;

	if (c->start_at_ns == 0)
		return 0;
	if (c->role != ROLE_SEND || c->bidir)
		why = "--start-at: the client must send (not with -r or --bidir): "
		      "its first write is the start";
	else if (c->rep.max != 0)
		why = "--start-at is one moment: it cannot be used with --repeat";
	else if (c->mcast.family != 0)
		why = "--start-at: not with -m";
	if (why == NULL)
		return 0;
	snprintf(err, errlen, "%s", why);
	return -1;
}

/* --sliding-window, --rto, --retries: a UDP client that sends a counted
 * stream with data headers, paced by the acknowledgements alone. */
static int
check_window(const struct config *c, const unsigned char *seen, char *err,
             size_t errlen)
{
	const struct side_opts *s = &c->loc;
	uint64_t rest = s->total % (s->len ? s->len : 1);
	const char *why = NULL;

	if (c->swin == 0) {
		if (seen[OPT_RTO] || seen[OPT_RETRIES] || seen[OPT_GBN])
			why = "--rto, --retries and --go-back-n need --sliding-window";
	} else if (c->proto != PROTO_UDP) {
		why = "--sliding-window needs -u (TCP has its own window)";
	} else if (c->mode == MODE_PREDICT) {
		return 0;
	} else if (c->role != ROLE_SEND || c->bidir) {
		why = "--sliding-window: the client sends (not with -r or --bidir)";
	} else if (c->duration_ms != 0) {
		why = "--sliding-window sends a counted stream: use -n or -x, not "
		      "--time";
	} else if (c->rate_bps > 0 || seen['g'] || c->burst > 1) {
		why = "--sliding-window is paced by its acknowledgements: not with "
		      "-g, --rate or --burst";
	} else if (s->batch > 1 || s->gso) {
		why = "--sliding-window sends a datagram a call: not with --batch "
		      "or --gso";
	} else if (c->mcast.family != 0) {
		why = "--sliding-window: not with -m (a group acknowledges nothing)";
	} else if (s->len < WIRE_GPUD_LEN || (s->total != 0 && rest != 0 &&
	    rest < WIRE_GPUD_LEN)) {
		why = "--sliding-window: every datagram carries the data header the "
		      "acknowledgement answers: -l (and the last under -x) at least "
		      "24 bytes";
	}
	if (why == NULL)
		return 0;
	snprintf(err, errlen, "%s", why);
	return -1;
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
	if (check_local_cpus(c, err, errlen) == -1 ||
	    check_start_at(c, err, errlen) == -1)
		return -1;
	return check_partners(c, err, errlen);
}

int
cli_check(struct config *c, const unsigned char *seen, char *err, size_t errlen)
{
	if (c->mode != MODE_CLIENT && c->host != NULL &&
	    c->mode != MODE_HELP && c->mode != MODE_VERSION) {
		snprintf(err, errlen, "%s takes no partner host",
		         c->mode == MODE_DAEMON ? "-i" : "--predict");
		return -1;
	}
	c->count_set = seen['n'];
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
	    cli_mcast_check(c, err, errlen) == -1))
		return -1;
	if (c->mode == MODE_CLIENT && check_client(c, err, errlen) == -1)
		return -1;
	if (check_window(c, seen, err, errlen) == -1)
		return -1;
	return c->mode == MODE_CLIENT ? check_repeat(c, err, errlen) : 0;
}
