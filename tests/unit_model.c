/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_model.c: the result model's arithmetic: steady state, the
 * identities the intervals must hold, a side's sums of its streams, and
 * fairness. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <math.h>

#include "model.h"
#include "xfer.h"

#define S 1000000000ull

/* A side with intervals (start s, end s, bytes, calls, flags) and totals. */
struct irow { uint64_t a, b, bytes, calls; uint32_t flags; };

static void
side_of(struct side *sd, const struct irow *r, size_t n, uint64_t bytes,
        uint64_t calls)
{
	size_t i;

	memset(sd, 0, sizeof *sd);
	for (i = 0; i < n; i++) {
		struct ival iv = { .start_ns = r[i].a, .end_ns = r[i].b,
		    .bytes = r[i].bytes, .calls = r[i].calls, .flags = r[i].flags };
		assert_int_equal(model_add_ival(sd, &iv), 0);
	}
	sd->r.bytes = bytes;
	sd->r.calls = calls;
}

static void
test_steady(void **state)
{
	/* 1 s omitted, two full seconds, a partial last interval of 0.5 s */
	static const struct irow iv[] = {
		{ 0, 1 * S, 900, 9, IVAL_OMITTED },
		{ 1 * S, 2 * S, 1000, 10, 0 },
		{ 2 * S, 3 * S, 1000, 10, 0 },
		{ 3 * S, 3 * S + S / 2, 500, 5, IVAL_LAST },
	};
	struct side sd;

	(void)state;
	side_of(&sd, iv, 4, 3400, 34);
	model_steady(&sd);
	assert_true(sd.have_steady);
	assert_int_equal(sd.steady_bytes, 2500);        /* exactly, not a rate */
	assert_int_equal(sd.steady_ns, 2 * S + S / 2);
	assert_null(model_ivals_invalid(&sd));
	model_free(&(struct run_model){ .side = { sd } });
	/* everything omitted: no steady state */
	side_of(&sd, iv, 1, 900, 9);
	model_steady(&sd);
	assert_false(sd.have_steady);
	free(sd.iv);
}

