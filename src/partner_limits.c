/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_limits.c: is a client's test within this partner's limits
 * (--max-*), and may the host run it as asked (--cc, --affinity)? */
#include "partner_limits.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "affinity.h"
#include "partner_budget.h"
#include "partner_ccpolicy.h"
#include "tcpinfo.h"
#include "xfer_batch.h"

/* One budget for all the memory a test takes on the partner (partner_budget.h):
 * PARTNER_STREAM_BUFFERS times --max-buffer, and PARTNER_MEM_BASE. Returns
 * 0 or -1 with why. */
static int
check_memory(const struct partner_limits *l, const struct xfer_params *p,
             char *why, size_t len)
{
	uint64_t most = (uint64_t)l->max_buffer * PARTNER_STREAM_BUFFERS +
	    PARTNER_MEM_BASE;
	struct budget b;

	budget_need(p, l->max_time_s, &b);
	if (b.total <= most)
		return 0;
	snprintf(why, len, "memory: the test takes %llu bytes, this partner "
	         "allows %llu (%u x --max-buffer + 32 MiB); a stream: stack %llu, "
	         "data %llu, batch %llu, intervals %llu", (unsigned long long)
	         b.total, (unsigned long long)most, PARTNER_STREAM_BUFFERS,
	         (unsigned long long)b.stack, (unsigned long long)b.data,
	         (unsigned long long)b.batch, (unsigned long long)b.ivals);
	_Static_assert(PARTNER_MEM_BASE == 32u << 20, "the message says 32 MiB");
	return -1;
}

/* --max-rate, for a partner that sends UDP: the schedule's mean rate and
 * its bursts (all streams' together). Returns 0 or -1 with why. */
static int
check_rate(const struct partner_limits *l, const struct xfer_params *p,
           char *why, size_t len)
{
	uint32_t n = p->streams > 1 ? p->streams : 1;
	uint32_t b = p->data_burst > 1 ? p->data_burst : 1;
	uint64_t bb = (uint64_t)p->data_len * b * n;

	if (l->max_rate <= 0 || p->proto != PROTO_UDP || p->role != ROLE_SEND)
		return 0;
	if (p->data_gap_ps == 0) {
		snprintf(why, len, "unpaced UDP: this partner sends UDP at most "
		         "%.0f bit/s (--max-rate); pace it with -g", l->max_rate);
		return -1;
	}
	if ((double)p->data_len * 8e12 / p->data_gap_ps * n > l->max_rate) {
		snprintf(why, len, "UDP at %.0f bit/s: this partner sends UDP at "
		         "most %.0f bit/s (--max-rate)",
		         (double)p->data_len * 8e12 / p->data_gap_ps * n, l->max_rate);
		return -1;
	}
	/* one datagram a stream at a time is always allowed (however low the
	 * limit); a burst of more takes at most PARTNER_BURST_MS at the rate */
	if (b > 1 && (double)bb * 8 > l->max_rate * PARTNER_BURST_MS / 1e3) {
		snprintf(why, len, "UDP bursts of %llu bytes (--burst %u, -l %u, %u "
		         "streams): this partner sends at most %.0f bytes at once, "
		         "%u ms at its --max-rate", (unsigned long long)bb, b,
		         p->data_len, n, l->max_rate * PARTNER_BURST_MS / 8e3,
		         PARTNER_BURST_MS);
		return -1;
	}
	return 0;
}

