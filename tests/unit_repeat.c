/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_repeat.c: --repeat, --pause and --ci as the command line gives them
 * (accepted and refused lines, exact messages), and a run set's statistics
 * from hand-made run models, as figures and as rendered JSON and CSV. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <math.h>

#include "cli.h"
#include "client_repeat.h"
#include "report_repeat.h"
#include "client_runset.h"
#include "xfer.h"

static int
parse(const char *line, struct config *c, char *err, size_t errlen)
{
	static char buf[512];
	static char *v[32];
	char *tok, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof buf, "gput %s", line);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		v[n++] = tok;
	v[n] = NULL;
	return cli_parse(n, v, NULL, NULL, c, err, errlen);
}

static void
test_accepted(void **state)
{
	struct config c;
	char err[300];

	(void)state;
	assert_int_equal(parse("h", &c, err, sizeof err), 0);
	assert_int_equal(c.rep.max, 0);
	assert_int_equal(c.rep.pause_ms, 1000);
	assert_true(c.rep.level == 95);
	assert_int_equal(parse("--repeat 5 h", &c, err, sizeof err), 0);
	assert_int_equal(c.rep.min, 5);
	assert_int_equal(c.rep.max, 5);
	assert_true(c.rep.width_pct == 0);          /* N: no target */
	assert_int_equal(parse("--repeat 3,20 --ci 99.5 --pause 0.25 h", &c, err,
	    sizeof err), 0);
	assert_int_equal(c.rep.min, 3);
	assert_int_equal(c.rep.max, 20);
	assert_int_equal(c.rep.pause_ms, 250);
	assert_true(c.rep.level == 99.5);
	assert_true(c.rep.width_pct == REPEAT_WIDTH); /* the default target */
	assert_int_equal(parse("--repeat 3,20 --ci 95,2.5 --pause 0 h", &c, err,
	    sizeof err), 0);
	assert_true(c.rep.width_pct == 2.5);
	assert_int_equal(c.rep.pause_ms, 0);
	assert_int_equal(parse("--repeat 2 --ci 50 h", &c, err, sizeof err), 0);
	assert_int_equal(parse("--repeat 10000 --ci 99.9,1000 h", &c, err,
	    sizeof err), 0);
	assert_true(c.rep.width_pct == 1000);
	cli_free(&c);
}

static const struct { const char *line, *err; } refused[] = {
	{ "--repeat 1 h", "--repeat: '1': at least 2 runs" },
	{ "--repeat 0 h", "--repeat: '0': at least 2 runs" },
	{ "--repeat 5,3 h", "--repeat: '5,3': at least 2 runs, and MIN no more than MAX" },
	{ "--repeat x h", "--repeat: 'x' is not N or MIN,MAX (runs, 2 to 10000)" },
	{ "--repeat 3, h", "--repeat: '3,' is not N or MIN,MAX (runs, 2 to 10000)" },
	{ "--repeat 10001 h", "--repeat: '10001' is not N or MIN,MAX (runs, 2 to 10000)" },
	{ "--repeat -2 h", "--repeat: '-2' is not N or MIN,MAX (runs, 2 to 10000)" },
	{ "--repeat 3 --ci 49.9 h", "--ci: '49.9': the level is a percentage from 50 to 99.9" },
	{ "--repeat 3 --ci 99.95 h", "--ci: '99.95': the level is a percentage from 50 to 99.9" },
	{ "--repeat 3 --ci nan h", "--ci: 'nan': the level is a percentage from 50 to 99.9" },
	{ "--repeat 3 --ci 95,0 h", "--ci: '95,0': the width is a percentage of the mean, above 0 and at most 1000" },
	{ "--repeat 3 --ci 95,5x h", "--ci: '95,5x': the width is a percentage of the mean, above 0 and at most 1000" },
	{ "--repeat 3 --ci 95, h", "--ci: '95,': the width is a percentage of the mean, above 0 and at most 1000" },
	{ "--ci 95 h", "--ci needs --repeat" },
	{ "--pause 2 h", "--pause needs --repeat" },
	{ "--repeat 3 --pause x h", "--pause: 'x' is not a number of seconds" },
	{ "--repeat 3 h1 h2", "--repeat runs one partner's test: give one partner, no -m or --bidir" },
	{ "--repeat 3 --bidir h", "--repeat runs one partner's test: give one partner, no -m or --bidir" },
	{ "--repeat 3 -u -r --log f h", "--log writes one run's datagrams: it cannot be used with --repeat" },
	{ "-i --repeat 3", "--repeat has no meaning with -i" },
	{ "--predict --ci 95", "--ci has no meaning with --predict" },
};

