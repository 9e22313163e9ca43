/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_ratelog.c: the partner's refusal log bound (partner_ratelog.c): a
 * burst, then one line per RATELOG_EVERY_NS per reason, each reason apart,
 * the count of what was not logged given with the next line, and the
 * reason read from a refusal's text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "partner_ratelog.h"

#define S 1000000000ull

static void
test_burst_then_rate(void **state)
{
	struct ratelog rl;
	uint64_t sup = 99, t = 5 * S;
	unsigned i, logged = 0;

	(void)state;
	memset(&rl, 0, sizeof rl);
	for (i = 0; i < RATELOG_BURST; i++) {
		assert_int_equal(ratelog_allow(&rl, RATELOG_ALLOW, t, &sup), 1);
		assert_int_equal(sup, 0);
	}
	/* 1000 more in the same ns: none logged */
	for (i = 0; i < 1000; i++)
		logged += (unsigned)ratelog_allow(&rl, RATELOG_ALLOW, t, &sup);
	assert_int_equal(logged, 0);
	/* just under one refill: still none */
	assert_int_equal(ratelog_allow(&rl, RATELOG_ALLOW, t + RATELOG_EVERY_NS - 1, &sup), 0);
	/* one refill: one line, which carries the 1001 not logged */
	assert_int_equal(ratelog_allow(&rl, RATELOG_ALLOW, t + RATELOG_EVERY_NS, &sup), 1);
	assert_int_equal(sup, 1001);
	assert_int_equal(ratelog_allow(&rl, RATELOG_ALLOW, t + RATELOG_EVERY_NS, &sup), 0);
	/* a flood of 10 s at 1 per us: the burst's refill, 2 a second */
	t += 2 * S;
	memset(&rl, 0, sizeof rl);
	logged = 0;
	for (uint64_t k = 0; k < 10000000; k += 1) {
		uint64_t now = t + k * 1000;

		if (ratelog_allow(&rl, RATELOG_HANDSHAKES, now, &sup))
			logged++;
	}
	assert_int_equal(logged, RATELOG_BURST + (10 * S - 1000) / RATELOG_EVERY_NS);
}

static void
test_reasons_apart(void **state)
{
	struct ratelog rl;
	uint64_t sup;
	unsigned i;

	(void)state;
	memset(&rl, 0, sizeof rl);
	for (i = 0; i < RATELOG_BURST + 3; i++)
		(void)ratelog_allow(&rl, RATELOG_ALLOW, S, &sup);
	/* another reason has its own bucket */
	assert_int_equal(ratelog_allow(&rl, RATELOG_PER_SOURCE, S, &sup), 1);
	assert_int_equal(sup, 0);
	/* after a long quiet time the bucket is full again, no more */
	for (i = 0; i < RATELOG_BURST; i++)
		assert_int_equal(ratelog_allow(&rl, RATELOG_ALLOW, 1000 * S, &sup), 1);
	assert_int_equal(ratelog_allow(&rl, RATELOG_ALLOW, 1000 * S, &sup), 0);
	/* a clock that steps back adds nothing */
	assert_int_equal(ratelog_allow(&rl, RATELOG_ALLOW, 2 * S, &sup), 0);
}

static void
test_reason_of_text(void **state)
{
	(void)state;
	assert_int_equal(ratelog_reason("access denied: 10.0.0.1 is not in this "
	    "partner's --allow list"), RATELOG_ALLOW);
	assert_int_equal(ratelog_reason("partner busy: 2 tests or handshakes from "
	    "::1, at most 2 (--max-per-source)"), RATELOG_PER_SOURCE);
	assert_int_equal(ratelog_reason("partner busy: 4 tests running, at most 4 "
	    "(--max-sessions)"), RATELOG_SESSIONS);
	assert_int_equal(ratelog_reason("partner busy: 8 clients in the handshake, "
	    "refused early from 4, all at 8 (--max-handshakes)"), RATELOG_HANDSHAKES);
	assert_int_equal(ratelog_reason("cannot serve: out of memory"), RATELOG_OTHER);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_then_rate),
		cmocka_unit_test(test_reasons_apart),
		cmocka_unit_test(test_reason_of_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
