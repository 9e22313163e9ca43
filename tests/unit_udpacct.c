/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_udpacct.c: the UDP receiver's accounting (udpacct, a pure module) as
 * tables of arrival sequences with the exact counters they must give, a
 * long stream across many windows, a random stream against a plain
 * reference model, and jitter and delay variation against hand-computed
 * values. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "udpacct.h"

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

#define W  ((uint64_t)UDPACCT_WINDOW)
#define G  ((uint64_t)1 << 32)
#define T  ((uint64_t)1 << 40)
#define MS 1000000.0                  /* one millisecond in ns */
#define NOMARK SIZE_MAX
/* An arrival sequence: the numbers and how many. */
#define SEQ(...) .seq = (const uint64_t[]){ __VA_ARGS__ }, \
	.n = sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t)

/* Every count at once, lost taken against sent: the table's row. */
struct counts {
	uint64_t sent;         /* as the caller gave it */
	uint64_t received, unique, lost, duplicates, reordered, max_displacement;
	uint64_t late, too_old, next;
};

/* The counts of a through udpacct_figures(), lost through udpacct_lost(). */
static void
counts(const struct udpacct *a, uint64_t sent, struct counts *c)
{
	struct udp_stats u;

	udpacct_figures(a, 0, &u);
	if (u.flags != UDPS_SEQ || u.jitter_ns != 0 || u.other != 0)
		MISS("udpacct_figures untimed: flags %u, jitter %" PRIu64,
		     u.flags, u.jitter_ns);
	*c = (struct counts){ sent, u.received, u.unique, udpacct_lost(a, sent),
	    u.duplicates, u.reordered, u.max_displacement, u.late, u.too_old,
	    a->next };
}

static void
init(struct udpacct *a)
{
	char err[128];

	if (udpacct_init(a, err, sizeof err) != 0)
		fail_msg("udpacct_init: %s", err);
}

/* The identities every state must satisfy, whatever arrived. */
static void
check_identities(const char *name, const struct udpacct *a, uint64_t sent)
{
	struct counts c;

	counts(a, sent, &c);
	if (c.received != c.unique + c.duplicates + c.too_old)
		MISS("%s: received %" PRIu64 " != unique %" PRIu64 " + duplicates %"
		     PRIu64 " + too_old %" PRIu64, name, c.received, c.unique,
		     c.duplicates, c.too_old);
	if (sent >= c.unique && c.unique + c.lost != sent)
		MISS("%s: unique %" PRIu64 " + lost %" PRIu64 " != sent %" PRIu64,
		     name, c.unique, c.lost, sent);
	if (sent < c.unique && c.lost != 0)
		MISS("%s: lost %" PRIu64 " with more unique than sent", name, c.lost);
	if (a->transit_n != c.unique)
		MISS("%s: transit_n %" PRIu64 " != unique %" PRIu64, name,
		     a->transit_n, c.unique);
	if (c.reordered > c.unique || c.late > c.received)
		MISS("%s: reordered %" PRIu64 " or late %" PRIu64 " out of range",
		     name, c.reordered, c.late);
}

