/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_multisum.c: several partners' sums per role (exact Bytes, Calls,
 * CPU, the first start to the last end) and Jain's index over the
 * receivers; their table lines, CSV rows and JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client_multi_sum.h"
#include "xfer.h"

#define MS 1000000ull

static void
side(struct msum_side *s, uint8_t role, uint64_t bytes, uint64_t calls,
     uint64_t start_ms, uint64_t real_ms, uint64_t cpu_ms)
{
	memset(s, 0, sizeof *s);
	s->have = 1;
	s->role = role;
	s->len = 1000;
	s->count = calls;
	s->start_ns = start_ms * MS;
	s->r.bytes = bytes;
	s->r.calls = calls;
	s->r.real_ns = real_ms * MS;
	s->r.cpu_ns = cpu_ms * MS;
}

/* Three partners: this host sends to 1 and 3, receives from 2 (--bidir
 * style); partner 3 failed (no record). */
static void
three(struct msum_rec *rec, int *have)
{
	memset(rec, 0, 3 * sizeof *rec);
	side(&rec[0].side[0], ROLE_SEND, 1000000, 1000, 100, 1000, 10);
	side(&rec[0].side[1], ROLE_RECV, 1000000, 1002, 101, 1000, 20);
	side(&rec[1].side[0], ROLE_RECV, 3000000, 3000, 110, 2000, 30);
	side(&rec[1].side[1], ROLE_SEND, 3000000, 3001, 111, 1999, 40);
	have[0] = have[1] = 1;
	have[2] = 0;
}

static void
test_compute(void **state)
{
	struct msum_rec rec[3];
	struct msum s;
	int have[3];

	(void)state;
	three(rec, have);
	msum_compute(&s, rec, have, 3);
	assert_int_equal(s.partners, 2);
	/* senders: 1's l and 2's own */
	assert_int_equal(s.role[0].n, 2);
	assert_int_equal(s.role[0].r.bytes, 4000000);
	assert_int_equal(s.role[0].r.calls, 4001);
	assert_int_equal(s.role[0].r.cpu_ns, 50 * MS);
	assert_int_equal(s.role[0].r.real_ns, (111 + 1999 - 100) * MS);
	assert_int_equal(s.role[0].tag[0], '1');
	assert_int_equal(s.role[0].tag[1], '2');
	/* receivers: 1's own, 2's l: 8 and 12 Mbit/s */
	assert_int_equal(s.role[1].r.bytes, 4000000);
	assert_int_equal(s.role[1].r.real_ns, (110 + 2000 - 101) * MS);
	assert_true(s.role[1].goodput[0] == 8.0);
	assert_true(s.role[1].goodput[1] == 12.0);
	assert_true(s.share[0] == 0.4 && s.share[1] == 0.6);
	/* (8 + 12)^2 / (2 (64 + 144)) = 400 / 416 */
	assert_true(s.jain > 400.0 / 416 - 1e-12 && s.jain < 400.0 / 416 + 1e-12);
}

static char *
render(int what, const struct msum *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (what == 0)
		msum_table(f, s, "%9b%8.2rt%12.4rbr%8c");
	else if (what == 1)
		msum_csv(f, s, 14);
	else
		msum_json(f, s, 1);
	fclose(f);
	return buf;
}

static void
test_render(void **state)
{
	struct msum_rec rec[3];
	struct msum s;
	int have[3];
	char *t;

	(void)state;
	three(rec, have);
	msum_compute(&s, rec, have, 3);
	t = render(0, &s);
	assert_string_equal(t,
	    "+ t  4000000    2.01     15.9204    4001  sum of 2 senders\n"
	    "+ r  4000000    2.01     15.9283    4002  sum of 2 receivers\n"
	    "+ r: fairness of 2 receivers: Jain's index 0.9615, shares 1 40.0% 2 60.0%\n");
	free(t);
	t = render(1, &s);
	assert_string_equal(t,
	    "sum,t,send,4000000,4001,2.01,0.05,15.92039800995025,640,1990.547263681592,80020,,,\n"
	    "sum,r,recv,4000000,4002,2.009,0.05,15.928322548531607,640,1992.0358387257343,80040,,,\n");
	free(t);
	t = render(2, &s);
	assert_non_null(strstr(t, "\"type\":\"partners_sum\",\"partners\":2,"));
	assert_non_null(strstr(t, "\"send\":{\"lines\":2,\"bytes\":4000000,\"calls\":4001,"));
	assert_non_null(strstr(t, "\"shares\":[0.4,0.6]"));
	free(t);
	/* one partner with results: no sum lines, no fairness */
	have[1] = 0;
	msum_compute(&s, rec, have, 3);
	t = render(0, &s);
	assert_string_equal(t, "");
	free(t);
	t = render(2, &s);
	assert_non_null(strstr(t, "\"jain\":null"));
	free(t);
}

static void
test_record(void **state)
{
	struct run_model m;
	struct msum_rec rec;
	int fd[2];
	char buf[4096];
	ssize_t n;

	(void)state;
	memset(&m, 0, sizeof m);
	m.proto = PROTO_TCP;
	m.side[0].have_result = 1;
	m.side[0].role = ROLE_SEND;
	m.side[0].r.bytes = 77;
	m.side[0].start_ns = 5;
	m.side[1].have_result = 0;
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(msum_put(fd[1], &m, 1000), 0);
	n = read(fd[0], buf, sizeof buf);
	close(fd[0]);
	close(fd[1]);
	assert_int_equal(msum_take(&rec, buf, (size_t)n), 0);
	assert_int_equal(rec.side[0].have, 1);
	assert_int_equal(rec.side[0].r.bytes, 77);
	assert_int_equal(rec.side[0].start_ns, 1005);
	assert_int_equal(rec.side[1].have, 0);
	assert_int_equal(msum_take(&rec, buf, (size_t)n - 1), -1);
	buf[0] ^= 1;
	assert_int_equal(msum_take(&rec, buf, (size_t)n), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
