/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_report.c: -f formats checked and rendered byte for byte, the -T
 * title, model_mbit, and the lines under the table. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"
#include "capture.h"

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

#define TAGS "(tags: %b %l %n %c %rt %ct %rbr %cbr %rcr %ccr)"

/* ---- report_check_format ------------------------------------------- */

static void
test_check_format(void **state)
{
	static const struct { const char *fmt, *msg; } rows[] = {
		{ GPUT_DEFAULT_FORMAT, NULL },
		{ "%b", NULL },
		{ "%l%n%c%rt%ct%rbr%cbr%rcr%ccr", NULL },
		{ "plain text", NULL },
		{ "%%", NULL },
		{ "100%% %b", NULL },
		{ "%64b", NULL },
		{ "%064b", NULL },
		{ "%0b", NULL },
		{ "%.12rt", NULL },
		{ "%64.12rbr", NULL },
		{ "%5.b", NULL },
		{ "%b\t%c", NULL },
		{ "%rtx", NULL },               /* %rt, then "x" */
		{ "%cx", NULL },                /* %c, then "x" */
		{ "", "empty format" },
		{ "\n", "control character in format" },
		{ "%b\n", "control character in format" },
		{ "\x01%b", "control character in format" },
		{ "\x1b[1m%b", "control character in format" },
		{ "%x", "unknown tag in '%x' " TAGS },
		{ "%b %B", "unknown tag in '%B' " TAGS },
		{ "%9z", "unknown tag in '%9z' " TAGS },
		{ "%9.2q", "unknown tag in '%9.2q' " TAGS },
		{ "%r", "unknown tag in '%r' " TAGS },
		{ "%-5b", "unknown tag in '%-' " TAGS },
		{ "%1.2.3rt", "unknown tag in '%1.2.' " TAGS },
		{ "%", "unknown tag in '%' " TAGS },
		{ "%b%", "unknown tag in '%' " TAGS },
		{ "%9", "unknown tag in '%9' " TAGS },
		{ "%%%", "unknown tag in '%' " TAGS },
		{ "%65b", "width at most 64, precision at most 12" },
		{ "%100b", "width at most 64, precision at most 12" },
		{ "%99999999999999999999b", "width at most 64, precision at most 12" },
		{ "%.13rt", "width at most 64, precision at most 12" },
		{ "%.99999999999999999999rt", "width at most 64, precision at most 12" },
		{ "%64.13rt", "width at most 64, precision at most 12" },
	};
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int rc;

		strcpy(err, "untouched");
		rc = report_check_format(rows[i].fmt, err, sizeof err);
		if (rows[i].msg == NULL && rc != 0)
			MISS("'%s': rejected: %s", rows[i].fmt, err);
		else if (rows[i].msg != NULL && rc != -1)
			MISS("'%s': accepted, want '%s'", rows[i].fmt, rows[i].msg);
		else if (rows[i].msg != NULL && strcmp(err, rows[i].msg) != 0)
			MISS("'%s': '%s', want '%s'", rows[i].fmt, err, rows[i].msg);
	}
	MISSED();
}

/* ---- report_title -------------------------------------------------- */

