/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_units.c: units_parse_int/size/rate as tables of examples: every
 * suffix and case, the boundaries, overflow, junk, and the exact messages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

#define U64MAX UINT64_MAX
#define KI (1ULL << 10)
#define MI (1ULL << 20)
#define GI (1ULL << 30)

/* One example: input, range, and either the value or the exact message. */
struct irow {
	const char *in;
	uint64_t    min, max;
	int         rc;
	uint64_t    want;       /* rc 0 */
	const char *msg;        /* rc -1 */
};

typedef int (*uparse)(const char *, uint64_t, uint64_t, uint64_t *, char *,
                      size_t);

static void
run_irows(const char *what, uparse fn, const struct irow *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct irow *r = &rows[i];
		char err[256] = "untouched";
		uint64_t out = 0xdeadbeefULL;
		int rc = fn(r->in, r->min, r->max, &out, err, sizeof err);

		if (rc != r->rc)
			fail_msg("%s(\"%s\"): rc %d, want %d (err '%s')", what, r->in,
			         rc, r->rc, err);
		if (rc == 0 && out != r->want)
			fail_msg("%s(\"%s\"): %llu, want %llu", what, r->in,
			         (unsigned long long)out, (unsigned long long)r->want);
		if (rc == -1 && strcmp(err, r->msg) != 0)
			fail_msg("%s(\"%s\"): message '%s', want '%s'", what, r->in, err,
			         r->msg);
		if (rc == -1 && out != 0xdeadbeefULL)
			fail_msg("%s(\"%s\"): failed but wrote *out", what, r->in);
	}
}

#define OK(s, lo, hi, v)   { s, lo, hi, 0, v, NULL }
#define BAD(s, lo, hi, m)  { s, lo, hi, -1, 0, m }

static void
test_int(void **state)
{
	static const struct irow rows[] = {
		OK("0", 0, 10, 0),
		OK("10", 0, 10, 10),
		OK("1", 1, 1, 1),
		OK("007", 0, 10, 7),
		OK("2048", 1, 1ULL << 62, 2048),
		OK("4611686018427387904", 1, 1ULL << 62, 1ULL << 62),
		OK("18446744073709551615", 0, U64MAX, U64MAX),
		BAD("4611686018427387905", 1, 1ULL << 62,
		    "'4611686018427387905' is out of range (1 to 4611686018427387904)"),
		BAD("18446744073709551616", 0, U64MAX, "'18446744073709551616' is too large"),
		BAD("99999999999999999999999", 0, U64MAX,
		    "'99999999999999999999999' is too large"),
		BAD("11", 0, 10, "'11' is out of range (0 to 10)"),
		BAD("0", 1, 10, "'0' is out of range (1 to 10)"),
		BAD("65536", 0, 65535, "'65536' is out of range (0 to 65535)"),
		BAD("", 0, 10, "'' is not a number"),
		BAD("-1", 0, 10, "'-1' is not a number"),
		BAD("+1", 0, 10, "'+1' is not a number"),
		BAD(" 1", 0, 10, "' 1' is not a number"),
		BAD("x1", 0, 10, "'x1' is not a number"),
		BAD("1 ", 0, 10, "'1 ' is not a whole number"),
		BAD("1.5", 0, 10, "'1.5' is not a whole number"),
		BAD("1e3", 0, 10000, "'1e3' is not a whole number"),
		BAD("0x10", 0, 100, "'0x10' is not a whole number"),
		BAD("5K", 0, 10000, "'5K' is not a whole number"),   /* counts: no suffix */
		BAD("12abc", 0, 100, "'12abc' is not a whole number"),
	};
	(void)state;
	run_irows("units_parse_int", units_parse_int, rows, sizeof rows / sizeof rows[0]);
}

#define NOTSIZE(s) BAD(s, 0, U64MAX, \
	"'" s "' is not a size (use a number with an optional B, K, M or G suffix)")

