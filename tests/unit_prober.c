/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_prober.c: the client's probes' results from their slots, as a
 * partner's echo fills them: with --same-clock each stamp must lie within
 * its probe's round trip (the edges accepted, one ns beyond refused); a
 * stamp of 2^63 or 2^64-1 is refused and never reaches signed arithmetic
 * (the Makefile builds src/client_prober.c into this test with UBSan,
 * which aborted on 2^63 before); the echoes that came before a moment. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client_prober.h"

#define OFF 1700000000000000000LL  /* CLOCK_REALTIME - CLOCK_MONOTONIC */

/* A finished prober of n probes, all in the idle phase: probe i sent at
 * 1 s + i ms, echoed 100 us later, stamped by the partner 40 us after its
 * send (a one-way delay up of 40 us, down of 60 us). */
static void
make(struct prober *p, uint64_t n)
{
	uint64_t i;

	memset(p, 0, sizeof *p);
	p->fd = -1;
	p->wake[0] = p->wake[1] = -1;
	p->off0 = OFF;
	p->cap = p->nsent = p->idle_end = n;
	p->slot = calloc(n, sizeof *p->slot);
	p->arr = calloc(n, sizeof *p->arr);
	p->scratch = calloc(n, sizeof *p->scratch);
	assert_non_null(p->slot);
	for (i = 0; i < n; i++) {
		p->slot[i].sent = 1000000000u + i * 1000000u;
		p->slot[i].rcvd = p->slot[i].sent + 100000u;
		p->slot[i].echo_real = (uint64_t)OFF + p->slot[i].sent + 40000u;
		p->arr[i] = (uint32_t)i;
	}
	atomic_store(&p->narr, n);
}

static void
test_honest(void **state)
{
	struct prober p;
	struct lat_phase idle, loaded;
	char err[300] = "";

	(void)state;
	make(&p, 5);
	assert_int_equal(prober_stamps_check(&p, err, sizeof err), 0);
	assert_int_equal(prober_phases(&p, 1, &idle, &loaded), 0);
	assert_int_equal(idle.answered, 5);
	assert_int_equal(idle.have_owd, 1);
	assert_int_equal(idle.up_p50_ns, 40000);
	assert_int_equal(idle.down_p50_ns, 60000);
	assert_int_equal(idle.p50_ns, 100000);
	prober_free(&p);
}

/* The edges: a stamp at the send (up 0) or at the arrival (down 0) is
 * possible on one clock; one ns outside either is not. */
static void
test_edges(void **state)
{
	struct prober p;
	struct lat_phase idle, loaded;
	char err[300];

	(void)state;
	make(&p, 3);
	p.slot[0].echo_real = (uint64_t)OFF + p.slot[0].sent;
	p.slot[2].echo_real = (uint64_t)OFF + p.slot[2].rcvd;
	assert_int_equal(prober_stamps_check(&p, err, sizeof err), 0);
	assert_int_equal(prober_phases(&p, 1, &idle, &loaded), 0);
	assert_int_equal(idle.up_p50_ns, 40000);

	p.slot[0].echo_real--;
	assert_int_equal(prober_stamps_check(&p, err, sizeof err), -1);
	assert_string_equal(err, "the partner's echo stamp 1700000000999999999 "
	    "of probe 0 is outside its round trip here [1700000001000000000, "
	    "1700000001000100000] on one clock (--same-clock; 1 of 3 echoed "
	    "probes)");
	p.slot[0].echo_real++;
	p.slot[2].echo_real++;
	assert_int_equal(prober_stamps_check(&p, err, sizeof err), -1);
	assert_string_equal(err, "the partner's echo stamp 1700000001002100001 "
	    "of probe 2 is outside its round trip here [1700000001002000000, "
	    "1700000001002100000] on one clock (--same-clock; 1 of 3 echoed "
	    "probes)");
	/* a probe never echoed has no stamp to judge */
	p.slot[2].rcvd = 0;
	assert_int_equal(prober_stamps_check(&p, err, sizeof err), 0);
	prober_free(&p);
}

/* The review's stamps: 2^63 overflowed the signed subtraction (UBSan
 * aborted here), 0 and 2^64-1 gave delays of -1.8e12 ms. Refused, and the
 * phases' arithmetic stays defined with or without --same-clock. */
static void
test_hostile(void **state)
{
	static const uint64_t stamps[] = { (uint64_t)1 << 63, 0, UINT64_MAX,
	    ((uint64_t)1 << 63) - 1 };
	struct prober p;
	struct lat_phase idle, loaded;
	char err[300], want[300];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof stamps / sizeof stamps[0]; i++) {
		make(&p, 4);
		p.slot[1].echo_real = stamps[i];
		p.slot[3].echo_real = stamps[i];
		assert_int_equal(prober_phases(&p, 1, &idle, &loaded), 0);
		assert_int_equal(prober_phases(&p, 0, &idle, &loaded), 0);
		assert_int_equal(idle.answered, 4);     /* round trips stand */
		assert_int_equal(idle.p50_ns, 100000);
		assert_int_equal(prober_stamps_check(&p, err, sizeof err), -1);
		snprintf(want, sizeof want, "the partner's echo stamp %llu of probe 1 "
		         "is outside its round trip here [1700000001001000000, "
		         "1700000001001100000] on one clock (--same-clock; 2 of 4 "
		         "echoed probes)", (unsigned long long)stamps[i]);
		assert_string_equal(err, want);
		prober_free(&p);
	}
}

/* What ECHOSTATS is held to: the echoes that arrived before a moment. */
static void
test_answered_before(void **state)
{
	struct prober p;

	(void)state;
	make(&p, 4);
	assert_int_equal(prober_answered_before(&p, 0), 0);
	assert_int_equal(prober_answered_before(&p, p.slot[1].rcvd), 1);
	assert_int_equal(prober_answered_before(&p, p.slot[1].rcvd + 1), 2);
	assert_int_equal(prober_answered_before(&p, UINT64_MAX), 4);
	atomic_store(&p.narr, 2);               /* published so far */
	assert_int_equal(prober_answered_before(&p, UINT64_MAX), 2);
	prober_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_honest),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_answered_before),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