static void
compare(const char *name, const struct counts *got,
        const struct counts *want)
{
#define FIELD(f) if (got->f != want->f) \
	MISS("%s: " #f " %" PRIu64 ", want %" PRIu64, name, got->f, want->f)
	FIELD(received); FIELD(unique); FIELD(lost); FIELD(duplicates);
	FIELD(reordered); FIELD(max_displacement); FIELD(late); FIELD(too_old);
	FIELD(next);
#undef FIELD
}

static void
test_table(void **state)
{
	/* want: sent, received, unique, lost, duplicates, reordered,
	 *       max_displacement, late, too_old, next */
	const struct row {
		const char *name;
		const uint64_t *seq;
		size_t n;
		size_t marker_at;      /* udpacct_marker() before this arrival */
		struct counts want;
	} rows[] = {
		/* in order */
		{ "nothing arrived", NULL, 0, NOMARK, { 3, 0, 0, 3, 0, 0, 0, 0, 0, 0 } },
		{ "one", SEQ(0), NOMARK, { 1, 1, 1, 0, 0, 0, 0, 0, 0, 1 } },
		{ "in order", SEQ(0, 1, 2, 3, 4), NOMARK, { 5, 5, 5, 0, 0, 0, 0, 0, 0, 5 } },
		{ "more arrived than sent", SEQ(0, 1, 2), NOMARK,
		  { 2, 3, 3, 0, 0, 0, 0, 0, 0, 3 } },
		/* loss */
		{ "first lost", SEQ(1, 2, 3, 4, 5, 6, 7, 8, 9), NOMARK,
		  { 10, 9, 9, 1, 0, 0, 0, 0, 0, 10 } },
		{ "last lost", SEQ(0, 1, 2, 3, 4, 5, 6, 7, 8), NOMARK,
		  { 10, 9, 9, 1, 0, 0, 0, 0, 0, 9 } },
		{ "middle lost", SEQ(0, 1, 2, 3, 4, 6, 7, 8, 9), NOMARK,
		  { 10, 9, 9, 1, 0, 0, 0, 0, 0, 10 } },
		{ "burst lost", SEQ(0, 1, 2, 7, 8, 9), NOMARK,
		  { 10, 6, 6, 4, 0, 0, 0, 0, 0, 10 } },
		{ "bursts lost, first and last too", SEQ(3, 4, 8), NOMARK,
		  { 10, 3, 3, 7, 0, 0, 0, 0, 0, 9 } },
		{ "every other lost", SEQ(0, 2, 4, 6, 8), NOMARK,
		  { 10, 5, 5, 5, 0, 0, 0, 0, 0, 9 } },
		{ "all but the last lost", SEQ(9), NOMARK,
		  { 10, 1, 1, 9, 0, 0, 0, 0, 0, 10 } },
		/* duplication */
		{ "adjacent duplicate", SEQ(0, 0, 1, 2), NOMARK,
		  { 3, 4, 3, 0, 1, 0, 0, 0, 0, 3 } },
		{ "later duplicate", SEQ(0, 1, 2, 0), NOMARK,
		  { 3, 4, 3, 0, 1, 0, 0, 0, 0, 3 } },
		{ "duplicate of the highest", SEQ(0, 1, 2, 2), NOMARK,
		  { 3, 4, 3, 0, 1, 0, 0, 0, 0, 3 } },
		{ "many copies", SEQ(0, 1, 1, 1, 1, 1, 2), NOMARK,
		  { 3, 7, 3, 0, 4, 0, 0, 0, 0, 3 } },
		{ "duplicates and loss", SEQ(0, 0, 2, 2), NOMARK,
		  { 4, 4, 2, 2, 2, 0, 0, 0, 0, 3 } },
		/* reordering */
		{ "swap", SEQ(1, 0, 2, 3), NOMARK, { 4, 4, 4, 0, 0, 1, 1, 0, 0, 4 } },
		{ "swap at the end", SEQ(0, 1, 3, 2), NOMARK,
		  { 4, 4, 4, 0, 0, 1, 1, 0, 0, 4 } },
		{ "displacement 5", SEQ(0, 2, 3, 4, 5, 6, 1), NOMARK,
		  { 7, 7, 7, 0, 0, 1, 5, 0, 0, 7 } },
		{ "first arrives last", SEQ(1, 2, 3, 4, 0), NOMARK,
		  { 5, 5, 5, 0, 0, 1, 4, 0, 0, 5 } },
		{ "reversed", SEQ(4, 3, 2, 1, 0), NOMARK, { 5, 5, 5, 0, 0, 4, 4, 0, 0, 5 } },
		{ "reordered, then lost", SEQ(3, 1), NOMARK,
		  { 4, 2, 2, 2, 0, 1, 2, 0, 0, 4 } },
		{ "duplicate of a reordered one", SEQ(1, 0, 0), NOMARK,
		  { 2, 3, 2, 0, 1, 1, 1, 0, 0, 2 } },
		{ "duplicates of reordered ones", SEQ(2, 0, 1, 0, 1), NOMARK,
		  { 3, 5, 3, 0, 2, 2, 2, 0, 0, 3 } },
		/* the window's edge: displacement W - 1 is remembered, W is not */
		{ "displacement W - 1", SEQ(W - 1, 0), NOMARK,
		  { W, 2, 2, W - 2, 0, 1, W - 1, 0, 0, W } },
		{ "displacement W: too old", SEQ(W, 0), NOMARK,
		  { W + 1, 2, 1, W, 0, 0, 0, 0, 1, W + 1 } },
		{ "displacement W + 1: too old", SEQ(W + 1, 0), NOMARK,
		  { W + 2, 2, 1, W + 1, 0, 0, 0, 0, 1, W + 2 } },
		{ "displacement W - 1, then its duplicate", SEQ(W - 1, 0, 0), NOMARK,
		  { W, 3, 2, W - 2, 1, 1, W - 1, 0, 0, W } },
		{ "the window moves past a reordered one", SEQ(W - 1, 0, W, 0), NOMARK,
		  { W + 1, 4, 3, W - 2, 0, 1, W - 1, 0, 1, W + 1 } },
		/* a jump clears the numbers it passes over and keeps the rest */
		{ "a jump keeps the window's bits", SEQ(0, 1, 2, 3, 4, 5, W + 3, 4, 3, 6),
		  NOMARK, { W + 4, 10, 8, W - 4, 1, 1, W - 3, 0, 1, W + 4 } },
		{ "too old copies, then in the window", SEQ(W + 5, 0, 0, 5, 6, 6), NOMARK,
		  { W + 6, 6, 2, W + 4, 1, 1, W - 1, 0, 3, W + 6 } },
		{ "a jump of exactly W", SEQ(0, W, 1, W - 1, 0), NOMARK,
		  { W + 1, 5, 4, W - 3, 0, 2, W - 1, 0, 1, W + 1 } },
		/* late: after the marker, every copy of every kind */
		{ "late after the marker", SEQ(0, 1, 2, 3), 3,
		  { 4, 4, 4, 0, 0, 0, 0, 1, 0, 4 } },
		{ "marker first: all late", SEQ(0, 1), 0, { 2, 2, 2, 0, 0, 0, 0, 2, 0, 2 } },
		{ "marker last: none late", SEQ(0, 1), 2, { 2, 2, 2, 0, 0, 0, 0, 0, 0, 2 } },
		{ "late duplicates and reordered", SEQ(0, 2, 1, 1, 2), 2,
		  { 3, 5, 3, 0, 2, 1, 1, 3, 0, 3 } },
		{ "late and too old", SEQ(W + 1, 0), 1,
		  { W + 2, 2, 1, W + 1, 0, 0, 0, 1, 1, W + 2 } },
		/* 64-bit: 2^32 is a number like any other */
		{ "across 2^32", SEQ(G - 2, G - 1, G, G + 1), NOMARK,
		  { G + 2, 4, 4, G - 2, 0, 0, 0, 0, 0, G + 2 } },
		{ "swap and copies at 2^32", SEQ(G - 1, G + 1, G, G + 1, G - 1), NOMARK,
		  { G + 2, 5, 3, G - 1, 2, 1, 1, 0, 0, G + 2 } },
		{ "a jump over 2^32", SEQ(0, G + 1, G, 1), NOMARK,
		  { G + 2, 4, 3, G - 1, 0, 1, 1, 0, 1, G + 2 } },
		{ "0 then 2^40", SEQ(0, T), NOMARK,
		  { T + 1, 2, 2, T - 1, 0, 0, 0, 0, 0, T + 1 } },
		{ "after a jump to 2^40", SEQ(0, T, 1, T - 1, T - (W - 1), T - W, T - 1),
		  NOMARK, { T + 1, 7, 4, T - 3, 1, 2, W - 1, 0, 2, T + 1 } },
		{ "two huge jumps", SEQ(T, 2 * T, T), NOMARK,
		  { 2 * T + 1, 3, 2, 2 * T - 1, 0, 0, 0, 0, 1, 2 * T + 1 } },
		{ "UINT64_MAX cannot be counted", SEQ(5, UINT64_MAX, 6), NOMARK,
		  { 7, 3, 2, 5, 0, 0, 0, 0, 1, 7 } },
		{ "just below UINT64_MAX", SEQ(UINT64_MAX - 1, UINT64_MAX - 1), NOMARK,
		  { UINT64_MAX, 2, 1, UINT64_MAX - 1, 1, 0, 0, 0, 0, UINT64_MAX } },
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];
		struct udpacct a;
		struct counts got;

		init(&a);
		for (j = 0; j < r->n; j++) {
			if (j == r->marker_at)
				udpacct_marker(&a);
			udpacct_add(&a, r->seq[j], r->seq[j] * 1000, j * 1000 + 50000);
			check_identities(r->name, &a, r->want.sent);
		}
		if (r->marker_at == r->n)
			udpacct_marker(&a);
		counts(&a, r->want.sent, &got);
		compare(r->name, &got, &r->want);
		if (got.sent != r->want.sent)
			MISS("%s: sent not copied", r->name);
		if (udpacct_lost(&a, r->want.sent) != r->want.lost)
			MISS("%s: udpacct_lost disagrees with the table", r->name);
		udpacct_free(&a);
	}
	MISSED();
}