static void
test_title(void **state)
{
	static const struct { const char *fmt, *want; } rows[] = {
		{ GPUT_DEFAULT_FORMAT, "     Bytes  Real s   CPU s Real-MBit/s  CPU-MBit/s"
		  "   Calls  Real-C/s   CPU-C/s\n" },
		{ "%b%l%n%c%rt%ct%rbr%cbr%rcr%ccr",
		  " BytesLengthCountCallsReal sCPU sReal-MBit/sCPU-MBit/sReal-C/sCPU-C/s\n" },
		{ "%7l|%6.3n|%2c", "  Length| Count|Calls\n" },
		{ "x %% y", " x % y\n" },
		{ "%b\t%c", " Bytes\tCalls\n" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct cap c;
		char *s;

		cap_open(&c);
		report_title(c.f, rows[i].fmt);
		s = cap_close(&c);
		if (strcmp(s, rows[i].want) != 0)
			MISS("title '%s':\n  got  '%s'\n  want '%s'", rows[i].fmt, s,
			     rows[i].want);
		free(s);
	}
	MISSED();
}

/* ---- report_line --------------------------------------------------- */

struct lrow {
	const char *fmt;
	struct report_row row;
	struct gput_result r;
	const char *want;
};

/* 8 MiB in 1.5 s real, 0.25 s CPU, 2048 calls */
#define R_8M { .bytes = 8388608, .calls = 2048, .real_ns = 1500000000, .cpu_ns = 250000000 }
/* 10^6 bytes in 2 s real, 1 s CPU, 100 calls: 4 and 8 MBit/s, 50 and 100 C/s */
#define R_1M { .bytes = 1000000, .calls = 100, .real_ns = 2000000000, .cpu_ns = 1000000000 }

static const struct lrow lrows[] = {
	{ GPUT_DEFAULT_FORMAT, { 'l', 4096, 2048, NULL, NULL }, R_8M,
	  "l  8388608    1.50    0.25     44.7392    268.4355    2048   1365.33    8192.0\n" },
	{ GPUT_DEFAULT_FORMAT, { '1', 4096, 2048, NULL, NULL }, { 0 },
	  "1        0    0.00    0.00           -           -       0         -         -\n" },
	{ GPUT_DEFAULT_FORMAT, { '1', 4096, 2048, NULL, NULL },
	  { .bytes = 1000, .calls = 1, .real_ns = 1000000, .cpu_ns = 0 },
	  "1     1000    0.00    0.00      8.0000           -       1   1000.00         -\n" },
	{ "%b|%l|%n|%c|%rt|%ct|%rbr|%cbr|%rcr|%ccr", { 'l', 4096, 2048, NULL, NULL }, R_1M,
	  "l 1000000|4096|2048|100|2.000000|1.000000|4.000000|8.000000|50.000000|100.000000\n" },
	{ "%12b|%6l|%6n|%5c", { 'l', 4096, 2048, NULL, NULL }, R_1M,
	  "l     1000000|  4096|  2048|  100\n" },
	/* integers ignore precision; a value that overflows its width does not
	 * touch the tag, but a literal separator is left alone */
	{ "%5.3b|%2.9l", { 'l', 4096, 7, NULL, NULL }, R_1M,
	  "l 1000000|4096\n" },
	{ "%.0rt|%.1ct|%.0rbr|%.2cbr|%.0rcr|%.3ccr", { 'l', 1, 1, NULL, NULL }, R_1M,
	  "l 2|1.0|4|8.00|50|100.000\n" },
	{ "%8.3rt|%8.3ct|%8.3rbr|%8.3cbr|%8.3rcr|%8.3ccr", { 'l', 1, 1, NULL, NULL }, R_1M,
	  "l   2.000|   1.000|   4.000|   8.000|  50.000| 100.000\n" },
	{ "%.12rt", { 'l', 1, 1, NULL, NULL }, { .real_ns = 1 }, "l 0.000000001000\n" },
	/* zero real and CPU time: rates are "-", padded to the width */
	{ "[%rbr][%cbr][%rcr][%ccr]", { '1', 1, 1, NULL, NULL }, { .bytes = 5, .calls = 5 },
	  "1[-][-][-][-]\n" },
	{ "[%5rbr][%6.2cbr][%1rcr][%3.1ccr]", { '1', 1, 1, NULL, NULL }, { .bytes = 5, .calls = 5 },
	  "1[    -][     -][-][  -]\n" },
	{ "[%6rt][%6.1ct]", { '1', 1, 1, NULL, NULL }, { 0 }, "1[0.000000][   0.0]\n" },
	{ "%64b", { 'l', 1, 1, NULL, NULL }, { .bytes = 42 },
	  "l                                                              42\n" },
	/* a value never touches the side tag, whatever its width: "1 1448000",
	 * not "11448000" (a literal right after the tag is the user's) */
	{ "%b %rbr", { '1', 1448, 1000, NULL, NULL },
	  { .bytes = 1448000, .real_ns = 1000000000 }, "1 1448000 11.584000\n" },
	{ "%b", { 'l', 1, 1, NULL, NULL }, { .bytes = UINT64_MAX }, "l 18446744073709551615\n" },
	{ "%c %n %l", { 'l', UINT32_MAX, UINT64_MAX, NULL, NULL }, { .calls = UINT64_MAX },
	  "l 18446744073709551615 18446744073709551615 4294967295\n" },
	{ "bytes=%b %% done\tok", { 'l', 1, 1, NULL, NULL }, { .bytes = 3 }, "lbytes=3 % done\tok\n" },
	{ "%rtx%cy", { 'l', 1, 1, NULL, NULL }, { .real_ns = 500000000, .calls = 9 },
	  "l 0.500000x9y\n" },
};

static void
test_line(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof lrows / sizeof lrows[0]; i++) {
		struct report_row row = lrows[i].row;
		struct figures fig;
		struct cap c;
		char *s;

		model_rates(&lrows[i].r, &fig);
		row.r = &lrows[i].r;
		row.fig = &fig;
		cap_open(&c);
		report_line(c.f, lrows[i].fmt, &row);
		s = cap_close(&c);
		if (strcmp(s, lrows[i].want) != 0)
			MISS("line %zu '%s':\n  got  '%s'\n  want '%s'", i, lrows[i].fmt,
			     s, lrows[i].want);
		free(s);
	}
	MISSED();
}

