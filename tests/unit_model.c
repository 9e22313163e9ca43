/* unit_model.c: the result model's arithmetic: steady state and the
 * identities the intervals must hold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model.h"

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_mbit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