static void
test_size(void **state)
{
	static const struct irow rows[] = {
		OK("0", 0, U64MAX, 0),
		OK("1", 1, 10, 1),
		OK("4096", 1, 64 * MI, 4096),
		OK("1k", 0, U64MAX, KI),
		OK("1K", 0, U64MAX, KI),
		OK("64K", 0, U64MAX, 64 * KI),
		OK("7200B", 0, U64MAX, 7200),
		OK("0B", 0, U64MAX, 0),
		OK("1m", 0, U64MAX, MI),
		OK("1M", 0, U64MAX, MI),
		OK("64M", 1, 64 * MI, 64 * MI),
		OK("1g", 0, U64MAX, GI),
		OK("3G", 0, U64MAX, 3 * GI),
		OK("0G", 0, U64MAX, 0),
		OK("4294967296G", 0, U64MAX, 1ULL << 62),
		OK("17179869183G", 0, U64MAX, 17179869183ULL * GI),
		OK("18014398509481983K", 0, U64MAX, 18014398509481983ULL * KI),
		OK("18446744073709551615", 0, U64MAX, U64MAX),
		BAD("17179869184G", 0, U64MAX, "'17179869184G' is too large"),
		BAD("18014398509481984K", 0, U64MAX, "'18014398509481984K' is too large"),
		BAD("17592186044416M", 0, U64MAX, "'17592186044416M' is too large"),
		BAD("18446744073709551616", 0, U64MAX, "'18446744073709551616' is too large"),
		BAD("64M", 1, 64 * MI - 1, "'64M' is out of range (1 to 67108863)"),
		BAD("65M", 1, 64 * MI, "'65M' is out of range (1 to 67108864)"),
		BAD("0", 1, 10, "'0' is out of range (1 to 10)"),
		BAD("0K", 1, 10, "'0K' is out of range (1 to 10)"),
		BAD("4294967297G", 1, 1ULL << 62,
		    "'4294967297G' is out of range (1 to 4611686018427387904)"),
		BAD("", 0, U64MAX, "'' is not a number"),
		BAD("-1", 0, U64MAX, "'-1' is not a number"),
		BAD("K", 0, U64MAX, "'K' is not a number"),
		BAD(" 1K", 0, U64MAX, "' 1K' is not a number"),
		NOTSIZE("1T"),
		NOTSIZE("1KB"),
		NOTSIZE("1Ki"),
		NOTSIZE("1kk"),
		NOTSIZE("1 K"),
		NOTSIZE("1K "),
		NOTSIZE("1.5K"),
		NOTSIZE("10x"),
		NOTSIZE("1b"),
		NOTSIZE("1BB"),
		BAD("B", 0, U64MAX, "'B' is not a number"),
	};
	(void)state;
	run_irows("units_parse_size", units_parse_size, rows, sizeof rows / sizeof rows[0]);
}

struct rrow {
	const char *in;
	double      min, max;
	int         rc;
	double      want;
	const char *msg;
};

#define ROK(s, v)  { s, 1e3, 1e13, 0, v, NULL }
#define RBAD(s, m) { s, 1e3, 1e13, -1, 0, m }
#define NOTRATE(s) RBAD(s, "'" s "' is not a rate (use e.g. 10M, 1G, 100k)")
#define RANGE(s)   RBAD(s, "'" s "' is out of range (1000 to 10000000000000 bit/s)")

static void
test_rate(void **state)
{
	static const struct rrow rows[] = {
		ROK("1000", 1e3),
		ROK("1k", 1e3),
		ROK("1K", 1e3),
		ROK("100k", 1e5),
		ROK("10M", 1e7),
		ROK("10m", 1e7),          /* decimal mega either case (units.h) */
		ROK("9.5M", 9.5e6),
		ROK(".5M", 5e5),
		ROK("1G", 1e9),
		ROK("2.5g", 2.5e9),
		ROK("10000G", 1e13),
		ROK("10Mbit", 1e7),
		ROK("10MBIT", 1e7),
		ROK("10Mbps", 1e7),
		ROK("10Mb/s", 1e7),
		ROK("1Gbps", 1e9),
		ROK("5000bit", 5e3),
		ROK("5000bps", 5e3),
		ROK("5000b/s", 5e3),
		RANGE("999"),
		RANGE("0.9k"),
		RANGE("0"),
		RANGE("10001G"),
		NOTRATE("1e14"),
		NOTRATE("0x10M"),
		RANGE("10000000000001"),
		NOTRATE(""),
		NOTRATE("-1M"),
		NOTRATE("+1M"),
		NOTRATE(" 1M"),
		NOTRATE("M"),
		NOTRATE("inf"),
		NOTRATE("nan"),
		NOTRATE("."),
		NOTRATE("1e999"),
		NOTRATE("1T"),
		NOTRATE("10 M"),
		NOTRATE("10M "),
		NOTRATE("10Mbits"),
		NOTRATE("10MB"),
		NOTRATE("10Mb"),
		NOTRATE("10kk"),
		NOTRATE("1.5.3M"),
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct rrow *r = &rows[i];
		char err[256] = "untouched";
		double out = -42;
		int rc = units_parse_rate(r->in, r->min, r->max, &out, err, sizeof err);

		if (rc != r->rc)
			fail_msg("units_parse_rate(\"%s\"): rc %d, want %d (err '%s')",
			         r->in, rc, r->rc, err);
		if (rc == 0 && fabs(out - r->want) > r->want * 1e-12)
			fail_msg("units_parse_rate(\"%s\"): %.17g, want %.17g", r->in,
			         out, r->want);
		if (rc == -1 && strcmp(err, r->msg) != 0)
			fail_msg("units_parse_rate(\"%s\"): message '%s', want '%s'",
			         r->in, err, r->msg);
		if (rc == -1 && out != -42)
			fail_msg("units_parse_rate(\"%s\"): failed but wrote *out", r->in);
	}
}