static void
test_refused(void **state)
{
	struct config c;
	char err[300];
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		err[0] = '\0';
		if (parse(refused[i].line, &c, err, sizeof err) != -1 ||
		    strcmp(err, refused[i].err) != 0) {
			print_error("'%s': got '%s', want '%s'\n", refused[i].line, err,
			            refused[i].err);
			bad++;
		}
		cli_free(&c);
	}
	assert_int_equal(bad, 0);
}

/* A run whose receiver (side 1) moved bytes in real_ns. */
static void
one_run(struct run_model *m, uint64_t bytes, uint64_t real_ns)
{
	memset(m, 0, sizeof *m);
	m->proto = PROTO_TCP;
	m->host = "h";
	m->streams = 1;
	m->side[0] = (struct side){ .tag = 'l', .role = ROLE_SEND,
	    .have_result = 1 };
	m->side[1] = (struct side){ .tag = '1', .role = ROLE_RECV,
	    .have_result = 1 };
	m->side[0].r.bytes = m->side[1].r.bytes = bytes;
	m->side[0].r.real_ns = real_ns - 1000;
	m->side[1].r.real_ns = real_ns;
	m->side[0].r.cpu_ns = m->side[1].r.cpu_ns = real_ns / 2;
	m->side[0].r.calls = m->side[1].r.calls = 300;
	model_figures(m);
}

/* Goodputs 8, 10, 12 MBit/s (1e6 bytes over 1, 0.8, 2/3 s... exactly:
 * 1e6 bytes in 1 s is 8 MBit/s). */
static void
test_runset(void **state)
{
	static const uint64_t ns[3] = { 1000000000, 800000000, 500000000 };
	struct runset rs;
	struct run_model m;
	const struct stats_sum *s;
	double mean = (8 + 10 + 16) / 3.0, sd, half;
	size_t i;

	(void)state;
	runset_init(&rs, 95, 5);
	for (i = 0; i < 3; i++) {
		one_run(&m, 1000000, ns[i]);
		assert_int_equal(runset_add(&rs, &m, 1), 0);
		assert_int_equal(m.side[0].have_result, 0);   /* taken */
	}
	one_run(&m, 5, 1000);                 /* interrupted: not counted */
	assert_int_equal(runset_add(&rs, &m, 0), 0);
	assert_int_equal(rs.n, 4);
	assert_int_equal(rs.ncomplete, 3);
	assert_int_equal(runset_compute(&rs), 0);
	s = &rs.side[1].fig[RS_REAL_MBIT].s;
	assert_true(rs.side[1].fig[RS_REAL_MBIT].have);
	assert_int_equal(s->n, 3);
	assert_true(fabs(s->mean - mean) < 1e-12);
	sd = sqrt(((8 - mean) * (8 - mean) + (10 - mean) * (10 - mean) +
	    (16 - mean) * (16 - mean)) / 2);
	assert_true(fabs(s->stdev - sd) < 1e-12);
	assert_true(s->min == 8 && s->max == 16 && s->median == 10);
	half = 4.302652729749464 * sd / sqrt(3);    /* t(0.975, 2) */
	assert_true(fabs(s->ci_low - (mean - half)) < 1e-9);
	assert_true(fabs(s->ci_high - (mean + half)) < 1e-9);
	assert_true(rs.have_width);
	assert_true(fabs(rs.width_pct - 2 * half / mean * 100) < 1e-9);
	assert_false(rs.met);
	/* TCP: no loss, jitter, Jain or link ratio */
	assert_false(rs.side[1].fig[RS_LOSS_PCT].have);
	assert_false(rs.side[1].fig[RS_JITTER_MS].have);
	assert_false(rs.side[1].fig[RS_JAIN].have);
	assert_false(rs.side[1].fig[RS_LINK_RATIO].have);
	assert_true(rs.side[0].fig[RS_CALLS_S].have);
	assert_int_equal(rs.side[0].nst, 0);
	runset_free(&rs);
}

