/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_growbuf.c: the one growable buffer: appends kept whole across
 * growth, its text NUL-terminated without counting the NUL, and an append
 * that would overflow a size_t refused (nomem, sticky) rather than
 * wrapped. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "growbuf.h"

static void
test_grow(void **state)
{
	struct growbuf b = { NULL, 0, 0, 0 };
	char chunk[1000];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof chunk; i++)
		chunk[i] = (char)('a' + i % 26);
	for (i = 0; i < 10; i++)                /* past the first 4096 */
		growbuf_add(&b, chunk, sizeof chunk);
	assert_false(b.nomem);
	assert_int_equal(b.len, 10000);
	assert_true(b.cap >= 10000);
	for (i = 0; i < 10; i++)
		assert_memory_equal(b.p + i * sizeof chunk, chunk, sizeof chunk);
	growbuf_add(&b, "", 0);
	assert_int_equal(b.len, 10000);
	assert_int_equal(strlen(growbuf_str(&b)), 10000);
	assert_int_equal(b.len, 10000);         /* the NUL is not counted */
	growbuf_free(&b);
	assert_null(b.p);
	assert_int_equal(b.len + b.cap, 0);
}

static void
test_overflow(void **state)
{
	struct growbuf b = { NULL, 0, 0, 0 };

	(void)state;
	growbuf_add(&b, "abc", 3);
	growbuf_add(&b, "x", SIZE_MAX - 2);     /* len + n wraps: refused */
	assert_true(b.nomem);
	assert_int_equal(b.len, 3);
	growbuf_add(&b, "d", 1);                /* sticky */
	assert_int_equal(b.len, 3);
	assert_string_equal(growbuf_str(&b), "");
	growbuf_free(&b);
	assert_false(b.nomem);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