/* Values that fill or outgrow nttcp's columns: each such column gets one
 * space before it, so the line still splits into its nine fields. */
static void
test_line_wide(void **state)
{
	static const struct {
		char tag;
		struct gput_result r;
		const char *want, *fields[9];
	} rows[] = {
		/* every column too wide: 10^19 bytes and calls in 10^5 s real,
		 * 5*10^4 s CPU (exactly 8 characters: fills its column) */
		{ 'l', { .bytes = 10000000000000000000u, .calls = 10000000000000000000u,
		    .real_ns = 100000000000000u, .cpu_ns = 50000000000000u },
		  "l 10000000000000000000 100000.00 50000.00 800000000.0000 "
		  "1600000000.0000 10000000000000000000 100000000000000.00 "
		  "200000000000000.0\n",
		  { "10000000000000000000", "100000.00", "50000.00", "800000000.0000",
		    "1600000000.0000", "10000000000000000000", "100000000000000.00",
		    "200000000000000.0" } },
		/* loopback UDP: 12345678.90 calls/s overflows Real-C/s only */
		{ '1', { .bytes = 1000000000, .calls = 1234567890,
		    .real_ns = 100000000000u, .cpu_ns = 25000000000u },
		  "1 1000000000  100.00   25.00     80.0000    320.0000 1234567890"
		  " 12345678.90 49382715.6\n",
		  { "1000000000", "100.00", "25.00", "80.0000", "320.0000", "1234567890",
		    "12345678.90", "49382715.6" } },
		/* values that exactly fill Bytes and Calls; the rest fit */
		{ 'l', { .bytes = 123456789, .calls = 12345678,
		    .real_ns = 1000000000000u, .cpu_ns = 1000000000000u },
		  "l 123456789 1000.00 1000.00      0.9877      0.9877 12345678  12345.68"
		  "   12345.7\n",
		  { "123456789", "1000.00", "1000.00", "0.9877", "0.9877", "12345678",
		    "12345.68", "12345.7" } },
		/* zero time: the rates are "-", which always fits */
		{ '1', { .bytes = 99999999999u, .calls = 999999999 },
		  "1 99999999999    0.00    0.00           -           - 999999999"
		  "         -         -\n",
		  { "99999999999", "0.00", "0.00", "-", "-", "999999999", "-", "-" } },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct figures fig;
		struct report_row row = { rows[i].tag, 4096, 2048, &rows[i].r, &fig };
		struct cap c;
		char *s, *tok, *save = NULL;
		int k = 0;

		model_rates(&rows[i].r, &fig);
		cap_open(&c);
		report_line(c.f, GPUT_DEFAULT_FORMAT, &row);
		s = cap_close(&c);
		if (strcmp(s, rows[i].want) != 0)
			MISS("wide %zu:\n  got  '%s'\n  want '%s'", i, s, rows[i].want);
		for (tok = strtok_r(s, " \n", &save); tok != NULL;
		    tok = strtok_r(NULL, " \n", &save), k++) {
			const char *want = k == 0 ? (rows[i].tag == 'l' ? "l" : "1")
			    : k <= 8 ? rows[i].fields[k - 1] : "(no field)";

			if (strcmp(tok, want) != 0)
				MISS("wide %zu: field %d is '%s', want '%s'", i, k + 1, tok,
				     want);
		}
		if (k != 9)
			MISS("wide %zu: %d fields, want 9", i, k);
		free(s);
	}
	MISSED();
}