/* The JSON and CSV of a run set: every run, and the summary's numbers. */
static void
test_render(void **state)
{
	struct config c;
	struct report_repeat_opts o;
	struct runset rs;
	struct run_model m;
	char err[300], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(parse("--repeat 2,4 --ci 90,50 h", &c, err, sizeof err), 0);
	o.min = c.rep.min;
	o.max = c.rep.max;
	o.pause_ms = c.rep.pause_ms;
	runset_init(&rs, c.rep.level, c.rep.width_pct);
	one_run(&m, 1000000, 1000000000);
	assert_int_equal(runset_add(&rs, &m, 1), 0);
	one_run(&m, 1000000, 500000000);
	assert_int_equal(runset_add(&rs, &m, 1), 0);
	assert_int_equal(runset_compute(&rs), 0);
	o.out = OUT_JSON;
	f = open_memstream(&buf, &len);
	report_repeat(f, &o, &rs, 0);
	fclose(f);
	/* mean 12, s = sqrt(32), t(0.95, 1) = 6.313751514675043 */
	assert_non_null(strstr(buf, "\"run\": 2,"));
	assert_non_null(strstr(buf, "\"mean\": 12,"));
	assert_non_null(strstr(buf, "\"stdev\": 5.656854249492381,"));
	assert_non_null(strstr(buf, "\"median\": 12,"));
	assert_non_null(strstr(buf, "\"level\": 90,"));
	assert_non_null(strstr(buf, "\"target_width_pct\": 50,"));
	assert_non_null(strstr(buf, "\"met\": false"));
	assert_non_null(strstr(buf, "\"loss_pct\": null"));
	free(buf);
	buf = NULL;
	o.out = OUT_CSV;
	f = open_memstream(&buf, &len);
	report_repeat(f, &o, &rs, 0);
	fclose(f);
	assert_non_null(strstr(buf, "run,side,role,bytes,calls,real_mbit,cpu_mbit,"
	    "real_s,cpu_s,real_calls_s,loss_pct,jitter_ms,jain,link_ratio,"
	    "latency_idle_p50_ms,latency_loaded_p50_ms,rpm,fct_s\n"
	    "1,l,send,1000000,300,"));
	assert_non_null(strstr(buf, "\n2,1,recv,1000000,300,16,32,0.5,0.25,600,"
	    ",,,,,,,\n"));
	assert_non_null(strstr(buf, "\nmean,1,recv,,,12,24,0.75,0.375,450,,,,,,,,\n"));
	assert_non_null(strstr(buf, "\nn,l,send,,,2,2,2,2,2,,,,,,,,\n"));
	free(buf);
	buf = NULL;
	/* the table: t(0.95, 1) * sqrt(32) / sqrt(2) = 25.2550 */
	o.out = OUT_TABLE;
	f = open_memstream(&buf, &len);
	report_repeat(f, &o, &rs, 0);
	fclose(f);
	assert_non_null(strstr(buf, "summary of 2 runs: mean +- half-width of the "
	    "90% confidence interval (Student's t), min, max, n\n"));
	assert_non_null(strstr(buf, "\n1    Real-MBit/s       12.0000 +- 25.2550 "
	    "   min 8.0000 max 16.0000 n 2\n"));
	assert_non_null(strstr(buf, "\n1    Real s           0.750000 +- "
	    "1.578438   min 0.500000 max 1.000000 n 2\n"));
	assert_non_null(strstr(buf, "the receiver's Real-MBit/s: 90% CI 420.92% "
	    "of the mean wide (target not met)\n"));
	free(buf);
	runset_free(&rs);
	cli_free(&c);
}

/* --latency's figures: the local side's, from the probes' phases. */
static void
test_latency_figures(void **state)
{
	static struct run_model m;
	double v = -1;

	(void)state;
	m.side[0].have_result = m.side[1].have_result = 1;
	assert_int_equal(runset_value(&m, 0, RS_LAT_LOADED, &v), 0);  /* none */
	m.lat.have = 1;
	m.lat.idle.answered = 3;
	m.lat.idle.p50_ns = 20125000;
	m.lat.loaded.answered = 5;
	m.lat.loaded.p50_ns = 100500000;
	m.lat.loaded.tmean_ns = 100000000;
	assert_int_equal(runset_value(&m, 0, RS_LAT_IDLE, &v), 1);
	assert_true(v == 20.125);
	assert_int_equal(runset_value(&m, 0, RS_LAT_LOADED, &v), 1);
	assert_true(v == 100.5);
	assert_int_equal(runset_value(&m, 0, RS_LAT_RPM, &v), 1);
	assert_true(v == 600);
	assert_int_equal(runset_value(&m, 1, RS_LAT_LOADED, &v), 0);  /* local */
	m.lat.loaded.answered = 0;
	assert_int_equal(runset_value(&m, 0, RS_LAT_RPM, &v), 0);
	assert_string_equal(runset_fig_key(RS_LAT_RPM), "rpm");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_runset),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_latency_figures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
