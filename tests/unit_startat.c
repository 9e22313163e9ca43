/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_startat.c: --start-at's moment: parsed to the nanosecond, refused
 * in the past, too far ahead or malformed with one line; the wait ends at
 * once for a moment passed and on a stop request made before or during it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <string.h>

#include "startat.h"

#define NOW 1700000000000000000LL      /* 2023-11-14, ns */

static void
parses_to_the_ns(void **state)
{
	char why[160];
	int64_t at;

	(void)state;
	assert_int_equal(startat_parse("1700000001", NOW, &at, why, sizeof why), 0);
	assert_true(at == NOW + 1000000000LL);
	assert_int_equal(startat_parse("1700000001.25", NOW, &at, why, sizeof why), 0);
	assert_true(at == NOW + 1250000000LL);
	assert_int_equal(startat_parse("1700000000.000000001", NOW, &at, why,
	    sizeof why), 0);
	assert_true(at == NOW + 1);
	assert_int_equal(startat_parse("1700000060", NOW, &at, why, sizeof why), 0);
	assert_true(at == NOW + 60000000000LL);
}

static void
refuses_with_one_line(void **state)
{
	static const struct { const char *arg, *why; } bad[] = {
		{ "1700000000", "'1700000000' is in the past (now 1700000000.000)" },
		{ "1699999999.5", "'1699999999.5' is in the past (now 1700000000.000)" },
		{ "1700000060.001", "'1700000060.001' is 60.001 s ahead: at most 60 s from now" },
		{ "1800000000", "'1800000000' is 100000000.000 s ahead: at most 60 s from now" },
		{ "99999999999999999999", "'99999999999999999999' is too far ahead (at most 60 s from now)" },
		{ "", "'' is not a time (seconds since 1970, e.g. 1700000000.25)" },
		{ "1700000001.", "'1700000001.' is not a time (seconds since 1970, e.g. 1700000000.25)" },
		{ "+1700000001", "'+1700000001' is not a time (seconds since 1970, e.g. 1700000000.25)" },
		{ "1700000001s", "'1700000001s' is not a time (seconds since 1970, e.g. 1700000000.25)" },
		{ "1.2.3", "'1.2.3' is not a time (seconds since 1970, e.g. 1700000000.25)" },
		{ "1700000001.0000000001", "'1700000001.0000000001': at most nine decimals (nanoseconds)" },
	};
	char why[160];
	int64_t at;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		why[0] = '\0';
		assert_int_equal(startat_parse(bad[i].arg, NOW, &at, why, sizeof why), -1);
		assert_string_equal(why, bad[i].why);
	}
}

static void
wait_passed_and_stopped(void **state)
{
	struct stopreq s = STOPREQ_INIT;
	char err[128];

	(void)state;
	assert_int_equal(stop_init(&s, err, sizeof err), 0);
	/* a moment passed: at once */
	assert_int_equal(startat_wait(startat_now() - 1000000000LL, &s), 0);
	/* a moment 50 ms ahead: not before it */
	{
		int64_t at = startat_now() + 50000000LL;

		assert_int_equal(startat_wait(at, &s), 0);
		assert_true(startat_now() >= at);
	}
	/* a stop requested before the wait: -1 at once, not in 60 s */
	stop_request(&s);
	assert_int_equal(startat_wait(startat_now() + 60000000000LL, &s), -1);
}

static void *
stopper(void *arg)
{
	struct stopreq *s = arg;

	stop_request(s);
	return NULL;
}

static void
stop_during_the_wait(void **state)
{
	struct stopreq s = STOPREQ_INIT;
	char err[128];
	pthread_t t;

	(void)state;
	assert_int_equal(stop_init(&s, err, sizeof err), 0);
	assert_int_equal(pthread_create(&t, NULL, stopper, &s), 0);
	assert_int_equal(startat_wait(startat_now() + 60000000000LL, &s), -1);
	pthread_join(t, NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_to_the_ns),
		cmocka_unit_test(refuses_with_one_line),
		cmocka_unit_test(wait_passed_and_stopped),
		cmocka_unit_test(stop_during_the_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
