/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_modelrec.c: a run's model as a record (model_rec.c), as several
 * partners' processes hand theirs to the parent: what the parent renders
 * from the record is, byte for byte, what the partner's process rendered
 * from its model (the table, CSV, JSON, JSON lines); a record cut anywhere or
 * altered is refused, never read past its end. */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bytes.h"
#include "config.h"
#include "model.h"
#include "model_rec.h"
#include "report_csv.h"
#include "report_json.h"
#include "report_table.h"
#include "xfer_params.h"

static void
add_ival(struct side *s, uint64_t k, uint64_t bytes, uint32_t flags)
{
	struct ival iv;

	memset(&iv, 0, sizeof iv);
	iv.start_ns = k * 1000000000u;
	iv.end_ns = (k + 1) * 1000000000u;
	iv.bytes = bytes;
	iv.calls = bytes / 1000;
	iv.dgrams = bytes / 1000;
	iv.flags = flags;
	iv.retrans = (uint32_t)k;
	iv.cwnd = 10 + (uint32_t)k;
	iv.srtt_us = 1000 + (uint32_t)k;
	assert_int_equal(model_add_ival(s, &iv), 0);
}

/* A side of tag and role with n intervals, its totals theirs. */
static void
side_fill(struct side *s, char tag, uint8_t proto, uint8_t role, int n)
{
	int k;

	s->tag = tag;
	s->proto = proto;
	s->role = role;
	s->len = 1000;
	s->count = (uint64_t)n * 1000;
	s->have_result = 1;
	for (k = 0; k < n; k++)
		add_ival(s, (uint64_t)k, 1000000 + (uint64_t)k * 777,
		    (k == n - 1 ? IVAL_LAST : 0) | (k == 0 ? IVAL_OMITTED : 0) |
		    (proto == PROTO_TCP ? IVAL_TCP : IVAL_UDP));
	for (k = 0; k < n; k++) {
		s->r.bytes += s->iv[k].bytes;
		s->r.calls += s->iv[k].calls;
	}
	s->r.real_ns = (uint64_t)n * 1000000000u;
	s->r.cpu_ns = 123456789;
	s->end_ns = s->r.real_ns;
}

/* TCP, -P 3, --omit, --link with --rtt: streams with intervals of their
 * own, TCP_INFO on both sides, the path's figures. */
static void
model_streams_tcp(struct run_model *m)
{
	uint32_t k;
	int i;

	memset(m, 0, sizeof *m);
	m->proto = PROTO_TCP;
	m->role = ROLE_SEND;
	m->wall_ns = 1700000000123456789ull;
	m->duration_ms = 3000;
	m->interval_ms = 1000;
	m->omit_ms = 1000;
	m->data_len = 1000;
	m->host = "partner.example";
	m->port = 5037;
	m->streams = 3;
	for (i = 0; i < 2; i++) {
		struct side *s = &m->side[i];

		side_fill(s, i ? '1' : 'l', PROTO_TCP, i ? ROLE_RECV : ROLE_SEND, 3);
		s->tcp.valid = 1;
		strcpy(s->tcp.cc, i ? "bbr" : "cubic");
		s->tcp.rtt_us = 1500;
		s->tcp.retrans = 7;
		assert_int_equal(model_streams(s, 3), 0);
		for (k = 0; k < 3; k++)
			side_fill(&s->st[k], s->tag, PROTO_TCP, s->role, 2 + (int)k);
		model_steady(s);
	}
	m->have_fair = 1;
	m->fair = 0.987654321;
	m->link_bps = 1e9;
	m->link_eta = 0.9493;
	m->link_expected_mbit = 949.3;
	m->link_expected_bps = 949.3e6;
	m->link_expected_Bps = 949.3e6 / 8;
	m->link_frames = 12345;
	m->have_path = 1;
	m->path.rtt_s = 0.02;
	m->path.have_bdp = 1;
	m->path.bdp_bytes = 2373250;
	m->path.have_window = 1;
	m->path.window = 65536;
	m->path.window_bps = 26214400;
	m->path.window_limited = 1;
	m->path.expected_bps = 949.3e6;
	m->path.bound_bps = 26214400;
}