static void
test_invalid(void **state)
{
	static const struct { const char *name; struct irow iv[3]; size_t n;
	    uint64_t bytes, calls; const char *want; } rows[] = {
		{ "good", { { 0, S, 10, 1, 0 }, { S, 2 * S, 5, 1, IVAL_LAST } }, 2,
		  15, 2, NULL },
		{ "one byte short", { { 0, S, 10, 1, 0 }, { S, 2 * S, 5, 1, IVAL_LAST } },
		  2, 16, 2, "intervals that do not add up to its totals" },
		{ "a call too many", { { 0, S, 10, 1, 0 }, { S, 2 * S, 5, 2, IVAL_LAST } },
		  2, 15, 2, "intervals that do not add up to its totals" },
		{ "no last", { { 0, S, 10, 1, 0 }, { S, 2 * S, 5, 1, 0 } }, 2, 15, 2,
		  "no last interval" },
		{ "last too early", { { 0, S, 10, 1, IVAL_LAST }, { S, 2 * S, 5, 1,
		  IVAL_LAST } }, 2, 15, 2, "a last interval before others" },
		{ "a gap", { { 0, S, 10, 1, 0 }, { S + 1, 2 * S, 5, 1, IVAL_LAST } }, 2,
		  15, 2, "intervals with gaps or overlaps" },
		{ "an overlap", { { 0, S, 10, 1, 0 }, { S - 1, 2 * S, 5, 1, IVAL_LAST } },
		  2, 15, 2, "intervals with gaps or overlaps" },
		{ "none: no sampling", { { 0 } }, 0, 15, 2, NULL },
		{ "2^64-1 bytes in two", { { 0, S, UINT64_MAX - 5, 1, 0 }, { S, 2 * S, 5,
		  1, IVAL_LAST } }, 2, UINT64_MAX, 2, NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct side sd;
		const char *got;

		side_of(&sd, rows[i].iv, rows[i].n, rows[i].bytes, rows[i].calls);
		got = model_ivals_invalid(&sd);
		if (rows[i].want == NULL && got != NULL)
			fail_msg("%s: '%s'", rows[i].name, got);
		if (rows[i].want != NULL && (got == NULL || strcmp(got, rows[i].want)))
			fail_msg("%s: '%s', want '%s'", rows[i].name, got ? got : "(ok)",
			         rows[i].want);
		free(sd.iv);
	}
}

static void
test_mbit(void **state)
{
	int ok;

	(void)state;
	assert_true(model_mbit(1250000, S, &ok) == 10.0 && ok);
	assert_true(model_mbit(1, 0, &ok) == 0 && !ok);
}

/* Every figure once: the rates with and without time, a UDP receiver's
 * loss against what its sender sent (and none for a sender), the link and
 * bound ratios with --link, and a stream's figures as a side's. */
static void
test_figures(void **state)
{
	struct run_model m;
	const struct figures *f;

	(void)state;
	memset(&m, 0, sizeof m);
	m.proto = PROTO_UDP;
	m.side[0] = (struct side){ .tag = 'l', .proto = PROTO_UDP,
	    .role = ROLE_SEND, .have_result = 1 };
	m.side[1] = (struct side){ .tag = '1', .proto = PROTO_UDP,
	    .role = ROLE_RECV, .have_result = 1, .udp_sent = 1000 };
	m.side[0].r = (struct gput_result){ .bytes = 1250000, .calls = 1000,
	    .dgrams = 1000, .real_ns = S, .cpu_ns = S / 4 };
	m.side[1].r = (struct gput_result){ .bytes = 1237500, .calls = 990,
	    .dgrams = 990, .real_ns = 2 * S };
	m.have_pred = 1;
	m.link_pred.expected_bps = 20e6;
	m.link_pred.have_path = 1;
	m.link_pred.path.bound_bps = 8e6;
	assert_int_equal(model_streams(&m.side[1], 1), 0);
	m.side[1].st[0].r = m.side[1].r;
	model_figures(&m);
	f = &m.side[0].fig;
	assert_true(f->real_mbit.ok && f->real_mbit.v == 10.0);
	assert_true(f->cpu_mbit.ok && f->cpu_mbit.v == 40.0);
	assert_true(f->real_cps.ok && f->real_cps.v == 1000.0);
	assert_true(f->cpu_cps.ok && f->cpu_cps.v == 4000.0);
	assert_false(f->have_loss);             /* a sender loses nothing */
	assert_true(f->link_ratio.ok && f->link_ratio.v == 0.5);
	assert_true(f->bound_ratio.ok && f->bound_ratio.v == 1.25);
	f = &m.side[1].fig;
	assert_true(f->real_mbit.ok && f->real_mbit.v == 4.95);
	assert_true(!f->cpu_mbit.ok && !f->cpu_cps.ok);     /* no CPU time */
	assert_true(f->have_loss);
	assert_int_equal(f->udp_sent, 1000);
	assert_int_equal(f->udp_lost, 10);
	assert_true(f->loss_pct.ok && f->loss_pct.v == 1.0);
	f = &m.side[1].st[0].fig;               /* a stream's, the same way */
	assert_true(f->real_mbit.ok && f->real_mbit.v == 4.95);
	m.side[1].udp_sent = 0;                 /* a sender that does not know */
	m.side[1].r.dgrams = 5;
	m.link_pred.path.bound_bps = 30e6;      /* above eta * C: no bound ratio */
	model_figures(&m);
	f = &m.side[1].fig;
	assert_int_equal(f->udp_lost, 0);
	assert_false(f->loss_pct.ok);
	assert_false(f->bound_ratio.ok);
	m.side[1].r.real_ns = 0;                /* no time: no rate, no ratio */
	model_figures(&m);
	assert_false(f->real_mbit.ok || f->link_ratio.ok || f->real_cps.ok);
	model_free(&m);
}

/* -P 1: the side's TCP_INFO and UDP accounting are its one stream's; a
 * side of several streams keeps its own. */
static void
test_fold(void **state)
{
	struct side s;

	(void)state;
	memset(&s, 0, sizeof s);
	assert_int_equal(model_streams(&s, 1), 0);
	s.st[0].tcp.valid = 1;
	s.st[0].tcp.rtt_us = 77;
	s.st[0].have_udp = 1;
	s.st[0].udp.unique = 9;
	model_fold_stream(&s);
	assert_true(s.tcp.valid && s.tcp.rtt_us == 77);
	assert_true(s.have_udp && s.udp.unique == 9);
	assert_int_equal(model_streams(&s, 2), 0);
	s.tcp.rtt_us = 1;
	s.st[0].tcp.rtt_us = 5;
	model_fold_stream(&s);
	assert_int_equal(s.tcp.rtt_us, 1);
	model_streams(&s, 0);
}

/* ---- streams ---------------------------------------------------------- */

/* Stream k of s (from 1): a result of bytes, calls, datagrams over a
 * window start..start + real, ending at fct. */
static void
stream_of(struct side *s, uint32_t k, uint64_t bytes, uint64_t calls,
          uint64_t dgrams, uint64_t start, uint64_t real, uint64_t fct)
{
	struct side *t = &s->st[k - 1];

	t->have_result = 1;
	t->r.bytes = bytes;
	t->r.calls = calls;
	t->r.dgrams = dgrams;
	t->start_ns = start;
	t->r.real_ns = real;
	t->end_ns = fct;
}

static void
test_streams_alloc(void **state)
{
	struct run_model m;
	struct side *s = &m.side[0];
	struct ival iv = { .end_ns = S, .bytes = 1, .calls = 1 };
	uint32_t k;

	(void)state;
	memset(&m, 0, sizeof m);
	s->tag = '1';
	s->proto = PROTO_UDP;
	s->role = ROLE_RECV;
	s->len = 1400;
	s->count = 10;
	assert_int_equal(model_streams(s, 3), 0);
	assert_int_equal(s->nst, 3);
	for (k = 0; k < 3; k++) {
		assert_int_equal(s->st[k].stream, k + 1);
		assert_int_equal(s->st[k].tag, '1');
		assert_int_equal(s->st[k].proto, PROTO_UDP);
		assert_int_equal(s->st[k].role, ROLE_RECV);
		assert_int_equal(s->st[k].len, 1400);
		assert_int_equal(s->st[k].count, 10);
		assert_false(s->st[k].have_result);
		assert_null(s->st[k].st);
		assert_int_equal(model_add_ival(&s->st[k], &iv), 0);
	}
	/* again: the old streams and their intervals go (no leak under ASan) */
	assert_int_equal(model_streams(s, 2), 0);
	assert_int_equal(s->nst, 2);
	assert_int_equal(s->st[1].niv, 0);
	assert_int_equal(model_add_ival(&s->st[1], &iv), 0);
	model_free(&m);
	assert_null(s->st);
	assert_int_equal(s->nst, 0);
	assert_int_equal(model_streams(s, 0), 0);
	assert_null(s->st);
}

/* A side's totals are the exact sums of its streams'; its window runs from
 * the first start to the last end. */
static void
test_sum(void **state)
{
	struct side s;

	(void)state;
	memset(&s, 0, sizeof s);
	s.proto = PROTO_TCP;
	s.role = ROLE_SEND;
	s.r.cpu_ns = 7 * S;             /* the process's own: kept */
	assert_int_equal(model_streams(&s, 3), 0);
	/* 2^63 + 2^62 + (2^62 - 1) bytes: 2^64 - 1, exact */
	stream_of(&s, 1, 1ull << 63, 1000, 0, 2 * S / 10, 3 * S, 3 * S + S / 10);
	stream_of(&s, 2, 1ull << 62, 2000, 0, S / 10, 2 * S, 2 * S + S / 2);
	stream_of(&s, 3, (1ull << 62) - 1, 3000, 0, 3 * S / 10, 4 * S, 4 * S + S);
	s.st[0].r.flags = RES_QUEUE | RES_BUFS;
	s.st[0].r.unsent = 5;
	s.st[0].r.sndbuf = 4096;
	s.st[2].r.flags = RES_QUEUE;
	s.st[2].r.unsent = 7;
	model_sum(&s);
	assert_true(s.r.bytes == UINT64_MAX);
	assert_int_equal(s.r.calls, 6000);
	assert_int_equal(s.start_ns, S / 10);
	/* from 0.1 s to stream 3's 0.3 + 4 s */
	assert_int_equal(s.r.real_ns, 4 * S + 2 * S / 10);
	assert_int_equal(s.end_ns, 5 * S);
	assert_int_equal(s.r.cpu_ns, 7 * S);
	assert_int_equal(s.r.flags, RES_QUEUE | RES_BUFS);
	assert_int_equal(s.r.unsent, 12);
	assert_int_equal(s.r.sndbuf, 4096);
	assert_null(model_sum_invalid(&s, &s.r));
	/* a stream without a result is not in the sums */
	s.st[2].have_result = 0;
	model_sum(&s);
	assert_true(s.r.bytes == (1ull << 63) + (1ull << 62));
	assert_int_equal(s.r.real_ns, 3 * S + S / 10);
	assert_int_equal(s.end_ns, 3 * S + S / 10);
	free(s.st[0].iv);
	free(s.st);
}

/* A UDP receiver's datagrams and accounting add up. */
static void
test_sum_udp(void **state)
{
	struct side s;

	(void)state;
	memset(&s, 0, sizeof s);
	s.proto = PROTO_UDP;
	s.role = ROLE_RECV;
	assert_int_equal(model_streams(&s, 2), 0);
	stream_of(&s, 1, 14000, 10, 10, 0, S, S);
	stream_of(&s, 2, 42000, 30, 30, 0, S, S);
	s.st[0].r.flags = RES_MARKER;
	s.st[1].r.flags = RES_MARKER | RES_IDLE;
	s.st[0].r.dgrams_sent = 10;
	s.st[1].r.dgrams_sent = 31;
	s.st[0].udp_sent = 10;
	s.st[1].udp_sent = 31;
	s.st[0].have_udp = s.st[1].have_udp = 1;
	s.st[0].udp = (struct udp_stats){ .received = 11, .unique = 10,
	    .duplicates = 1, .max_displacement = 2, .jitter_ns = 100,
	    .flags = UDPS_ALL };
	s.st[1].udp = (struct udp_stats){ .received = 30, .unique = 30,
	    .reordered = 3, .max_displacement = 1, .jitter_ns = 200,
	    .flags = UDPS_SEQ };
	model_sum(&s);
	assert_int_equal(s.r.dgrams, 40);
	assert_int_equal(s.r.dgrams_sent, 41);
	assert_int_equal(s.r.flags, RES_MARKER | RES_IDLE);
	assert_int_equal(s.udp_sent, 41);
	assert_true(s.have_udp);
	assert_int_equal(s.udp.received, 41);
	assert_int_equal(s.udp.unique, 40);
	assert_int_equal(s.udp.duplicates, 1);
	assert_int_equal(s.udp.reordered, 3);
	assert_int_equal(s.udp.max_displacement, 2);
	assert_int_equal(s.udp.jitter_ns, 175);   /* (10 * 100 + 30 * 200) / 40 */
	assert_int_equal(s.udp.flags, UDPS_SEQ);
	/* no marker on one stream: none for the side; one unknown sent count */
	s.st[1].r.flags = 0;
	s.st[1].r.dgrams_sent = 0;
	model_sum(&s);
	assert_int_equal(s.r.flags, 0);
	assert_int_equal(s.r.dgrams_sent, 0);
	free(s.st);
}

/* A partner's totals that do not fit its streams are caught. */
static void
test_sum_invalid(void **state)
{
	struct side s;
	struct gput_result r;

	(void)state;
	memset(&s, 0, sizeof s);
	assert_null(model_sum_invalid(&s, &s.r));       /* no streams */
	s.r.bytes = 5;
	model_sum(&s);                                  /* nothing to sum */
	assert_int_equal(s.r.bytes, 5);
	s.r.bytes = 0;
	assert_int_equal(model_streams(&s, 2), 0);
	stream_of(&s, 1, 1000, 10, 10, 0, S, S);
	stream_of(&s, 2, 3000, 30, 30, 0, S, S);
	r = (struct gput_result){ .bytes = 4000, .calls = 40, .dgrams = 40 };
	assert_null(model_sum_invalid(&s, &r));
	r.bytes = 4001;
	assert_string_equal(model_sum_invalid(&s, &r),
	                    "Bytes that are not the sum of its streams'");
	r.bytes = 4000;
	r.calls = 39;
	assert_string_equal(model_sum_invalid(&s, &r),
	                    "Calls that are not the sum of its streams'");
	r.calls = 40;
	r.dgrams = 41;
	assert_string_equal(model_sum_invalid(&s, &r),
	                    "datagrams that are not the sum of its streams'");
	/* sums past 2^64 - 1 are caught, not wrapped into agreement:
	 * 2^64 - 1 + 1001 wraps to 1000 */
	r.dgrams = 40;
	s.st[1].r.bytes = UINT64_MAX;
	r.bytes = 999;
	assert_string_equal(model_sum_invalid(&s, &r),
	                    "streams whose counts overflow 64 bits");
	s.st[1].r.bytes = 3000;
	s.st[0].r.calls = UINT64_MAX;
	r.bytes = 4000;
	r.calls = 29;
	assert_string_equal(model_sum_invalid(&s, &r),
	                    "streams whose counts overflow 64 bits");
	free(s.st);
}

/* Stream 1 ran 2 intervals, stream 2 runs on for 4. */
static void
two_streams(struct side *s, int ended2)
{
	static const struct irow a[] = {
		{ 0, S, 100, 1, IVAL_OMITTED | IVAL_TCP },
		{ S, S + S / 2, 50, 1, IVAL_LAST | IVAL_TCP },
	};
	static const struct irow b[] = {
		{ 0, S, 200, 2, IVAL_OMITTED | IVAL_TCP },
		{ S, 2 * S, 200, 2, IVAL_TCP },
		{ 2 * S, 3 * S, 200, 2, 0 },            /* no TCP_INFO */
		{ 3 * S, 3 * S + S / 4, 50, 1, IVAL_LAST | IVAL_TCP },
	};
	size_t i;

	memset(s, 0, sizeof *s);
	assert_int_equal(model_streams(s, 2), 0);
	for (i = 0; i < 2; i++) {
		struct ival iv = { .start_ns = a[i].a, .end_ns = a[i].b,
		    .bytes = a[i].bytes, .calls = a[i].calls, .flags = a[i].flags,
		    .retrans = 1, .cwnd = 10, .srtt_us = 1000 };
		assert_int_equal(model_add_ival(&s->st[0], &iv), 0);
	}
	for (i = 0; i < (ended2 ? 4u : 3u); i++) {
		struct ival iv = { .start_ns = b[i].a, .end_ns = b[i].b,
		    .bytes = b[i].bytes, .calls = b[i].calls, .flags = b[i].flags,
		    .retrans = 2, .cwnd = 20, .srtt_us = 2000 };
		assert_int_equal(model_add_ival(&s->st[1], &iv), 0);
	}
}

static void
free_side(struct side *s)
{
	uint32_t k;

	for (k = 0; k < s->nst; k++)
		free(s->st[k].iv);
	free(s->st);
	free(s->iv);
}

static void
test_ival_sum(void **state)
{
	struct side s;
	struct ival iv;

	(void)state;
	two_streams(&s, 1);
	assert_int_equal(model_ival_sum(&s, 0, &iv), 1);
	assert_int_equal(iv.bytes, 300);
	assert_int_equal(iv.calls, 3);
	assert_int_equal(iv.start_ns, 0);
	assert_int_equal(iv.end_ns, S);
	assert_int_equal(iv.flags, IVAL_OMITTED | IVAL_TCP);
	assert_int_equal(iv.retrans, 3);
	assert_int_equal(iv.cwnd, 30);
	assert_int_equal(iv.srtt_us, 1500);
	/* stream 1's last, partial interval and stream 2's second */
	assert_int_equal(model_ival_sum(&s, 1, &iv), 1);
	assert_int_equal(iv.bytes, 250);
	assert_int_equal(iv.start_ns, S);
	assert_int_equal(iv.end_ns, 2 * S);
	assert_int_equal(iv.flags, IVAL_TCP);           /* not the last yet */
	/* stream 1 ended before: stream 2 alone */
	assert_int_equal(model_ival_sum(&s, 2, &iv), 1);
	assert_int_equal(iv.bytes, 200);
	assert_int_equal(iv.flags, 0);                  /* no TCP_INFO in it */
	assert_int_equal(model_ival_sum(&s, 3, &iv), 1);
	assert_int_equal(iv.bytes, 50);
	assert_int_equal(iv.start_ns, 3 * S);
	assert_int_equal(iv.end_ns, 3 * S + S / 4);
	assert_int_equal(iv.flags, IVAL_LAST | IVAL_TCP);
	assert_int_equal(model_ival_sum(&s, 4, &iv), 0);        /* past the end */
	/* the rebuilt side's intervals tile and add up to its totals */
	assert_int_equal(model_sum_ivals(&s), 0);
	assert_int_equal(s.niv, 4);
	s.r.bytes = 800;
	s.r.calls = 9;
	assert_null(model_ivals_invalid(&s));
	model_steady(&s);
	assert_true(s.have_steady);
	assert_int_equal(s.steady_bytes, 500);
	assert_int_equal(s.steady_ns, 2 * S + S / 4);
	free_side(&s);
}

/* While stream 2 runs on, the sums it has not reported are not whole and
 * none is the last. */
static void
test_ival_sum_running(void **state)
{
	struct side s;
	struct ival iv;

	(void)state;
	two_streams(&s, 0);
	assert_int_equal(model_ival_sum(&s, 2, &iv), 1);
	assert_false(iv.flags & IVAL_LAST);
	assert_int_equal(model_ival_sum(&s, 3, &iv), 0);        /* not yet */
	assert_int_equal(model_sum_ivals(&s), 0);
	assert_int_equal(s.niv, 3);
	assert_false(s.iv[2].flags & IVAL_LAST);
	/* stream 2 has sent its first only: the sum of index 1 waits for it,
	 * and is not the last although stream 1's is */
	s.st[1].niv = 1;
	assert_int_equal(model_ival_sum(&s, 1, &iv), 0);
	assert_int_equal(iv.bytes, 50);         /* what came so far */
	assert_false(iv.flags & IVAL_LAST);
	/* its result came without more intervals: it has ended */
	s.st[1].have_result = 1;
	assert_int_equal(model_ival_sum(&s, 1, &iv), 1);
	assert_true(iv.flags & IVAL_LAST);
	free_side(&s);
}

static void
test_jain(void **state)
{
	static const double eq[] = { 7.5, 7.5, 7.5, 7.5, 7.5 };
	static const double one[] = { 1, 0, 0, 0 };
	static const double ramp[] = { 1, 2, 3 };
	static const double zero[] = { 0, 0, 0 };
	static const double big[] = { 1e300, 1e300 };

	(void)state;
	assert_true(model_jain(eq, 5) == 1.0);
	assert_true(model_jain(eq, 1) == 1.0);
	assert_true(model_jain(one, 4) == 0.25);
	assert_true(fabs(model_jain(ramp, 3) - 36.0 / 42.0) < 1e-12);
	assert_true(model_jain(zero, 3) == 0);
	assert_true(model_jain(eq, 0) == 0);
	assert_true(model_jain(big, 2) == 1.0);         /* no overflow */
}

/* The receiver's streams: shares sum to 1, Jain's index of their goodputs
 * (over their own windows, not the bytes alone), and of the steady states. */
static void
test_fairness(void **state)
{
	struct run_model m;
	struct side *p = &m.side[1];
	double sum = 0;
	uint32_t k;

	(void)state;
	memset(&m, 0, sizeof m);
	m.streams = 3;
	m.side[0].role = ROLE_SEND;
	p->role = ROLE_RECV;
	p->have_result = 1;
	assert_int_equal(model_streams(p, 3), 0);
	/* 10, 20 and 30 MBit/s: 1.25 MB in 1 s, 5 MB in 2 s, 3.75 MB in 1 s */
	stream_of(p, 1, 1250000, 1, 0, 0, S, S);
	stream_of(p, 2, 5000000, 1, 0, 0, 2 * S, 2 * S);
	stream_of(p, 3, 3750000, 1, 0, 0, S, S);
	model_fairness(&m);
	assert_true(m.have_fair);
	assert_false(m.have_fair_steady);
	assert_true(fabs(m.fair - 36.0 / 42.0) < 1e-12);
	assert_true(fabs(p->st[0].share - 1.0 / 6) < 1e-12);
	assert_true(fabs(p->st[1].share - 2.0 / 6) < 1e-12);
	assert_true(fabs(p->st[2].share - 3.0 / 6) < 1e-12);
	for (k = 0; k < 3; k++)
		sum += p->st[k].share;
	assert_true(fabs(sum - 1) < 1e-12);
	/* steady states, all equal; a stream without time has goodput 0 */
	for (k = 0; k < 3; k++) {
		p->st[k].have_steady = 1;
		p->st[k].steady_bytes = 1000;
		p->st[k].steady_ns = S;
	}
	p->st[2].r.real_ns = 0;
	model_fairness(&m);
	assert_true(m.have_fair_steady);
	assert_true(m.fair_steady == 1.0);
	/* 10 and 20: (30)^2 / (3 * 500) */
	assert_true(fabs(m.fair - 900.0 / 1500.0) < 1e-12);
	assert_true(p->st[2].share == 0);
	assert_true(fabs(p->st[0].share + p->st[1].share - 1) < 1e-12);
	/* the local side receives */
	m.side[0].role = ROLE_RECV;
	p->role = ROLE_SEND;
	model_fairness(&m);
	assert_false(m.have_fair);
	/* none without streams, with one, or with a count that disagrees */
	p->role = ROLE_RECV;
	m.side[0].role = ROLE_SEND;
	m.streams = 1;
	model_fairness(&m);
	assert_false(m.have_fair);
	m.streams = 4;
	model_fairness(&m);
	assert_false(m.have_fair);
	m.streams = 3;
	p->have_result = 0;
	model_fairness(&m);
	assert_false(m.have_fair);
	assert_false(m.have_fair_steady);
	model_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_mbit),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_streams_alloc),
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_sum_udp),
		cmocka_unit_test(test_sum_invalid),
		cmocka_unit_test(test_ival_sum),
		cmocka_unit_test(test_ival_sum_running),
		cmocka_unit_test(test_jain),
		cmocka_unit_test(test_fairness),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