/*
 * Eight windows and more, in order, with: every 1000th lost; every 5000th
 * pair swapped; after each position k that is a multiple of 777 (k >= 300),
 * a copy of k - 300 if that arrived; after each position k with
 * (k - W - 10) mod W = 5, a copy of k - W - 10 (too old). The counts
 * follow from those rules alone.
 */
#define WRAP_N (8 * W + 1000)
static int wrap_lost(uint64_t s) { return s % 1000 == 999; }
static int wrap_swapped(uint64_t k) { return k % 5000 == 2500; }

static void
test_window_wrap(void **state)
{
	struct udpacct a;
	struct counts got, want;
	uint64_t k, lost = 0, dups = 0, old = 0, swaps = 0, emits = 0;

	(void)state;
	init(&a);
#define EMIT(s) (udpacct_add(&a, (s), (s) * 1000, (s) * 1000 + 777777), \
	emits++)
	for (k = 0; k < WRAP_N; k++) {
		uint64_t s = k;

		if (wrap_swapped(k) || (k > 0 && wrap_swapped(k - 1)))
			s = wrap_swapped(k) ? k + 1 : k - 1;
		if (wrap_swapped(k))
			swaps++;
		if (wrap_lost(s))
			lost++;
		else
			EMIT(s);
		if (k % 777 == 0 && k >= 300 && !wrap_lost(k - 300)) {
			EMIT(k - 300);
			dups++;
		}
		if (k >= W + 10 && (k - W - 10) % W == 5) {
			EMIT(k - W - 10);
			old++;
		}
	}