/* UDP, the partner receiving with its accounting, --ecn and --latency. */
static void
model_udp_lat(struct run_model *m)
{
	struct side *p = &m->side[1];

	memset(m, 0, sizeof *m);
	m->proto = PROTO_UDP;
	m->role = ROLE_SEND;
	m->data_bytes = 4000000;
	m->data_len = 1000;
	m->host = "::1";
	m->port = 6000;
	m->streams = 1;
	m->ecn = 1;
	side_fill(&m->side[0], 'l', PROTO_UDP, ROLE_SEND, 4);
	side_fill(p, '1', PROTO_UDP, ROLE_RECV, 4);
	p->udp_sent = 4000;
	p->have_udp = 1;
	p->udp = (struct udp_stats){ .received = 3990, .unique = 3980,
	    .duplicates = 10, .reordered = 3, .max_displacement = 2, .late = 1,
	    .jitter_ns = 12345, .delay_var_ns = 2345, .delay_var_max_ns = 99999,
	    .ecn = { 3990, 0, 0, 0 }, .flags = UDPS_SEQ | UDPS_TIMED | UDPS_ECN };
	m->lat.have = 1;
	m->lat.interval_us = 100000;
	m->lat.idle = (struct lat_phase){ .sent = 10, .answered = 9, .lost = 1,
	    .min_ns = 100000, .p50_ns = 150000, .p90_ns = 190000,
	    .p99_ns = 199000, .max_ns = 200000, .tmean_ns = 151000 };
	m->lat.loaded = m->lat.idle;
	m->lat.loaded.p50_ns = 950000;
	m->lat.have_tcp_rtt = 0;
}

/* A run that failed: its error, no results. */
static void
model_failed(struct run_model *m)
{
	memset(m, 0, sizeof *m);
	m->proto = PROTO_TCP;
	m->data_bytes = 10000;
	m->data_len = 1000;
	m->host = "127.0.0.1";
	m->port = 1;
	m->error = "connecting to 127.0.0.1 port 1: Connection refused";
	m->error_code = RUN_ERR_CONNECT;
	m->side[0].tag = 'l';
	m->side[1].tag = '1';
}

enum { R_TABLE, R_CSV, R_JSON, R_LINES };

static char *
render(const struct run_model *m, int how)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct run_model c = *m;        /* its streams are the caller's */

	m = &c;
	model_figures(&c);
	assert_non_null(f);
	if (how == R_TABLE) {
		const struct table_opts o = { GPUT_DEFAULT_FORMAT,
		    GPUT_DEFAULT_FORMAT, 1, 1 };

		report_table(f, m, &o);
	} else if (how == R_CSV)
		report_csv(f, m);
	else if (how == R_JSON)
		report_json(f, m);
	else
		report_json_summary_line(f, m);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* m through a record renders as m: the table's record without the
 * intervals (it prints none), the others' with them. */
static void
check_same(struct run_model *m)
{
	int how;

	for (how = R_TABLE; how <= R_LINES; how++) {
		struct run_model back;
		uint8_t *rec;
		size_t len, used = 0;
		char err[128], *want, *got;
		uint32_t k;
		int i;

		assert_int_equal(model_rec_put(m, how != R_TABLE, &rec, &len), 0);
		assert_int_equal(model_rec_take(rec, len, &used, &back, err,
		    sizeof err), 0);
		assert_int_equal(used, len);
		for (i = 0; i < 2; i++) {
			assert_int_equal(back.side[i].nst, m->side[i].nst);
			assert_int_equal(back.side[i].niv,
			    how == R_TABLE ? 0 : m->side[i].niv);
			for (k = 0; k < back.side[i].nst; k++)
				assert_int_equal(back.side[i].st[k].niv, how == R_TABLE ?
				    0 : m->side[i].st[k].niv);
		}
		want = render(m, how);
		got = render(&back, how);
		assert_true(strlen(want) > 50 || m->error != NULL);
		assert_string_equal(got, want);
		free(want);
		free(got);
		model_free(&back);
		free(rec);
	}
	model_free(m);
}

static void
test_same_tcp_streams(void **state)
{
	struct run_model m;

	(void)state;
	model_streams_tcp(&m);
	assert_int_equal(m.side[1].st[2].niv, 4);
	check_same(&m);
}

