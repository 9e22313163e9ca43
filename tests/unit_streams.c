/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_streams.c: the renderers of parallel streams (-P) on a hand-built
 * model of two sides with three streams each: the table's stream and sum
 * lines, the fairness lines, interval lines, JSON, JSON lines and CSV, and
 * that with one stream every output is the one it was before -P. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model.h"
#include "report.h"
#include "report_csv.h"
#include "report_ival.h"
#include "report_json.h"
#include "report_streams.h"
#include "xfer.h"
#include "capture.h"

#define MS 1000000ull
#define FMT "%9b%8.2rt%8.2ct%12.4rbr%12.4cbr%8c%10.2rcr%10.1ccr"

/* Stream k (from 1) of s: bytes and calls in two intervals (0-500 ms and
 * 500 ms to its end, the last), a window from start to end, CPU time. */
static void
stream_set(struct side *s, uint32_t k, uint64_t bytes, uint64_t calls,
           uint64_t start_ms, uint64_t end_ms, uint64_t cpu_ms)
{
	struct side *t = &s->st[k - 1];
	struct ival iv;

	t->have_result = 1;
	t->r.bytes = bytes;
	t->r.calls = calls;
	t->start_ns = start_ms * MS;
	t->end_ns = end_ms * MS;
	t->r.real_ns = (end_ms - start_ms) * MS;
	t->r.cpu_ns = cpu_ms * MS;
	memset(&iv, 0, sizeof iv);
	iv.end_ns = 500 * MS;
	iv.bytes = bytes / 2;
	iv.calls = calls / 2;
	assert_int_equal(model_add_ival(t, &iv), 0);
	iv.start_ns = iv.end_ns;
	iv.end_ns = t->end_ns;
	iv.bytes = bytes - bytes / 2;
	iv.calls = calls - calls / 2;
	iv.flags = IVAL_LAST;
	assert_int_equal(model_add_ival(t, &iv), 0);
}

static void
side_set(struct side *s, char tag, uint8_t role, uint64_t cpu_ms)
{
	memset(s, 0, sizeof *s);
	s->tag = tag;
	s->proto = PROTO_TCP;
	s->role = role;
	s->len = 12500;
	s->count = 200;
	s->have_result = 1;
	s->r.cpu_ns = cpu_ms * MS;
	assert_int_equal(model_streams(s, 3), 0);
}

/* TCP, count mode, -P 3: l sends 1.25, 2.5 and 3.75 MB on three streams,
 * each over 1 s, starting 1, 2 and 3 ms after START; 1 receives them at
 * 10, 20 and 30 MBit/s. The sums, interval sums and fairness are the
 * model's. */
static void
model_p3(struct run_model *m)
{
	struct side *l = &m->side[0], *p = &m->side[1];
	uint32_t k;

	memset(m, 0, sizeof *m);
	m->proto = PROTO_TCP;
	m->data_bytes = 7500000;
	m->data_len = 12500;
	m->host = "peer.example";
	m->port = 5037;
	m->streams = 3;
	side_set(l, 'l', ROLE_SEND, 500);
	stream_set(l, 1, 1250000, 100, 1, 1001, 200);
	stream_set(l, 2, 2500000, 200, 2, 1002, 300);
	stream_set(l, 3, 3750000, 300, 3, 1003, 400);
	for (k = 0; k < 3; k++) {
		l->st[k].tcp.valid = 1;
		strcpy(l->st[k].tcp.cc, k == 1 ? "bbr" : "cubic");
		l->st[k].tcp.cwnd = 10 * (k + 1);
	}
	side_set(p, '1', ROLE_RECV, 250);
	stream_set(p, 1, 1250000, 250, 1, 1001, 100);
	stream_set(p, 2, 2500000, 400, 2, 1002, 100);
	stream_set(p, 3, 3750000, 700, 3, 1003, 100);
	for (k = 0; k < 2; k++) {
		model_sum(&m->side[k]);
		assert_int_equal(model_sum_ivals(&m->side[k]), 0);
		assert_null(model_ivals_invalid(&m->side[k]));
		assert_null(model_sum_invalid(&m->side[k], &m->side[k].r));
	}
	model_fairness(m);
	assert_true(m->have_fair);
}

