/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_swin.c: the sliding window's bookkeeping (swin.h): what may go,
 * which timer runs out first, what an acknowledgement was; and RFC 6298's
 * timeout, step by step. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "swin.h"

#define MS 1000000ull

static void
test_rto(void **state)
{
	struct swin_rto r;

	(void)state;
	swin_rto_init(&r, 0);
	assert_true(r.rto == SWIN_RTO_INIT_NS);      /* 2.1: 1 s */
	swin_rto_sample(&r, 60 * MS);                /* 2.2 */
	assert_true(r.srtt == 60 * MS && r.rttvar == 30 * MS);
	assert_true(r.rto == 200 * MS);              /* 60 + 4 * 30 = 180: min */
	swin_rto_sample(&r, 100 * MS);               /* 2.3 */
	assert_true(r.rttvar == (3 * 30 * MS + 40 * MS) / 4);   /* 32.5 ms */
	assert_true(r.srtt == (7 * 60 * MS + 100 * MS) / 8);    /* 65 ms */
	assert_true(r.rto == 200 * MS);     /* 65 + 4 * 32.5 = 195 ms: the minimum */
	swin_rto_sample(&r, 1000 * MS);
	assert_true(r.srtt == (7 * 65 * MS + 1000 * MS) / 8);
	assert_true(r.rttvar == (3 * 32500000ull + 935 * MS) / 4);
	assert_true(r.rto == r.srtt + 4 * r.rttvar);
	assert_true(r.samples == 3);
	/* 5.5: doubles, to 60 s; a sample ends the backoff (5.7) */
	swin_rto_backoff(&r);
	assert_true(r.rto == 2 * (r.srtt + 4 * r.rttvar));
	for (int i = 0; i < 20; i++)
		swin_rto_backoff(&r);
	assert_true(r.rto == SWIN_RTO_MAX_NS);
	swin_rto_sample(&r, 60 * MS);
	assert_true(r.rto < SWIN_RTO_MAX_NS);
	/* a huge sample stays within the bounds */
	swin_rto_init(&r, 0);
	swin_rto_sample(&r, UINT64_MAX);
	assert_true(r.rto == SWIN_RTO_MAX_NS);
	/* zero: the minimum */
	swin_rto_init(&r, 0);
	swin_rto_sample(&r, 0);
	assert_true(r.rto == SWIN_RTO_MIN_NS);
	/* --rto: fixed, no backoff; the round trips still measured */
	swin_rto_init(&r, 50 * MS);
	assert_true(r.rto == 50 * MS);
	swin_rto_sample(&r, 300 * MS);
	swin_rto_backoff(&r);
	assert_true(r.rto == 50 * MS && r.samples == 1);
	assert_true(r.have && r.srtt == 300 * MS);
}

static void
test_stop_and_wait(void **state)
{
	struct swin w;
	uint64_t rtt = 0;
	uint32_t tries;
	int have;
	char err[100];

	(void)state;
	assert_int_equal(swin_init(&w, 1, 3, err, sizeof err), 0);
	assert_true(swin_may_send(&w));
	assert_true(swin_deadline(&w) == UINT64_MAX);
	assert_true(swin_sent_new(&w, 1000, 500) == 0);
	assert_false(swin_may_send(&w));             /* one out: wait */
	assert_true(swin_deadline(&w) == 1500);
	assert_true(swin_first_timer(&w, &tries) == 0 && tries == 1);
	/* runs out: sent again, timer anew */
	swin_sent_again(&w, 0, 1500, 1000);
	assert_true(swin_deadline(&w) == 2500);
	assert_true(swin_first_timer(&w, &tries) == 0 && tries == 2);
	/* the first send's answer: delivered, no round trip (not the last
	 * send's stamp) */
	assert_int_equal(swin_acked(&w, 0, 1000, 1600, &rtt, &have), SWIN_ACK_NEW);
	assert_false(have);
	assert_true(swin_deadline(&w) == UINT64_MAX);
	/* the retransmission's answer comes too: old */
	assert_int_equal(swin_acked(&w, 0, 1500, 1700, &rtt, &have), SWIN_ACK_OLD);
	assert_true(swin_may_send(&w));
	assert_true(swin_sent_new(&w, 2000, 500) == 1);
	assert_int_equal(swin_acked(&w, 1, 2000, 2060, &rtt, &have), SWIN_ACK_NEW);
	assert_true(have && rtt == 60);
	assert_int_equal(swin_acked(&w, 5, 2000, 2060, &rtt, &have), SWIN_ACK_BAD);
	assert_true(swin_sent_new(&w, 3000, 500) == 2);
	assert_false(swin_done(&w));
	assert_int_equal(swin_acked(&w, 2, 3000, 3010, &rtt, &have), SWIN_ACK_NEW);
	assert_true(swin_done(&w));
	assert_false(swin_may_send(&w));             /* all 3 went */
	assert_true(w.firsts == 3 && w.resends == 1 && w.acks_new == 3 &&
	    w.acks_old == 1 && w.acks_bad == 1);
	swin_free(&w);
	swin_free(&w);                               /* twice: safe */
}

/* Window 4 over 10: selective acknowledgements, the base moving over a
 * hole only once it is filled, timers in deadline order. */
