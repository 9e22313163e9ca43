/* SPDX-License-Identifier: BSD-2-Clause */
/* client_latency.c: the client's --latency around a run. */
#include "client_latency.h"

#include <stdio.h>
#include <string.h>

#include "client_wait.h"
#include "ctl.h"
#include "net.h"
#include "stop.h"

/* The probes a run of c may send: its idle phase and its length (and
 * LAT_SLACK_MS) over the interval, and a few more. */
static uint64_t
latency_cap(const struct config *c)
{
	return ((uint64_t)c->lat_idle_ms + c->duration_ms + LAT_SLACK_MS) *
	    1000u / c->lat_interval_us + PROBE_BURST;
}

/* Wait until the idle phase is over, watching the control connection (the
 * partner may refuse or leave) and the stop request. */
static int
idle_wait(const struct prober *p, int ctl, const struct stopreq *stop,
          char *err, size_t errlen)
{
	mono_ns until = prober_idle_until(p), now;
	struct ctl_msg m;
	char why[256];

	while ((now = mono_now()) < until) {
		int w = net_wait_readable(ctl, -1, net_poll_ms(until - now), stop);

		if (stop_requested(stop)) {
			snprintf(err, errlen, "interrupted");
			return -1;
		}
		if (w != 1)
			continue;               /* the loop checks the time */
		if (ctl_recv_any_until(ctl, &m, now + 2000000000ull, stop, why,
		    sizeof why) == -1)
			snprintf(err, errlen, "partner: %s", why);
		else if (m.type == CTL_ERROR)
			snprintf(err, errlen, "partner: %s", m.text);
		else
			snprintf(err, errlen, "partner: unexpected %s message during "
			         "the probes' idle phase", ctl_type_name(m.type));
		return -1;
	}
	return 0;
}

int
latency_begin(struct prober *p, int ctl, const struct stopreq *stop,
              const struct sockaddr_storage *local,
              const struct sockaddr_storage *peer, const uint8_t *nonce,
              const struct config *c, char *err, size_t errlen)
{
	struct ctl_msg m;
	char why[256];

	if (ctl_recv_type(ctl, CTL_ECHOPORT, &m, CLIENT_CTL_MS(c), stop, why,
	    sizeof why) == -1) {
		snprintf(err, errlen, "%s%s", m.type == CTL_ERROR ?
		         "partner refused the test: " : "", m.type == CTL_ERROR ?
		         m.text : why);
		return -1;
	}
	if (prober_open(p, local, peer, m.echo_port, why, sizeof why) == -1) {
		snprintf(err, errlen, "latency probes to port %u: %s", m.echo_port,
		         why);
		return -1;
	}
	if (prober_start(p, nonce, c->lat_interval_us, c->lat_idle_ms,
	    latency_cap(c), err, errlen) == -1)
		return -1;
	return idle_wait(p, ctl, stop, err, errlen);
}

double
latency_expected_ns(double base_ns, double queue_bytes, double link_bps)
{
	return base_ns + queue_bytes * 8e9 / link_bps;
}

int
latency_result(struct lat_result *lr, const struct prober *p,
               const struct config *c)
{
	char why[300];

	lr->interval_us = c->lat_interval_us;
	lr->idle_ms = c->lat_idle_ms;
	/* one-way delays only from stamps within their round trips (a run
	 * that completed was failed on any other; an interrupted one shows
	 * none) */
	lr->same_clock = c->same_clock && prober_stamps_check(p, why,
	    sizeof why) == 0;
	if (prober_phases(p, lr->same_clock, &lr->idle, &lr->loaded) == -1)
		return -1;
	lr->bad_echo = p->bad_echo;
	lr->dup_echo = p->dup_echo;
	if (c->queue_bytes > 0 && c->link_bps > 0 && lr->idle.answered > 0) {
		lr->have_expected = 1;
		lr->queue_bytes = (double)c->queue_bytes;
		lr->link_bps = c->link_bps;
		lr->expected_ns = latency_expected_ns((double)lr->idle.p50_ns,
		    lr->queue_bytes, c->link_bps);
	}
	lr->have = 1;
	return 0;
}