static void
test_table(void **state)
{
	struct run_model m;
	struct cap c;
	uint32_t k;

	(void)state;
	model_p3(&m);
	cap_open(&c);
	model_figures(&m);
	report_streams_table(c.f, &m, FMT, FMT, 0);
	report_fairness(c.f, &m);
	cap_expect(&c,
	"l  1250000    1.00    0.20     10.0000     50.0000     100    100.00     500.0  stream 1  cc cubic  fct 1.001 s\n"
	"l  2500000    1.00    0.30     20.0000     66.6667     200    200.00     666.7  stream 2  cc bbr  fct 1.002 s\n"
	"l  3750000    1.00    0.40     30.0000     75.0000     300    300.00     750.0  stream 3  cc cubic  fct 1.003 s\n"
	"l  7500000    1.00    0.50     59.8802    120.0000     600    598.80    1200.0  sum of 3 streams\n"
	"1  1250000    1.00    0.10     10.0000    100.0000     250    250.00    2500.0  stream 1  cc cubic  fct 1.001 s\n"
	"1  2500000    1.00    0.10     20.0000    200.0000     400    400.00    4000.0  stream 2  cc bbr  fct 1.002 s\n"
	"1  3750000    1.00    0.10     30.0000    300.0000     700    700.00    7000.0  stream 3  cc cubic  fct 1.003 s\n"
	"1  7500000    1.00    0.25     59.8802    240.0000    1350   1347.31    5400.0  sum of 3 streams\n"
	"1: fairness of 3 streams: Jain's index 0.8571, shares 16.7% 33.3% 50.0%\n");
	/* the receiving sockets' own algorithm (bbr, the host's default, say)
	 * governs no data: the lines keep the sender's, -v adds it */
	for (k = 0; k < 3; k++) {
		m.side[1].st[k].tcp.valid = 1;
		strcpy(m.side[1].st[k].tcp.cc, "bbr");
	}
	cap_open(&c);
	model_figures(&m);
	report_streams_table(c.f, &m, "%b", "%b", 0);
	/* a value never touches the side tag: "1 1250000", not "11250000" */
	cap_expect(&c,
	"l 1250000  stream 1  cc cubic  fct 1.001 s\n"
	"l 2500000  stream 2  cc bbr  fct 1.002 s\n"
	"l 3750000  stream 3  cc cubic  fct 1.003 s\n"
	"l 7500000  sum of 3 streams\n"
	"1 1250000  stream 1  cc cubic  fct 1.001 s\n"
	"1 2500000  stream 2  cc bbr  fct 1.002 s\n"
	"1 3750000  stream 3  cc cubic  fct 1.003 s\n"
	"1 7500000  sum of 3 streams\n");
	cap_open(&c);
	model_figures(&m);
	report_streams_table(c.f, &m, "%b", "%b", 1);
	cap_expect(&c,
	"l 1250000  stream 1  cc cubic  fct 1.001 s\n"
	"l 2500000  stream 2  cc bbr  fct 1.002 s\n"
	"l 3750000  stream 3  cc cubic  fct 1.003 s\n"
	"l 7500000  sum of 3 streams\n"
	"1 1250000  stream 1  cc cubic (own bbr)  fct 1.001 s\n"
	"1 2500000  stream 2  cc bbr (own bbr)  fct 1.002 s\n"
	"1 3750000  stream 3  cc cubic (own bbr)  fct 1.003 s\n"
	"1 7500000  sum of 3 streams\n");
	model_free(&m);
}

/* A stream without a result, the steady state's fairness, a partner that
 * never answered. */