/* A title over columns too narrow for their names gets the same spaces;
 * zero-width columns and literal separators stay as written. */
static void
test_title_wide(void **state)
{
	static const struct { const char *fmt, *want; } rows[] = {
		{ "%3b%3c%1rt", " Bytes Calls Real s\n" },
		{ "%3b|%3c", " Bytes|Calls\n" },
		{ "%b%c", " BytesCalls\n" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct cap c;
		char *s;

		cap_open(&c);
		report_title(c.f, rows[i].fmt);
		s = cap_close(&c);
		if (strcmp(s, rows[i].want) != 0)
			MISS("title '%s':\n  got  '%s'\n  want '%s'", rows[i].fmt, s,
			     rows[i].want);
		free(s);
	}
	MISSED();
}

/* The title's columns line up with the line's: same width per column. */
static void
test_title_line_align(void **state)
{
	static const struct gput_result r = R_8M;
	struct figures fig;
	struct report_row row = { 'l', 4096, 2048, &r, &fig };
	struct cap c;
	char *t, *l;

	(void)state;
	model_rates(&r, &fig);
	cap_open(&c);
	report_title(c.f, GPUT_DEFAULT_FORMAT);
	t = cap_close(&c);
	cap_open(&c);
	report_line(c.f, GPUT_DEFAULT_FORMAT, &row);
	l = cap_close(&c);
	assert_int_equal(strlen(t), strlen(l));
	assert_int_equal(strlen(t), 1 + 9 + 8 + 8 + 12 + 12 + 8 + 10 + 10 + 1);
	free(t);
	free(l);
}

/* ---- model_mbit ---------------------------------------------------- */

static void
test_mbit(void **state)
{
	static const struct { uint64_t bytes, ns; double want; } rows[] = {
		{ 125000, 1000000000, 1.0 },            /* 10^6 bits in 1 s */
		{ 1250000, 1000000000, 10.0 },
		{ 1000000, 8000000, 1000.0 },           /* 8 Mbit in 8 ms */
		{ 8388608, 1500000000, 44.739242666666667 },
		{ 1048576, 1000000000, 8.388608 },      /* MBit is 10^6, not 2^20 */
		{ 1, 1, 8000.0 },
		{ 0, 1000000000, 0.0 },
		{ 12345, 0, 0.0 },                      /* no time: 0, not inf */
		{ 0, 0, 0.0 },
		{ UINT64_MAX, 1000000000, 147573952589676.41 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int ok;
		double got = model_mbit(rows[i].bytes, rows[i].ns, &ok);

		if (ok != (rows[i].ns != 0))
			MISS("model_mbit(%llu, %llu): ok %d", (unsigned long long)rows[i].bytes,
			     (unsigned long long)rows[i].ns, ok);
		if (!isfinite(got) || fabs(got - rows[i].want) > fabs(rows[i].want) * 1e-12)
			MISS("model_mbit(%llu, %llu) = %.17g, want %.17g",
			     (unsigned long long)rows[i].bytes, (unsigned long long)rows[i].ns,
			     got, rows[i].want);
	}
	MISSED();
}

/* ---- the lines under the table ------------------------------------- */

/* rows without the accounting leave it zero */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static void
test_udp_arrivals(void **state)
{
	static const struct { char tag; struct gput_result recv, send; int idle_ms;
	    const char *want; struct udp_stats udp; int same_clock; } rows[] = {
		{ '1', { .dgrams = 47 }, { .dgrams = 50 }, 1000,
		  "1: received 47 of 50 datagrams, 3 lost (6.00%)\n" },
		/* the exact accounting: each count said only when not 0 */
		{ '1', { .dgrams = 47 }, { .dgrams = 50 }, 1000,
		  "1: received 47 of 50 datagrams, 3 lost (6.00%); 2 duplicates; 1 "
		  "reordered (displaced by up to 4); 1 late (after the end marker)\n",
		  { .received = 49, .unique = 47, .duplicates = 2, .reordered = 1,
		    .max_displacement = 4, .late = 1, .flags = UDPS_SEQ } },
		{ '1', { .dgrams = 50 }, { .dgrams = 50 }, 1000,
		  "1: received 50 of 50 datagrams, 0 lost (0.00%); 1 duplicate\n"
		  "1: jitter 0.012 ms (RFC 3550), delay variation 0.034 ms mean, 0.210 "
		  "ms max\n",
		  { .received = 51, .unique = 50, .duplicates = 1, .jitter_ns = 12000,
		    .delay_var_ns = 34000, .delay_var_max_ns = 210000,
		    .flags = UDPS_SEQ | UDPS_TIMED } },
		{ 'l', { .dgrams = 50 }, { .dgrams = 50 }, 1000,
		  "l: received 50 of 50 datagrams, 0 lost (0.00%)\n"
		  "l: jitter 0.000 ms (RFC 3550), delay variation 0.001 ms mean, 0.002 "
		  "ms max; one-way delay 0.050 ms min, 0.051 ms mean\n",
		  { .received = 50, .unique = 50, .delay_var_ns = 1000,
		    .delay_var_max_ns = 2000, .owd_min_ns = 50000, .owd_mean_ns = 51000,
		    .flags = UDPS_SEQ | UDPS_TIMED }, 1 },
		{ 'l', { .dgrams = 50, .flags = RES_MARKER }, { .dgrams = 50 }, 1000,
		  "l: received 50 of 50 datagrams, 0 lost (0.00%)\n" },
		{ 'l', { .dgrams = 1 }, { .dgrams = 3 }, 1000,
		  "l: received 1 of 3 datagrams, 2 lost (66.67%)\n" },
		{ 'l', { .dgrams = 0 }, { .dgrams = 0 }, 1000,
		  "l: received 0 of 0 datagrams, 0 lost (0.00%)\n" },
		{ 'l', { .dgrams = 0 }, { .dgrams = 7 }, 1000,
		  "l: received 0 of 7 datagrams, 7 lost (100.00%)\n" },
		{ 'l', { .dgrams = 51 }, { .dgrams = 50 }, 1000,     /* duplicates */
		  "l: received 51 of 50 datagrams, 0 lost (0.00%)\n" },
		{ 'l', { .dgrams = 47, .flags = RES_IDLE }, { .dgrams = 50 }, 1000,
		  "l: received 47 of 50 datagrams, 3 lost (6.00%); no end marker arrived, "
		  "receiver stopped after 1.0 s idle\n" },
		{ '1', { .dgrams = 9, .flags = RES_IDLE | RES_VERIFIED }, { .dgrams = 10 }, 21000,
		  "1: received 9 of 10 datagrams, 1 lost (10.00%); no end marker arrived, "
		  "receiver stopped after 21.0 s idle\n" },
		{ 'l', { .dgrams = 100, .flags = RES_IDLE }, { .dgrams = 100 }, 1250,
		  "l: received 100 of 100 datagrams, 0 lost (0.00%); no end marker arrived, "
		  "receiver stopped after 1.2 s idle\n" },
		/* the socket's drop count: shown only when valid and not 0 */
		{ '1', { .dgrams = 146, .sock_drops = 854, .flags = RES_DROPS | RES_MARKER },
		  { .dgrams = 1000 }, 1000,
		  "1: received 146 of 1000 datagrams, 854 lost (85.40%); the receiving "
		  "socket dropped 854 (its buffer was full: see -w, -g)\n" },
		{ '1', { .dgrams = 1000, .flags = RES_DROPS }, { .dgrams = 1000 }, 1000,
		  "1: received 1000 of 1000 datagrams, 0 lost (0.00%)\n" },
		{ '1', { .dgrams = 5, .sock_drops = 9 }, { .dgrams = 10 }, 1000,
		  "1: received 5 of 10 datagrams, 5 lost (50.00%)\n" },
		{ 'l', { .dgrams = 2, .sock_drops = 10, .flags = RES_DROPS | RES_IDLE },
		  { .dgrams = 10 }, 1000,
		  "l: received 2 of 10 datagrams, 8 lost (80.00%); the receiving socket "
		  "dropped 10 (its buffer was full: see -w, -g); no end marker arrived, "
		  "receiver stopped after 1.0 s idle\n" },
		/* the real-time clock was stepped: the window is from the reads */
		{ '1', { .dgrams = 50, .flags = RES_MARKER | RES_STEPPED }, { .dgrams = 50 },
		  1000, "1: received 50 of 50 datagrams, 0 lost (0.00%); the system clock "
		  "was stepped, so the receiver's Real s is from when it read the "
		  "datagrams\n" },
		{ 'l', { .dgrams = UINT64_MAX - 1 }, { .dgrams = UINT64_MAX }, 1000,
		  "l: received 18446744073709551614 of 18446744073709551615 datagrams, "
		  "1 lost (0.00%)\n" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct figures fig;
		struct cap c;
		char *s;

		model_loss(rows[i].send.dgrams, rows[i].recv.dgrams, &fig);
		cap_open(&c);
		report_udp_arrivals(c.f, rows[i].tag, &rows[i].recv, &fig,
		                    rows[i].idle_ms, rows[i].udp.flags || rows[i].udp.received ?
		                    &rows[i].udp : NULL, rows[i].same_clock);
		s = cap_close(&c);
		if (strcmp(s, rows[i].want) != 0)
			MISS("arrivals %zu:\n  got  '%s'\n  want '%s'", i, s, rows[i].want);
		free(s);
	}
	MISSED();
}

static void
test_verify_and_queue(void **state)
{
	static const struct { int queue; char tag; struct gput_result r;
	    const char *want; } rows[] = {
		{ 0, 'l', { .bytes = 1000, .flags = RES_VERIFIED },
		  "l: verified 1000 bytes, all match the pattern\n" },
		{ 0, '1', { .bytes = 1000, .verify_bad = 3, .verify_first = 17,
		  .flags = RES_VERIFIED },
		  "1: verify FAILED: 3 of 1000 bytes differ from the pattern, the first at "
		  "offset 17\n" },
		{ 0, '1', { .bytes = UINT64_MAX, .verify_bad = UINT64_MAX,
		  .verify_first = 0, .flags = RES_ALL },
		  "1: verify FAILED: 18446744073709551615 of 18446744073709551615 bytes differ "
		  "from the pattern, the first at offset 0\n" },
		{ 0, 'l', { .bytes = 1000, .verify_bad = 3, .flags = RES_MARKER | RES_QUEUE }, "" },
		{ 0, 'l', { 0 }, "" },
		{ 1, 'l', { .unsent = 4096, .unacked = 65536, .flags = RES_QUEUE },
		  "l: when the last write returned, 4096 bytes were not yet sent and 65536 not "
		  "yet acknowledged\n" },
		{ 1, '1', { .flags = RES_QUEUE },
		  "1: when the last write returned, 0 bytes were not yet sent and 0 not yet "
		  "acknowledged\n" },
		{ 1, 'l', { .unsent = 4096, .unacked = 65536, .flags = RES_VERIFIED }, "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct cap c;
		char *s;

		cap_open(&c);
		if (rows[i].queue)
			report_tcp_queue(c.f, rows[i].tag, &rows[i].r);
		else
			report_verify(c.f, rows[i].tag, &rows[i].r);
		s = cap_close(&c);
		if (strcmp(s, rows[i].want) != 0)
			MISS("%s %zu:\n  got  '%s'\n  want '%s'", rows[i].queue ?
			     "tcp_queue" : "verify", i, s, rows[i].want);
		free(s);
	}
	MISSED();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_format),
		cmocka_unit_test(test_title),
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_title_line_align),
		cmocka_unit_test(test_line_wide),
		cmocka_unit_test(test_title_wide),
		cmocka_unit_test(test_mbit),
		cmocka_unit_test(test_udp_arrivals),
		cmocka_unit_test(test_verify_and_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