#undef EMIT
	want = (struct counts){ WRAP_N, emits, WRAP_N - lost, lost, dups, swaps,
	                                 1, 0, old, WRAP_N };
	counts(&a, WRAP_N, &got);
	compare("window wrap", &got, &want);
	check_identities("window wrap", &a, WRAP_N);
	if (lost != 525 || dups != 675 || old != 8 || swaps != 105)
		MISS("the stream is not what it should be: lost %" PRIu64 " dups %" PRIu64
		     " old %" PRIu64 " swaps %" PRIu64, lost, dups, old, swaps);
	/* constant transit, in whatever order: no jitter, no variation */
	if (a.jitter_ns != 0 || udpacct_delay_var_max_ns(&a) != 0 ||
	    udpacct_delay_var_mean_ns(&a) != 0)
		MISS("constant delay: jitter %g, var mean %g, max %g", a.jitter_ns,
		     udpacct_delay_var_mean_ns(&a), udpacct_delay_var_max_ns(&a));
	udpacct_free(&a);
	MISSED();
}

/* A random stream (xorshift, fixed seed) across 2^32 against a reference
 * that remembers every number: the rules of udpacct.h, stated plainly. */
static uint64_t rnd_state = 0x9e3779b97f4a7c15u;
static uint64_t
rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static void
test_random_vs_reference(void **state)
{
	const uint64_t base = G - 400000, span = 8000000;
	unsigned char *seen = calloc(span, 1);
	struct udpacct a;
	struct counts got, want;
	uint64_t cur = base, i;

	(void)state;
	assert_non_null(seen);
	init(&a);
	memset(&want, 0, sizeof want);
	for (i = 0; i < 1000000; i++) {
		uint64_t r = rnd() % 1000, seq;

		if (r < 900 || cur == base)
			seq = cur++;
		else if (r < 930)
			seq = (cur += 1 + rnd() % 5) - 1;      /* a few lost */
		else if (r < 935 && rnd() % 50 == 0)
			seq = (cur += rnd() % (2 * W)) - 1;    /* a long burst lost */
		else if (r < 935)
			seq = cur++;
		else {
			uint64_t back = 1 + rnd() % (r < 990 ? 64 : 2 * W);

			seq = cur - (back > cur - base ? cur - base : back);
		}
		if (seq - base >= span)
			break;
		if (i == 900000)
			udpacct_marker(&a);
		want.received++;
		want.late += i >= 900000;
		if (seq >= want.next) {
			want.next = seq + 1;
			want.unique++;
			seen[seq - base] = 1;
		} else if (want.next - 1 - seq >= W) {
			want.too_old++;
		} else if (seen[seq - base]) {
			want.duplicates++;
		} else {
			seen[seq - base] = 1;
			want.unique++;
			want.reordered++;
			if (want.next - 1 - seq > want.max_displacement)
				want.max_displacement = want.next - 1 - seq;
		}
		udpacct_add(&a, seq, seq, seq + 5);
	}
	want.sent = want.next;
	want.lost = want.sent - want.unique;
	counts(&a, want.sent, &got);
	compare("random stream", &got, &want);
	check_identities("random stream", &a, want.sent);
	if (want.too_old == 0 || want.reordered == 0 || want.duplicates == 0 ||
	    want.late == 0 || want.next <= G || want.max_displacement < W / 2)
		MISS("the random stream missed a case: old %" PRIu64 " reordered %"
		     PRIu64 " dups %" PRIu64 " late %" PRIu64, want.too_old,
		     want.reordered, want.duplicates, want.late);
	udpacct_free(&a);
	free(seen);
	MISSED();
}