static void
test_table_edges(void **state)
{
	struct run_model m;
	uint32_t k;
	struct cap c;

	(void)state;
	model_p3(&m);
	m.omit_ms = 500;
	for (k = 0; k < 3; k++) {
		m.side[1].st[k].iv[0].flags |= IVAL_OMITTED;
		model_steady(&m.side[1].st[k]);
	}
	model_fairness(&m);
	assert_true(m.have_fair_steady);
	m.side[0].st[1].have_result = 0;
	m.side[1].have_result = 0;
	cap_open(&c);
	model_figures(&m);
	report_streams_table(c.f, &m, "%b", "%b", 0);
	cap_expect(&c,
	"l 1250000  stream 1  cc cubic  fct 1.001 s\n"
	"l  stream 2: no result\n"
	"l 3750000  stream 3  cc cubic  fct 1.003 s\n"
	"l 7500000  sum of 3 streams\n");
	m.side[1].have_result = 1;
	cap_open(&c);
	report_fairness(c.f, &m);
	/* steady: 625000, 1250000, 1875000 bytes over 0.501, 0.502, 0.503 s */
	cap_expect(&c,
	"1: fairness of 3 streams: Jain's index 0.8571, shares 16.7% 33.3% 50.0%\n"
	"1: fairness of 3 streams in the steady state after 0.50 s: Jain's index 0.8580\n");
	model_free(&m);
}

/* With one stream (-P 1, or none), the table is report_line's, as before,
 * and there is no fairness. */
static void
test_one_stream(void **state)
{
	struct run_model m;
	struct cap c, d;
	char *got;

	(void)state;
	model_p3(&m);
	m.streams = 1;
	model_fairness(&m);
	assert_false(m.have_fair);
	cap_open(&c);
	model_figures(&m);
	report_streams_table(c.f, &m, FMT, "%b %c", 0);
	report_fairness(c.f, &m);
	got = cap_close(&c);
	cap_open(&d);
	report_line(d.f, FMT, &(struct report_row){ 'l', 12500, 200, &m.side[0].r,
	            &m.side[0].fig });
	report_line(d.f, "%b %c", &(struct report_row){ '1', 12500, 200,
	            &m.side[1].r, &m.side[1].fig });
	cap_expect(&d, got);
	free(got);
	model_free(&m);
}

static void
test_ival_lines(void **state)
{
	struct run_model m;
	struct cap c;
	struct ival iv;
	size_t i;
	uint32_t k;

	(void)state;
	model_p3(&m);
	cap_open(&c);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < 3; k++)
			report_ival_line(c.f, &m.side[1].st[k], &m.side[1].st[k].iv[i]);
		assert_int_equal(model_ival_sum(&m.side[1], i, &iv), 1);
		report_ival_line(c.f, &m.side[1], &iv);
	}
	cap_expect(&c,
	"1  0.00- 0.50 s      625000 bytes      125 calls   10.0000 MBit/s  stream 1\n"
	"1  0.00- 0.50 s     1250000 bytes      200 calls   20.0000 MBit/s  stream 2\n"
	"1  0.00- 0.50 s     1875000 bytes      350 calls   30.0000 MBit/s  stream 3\n"
	"1  0.00- 0.50 s     3750000 bytes      675 calls   60.0000 MBit/s  sum\n"
	"1  0.50- 1.00 s      625000 bytes      125 calls    9.9800 MBit/s  stream 1 (last)\n"
	"1  0.50- 1.00 s     1250000 bytes      200 calls   19.9203 MBit/s  stream 2 (last)\n"
	"1  0.50- 1.00 s     1875000 bytes      350 calls   29.8211 MBit/s  stream 3 (last)\n"
	"1  0.50- 1.00 s     3750000 bytes      675 calls   59.6421 MBit/s  sum (last)\n");
	/* a side with one stream: its line as before */
	m.side[1].nst = 1;
	cap_open(&c);
	report_ival_line(c.f, &m.side[1], &m.side[1].iv[0]);
	cap_expect(&c,
	"1  0.00- 0.50 s     3750000 bytes      675 calls   60.0000 MBit/s\n");
	m.side[1].nst = 3;
	model_free(&m);
}

