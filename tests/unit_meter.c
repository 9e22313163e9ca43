/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_meter.c: the UDP receiver's window across a step of the real-time
 * clock (meter_stamp_span, a pure function) and the offset it is fed
 * (meter_real_offset). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <time.h>

#include "meter.h"

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

#define S 1000000000LL          /* one second in ns */
#define T0 1700000000000000000ULL /* a kernel timestamp: November 2023 */
#define OFF 1699990000000000000LL /* CLOCK_REALTIME - CLOCK_MONOTONIC */

static void
test_stamp_span(void **state)
{
	static const struct {
		const char *name;
		uint64_t first, last;
		int64_t off0, off1;
		uint64_t fallback, want;
		int stepped;
	} rows[] = {
		{ "no change", T0, T0 + 2 * S, OFF, OFF, 7, 2 * S, 0 },
		{ "slew: a few us", T0, T0 + 2 * S, OFF, OFF + 3000, 7, 2 * S, 0 },
		{ "1 ms exactly: still jitter", T0, T0 + S, OFF, OFF + 1000000, 7, S, 0 },
		{ "1 ms back exactly", T0, T0 + S, OFF, OFF - 1000000, 7, S, 0 },
		{ "1 ms + 1 ns: a step", T0, T0 + S, OFF, OFF + 1000001, 7, 7, 1 },
		{ "step forward 1 h", T0, T0 + 3602 * S, OFF, OFF + 3600 * S,
		  2 * S, 2 * S, 1 },
		/* a step back makes last < first: never a huge unsigned span */
		{ "step back 1 h", T0, T0 - 3598 * S, OFF, OFF - 3600 * S,
		  2 * S, 2 * S, 1 },
		{ "leap second", T0, T0 + S / 2, OFF, OFF - S, S / 2 + S, S / 2 + S, 1 },
		{ "one datagram", T0, T0, OFF, OFF, 5, 0, 0 },
		{ "stamps out of order", T0 + 10, T0, OFF, OFF, 5, 0, 0 },
		{ "offsets of either sign", T0, T0 + S, -5, 5, 9, S, 0 },
		{ "extreme offsets", T0, T0 + S, INT64_MIN, INT64_MAX, 9, 9, 1 },
		{ "extreme offsets, reversed", T0, T0 + S, INT64_MAX, INT64_MIN, 9, 9, 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int stepped = -1;
		uint64_t got = meter_stamp_span(rows[i].first, rows[i].last, rows[i].off0,
		                                rows[i].off1, rows[i].fallback, &stepped);

		if (got != rows[i].want || stepped != rows[i].stepped)
			MISS("%s: %llu, stepped %d; want %llu, stepped %d", rows[i].name,
			     (unsigned long long)got, stepped,
			     (unsigned long long)rows[i].want, rows[i].stepped);
	}
	MISSED();
}

/* The offset is what the two clocks say, and steady: two reads in a row
 * never look like a step. */
static void
test_real_offset(void **state)
{
	struct timespec rt, mt;
	int64_t naive, a, b;
	int i;

	(void)state;
	for (i = 0; i < 100; i++) {
		a = meter_real_offset();
		b = meter_real_offset();
		if (b - a > METER_STEP_TOL_NS || a - b > METER_STEP_TOL_NS)
			MISS("two reads %lld ns apart", (long long)(b - a));
	}
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mt);
	naive = (rt.tv_sec - mt.tv_sec) * S + (rt.tv_nsec - mt.tv_nsec);
	a = meter_real_offset();
	if (a - naive > METER_STEP_TOL_NS || naive - a > METER_STEP_TOL_NS)
		MISS("offset %lld, the clocks say %lld", (long long)a, (long long)naive);
	MISSED();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stamp_span),
		cmocka_unit_test(test_real_offset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
