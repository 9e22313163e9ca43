/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_udplog.c: --log's binary records turned into text, line by line:
 * origins at the first arrival and the first send time, the delay above
 * the smallest, "-" for unpaced datagrams and for no flags. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "udplog.h"
#include "xfer.h"

struct rec { uint64_t seq, send, at; uint32_t len, flags; };

static void
put_rec(FILE *f, const struct rec *r)
{
	uint8_t b[UDP_LOG_REC];
	int j;

	for (j = 0; j < 8; j++) {
		b[j] = (uint8_t)(r->seq >> (8 * j));
		b[8 + j] = (uint8_t)(r->send >> (8 * j));
		b[16 + j] = (uint8_t)(r->at >> (8 * j));
	}
	for (j = 0; j < 4; j++) {
		b[24 + j] = (uint8_t)(r->len >> (8 * j));
		b[28 + j] = (uint8_t)(r->flags >> (8 * j));
	}
	assert_int_equal(fwrite(b, 1, sizeof b, f), sizeof b);
}

/* Convert recs (and extra trailing bytes) and compare with want exactly. */
static void
check_sent(const struct rec *recs, size_t n, size_t extra, uint64_t sent,
           const char *want)
{
	char path[] = "/tmp/gput-udplog-XXXXXX", err[256], got[4096];
	FILE *bin = tmpfile(), *txt;
	size_t k;
	int fd = mkstemp(path);

	assert_non_null(bin);
	assert_true(fd >= 0);
	close(fd);
	for (k = 0; k < n; k++)
		put_rec(bin, &recs[k]);
	for (k = 0; k < extra; k++)
		fputc(0x5a, bin);
	fflush(bin);
	assert_int_equal(udplog_text(bin, path, sent, err, sizeof err), 0);
	fclose(bin);
	txt = fopen(path, "r");
	assert_non_null(txt);
	k = fread(got, 1, sizeof got - 1, txt);
	got[k] = '\0';
	fclose(txt);
	unlink(path);
	assert_string_equal(got, want);
}

static void
check(const struct rec *recs, size_t n, size_t extra, const char *want)
{
	check_sent(recs, n, extra, 0, want);
}

#define HEAD "# gput --log: seq arrive_s send_s delay_ms len flags\n"

static void
test_udplog_lines(void **state)
{
	static const struct rec recs[] = {
		{ 0, 1000000000, 5000000000ULL, 100, 0 },
		{ 2, 1002000000, 5002500000ULL, 100, 0 },
		{ 1, 1001000000, 5003000000ULL, 100, UDPLOG_REORDER },
		{ 1, 1001000000, 5003100000ULL, 100, UDPLOG_DUP },
		{ 3, 0, 5004000000ULL, 60, UDPLOG_REORDER | UDPLOG_LATE },
		{ 7, 0, 4999000000ULL, 100, UDPLOG_NOSEQ },   /* the first arrival */
		{ 8, 0, 5005000000ULL, 24, 0x1f },
		{ UINT64_MAX, 0, 5006000000ULL, UINT32_MAX, 0x20 }, /* unknown bit */
		{ 9, 1003000000, 5007000000ULL, 100, UDPLOG_OLD },
	};
	static const char want[] = HEAD
	    "0 0.001000000 0.000000000 0.000000 100 -\n"
	    "2 0.003500000 0.002000000 0.500000 100 -\n"
	    "1 0.004000000 0.001000000 2.000000 100 reorder\n"
	    "1 0.004100000 0.001000000 2.100000 100 dup\n"
	    "3 0.005000000 - - 60 reorder,late\n"
	    "7 0.000000000 - - 100 noseq\n"
	    "8 0.006000000 - - 24 dup,reorder,late,old,noseq\n"
	    "18446744073709551615 0.007000000 - - 4294967295 -\n"
	    "9 0.008000000 0.003000000 4.000000 100 old\n";

	(void)state;
	check(recs, sizeof recs / sizeof recs[0], 0, want);
	/* a torn last record (the run ended mid-write) is left out */
	check(recs, 2, 31, HEAD
	    "0 0.000000000 0.000000000 0.000000 100 -\n"
	    "2 0.002500000 0.002000000 0.500000 100 -\n");
	check(recs, 0, 0, HEAD);
	check(recs, 0, 5, HEAD);
}

/* The sender's clock far from the receiver's: the delay is still taken
 * above the smallest (only differences mean anything). */
static void
test_udplog_clocks_apart(void **state)
{
	static const struct rec recs[] = {
		{ 0, 9000000000ULL, 1000000000ULL, 1472, 0 },   /* arrives "before" sent */
		{ 1, 9001000000ULL, 1001250000ULL, 1472, 0 },
		{ 2, 9002000000ULL, 1002000000ULL, 1472, 0 },
	};

	(void)state;
	check(recs, 3, 0, HEAD
	    "0 0.000000000 0.000000000 0.000000 1472 -\n"
	    "1 0.001250000 0.001000000 0.250000 1472 -\n"
	    "2 0.002000000 0.002000000 0.000000 1472 -\n");
}

static void
test_udplog_errors(void **state)
{
	FILE *bin = tmpfile();
	char err[256] = "";

	(void)state;
	assert_non_null(bin);
	assert_int_equal(udplog_text(bin, "/nonexistent-gput-dir/log.txt", 0, err,
	                 sizeof err), -1);
	assert_string_equal(err, "No such file or directory");
	fclose(bin);
}

/* The sender's count, when known, on a line of its own after the header:
 * the lost ones at the end of the run can be told from the file. */
static void
test_udplog_sent(void **state)
{
	static const struct rec recs[] = {
		{ 0, 0, 5000000000ULL, 100, 0 },
		{ 3, 0, 5001000000ULL, 100, 0 },
	};

	(void)state;
	check_sent(recs, 2, 0, 10, HEAD
	    "# sent 10 datagrams, sequence numbers 0 to 9\n"
	    "0 0.000000000 - - 100 -\n"
	    "3 0.001000000 - - 100 -\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udplog_lines),
		cmocka_unit_test(test_udplog_clocks_apart),
		cmocka_unit_test(test_udplog_errors),
		cmocka_unit_test(test_udplog_sent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