static void
test_json_lines(void **state)
{
	struct run_model m;
	struct cap c;

	(void)state;
	model_p3(&m);
	cap_open(&c);
	report_json_stream_ival(c.f, &m, &m.side[0].st[1], &m.side[0].st[1].iv[0]);
	report_json_stream_ival(c.f, &m, &m.side[0], &m.side[0].iv[1]);
	report_json_ival(c.f, &m, 1, &m.side[1].iv[0]);
	cap_expect(&c,
	"{\"type\":\"interval\",\"side\":\"l\",\"stream\":2,\"start\":0,\"end\":0.5,\"bytes\":1250000,\"calls\":100,\"real_mbit\":20,\"omitted\":false,\"last\":false}\n"
	"{\"type\":\"interval\",\"side\":\"l\",\"stream\":0,\"start\":0.5,\"end\":1.003,\"bytes\":3750000,\"calls\":300,\"real_mbit\":59.642147117296226,\"omitted\":false,\"last\":true}\n"
	"{\"type\":\"interval\",\"side\":\"1\",\"stream\":0,\"start\":0,\"end\":0.5,\"bytes\":3750000,\"calls\":675,\"real_mbit\":60,\"omitted\":false,\"last\":false}\n");
	/* one stream: no "stream" key */
	m.streams = 1;
	cap_open(&c);
	report_json_stream_ival(c.f, &m, &m.side[1], &m.side[1].iv[0]);
	cap_expect(&c,
	"{\"type\":\"interval\",\"side\":\"1\",\"start\":0,\"end\":0.5,\"bytes\":3750000,\"calls\":675,\"real_mbit\":60,\"omitted\":false,\"last\":false}\n");
	model_free(&m);
}

/* The document's new keys, in place, with the model's numbers. */
static void
test_json(void **state)
{
	struct run_model m;
	struct cap c;
	char *out;

	(void)state;
	model_p3(&m);
	cap_open(&c);
	model_figures(&m);
	report_json_summary_line(c.f, &m);
	out = cap_close(&c);
	assert_non_null(strstr(out, "\"port\":5037},\"streams\":3,\"sides\":["));
	/* the side's own keys are its sums; its streams come last */
	assert_non_null(strstr(out, "{\"side\":\"l\",\"role\":\"send\",\"bytes\":7500000,"
	    "\"calls\":600,\"real_s\":1.002,\"cpu_s\":0.5,"));
	assert_non_null(strstr(out, "\"streams\":[{\"stream\":1,\"bytes\":1250000,"
	    "\"calls\":100,\"real_s\":1,\"cpu_s\":0.2,\"real_mbit\":10,"
	    "\"start_s\":0.001,\"fct_s\":1.001,\"share\":null,\"intervals\":[{"));
	assert_non_null(strstr(out, "\"tcp_info\":{\"cc\":\"bbr\",\"retrans\":0,"
	    "\"rtt_us\":0,\"min_rtt_us\":0,\"cwnd\":20,"));
	assert_non_null(strstr(out, "{\"stream\":3,\"bytes\":3750000,\"calls\":700,"
	    "\"real_s\":1,\"cpu_s\":0.1,\"real_mbit\":30,\"start_s\":0.003,"
	    "\"fct_s\":1.003,\"share\":0.5,\"intervals\":["));
	assert_non_null(strstr(out, "\"share\":0.16666666666666666,"));
	assert_non_null(strstr(out, "]}],\"fairness\":{\"jain\":0.8571428571428571,"
	    "\"jain_steady\":null,\"side\":\"1\"},\"explain\":{\"limit\":\""));
	assert_non_null(strstr(out, "},\"interrupted\":false,\"error\":null}\n"));
	/* each receiving stream's verdict, with its share */
	assert_non_null(strstr(out, "\"share\":0.5},\"warnings\":["));
	free(out);
	/* a stream without a result; no fairness */
	m.side[1].st[0].have_result = 0;
	m.have_fair = 0;
	cap_open(&c);
	model_figures(&m);
	report_json_summary_line(c.f, &m);
	out = cap_close(&c);
	assert_non_null(strstr(out, "\"streams\":[{\"stream\":1,\"error\":\"no result\"},"
	    "{\"stream\":2,"));
	assert_null(strstr(out, "fairness"));
	assert_null(strstr(out, "\"share\":0."));
	free(out);
	model_free(&m);
}