int
session_check_limits(const struct partner_limits *l,
                     const struct xfer_params *p, char *why, size_t len)
{
	uint32_t buf = p->len > p->data_len && p->role == ROLE_RECV ? p->len :
	    p->role == ROLE_RECV ? p->data_len : p->len;
	double secs;

	if ((p->xflags & CTL_XF_PEERTIME) &&
	    p->peer_timeout_s > l->max_peer_timeout_s) {
		snprintf(why, len, "--peer-timeout %u s is longer than this partner "
		         "allows, %u s (--max-peer-timeout)", p->peer_timeout_s,
		         l->max_peer_timeout_s);
		return -1;
	}
	if (l->max_time_s != 0 && p->duration_ms > l->max_time_s * 1000ull) {
		snprintf(why, len, "the test runs %.1f s, this partner allows %u s "
		         "(--max-time)", p->duration_ms / 1e3, l->max_time_s);
		return -1;
	}
	/* a timed test has no length: --max-bytes then ends it (partner_session.c) */
	if (l->max_bytes != 0 && p->duration_ms == 0 &&
	    p->data_bytes > l->max_bytes / (p->streams > 1 ? p->streams : 1)) {
		char n[48] = "";

		if (p->streams > 1)
			snprintf(n, sizeof n, "%u streams of ", p->streams);
		snprintf(why, len, "the test moves %s%llu bytes, this partner "
		         "allows at most %llu (--max-bytes)", n,
		         (unsigned long long)p->data_bytes,
		         (unsigned long long)l->max_bytes);
		return -1;
	}
	if (buf > l->max_buffer) {
		snprintf(why, len, "a %u-byte buffer is larger than this partner "
		         "allows, %u bytes (--max-buffer)", buf, l->max_buffer);
		return -1;
	}
	/* --batch, --gso: a UDP receiver's buffers for many messages a call */
	if (p->proto == PROTO_UDP && p->role == ROLE_RECV &&
	    xfer_rx_bytes(p) > l->max_buffer) {
		snprintf(why, len, "the receive buffers of --batch %u%s take %llu "
		         "bytes, this partner allows %u (--max-buffer)", p->batch,
		         p->gso ? " --gso" : "", (unsigned long long)xfer_rx_bytes(p),
		         l->max_buffer);
		return -1;
	}
	if (p->streams > l->max_streams) {
		snprintf(why, len, "%u streams: this partner allows at most %u "
		         "(--max-streams)", p->streams, l->max_streams);
		return -1;
	}
	/* every stream has its own buffer: together they stay within what
	 * PARTNER_STREAM_BUFFERS of the largest would take */
	if ((uint64_t)buf * p->streams > (uint64_t)l->max_buffer *
	    PARTNER_STREAM_BUFFERS) {
		snprintf(why, len, "%u streams of %u-byte buffers: this partner "
		         "allows %llu bytes of buffers per test (%u times "
		         "--max-buffer)", p->streams, buf, (unsigned long long)
		         l->max_buffer * PARTNER_STREAM_BUFFERS, PARTNER_STREAM_BUFFERS);
		return -1;
	}
	if (check_memory(l, p, why, len) == -1)
		return -1;
	/* paced runs: the schedule alone says how long they take (a gap
	 * between each two writes) */
	secs = p->duration_ms ? 0 : xfer_schedule_s(p);
	if (l->max_time_s != 0 && secs > l->max_time_s) {
		snprintf(why, len, "the test's gaps alone take %.1f s, this partner "
		         "allows %u s (--max-time)", secs, l->max_time_s);
		return -1;
	}
	/* a schedule slower than the partner's minimum, long enough to be cut
	 * by it: refused now rather than ended later */
	if (p->data_gap_ps != 0 && xfer_schedule_s(p) >= PARTNER_PROGRESS_S &&
	    (double)p->data_len * 1e12 / p->data_gap_ps * (p->streams > 1 ?
	    p->streams : 1) < PARTNER_MIN_RATE) {
		snprintf(why, len, "the test's schedule moves %.0f bytes/s, this "
		         "partner needs at least %u bytes/s of every test",
		         (double)p->data_len * 1e12 / p->data_gap_ps * (p->streams > 1 ?
		         p->streams : 1), PARTNER_MIN_RATE);
		return -1;
	}
	return check_rate(l, p, why, len);
}

/* --affinity after the host: the partner's data threads go only where this
 * process may run. Returns 1 (refused, why in err) or 0. */
int
partner_cpus_refused(uint64_t cpus, char *err, size_t errlen)
{
	char have[192];
	int miss;

	if (cpus == 0)                  /* no --affinity: anywhere */
		return 0;
	if ((miss = affinity_unavailable(cpus, have, sizeof have)) == -1)
		return 0;
	snprintf(err, errlen, "--affinity: CPU %d is not available to this "
	         "partner (it may run on %s)", miss, have);
	return 1;
}

/* --cc: one the host offers and one this partner can set (c->cc_allowed,
 * found at start; else, since the partner runs unprivileged, one an
 * unprivileged process may pick). Returns 1 (refused, why in err) or 0. */
static int
cc_refused(const struct config *c, const char *cc, int sending, char *err,
           size_t errlen)
{
	static const char allowed_path[] =
	    "/proc/sys/net/ipv4/tcp_allowed_congestion_control";
	char allowed[128] = "?", *tok, *save = NULL;

	if (cc[0] == '\0')
		return 0;
	if (tcpinfo_cc_check(cc, err, errlen) == -1)
		return 1;
	if (!sending)                           /* a receiver's is best effort */
		return 0;
	if (c->cc_allowed[0] != '\0') {
		if (ccpolicy_allows(c->cc_allowed, cc))
			return 0;
		snprintf(err, errlen, "congestion control '%s' is not allowed by "
		         "this partner (it allows: %.100s; see its --allow-cc)", cc,
		         c->cc_allowed);
		return 1;
	}
	if (geteuid() == 0)
		return 0;
	if (tcpinfo_cc_available_from(allowed_path, allowed, sizeof allowed) == 0) {
		char copy[128];

		snprintf(copy, sizeof copy, "%s", allowed);
		for (tok = strtok_r(copy, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save))
			if (strcmp(tok, cc) == 0)
				return 0;
	}
	snprintf(err, errlen, "congestion control '%s' is not allowed for this "
	         "unprivileged partner (net.ipv4.tcp_allowed_congestion_control: "
	         "%s)", cc, allowed);
	return 1;
}

/* Every name of the --cc list that a stream will use. */
int
partner_ccs_refused(const struct config *c, const struct xfer_params *p, char *err,
            size_t errlen)
{
	char cc[16];
	uint32_t k;

	for (k = 0; k < p->streams; k++) {
		xfer_cc_pick(p->cc, k, cc);
		if (cc_refused(c, cc, p->role == ROLE_SEND, err, errlen))
			return 1;
	}
	return 0;
}