/* The range printed in a rate message follows min and max. */
static void
test_rate_range_text(void **state)
{
	char err[128];
	double out;

	(void)state;
	assert_int_equal(units_parse_rate("5", 10, 20, &out, err, sizeof err), -1);
	assert_string_equal(err, "'5' is out of range (10 to 20 bit/s)");
	assert_int_equal(units_parse_rate("20", 10, 20, &out, err, sizeof err), 0);
	assert_true(out == 20.0);
	assert_int_equal(units_parse_rate("10", 10, 20, &out, err, sizeof err), 0);
	assert_true(out == 10.0);
}

/* A short err buffer is truncated, never overrun. */
static void
test_short_err(void **state)
{
	char err[8];
	uint64_t v;
	double d;

	(void)state;
	memset(err, 'X', sizeof err);
	assert_int_equal(units_parse_int("nope", 0, 1, &v, err, 5), -1);
	assert_string_equal(err, "'nop");
	assert_int_equal(err[5], 'X');
	assert_int_equal(units_parse_size("1Q", 0, 1, &v, err, sizeof err), -1);
	assert_string_equal(err, "'1Q' is");
	assert_int_equal(units_parse_rate("x", 0, 1, &d, err, sizeof err), -1);
	assert_string_equal(err, "'x' is ");
}

/* units_parse_decimal: plain decimals only, range inclusive. */
static void
test_decimal(void **state)
{
	static const struct { const char *s; double v; const char *err; } rows[] = {
		{ "40", 40, NULL },
		{ "0.5", 0.5, NULL },
		{ ".25", 0.25, NULL },
		{ "7.", 7, NULL },
		{ "0.001", 0.001, NULL },
		{ "1000", 1000, NULL },
		{ "0.0009", 0, "'0.0009' is out of range (0.001 to 1000)" },
		{ "1000.5", 0, "'1000.5' is out of range (0.001 to 1000)" },
		{ "", 0, "'' is not a number" },
		{ ".", 0, "'.' is not a number" },
		{ "1.2.3", 0, "'1.2.3' is not a number" },
		{ "-1", 0, "'-1' is not a number" },
		{ "+1", 0, "'+1' is not a number" },
		{ " 1", 0, "' 1' is not a number" },
		{ "1 ", 0, "'1 ' is not a number" },
		{ "1e2", 0, "'1e2' is not a number" },
		{ "0x10", 0, "'0x10' is not a number" },
		{ "inf", 0, "'inf' is not a number" },
		{ "nan", 0, "'nan' is not a number" },
		{ "5ms", 0, "'5ms' is not a number" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char err[128] = "";
		double v = -1;
		int rc = units_parse_decimal(rows[i].s, 0.001, 1000, &v, err,
		    sizeof err);

		if (rows[i].err == NULL) {
			assert_int_equal(rc, 0);
			assert_true(v == rows[i].v);
		} else {
			assert_int_equal(rc, -1);
			assert_string_equal(err, rows[i].err);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_rate_range_text),
		cmocka_unit_test(test_short_err),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