/* Constant delay, irregular sending, reordering and a clock offset: J = 0. */
static void
test_jitter_constant(void **state)
{
	static const uint64_t seq[] = { 0, 1, 3, 2, 4, 4, 7, 5, 6, 9 };
	const uint64_t off = 1700000000000000000u + 3 * (uint64_t)MS;
	struct udpacct a;
	size_t i;

	(void)state;
	init(&a);
	for (i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		uint64_t s = seq[i] * seq[i] * 123457;       /* irregular gaps */

		udpacct_add(&a, seq[i], s, s + off);
	}
	if (a.jitter_ns != 0)
		MISS("constant delay: jitter %g", a.jitter_ns);
	if (udpacct_delay_var_mean_ns(&a) != 0 || udpacct_delay_var_max_ns(&a) != 0)
		MISS("constant delay: var %g / %g", udpacct_delay_var_mean_ns(&a),
		     udpacct_delay_var_max_ns(&a));
	if (a.transit_min != (int64_t)off || a.transit_max != (int64_t)off)
		MISS("transit %" PRId64 "..%" PRId64, a.transit_min, a.transit_max);
	udpacct_free(&a);
	MISSED();
}

/*
 * Sent every 10 ms, delays alternating d and d + 2 ms: every |D| is 2 ms, so
 * after N arrivals (N - 1 differences) J = 2 ms * (1 - (15/16)^(N-1)).
 * Tolerance: each step J += (|D| - J)/16 on numbers below 2 ms rounds twice
 * (the subtraction and the addition; /16 is exact), at most one ulp(2e6) in
 * all, and each old error shrinks by 15/16 a step, so the total stays below
 * 16 ulp; pow() and the closed form add a few more: 32 * 2e6 * DBL_EPSILON.
 */
static void
test_jitter_alternating(void **state)
{
	static const unsigned checks[] = { 1, 2, 3, 4, 17, 100, 1000, 5000 };
	const double tol = 32 * 2 * MS * DBL_EPSILON;
	const uint64_t d = 40 * (uint64_t)MS;
	struct udpacct a;
	unsigned n, c = 0;

	(void)state;
	init(&a);
	for (n = 1; n <= 5000; n++) {
		uint64_t s = (n - 1) * 10 * (uint64_t)MS;

		udpacct_add(&a, n - 1, s, s + d + (n % 2 == 0 ? 2 * (uint64_t)MS : 0));
		if (n == checks[c]) {
			double want = 2 * MS * (1 - pow(15.0 / 16.0, n - 1));

			if (fabs(a.jitter_ns - want) > tol)
				MISS("after %u: jitter %.9f, want %.9f (tolerance %.3g)", n,
				     a.jitter_ns, want, tol);
			c++;
		}
		/* by hand: 0, 2e6/16, then + (2e6 - 125000)/16 */
		if ((n == 1 && a.jitter_ns != 0) || (n == 2 && a.jitter_ns != 125000) ||
		    (n == 3 && a.jitter_ns != 242187.5))
			MISS("after %u: jitter %.6f", n, a.jitter_ns);
	}
	if (fabs(a.jitter_ns - 2 * MS) > tol)
		MISS("converged to %.9f, want 2 ms", a.jitter_ns);
	if (udpacct_delay_var_max_ns(&a) != 2 * MS ||
	    udpacct_delay_var_mean_ns(&a) != MS)
		MISS("var mean %g, max %g", udpacct_delay_var_mean_ns(&a),
		     udpacct_delay_var_max_ns(&a));
	udpacct_free(&a);
	MISSED();
}