static void
test_same_udp_latency(void **state)
{
	struct run_model m;

	(void)state;
	model_udp_lat(&m);
	check_same(&m);
}

static void
test_same_failed(void **state)
{
	struct run_model m;

	(void)state;
	model_failed(&m);
	check_same(&m);
}

/* Two records back to back, as a process that printed twice sends them:
 * each taken whole, in order. */
static void
test_two_records(void **state)
{
	struct run_model a, b, got;
	uint8_t *ra, *rb, *both;
	size_t la, lb, used;
	char err[128];

	(void)state;
	model_streams_tcp(&a);
	model_failed(&b);
	assert_int_equal(model_rec_put(&a, 1, &ra, &la), 0);
	assert_int_equal(model_rec_put(&b, 1, &rb, &lb), 0);
	both = malloc(la + lb);
	assert_non_null(both);
	memcpy(both, ra, la);
	memcpy(both + la, rb, lb);
	assert_int_equal(model_rec_take(both, la + lb, &used, &got, err,
	    sizeof err), 0);
	assert_int_equal(used, la);
	assert_int_equal(got.side[0].nst, 3);
	model_free(&got);
	assert_int_equal(model_rec_take(both + la, lb, &used, &got, err,
	    sizeof err), 0);
	assert_int_equal(used, lb);
	assert_string_equal(got.error, b.error);
	assert_string_equal(got.host, "127.0.0.1");
	model_free(&got);
	free(both);
	free(ra);
	free(rb);
	model_free(&a);
	model_free(&b);
}

/* Cut anywhere, the record is refused (and nothing leaks or is read past
 * the cut: the sanitizers' build checks); so is a wrong magic, and a
 * length field that claims more than there is, or a count of streams
 * that would run past the end. */
static void
test_refused(void **state)
{
	struct run_model m, got;
	uint8_t *rec, *cut;
	size_t len, n, used;
	char err[128];

	(void)state;
	model_streams_tcp(&m);
	assert_int_equal(model_rec_put(&m, 1, &rec, &len), 0);
	for (n = 0; n < len; n++) {
		cut = malloc(n ? n : 1);
		assert_non_null(cut);
		memcpy(cut, rec, n);
		assert_int_equal(model_rec_take(cut, n, &used, &got, err,
		    sizeof err), -1);
		free(cut);
	}
	rec[0] ^= 1;                            /* the magic */
	assert_int_equal(model_rec_take(rec, len, &used, &got, err, sizeof err), -1);
	assert_string_equal(err, "not a whole model record");
	rec[0] ^= 1;
	/* the record's own length (u64 LE at 8) one short of its contents */
	{
		struct bytes c = bytes_writer(rec, len);

		assert_true(bytes_le64(&c, 8) == len);
		bytes_put_le64(&c, 8, len - 1);
		assert_int_equal(model_rec_take(rec, len, &used, &got, err,
		    sizeof err), -1);
		assert_string_equal(err, "a model record that does not add up");
		bytes_put_le64(&c, 8, len);
	}
	/* the structures written in the other byte order (the mark at 4) */
	{
		uint8_t t = rec[4];

		rec[4] = rec[7], rec[7] = t, t = rec[5], rec[5] = rec[6], rec[6] = t;
		assert_int_equal(model_rec_take(rec, len, &used, &got, err,
		    sizeof err), -1);
		assert_string_equal(err, "a model record of another byte order");
		t = rec[4], rec[4] = rec[7], rec[7] = t, t = rec[5], rec[5] = rec[6],
		rec[6] = t;
		assert_int_equal(model_rec_take(rec, len, &used, &got, err,
		    sizeof err), 0);
		model_free(&got);
	}
	/* side 1 claims a million streams */
	{
		struct run_model *h = (struct run_model *)malloc(sizeof *h);

		assert_non_null(h);
		memcpy(h, rec + 16, sizeof *h);
		h->side[1].nst = 1000000;
		memcpy(rec + 16, h, sizeof *h);
		free(h);
	}
	assert_int_equal(model_rec_take(rec, len, &used, &got, err, sizeof err), -1);
	free(rec);
	model_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_tcp_streams),
		cmocka_unit_test(test_same_udp_latency),
		cmocka_unit_test(test_same_failed),
		cmocka_unit_test(test_two_records),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
