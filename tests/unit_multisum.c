/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_multisum.c: several partners' sums per role (exact Bytes, Calls,
 * CPU, the first start to the last end) and Jain's index over the
 * receivers, from the partners' models (model_psum); their table lines,
 * CSV rows and JSON (report_psum); a model's way from a partner's process
 * to the parent (model_rec over a pipe, net_write_full). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model_psum.h"
#include "model_rec.h"
#include "net.h"
#include "report_psum.h"
#include "xfer.h"

#define MS 1000000ull

/* Side s of a run: a result of bytes and calls over real_ms from start_ms
 * (after the run's START), its figures computed. */
static void
side(struct side *s, uint8_t role, uint64_t bytes, uint64_t calls,
     uint64_t start_ms, uint64_t real_ms, uint64_t cpu_ms)
{
	memset(s, 0, sizeof *s);
	s->have_result = 1;
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
 * style); partner 3 failed (its run has an error). Each run's START is at
 * 100 ms on this host's clock, its sides' starts after it. */
static void
three(struct run_model *m, const struct run_model **p)
{
	int k;

	memset(m, 0, 3 * sizeof *m);
	side(&m[0].side[0], ROLE_SEND, 1000000, 1000, 0, 1000, 10);
	side(&m[0].side[1], ROLE_RECV, 1000000, 1002, 1, 1000, 20);
	side(&m[1].side[0], ROLE_RECV, 3000000, 3000, 10, 2000, 30);
	side(&m[1].side[1], ROLE_SEND, 3000000, 3001, 11, 1999, 40);
	side(&m[2].side[0], ROLE_SEND, 5000000, 5000, 0, 1000, 10);
	m[2].error = "no results";
	for (k = 0; k < 3; k++) {
		m[k].start_mono_ns = 100 * MS;
		model_figures(&m[k]);
		p[k] = &m[k];
	}
}

static void
test_compute(void **state)
{
	struct run_model m[3];
	const struct run_model *p[3];
	struct psum s;

	(void)state;
	three(m, p);
	model_psum(&s, p, 3);
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
render(int what, const struct psum *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (what == 0)
		report_psum_table(f, s, "%9b%8.2rt%12.4rbr%8c");
	else if (what == 1)
		report_psum_csv(f, s, 14);
	else
		report_psum_json(f, s, 1);
	fclose(f);
	return buf;
}

static void
test_render(void **state)
{
	struct run_model m[3];
	const struct run_model *p[3];
	struct psum s;
	char *t;

	(void)state;
	three(m, p);
	model_psum(&s, p, 3);
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
	p[1] = NULL;
	model_psum(&s, p, 3);
	t = render(0, &s);
	assert_string_equal(t, "");
	free(t);
	t = render(2, &s);
	assert_non_null(strstr(t, "\"jain\":null"));
	free(t);
}

/* A partner's model on its way to the parent: its record written whole
 * over a pipe (net_write_full), taken, its figures computed again, summed
 * with its START on this host's clock; a record cut short is refused. */
static void
test_record(void **state)
{
	struct run_model m, got;
	const struct run_model *p[1] = { &got };
	struct psum s;
	uint8_t *rec, buf[65536];
	size_t len, used;
	ssize_t n;
	char err[128];
	int fd[2];

	(void)state;
	memset(&m, 0, sizeof m);
	m.proto = PROTO_TCP;
	m.host = "h";
	m.start_mono_ns = 1000;
	side(&m.side[0], ROLE_SEND, 1250000, 77, 5, 1000, 10);
	m.side[1].role = ROLE_RECV;             /* no result */
	assert_int_equal(model_rec_put(&m, 0, &rec, &len), 0);
	assert_true(len < sizeof buf);
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(net_write_full(fd[1], rec, len), 0);
	close(fd[1]);
	n = read(fd[0], buf, sizeof buf);
	close(fd[0]);
	assert_int_equal(n, (ssize_t)len);
	free(rec);
	assert_int_equal(model_rec_take(buf, len - 1, &used, &got, err,
	    sizeof err), -1);
	assert_int_equal(model_rec_take(buf, len, &used, &got, err, sizeof err), 0);
	assert_int_equal(used, len);
	assert_true(got.side[0].fig.real_mbit.ok &&
	    got.side[0].fig.real_mbit.v == 10.0);
	model_psum(&s, p, 1);
	assert_int_equal(s.partners, 1);
	assert_int_equal(s.role[0].n, 1);
	assert_int_equal(s.role[0].first, 1000 + 5 * MS);
	assert_int_equal(s.role[0].r.bytes, 1250000);
	assert_int_equal(s.role[1].n, 0);
	model_free(&got);
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