/*
 * By hand, sent every 10 ms (S = 10 ms * seq), in arrival order:
 *   seq 0 at  5 ms: transit  5, first: J = 0
 *   seq 2 at 27 ms: transit  7, D = 22 - 20 = 2 ms:    J = 125000
 *   seq 2 at 28 ms: a duplicate, ignored
 *   seq 1 at 29 ms: transit 19, D = 2 - (-10) = 12 ms: J = 125000 + 11875000/16 = 867187.5
 *   seq 3 at 35 ms: transit  5, D = 6 - 20 = -14 ms:   J = 867187.5 + 13132812.5/16 = 1687988.28125
 * Transit 5, 7, 19, 5 ms: min 5, max 19, mean 9: variation mean 4, max 14 ms.
 */
static void
test_jitter_by_hand(void **state)
{
	static const struct { uint64_t seq; double at_ms, j; } arr[] = {
		{ 0, 5, 0 }, { 2, 27, 125000 }, { 2, 28, 125000 }, { 1, 29, 867187.5 },
		{ 3, 35, 1687988.28125 },
	};
	const uint64_t offsets[] = { 0, 1700000000000000000u, (uint64_t)-1000000000 };
	size_t i, o;

	(void)state;
	for (o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
		struct udpacct a;

		init(&a);
		for (i = 0; i < sizeof arr / sizeof arr[0]; i++) {
			udpacct_add(&a, arr[i].seq, arr[i].seq * 10 * (uint64_t)MS,
			            (uint64_t)(arr[i].at_ms * MS) + offsets[o]);
			if (a.jitter_ns != arr[i].j)
				MISS("offset %zu, arrival %zu: jitter %.6f, want %.6f", o, i,
				     a.jitter_ns, arr[i].j);
		}
		if (udpacct_delay_var_mean_ns(&a) != 4 * MS ||
		    udpacct_delay_var_max_ns(&a) != 14 * MS)
			MISS("offset %zu: var mean %.3f, max %.3f", o,
			     udpacct_delay_var_mean_ns(&a), udpacct_delay_var_max_ns(&a));
		if (a.transit_min != (int64_t)(5 * (uint64_t)MS + offsets[o]) ||
		    a.transit_max != (int64_t)(19 * (uint64_t)MS + offsets[o]))
			MISS("offset %zu: transit %" PRId64 "..%" PRId64, o, a.transit_min,
			     a.transit_max);
		udpacct_free(&a);
	}
	MISSED();
}

static void
test_no_data(void **state)
{
	struct udpacct a;
	struct counts c;

	(void)state;
	init(&a);
	counts(&a, 0, &c);
	if (c.received || c.unique || c.lost || c.next || a.jitter_ns != 0 ||
	    udpacct_delay_var_mean_ns(&a) != 0 || udpacct_delay_var_max_ns(&a) != 0)
		MISS("%s", "a fresh udpacct is not empty");
	if (udpacct_lost(&a, 7) != 7)
		MISS("%s", "nothing arrived: all lost");
	udpacct_add(&a, 0, 100, 50);       /* one, arriving "before" it was sent */
	if (a.jitter_ns != 0 || udpacct_delay_var_mean_ns(&a) != 0 ||
	    udpacct_delay_var_max_ns(&a) != 0 || a.transit_min != -50)
		MISS("one datagram: jitter %g, transit %" PRId64, a.jitter_ns,
		     a.transit_min);
	/* a second with a lower transit: D = (100 - 50) - (200 - 100) = -50 */
	udpacct_add(&a, 1, 200, 100);
	if (a.jitter_ns != 3.125 || a.transit_min != -100 || a.transit_max != -50 ||
	    udpacct_delay_var_mean_ns(&a) != 25 || udpacct_delay_var_max_ns(&a) != 50)
		MISS("two datagrams: jitter %g, transit %" PRId64 "..%" PRId64
		     ", var mean %g", a.jitter_ns, a.transit_min, a.transit_max,
		     udpacct_delay_var_mean_ns(&a));
	udpacct_free(&a);
	udpacct_free(&a);                   /* twice is harmless */
	MISSED();
}

