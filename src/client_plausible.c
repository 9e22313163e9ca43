/* SPDX-License-Identifier: BSD-2-Clause */
/* client_plausible.c: what a partner says, against what is physically possible. */
#include "client_plausible.h"

#include <limits.h>
#include <stdio.h>

#include "hostudp.h"
#include "udpacct.h"
#include "wire_udp.h"
#include "xfer_batch.h"

/* a * b, or UINT64_MAX when that does not fit. */
static uint64_t
sat_mul(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* a + b, or UINT64_MAX when that does not fit. */
static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t
plaus_window(const struct plaus_run *pr)
{
	uint64_t w = pr->window_ns;

	return sat_add(sat_add(w, w / (1000000u / PLAUS_TIME_PPM)),
	    PLAUS_TIME_SLACK_NS);
}

/* A time field of message msg: at most the window. */
static int
time_ok(const struct plaus_run *pr, const char *msg, const char *field,
        uint64_t v, char *err, size_t errlen)
{
	uint64_t w = plaus_window(pr);

	if (v <= w)
		return 0;
	snprintf(err, errlen, "%s %s %llu is longer than the run so far (at most "
	         "%llu ns)", msg, field, (unsigned long long)v,
	         (unsigned long long)w);
	return -1;
}

/* A count field: at most max, what the test can move. */
static int
count_ok(const char *msg, const char *field, uint64_t v, uint64_t max,
         const char *what, char *err, size_t errlen)
{
	if (v <= max)
		return 0;
	snprintf(err, errlen, "%s %s %llu is more than %s (%llu)", msg, field,
	         (unsigned long long)v, what, (unsigned long long)max);
	return -1;
}

/* The CPU time a process of pr->threads threads can use in real ns. */
static uint64_t
cpu_max(const struct plaus_run *pr, uint64_t real)
{
	uint64_t per = sat_add(sat_add(real, real / 100u * PLAUS_CPU_PCT),
	    PLAUS_CPU_SLACK_NS);

	return sat_mul(per, pr->threads ? pr->threads : 1);
}

/* The most bytes one data call of p moves: a TCP read or write -l, a UDP
 * call its batch of datagrams (with GRO or GSO, 64 KiB each). */
static uint64_t
plaus_call_bytes(const struct xfer_params *p)
{
	uint64_t v = p->batch > 1 ? p->batch : 1;

	if (p->proto == PROTO_TCP)
		return p->len;
	return sat_mul(v, p->gso && XFER_GRO_BUF > p->data_len ? XFER_GRO_BUF :
	    p->data_len);
}

/* The bytes streams streams can move at the most in ns: the fastest rate,
 * and one call each beyond it. */
static uint64_t
rate_bytes(const struct xfer_params *p, uint64_t ns, uint32_t streams)
{
	return sat_add(sat_mul(ns, PLAUS_MAX_BYTES_PER_NS),
	    sat_mul(plaus_call_bytes(p), streams ? streams : 1));
}

uint64_t
plaus_calls_max(const struct plaus_run *pr, uint32_t streams)
{
	const struct xfer_params *p = pr->p;
	uint64_t n = streams ? streams : 1, moved, dlen, most;

	moved = rate_bytes(p, plaus_window(pr), streams);
	if (p->proto == PROTO_TCP) {            /* a byte a call at least */
		most = sat_mul(p->data_bytes, n);
		return moved < most ? moved : most;
	}
	/* a UDP call: a datagram at least, of -l (the last may be shorter) */
	dlen = xfer_last_len(p) ? xfer_last_len(p) : p->data_len;
	dlen = dlen ? dlen : 1;
	moved = moved / dlen;
	if (p->role == ROLE_RECV)               /* copies: the network's too */
		return moved;
	most = sat_mul(xfer_data_calls(p), n);
	return sat_add(moved < most ? moved : most, sat_mul(MARKER_COUNT, n));
}

/* RESULT's calls against its own counts and the run so far. */
static int
calls_ok(const struct plaus_run *pr, const struct gput_result *r,
         uint32_t streams, char *err, size_t errlen)
{
	const struct xfer_params *p = pr->p;
	uint64_t len = p->len ? p->len : 1, need;

	if (p->proto == PROTO_TCP) {
		need = r->bytes / len + (r->bytes % len != 0);
		if (count_ok("RESULT", "calls", r->calls, r->bytes, "its bytes (a "
		    "TCP call moves one at least)", err, errlen))
			return -1;
		if (r->calls < need) {
			snprintf(err, errlen, "RESULT calls %llu are fewer than its "
			         "bytes need (%llu calls of at most %llu)",
			         (unsigned long long)r->calls,
			         (unsigned long long)need, (unsigned long long)len);
			return -1;
		}
		return 0;
	}
	if (p->role == ROLE_SEND)
		return count_ok("RESULT", "calls", r->calls, sat_add(r->dgrams,
		    sat_mul(MARKER_COUNT, streams ? streams : 1)), "its datagrams "
		    "and end markers", err, errlen);
	return count_ok("RESULT", "calls", r->calls, plaus_calls_max(pr, streams),
	    "datagrams can arrive in the run so far", err, errlen);
}

/* RESULT's socket buffers (the kernel's int) and its rate: bytes beyond
 * one call per stream over real_ns at PLAUS_MAX_BYTES_PER_NS at most. */
static int
fields_ok(const struct plaus_run *pr, const struct gput_result *r,
          uint32_t streams, char *err, size_t errlen)
{
	uint64_t most = rate_bytes(pr->p, r->real_ns, streams);

	if (count_ok("RESULT", "sndbuf", r->sndbuf, INT_MAX, "a socket buffer "
	    "holds", err, errlen) ||
	    count_ok("RESULT", "rcvbuf", r->rcvbuf, INT_MAX, "a socket buffer "
	    "holds", err, errlen))
		return -1;
	if (r->bytes > most) {
		snprintf(err, errlen, "RESULT real_ns %llu is too short for its %llu "
		         "bytes (at most %llu at 10 Tbit/s)",
		         (unsigned long long)r->real_ns,
		         (unsigned long long)r->bytes, (unsigned long long)most);
		return -1;
	}
	return 0;
}

int
plaus_result(const struct plaus_run *pr, const struct gput_result *r,
             uint32_t streams, uint64_t start_ns, uint64_t end_ns, char *err,
             size_t errlen)
{
	const struct xfer_params *p = pr->p;
	uint64_t cmax, span, bytes = sat_mul(p->data_bytes, streams);
	uint64_t dgrams = sat_mul(xfer_data_calls(p), streams);

	/* A UDP receiver's real time is its datagrams' span on the kernel's
	 * arrival stamps, widened by the first datagram's share (N datagrams
	 * over N - 1 gaps), while start_ns is when it read the first: the two
	 * added can pass the run's end by that share and by how late reads
	 * follow arrivals (a batched receiver reads a burst at a time). Each
	 * alone stays within the window. */
	int udp_rx = p->proto == PROTO_UDP && p->role == ROLE_RECV;

	if (time_ok(pr, "RESULT", "real_ns", r->real_ns, err, errlen) ||
	    time_ok(pr, "RESULT", "start_ns", start_ns, err, errlen) ||
	    time_ok(pr, "RESULT", "end_ns", end_ns, err, errlen) ||
	    (!udp_rx && time_ok(pr, "RESULT", "start_ns + real_ns",
	    sat_add(start_ns, r->real_ns), err, errlen)))
		return -1;
	if (start_ns > end_ns) {
		snprintf(err, errlen, "RESULT start_ns %llu is after its end_ns %llu",
		         (unsigned long long)start_ns, (unsigned long long)end_ns);
		return -1;
	}
	/* the CPU time is the process's over the window the side or stream
	 * measured, which lies within [START, end_ns] and may be longer than
	 * real_ns (a UDP receiver's real time is its datagrams' span, its
	 * window ends after the idle timeout) */
	span = r->real_ns > end_ns ? r->real_ns : end_ns;
	cmax = cpu_max(pr, span);
	if (r->cpu_ns > cmax) {
		snprintf(err, errlen, "RESULT cpu_ns %llu is more than %u threads can "
		         "use in its window of %llu ns (at most %llu)",
		         (unsigned long long)r->cpu_ns, pr->threads,
		         (unsigned long long)span, (unsigned long long)cmax);
		return -1;
	}
	if (count_ok("RESULT", "bytes", r->bytes, bytes, "the test moves", err,
	    errlen) ||
	    count_ok("RESULT", "unsent + unacked", sat_add(r->unsent, r->unacked),
	    bytes, "the test moves", err, errlen))
		return -1;
	if (p->proto == PROTO_UDP && (count_ok("RESULT", "dgrams", r->dgrams,
	    dgrams, "the sender sends", err, errlen) ||
	    count_ok("RESULT", "dgrams_sent", r->dgrams_sent, dgrams,
	    "the sender sends", err, errlen)))
		return -1;
	return calls_ok(pr, r, streams, err, errlen) ||
	    fields_ok(pr, r, streams, err, errlen) ? -1 : 0;
}

int
plaus_udpstats(const struct plaus_run *pr, const struct udp_stats *u,
               char *err, size_t errlen)
{
	/* a jitter sample and a delay above the least compare two arrivals
	 * and two send times, each pair within the window: at most twice it */
	uint64_t w2 = sat_mul(plaus_window(pr), 2), w = plaus_window(pr);

	if (u->received != u->unique + u->duplicates + u->too_old ||
	    u->unique > u->received) {
		snprintf(err, errlen, "UDPSTATS received %llu is not unique %llu + "
		         "duplicates %llu + too_old %llu",
		         (unsigned long long)u->received,
		         (unsigned long long)u->unique,
		         (unsigned long long)u->duplicates,
		         (unsigned long long)u->too_old);
		return -1;
	}
	if (count_ok("UDPSTATS", "unique", u->unique, xfer_data_calls(pr->p),
	    "the sender sends", err, errlen) ||
	    count_ok("UDPSTATS", "received", u->received, plaus_calls_max(pr, 1),
	    "datagrams can arrive in the run so far", err, errlen) ||
	    count_ok("UDPSTATS", "reordered", u->reordered, u->unique,
	    "its unique datagrams", err, errlen) ||
	    count_ok("UDPSTATS", "late", u->late, u->received,
	    "its datagrams received", err, errlen) ||
	    count_ok("UDPSTATS", "max_displacement", u->max_displacement,
	    UDPACCT_WINDOW - 1, "its window of sequence numbers", err, errlen) ||
	    count_ok("UDPSTATS", "jitter_ns", u->jitter_ns, w2,
	    "twice the run so far", err, errlen) ||
	    count_ok("UDPSTATS", "delay_var_ns", u->delay_var_ns,
	    u->delay_var_max_ns, "its delay_var_max_ns", err, errlen) ||
	    count_ok("UDPSTATS", "delay_var_max_ns", u->delay_var_max_ns, w2,
	    "twice the run so far", err, errlen))
		return -1;
	/* with one clock, a one-way delay lies within the window (send and
	 * arrival both do); with two, it holds their offset too */
	if (pr->same_clock && (u->flags & UDPS_TIMED)) {
		const int64_t v[2] = { u->owd_min_ns, u->owd_mean_ns };
		const char *name[2] = { "owd_min_ns", "owd_mean_ns" };
		int i;

		for (i = 0; i < 2; i++) {
			uint64_t mag = v[i] < 0 ? (uint64_t)0 - (uint64_t)v[i] :
			    (uint64_t)v[i];

			if (mag > w) {
				snprintf(err, errlen, "UDPSTATS %s %lld is beyond the run "
				         "so far either way (at most %llu ns, same clock)",
				         name[i], (long long)v[i], (unsigned long long)w);
				return -1;
			}
		}
	}
	return 0;
}

uint64_t
plaus_wire_max(uint64_t bytes)
{
	return sat_mul(sat_add(bytes, PLAUS_TCP_PROOF_BYTES),
	    1u + PLAUS_RETRANS_PER_BYTE);
}

uint64_t
plaus_retrans_max(uint64_t bytes)
{
	return sat_mul(sat_add(bytes, 2), PLAUS_RETRANS_PER_BYTE);
}

int
plaus_tcpinfo(const struct plaus_run *pr, const struct tcp_stats *t,
              char *err, size_t errlen)
{
	uint64_t wus = plaus_window(pr) / 1000u + 1;
	/* the kernel counts busy time in jiffies: up to one more than the
	 * span it covers (HZ 100 at the least) */
	uint64_t bus = wus + PLAUS_JIFFY_US;

	if (count_ok("TCPINFO", "retrans", t->retrans,
	    plaus_retrans_max(pr->p->data_bytes), "the test's bytes can make",
	    err, errlen) ||
	    count_ok("TCPINFO", "rtt_us", t->rtt_us, wus, "the run so far (us)",
	    err, errlen) ||
	    (t->min_rtt_us != UINT32_MAX &&    /* ~0: Linux had no sample */
	    count_ok("TCPINFO", "min_rtt_us", t->min_rtt_us, wus,
	    "the run so far (us)", err, errlen)) ||
	    count_ok("TCPINFO", "busy_us", t->busy_us, bus, "the run so far and "
	    "a jiffy (us)", err, errlen) ||
	    count_ok("TCPINFO", "mss", t->mss, 65535, "an IP packet holds", err,
	    errlen) ||
	    count_ok("TCPINFO", "delivery_rate", t->delivery_rate,
	    PLAUS_MAX_BYTES_PER_S, "10 Tbit/s (bytes/s)", err, errlen) ||
	    count_ok("TCPINFO", "received_ce_bytes", t->received_ce_bytes,
	    plaus_wire_max(pr->p->data_bytes), "the test's bytes and proof "
	    "can carry, each sent 65 times", err, errlen))
		return -1;
	/* the kernel's busy time is the sum of the three states, each
	 * rounded down to microseconds on its own */
	if (count_ok("TCPINFO", "rwnd_limited_us + sndbuf_limited_us",
	    sat_add(t->rwnd_limited_us, t->sndbuf_limited_us),
	    sat_add(t->busy_us, 2), "its busy_us", err, errlen))
		return -1;
	return 0;
}

uint64_t
plaus_max_ivals(const struct plaus_run *pr)
{
	uint32_t every = pr->p->interval_ms;

	if (every == 0)
		return pr->p->omit_ms ? 3 : 1;
	return plaus_window(pr) / ((uint64_t)every * 1000000u) + 2;
}

/* v + *sum into *sum, within max; -1 with err filled when it is not. */
static int
sum_ok(const char *field, uint64_t *sum, uint64_t v, uint64_t max,
       const char *what, char *err, size_t errlen)
{
	if (*sum > UINT64_MAX - v || *sum + v > max) {
		snprintf(err, errlen, "INTERVAL %s that add up to more than %s "
		         "(%llu + %llu > %llu)", field, what,
		         (unsigned long long)*sum, (unsigned long long)v,
		         (unsigned long long)max);
		return -1;
	}
	*sum += v;
	return 0;
}

int
plaus_ival(const struct plaus_run *pr, struct plaus_ivals *s, uint32_t index,
           const struct ival *iv, char *err, size_t errlen)
{
	const struct xfer_params *p = pr->p;
	struct plaus_ivals n = *s;
	uint64_t most = plaus_max_ivals(pr);

	if (s->last || index != s->n) {
		snprintf(err, errlen, "INTERVAL index %u out of order (expected %llu%s)",
		         index, (unsigned long long)s->n, s->last ?
		         ", after the last one" : "");
		return -1;
	}
	if (s->n >= most) {
		snprintf(err, errlen, "INTERVAL index %u: more intervals than the run "
		         "so far holds (at most %llu)", index, (unsigned long long)most);
		return -1;
	}
	if (time_ok(pr, "INTERVAL", "end_ns", iv->end_ns, err, errlen))
		return -1;
	if (iv->start_ns > iv->end_ns || (s->n > 0 && iv->start_ns != s->end_ns)) {
		snprintf(err, errlen, "INTERVAL %u start_ns %llu overlaps or leaves "
		         "a gap (the previous one ended at %llu, this one ends at "
		         "%llu)", index, (unsigned long long)iv->start_ns,
		         (unsigned long long)s->end_ns,
		         (unsigned long long)iv->end_ns);
		return -1;
	}
	if (sum_ok("bytes", &n.bytes, iv->bytes, p->data_bytes, "the test moves",
	    err, errlen) ||
	    sum_ok("calls", &n.calls, iv->calls, plaus_calls_max(pr, 1),
	    "the run so far can make", err, errlen) ||
	    (p->proto == PROTO_UDP && sum_ok("dgrams", &n.dgrams, iv->dgrams,
	    xfer_data_calls(p), "the sender sends", err, errlen)) ||
	    ((iv->flags & IVAL_TCP) && sum_ok("retrans", &n.retrans, iv->retrans,
	    plaus_retrans_max(p->data_bytes), "the test's bytes can make", err,
	    errlen)))
		return -1;
	n.n++;
	n.end_ns = iv->end_ns;
	n.last = (iv->flags & IVAL_LAST) != 0;
	*s = n;
	return 0;
}

int
plaus_window_recv(const struct win_stats *w, const struct udp_stats *u,
                  char *err, size_t errlen)
{
	/* every datagram sent here, first or again, and a copy of each that
	 * the path may make */
	uint64_t sends = sat_add(w->firsts, w->resends);

	if (count_ok("UDPSTATS", "unique", u->unique, w->firsts,
	    "were sent from here", err, errlen) ||
	    count_ok("UDPSTATS", "duplicates", u->duplicates, sat_add(w->resends,
	    sends), "retransmissions and a copy of each send", err, errlen) ||
	    count_ok("UDPSTATS", "received", u->received, sat_mul(sends, 2),
	    "the sends from here and a copy of each", err, errlen))
		return -1;
	if (u->unique < w->acks_new) {   /* what it acknowledged, it received */
		snprintf(err, errlen, "UDPSTATS unique %llu is fewer than the "
		         "datagrams it acknowledged (%llu)",
		         (unsigned long long)u->unique,
		         (unsigned long long)w->acks_new);
		return -1;
	}
	return 0;
}

int
plaus_stream(const struct xfer_params *p, const struct side *ps,
             const struct side *ls, char *err, size_t errlen)
{
	const struct gput_result *pr = &ps->r, *lr = &ls->r;

	if (p->proto == PROTO_TCP && ps->tcp.valid &&
	    (count_ok("TCPINFO", "retrans", ps->tcp.retrans,
	    plaus_retrans_max(pr->bytes), "its RESULT bytes can make", err,
	    errlen) ||
	    count_ok("TCPINFO", "received_ce_bytes", ps->tcp.received_ce_bytes,
	    plaus_wire_max(pr->bytes), "its RESULT bytes and the proof can "
	    "carry, each sent 65 times", err, errlen)))
		return -1;
	if (p->proto != PROTO_UDP)
		return 0;
	if (p->role == ROLE_RECV) {     /* it received what was sent here */
		if (count_ok("RESULT", "dgrams", pr->dgrams, lr->dgrams,
		    "were sent from here", err, errlen) ||
		    count_ok("RESULT", "bytes", pr->bytes, lr->bytes,
		    "were sent from here", err, errlen))
			return -1;
		if (ps->have_udp && count_ok("UDPSTATS", "received",
		    ps->udp.received, sat_mul(pr->calls, xfer_dgrams_per_call_max(p)),
		    "its RESULT calls can read", err, errlen))
			return -1;
		/* a call reads one copy of a data datagram at least */
		if (count_ok("RESULT", "calls", pr->calls, ps->have_udp ?
		    ps->udp.received : pr->dgrams, "its datagrams received", err,
		    errlen))
			return -1;
		if ((p->xflags & CTL_XF_WINDOW) && ls->have_win && ps->have_udp)
			return plaus_window_recv(&ls->win, &ps->udp, err, errlen);
		return 0;
	}
	if (pr->dgrams < lr->dgrams) {  /* it sent what arrived here */
		snprintf(err, errlen, "RESULT dgrams %llu is fewer than arrived here "
		         "(%llu)", (unsigned long long)pr->dgrams,
		         (unsigned long long)lr->dgrams);
		return -1;
	}
	return 0;
}

int
plaus_echo(const struct plaus_run *pr, const struct echo_stats *e,
           uint64_t idle_answered, char *err, size_t errlen)
{
	uint64_t sum = sat_add(sat_add(sat_add(e->echoed, e->strangers),
	    sat_add(e->malformed, e->over_rate)), e->failed);

	if (!(pr->p->xflags & CTL_XF_LATENCY)) {
		snprintf(err, errlen, "ECHOSTATS came in a test without --latency");
		return -1;
	}
	if (sum != e->received || sum == UINT64_MAX) {
		snprintf(err, errlen, "ECHOSTATS received %llu is not echoed %llu + "
		         "strangers %llu + malformed %llu + over_rate %llu + failed "
		         "%llu", (unsigned long long)e->received,
		         (unsigned long long)e->echoed,
		         (unsigned long long)e->strangers,
		         (unsigned long long)e->malformed,
		         (unsigned long long)e->over_rate,
		         (unsigned long long)e->failed);
		return -1;
	}
	if (e->echoed < idle_answered) {
		snprintf(err, errlen, "ECHOSTATS echoed %llu is fewer than the probes "
		         "echoed here before the data path opened (%llu)",
		         (unsigned long long)e->echoed,
		         (unsigned long long)idle_answered);
		return -1;
	}
	return 0;
}

int
plaus_hostudp(const struct plaus_run *pr, const struct hostudp *h, char *err,
              size_t errlen)
{
	uint64_t most = hostudp_bound(plaus_window(pr));

	if (!(pr->p->xflags & CTL_XF_HOSTUDP)) {
		snprintf(err, errlen, "HOSTUDP came in a test that did not ask for "
		         "it (the partner does not receive UDP)");
		return -1;
	}
	if (h->rcvbuf_errors > most || h->in_errors > most) {
		snprintf(err, errlen, "HOSTUDP %s %llu is more than %llu, what "
		         "%.3f s allows at %llu datagrams/s", h->rcvbuf_errors > most ?
		         "RcvbufErrors" : "InErrors", (unsigned long long)(
		         h->rcvbuf_errors > most ? h->rcvbuf_errors : h->in_errors),
		         (unsigned long long)most, (double)plaus_window(pr) / 1e9,
		         (unsigned long long)HOSTUDP_MAX_PPS);
		return -1;
	}
	return 0;
}