static void
test_selective(void **state)
{
	struct swin w;
	uint64_t rtt, t = 0, seq;
	uint32_t tries;
	int have, i;
	char err[100];

	(void)state;
	assert_int_equal(swin_init(&w, 4, 10, err, sizeof err), 0);
	for (i = 0; i < 4; i++)
		assert_true(swin_sent_new(&w, t += 10, 100) == (uint64_t)i);
	assert_false(swin_may_send(&w));
	assert_true(swin_deadline(&w) == 110);
	/* 1 and 3 answered: 0 still holds the base */
	assert_int_equal(swin_acked(&w, 1, 20, 80, &rtt, &have), SWIN_ACK_NEW);
	assert_true(have && rtt == 60);
	assert_int_equal(swin_acked(&w, 3, 40, 90, &rtt, &have), SWIN_ACK_NEW);
	assert_true(w.base == 0);
	assert_false(swin_may_send(&w));
	/* 0 runs out first, then 2 */
	seq = swin_first_timer(&w, &tries);
	assert_true(seq == 0 && tries == 1);
	swin_sent_again(&w, 0, 110, 200);            /* backed off: 310 */
	assert_true(swin_deadline(&w) == 130);
	assert_true(swin_first_timer(&w, &tries) == 2);
	assert_int_equal(swin_acked(&w, 0, 110, 170, &rtt, &have), SWIN_ACK_NEW);
	assert_true(have && rtt == 60);
	assert_true(w.base == 2);                    /* 0, 1 done; 2 is not */
	assert_true(swin_may_send(&w));
	assert_true(swin_sent_new(&w, 180, 100) == 4);
	assert_true(swin_sent_new(&w, 190, 100) == 5);
	assert_false(swin_may_send(&w));             /* 2..5 out */
	assert_int_equal(swin_acked(&w, 2, 30, 200, &rtt, &have), SWIN_ACK_NEW);
	assert_true(w.base == 4);                    /* over 3, answered before */
	/* an old answer for a reused slot's earlier sequence */
	assert_int_equal(swin_acked(&w, 0, 10, 210, &rtt, &have), SWIN_ACK_OLD);
	assert_int_equal(swin_acked(&w, 1, 20, 210, &rtt, &have), SWIN_ACK_OLD);
	assert_int_equal(swin_acked(&w, 6, 20, 210, &rtt, &have), SWIN_ACK_BAD);
	assert_true(swin_first_timer(&w, &tries) == 4);
	/* the rest, in any order */
	for (i = 6; i < 8; i++)
		assert_true(swin_sent_new(&w, 220, 100) == (uint64_t)i);
	assert_int_equal(swin_acked(&w, 7, 220, 230, &rtt, &have), SWIN_ACK_NEW);
	assert_int_equal(swin_acked(&w, 5, 190, 230, &rtt, &have), SWIN_ACK_NEW);
	assert_int_equal(swin_acked(&w, 4, 180, 230, &rtt, &have), SWIN_ACK_NEW);
	assert_true(w.base == 6 && swin_first_timer(&w, &tries) == 6);
	assert_int_equal(swin_acked(&w, 6, 220, 240, &rtt, &have), SWIN_ACK_NEW);
	assert_true(w.base == 8);
	assert_true(swin_deadline(&w) == UINT64_MAX);
	for (i = 8; i < 10; i++)
		swin_sent_new(&w, 250, 100);
	assert_int_equal(swin_acked(&w, 9, 250, 260, &rtt, &have), SWIN_ACK_NEW);
	assert_int_equal(swin_acked(&w, 8, 250, 260, &rtt, &have), SWIN_ACK_NEW);
	assert_true(swin_done(&w));
	assert_true(w.firsts == 10 && w.resends == 1 && w.acks_new == 10);
	swin_free(&w);
}

/* A large window: the heap gives the timers in deadline order whatever
 * order they were armed and answered in. */
static void
test_heap(void **state)
{
	enum { N = 257 };
	struct swin w;
	uint64_t rtt, last = 0, d;
	uint32_t tries;
	int have, i;
	char err[100];

	(void)state;
	assert_int_equal(swin_init(&w, N, 100000, err, sizeof err), 0);
	for (i = 0; i < N; i++)                      /* deadlines scrambled */
		swin_sent_new(&w, 1000, (uint64_t)((i * 7919) % 1000));
	for (i = 0; i < N; i += 3)                   /* a third answered */
		assert_int_equal(swin_acked(&w, (uint64_t)i, 1000, 1001, &rtt,
		    &have), SWIN_ACK_NEW);
	for (i = 0; i < N - (N + 2) / 3; i++) {      /* the rest run out in order */
		uint64_t seq;

		d = swin_deadline(&w);
		assert_true(d >= last);
		last = d;
		seq = swin_first_timer(&w, &tries);
		assert_true(seq % 3 != 0 && tries == 1);
		assert_true(w.slot[seq % N].deadline == d);
		/* sent again far later: out of the way */
		swin_sent_again(&w, seq, 5000, 5000);
	}
	assert_true(swin_deadline(&w) == 10000);
	assert_true(swin_first_timer(&w, &tries) % 3 != 0 && tries == 2);
	swin_free(&w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rto),
		cmocka_unit_test(test_stop_and_wait),
		cmocka_unit_test(test_selective),
		cmocka_unit_test(test_heap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