/* Send times from a hostile sender: transits 2^63 and more apart. The sums
 * work modulo 2^64 (no signed overflow: the sanitizers' build checks) and
 * the figures stay numbers. */
static void
test_hostile_send_times(void **state)
{
	static const uint64_t send[] = { 0, UINT64_MAX, 1ULL << 63, 12345, 0 };
	struct udpacct a;
	char err[128];
	size_t i;

	(void)state;
	assert_int_equal(udpacct_init(&a, err, sizeof err), 0);
	for (i = 0; i < sizeof send / sizeof send[0]; i++)
		udpacct_add(&a, i, send[i], 1700000000000000000ULL + i);
	assert_int_equal(a.n.unique, 5);
	assert_true(udpacct_delay_var_max_ns(&a) >= 0);
	assert_true(udpacct_delay_var_mean_ns(&a) == udpacct_delay_var_mean_ns(&a));
	assert_true(a.jitter_ns >= 0);
	udpacct_free(&a);
}

/* The figures: counts as kept, timing in whole ns only when the datagrams
 * were timed and a first copy was, the rest left 0. */
static void
test_figures(void **state)
{
	struct udpacct a;
	struct udp_stats u;

	(void)state;
	init(&a);
	udpacct_figures(&a, 1, &u);         /* timed, but nothing arrived */
	assert_int_equal(u.flags, UDPS_SEQ);
	assert_int_equal(u.received, 0);
	assert_int_equal(u.jitter_ns, 0);
	udpacct_add(&a, 0, 100, 50);
	udpacct_add(&a, 1, 200, 100);       /* jitter 3.125, var 25 and 50 */
	udpacct_add(&a, 1, 300, 150);       /* a duplicate: timing unchanged */
	udpacct_marker(&a);
	udpacct_add(&a, 3, 400, 300);       /* late; transit -100 again */
	udpacct_figures(&a, 0, &u);         /* not timed: the counts only */
	assert_int_equal(u.flags, UDPS_SEQ);
	assert_int_equal(u.received, 4);
	assert_int_equal(u.unique, 3);
	assert_int_equal(u.duplicates, 1);
	assert_int_equal(u.late, 1);
	assert_int_equal(u.jitter_ns, 0);
	assert_int_equal(u.delay_var_ns, 0);
	assert_true(u.owd_min_ns == 0 && u.owd_mean_ns == 0);
	udpacct_figures(&a, 1, &u);
	assert_int_equal(u.flags, UDPS_SEQ | UDPS_TIMED);
	assert_int_equal(u.received, 4);
	assert_int_equal(u.unique, 3);
	assert_int_equal(u.jitter_ns, udpacct_ns(a.jitter_ns));
	assert_int_equal(u.delay_var_ns, udpacct_ns(udpacct_delay_var_mean_ns(&a)));
	assert_int_equal(u.delay_var_max_ns, 50);
	assert_true(u.owd_min_ns == -100);
	assert_true(u.owd_mean_ns == -100 + (int64_t)u.delay_var_ns);
	assert_int_equal(u.other, 0);
	assert_int_equal(u.ecn[0] | u.ecn[1] | u.ecn[2] | u.ecn[3], 0);
	udpacct_free(&a);
	/* whole ns: rounded half up, 0 below 0, UINT64_MAX above it */
	assert_int_equal(udpacct_ns(-5), 0);
	assert_int_equal(udpacct_ns(3.125), 3);
	assert_int_equal(udpacct_ns(2.5), 3);
	assert_int_equal(udpacct_ns(1e30), UINT64_MAX);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_window_wrap),
		cmocka_unit_test(test_random_vs_reference),
		cmocka_unit_test(test_jitter_constant),
		cmocka_unit_test(test_jitter_alternating),
		cmocka_unit_test(test_jitter_by_hand),
		cmocka_unit_test(test_no_data),
		cmocka_unit_test(test_hostile_send_times),
		cmocka_unit_test(test_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
