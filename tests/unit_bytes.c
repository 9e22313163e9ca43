/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_bytes.c: the byte codec (bytes.h): every width in both byte orders
 * byte for byte, round trips, the bounds at every offset, the sticky error
 * (a later field that fits does not clear it), a reader refused as a
 * writer, and a sequential record read with bytes_next. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "bytes.h"

static const uint8_t seq[8] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };

static void
test_get(void **state)
{
	struct bytes c = bytes_reader(seq, sizeof seq);

	(void)state;
	assert_int_equal(bytes_u8(&c, 7), 0xef);
	assert_int_equal(bytes_be16(&c, 0), 0x0123);
	assert_int_equal(bytes_le16(&c, 0), 0x2301);
	assert_int_equal(bytes_be32(&c, 4), 0x89abcdefu);
	assert_int_equal(bytes_le32(&c, 4), 0xefcdab89u);
	assert_true(bytes_be64(&c, 0) == 0x0123456789abcdefull);
	assert_true(bytes_le64(&c, 0) == 0xefcdab8967452301ull);
	assert_int_equal(bytes_be16(&c, 6), 0xcdef);   /* the last that fits */
	assert_false(bytes_bad(&c));
}

static void
test_put(void **state)
{
	uint8_t b[8];
	struct bytes c = bytes_writer(b, sizeof b);

	(void)state;
	memset(b, 0, sizeof b);
	bytes_put_be64(&c, 0, 0x0123456789abcdefull);
	assert_memory_equal(b, seq, 8);
	bytes_put_le64(&c, 0, 0xefcdab8967452301ull);
	assert_memory_equal(b, seq, 8);
	memset(b, 0, sizeof b);
	bytes_put_be32(&c, 0, 0x01234567u);
	bytes_put_le32(&c, 4, 0xefcdab89u);
	assert_memory_equal(b, seq, 8);
	memset(b, 0, sizeof b);
	bytes_put_be16(&c, 0, 0x0123);
	bytes_put_le16(&c, 2, 0x6745);
	bytes_put_u8(&c, 4, 0x89);
	bytes_put(&c, 5, seq + 5, 3);
	assert_memory_equal(b, seq, 8);
	assert_false(bytes_bad(&c));
}

/* Every width and offset: a field fits exactly when off + n <= len, and a
 * field that does not neither reads (0) nor writes; the error sticks. */
static void
test_bounds(void **state)
{
	static const size_t width[] = { 1, 2, 4, 8 };
	uint8_t b[8];
	size_t w, off;

	(void)state;
	for (w = 0; w < 4; w++)
		for (off = 0; off <= 9; off++) {
			size_t n = width[w];
			int fits = off + n <= sizeof b;
			struct bytes r = bytes_reader(seq, sizeof seq);
			struct bytes c = bytes_writer(b, sizeof b);
			uint64_t v = bytes_get_be(&r, off, n);

			assert_int_equal(bytes_bad(&r), !fits);
			if (!fits)
				assert_true(v == 0);
			memset(b, 0x5a, sizeof b);
			bytes_put_le(&c, off, n, UINT64_MAX);
			assert_int_equal(bytes_bad(&c), !fits);
			if (!fits)
				for (size_t i = 0; i < sizeof b; i++)
					assert_int_equal(b[i], 0x5a);
		}
	{
		struct bytes r = bytes_reader(seq, sizeof seq);

		assert_true(bytes_be64(&r, SIZE_MAX - 2) == 0);  /* no wrap */
		assert_true(bytes_bad(&r));
		assert_int_equal(bytes_u8(&r, 0), 0x01);  /* fits, and still bad */
		assert_true(bytes_bad(&r));
		assert_null(bytes_at(&r, 4, 5));
		assert_non_null(bytes_at(&r, 4, 4));
	}
}

/* A reader is not written through; bytes_get of a field that does not fit
 * zeroes its destination. */
static void
test_reader_only(void **state)
{
	struct bytes r = bytes_reader(seq, sizeof seq);
	uint8_t d[4] = { 9, 9, 9, 9 };

	(void)state;
	bytes_put_be16(&r, 0, 0xffff);
	assert_true(bytes_bad(&r));
	assert_int_equal(seq[0], 0x01);
	r = bytes_reader(seq, sizeof seq);
	bytes_get(&r, 6, d, 4);
	assert_true(bytes_bad(&r));
	assert_int_equal(d[0] | d[1] | d[2] | d[3], 0);
	r = bytes_reader(seq, sizeof seq);
	bytes_get(&r, 4, d, 4);
	assert_memory_equal(d, seq + 4, 4);
	assert_false(bytes_bad(&r));
}

/* bytes_next: fields in turn; past the end every later one fails. */
static void
test_next(void **state)
{
	struct bytes r = bytes_reader(seq, sizeof seq);

	(void)state;
	assert_int_equal(bytes_be16(&r, bytes_next(&r, 2)), 0x0123);
	assert_int_equal(bytes_be32(&r, bytes_next(&r, 4)), 0x456789abu);
	assert_false(bytes_bad(&r));
	assert_int_equal(bytes_be32(&r, bytes_next(&r, 4)), 0);  /* 2 left */
	assert_true(bytes_bad(&r));
	assert_int_equal(bytes_u8(&r, bytes_next(&r, 1)), 0);    /* sticks */
	assert_int_equal(r.pos, 6);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_put),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_reader_only),
		cmocka_unit_test(test_next),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