static void
test_csv(void **state)
{
	struct run_model m;
	struct cap c;

	(void)state;
	model_p3(&m);
	m.side[1].st[1].have_result = 0;        /* no row */
	cap_open(&c);
	model_figures(&m);
	report_csv(c.f, &m);
	cap_expect(&c,
	"side,role,bytes,calls,real_s,cpu_s,real_mbit,cpu_mbit,real_calls_s,cpu_calls_s,start_s,fct_s,share,limit,limit_ratio\n"
	"l,send,7500000,600,1.002,0.5,59.880239520958085,120,598.8023952095808,1200,0.001,1.003,,,\n"
	"l.1,send,1250000,100,1,0.2,10,50,100,500,0.001,1.001,,,\n"
	"l.2,send,2500000,200,1,0.3,20,66.66666666666667,200,666.6666666666666,0.002,1.002,,,\n"
	"l.3,send,3750000,300,1,0.4,30,75,300,750,0.003,1.003,,,\n"
	"1,recv,7500000,1350,1.002,0.25,59.880239520958085,240,1347.3053892215569,5400,0.001,1.003,,unknown,\n"
	"1.1,recv,1250000,250,1,0.1,10,100,250,2500,0.001,1.001,0.16666666666666666,unknown,\n"
	"1.3,recv,3750000,700,1,0.1,30,300,700,7000,0.003,1.003,0.5,unknown,\n");
	model_free(&m);
}

/* ---- jq: the document parses and its numbers add up ------------------ */

static int
jq_true(const char *path, const char *expr)
{
	char cmd[1024], line[256];
	FILE *p;
	int st;

	snprintf(cmd, sizeof cmd, "jq -e '%s' '%s' 2>&1 >/dev/null", expr, path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof line, p) != NULL)
		print_message("jq: %s", line);
	st = pclose(p);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void
test_jq(void **state)
{
	static const char *const exprs[] = {
		".streams == 3 and (.sides | length) == 2",
		"all(.sides[]; (.streams | length) == 3)",
		"all(.sides[]; .bytes == ([.streams[].bytes] | add))",
		"all(.sides[]; .calls == ([.streams[].calls] | add))",
		"all(.sides[]; .real_s == ([.streams[].fct_s] | max) - "
		    "([.streams[].start_s] | min))",
		"[.sides[1].streams[].share] | add == 1",
		".fairness.side == \"1\" and .fairness.jain_steady == null",
		"(.fairness.jain - 36 / 42 | fabs) < 1e-12",
		"[.sides[0].streams[].tcp_info.cc] == [\"cubic\", \"bbr\", \"cubic\"]",
		"all(.sides[].streams[]; ([.intervals[].bytes] | add) == .bytes)",
		NULL };
	char path[] = "/tmp/gput-unit-streams-XXXXXX";
	struct run_model m;
	FILE *f;
	int fd, bad = 0;
	size_t i;

	(void)state;
	if (system("command -v jq >/dev/null 2>&1") != 0) {
		print_message("jq not on PATH: skipping the jq checks\n");
		skip();
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	model_p3(&m);
	model_figures(&m);
	report_json(f, &m);
	model_free(&m);
	assert_int_equal(fclose(f), 0);
	for (i = 0; exprs[i] != NULL; i++)
		if (!jq_true(path, exprs[i])) {
			print_error("jq -e '%s' failed\n", exprs[i]);
			bad++;
		}
	unlink(path);
	assert_int_equal(bad, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_table_edges),
		cmocka_unit_test(test_one_stream),
		cmocka_unit_test(test_ival_lines),
		cmocka_unit_test(test_json_lines),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_jq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
