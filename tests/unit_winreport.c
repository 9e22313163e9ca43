/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_winreport.c: --sliding-window's figures in the result model and
 * its renderers: model_win_sum's sums of streams, the table's lines under
 * the result, CSV's columns, JSON's window objects, Prometheus's
 * gput_window_* counters. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "capture.h"
#include "model.h"
#include "report_csv.h"
#include "report_json.h"
#include "report_prom.h"
#include "report_win.h"

/* A run of 1000 datagrams: the client sent with a window of 5 (21 again),
 * the partner received 1021 copies, 4 of them misordered. */
static void
window_run(struct run_model *m)
{
	struct side *l = &m->side[0], *p = &m->side[1];

	memset(m, 0, sizeof *m);
	m->proto = PROTO_UDP;
	m->role = ROLE_SEND;
	m->swin = 5;
	m->streams = 1;
	*l = (struct side){ .tag = 'l', .proto = PROTO_UDP, .role = ROLE_SEND,
	    .have_result = 1, .have_win = 1 };
	l->r.bytes = 1440000;
	l->r.dgrams = 1000;
	l->r.calls = 1024;
	l->r.real_ns = 12000000000ull;
	l->win = (struct win_stats){ .window = 5, .retries = 10, .firsts = 1000,
	    .resends = 21, .timeouts = 21, .acks = 1018, .acks_new = 1000,
	    .srtt_ns = 60312000, .rto_ns = 200000000, .rtt_samples = 1018 };
	*p = (struct side){ .tag = '1', .proto = PROTO_UDP, .role = ROLE_RECV,
	    .have_result = 1, .have_win = 1, .have_udp = 1, .udp_sent = 1000 };
	p->r.bytes = 1440000;
	p->r.dgrams = 1000;
	p->r.calls = 1021;
	p->r.real_ns = 11900000000ull;
	p->udp = (struct udp_stats){ .received = 1021, .unique = 1000,
	    .duplicates = 21, .reordered = 4, .flags = UDPS_SEQ };
	p->win.acks_sent = 1021;
	model_figures(m);
}

static void
test_lines(void **state)
{
	struct run_model m;
	struct cap c;

	(void)state;
	window_run(&m);
	cap_open(&c);
	report_win_text(c.f, &m);
	cap_expect(&c,
	    "l: window 5 (selective repeat): 1000 datagrams sent first, 21 "
	    "retransmitted (21 timeouts); 1018 ACKs received (1000 new); RTO "
	    "200.0 ms at the end (RFC 6298), SRTT 60.312 ms over 1018 round trips\n"
	    "1: 1021 ACKs sent (one per datagram received); 1000 unique, 21 "
	    "duplicate, 4 misordered, 0 missing\n");
	/* go-back-N, --rto, an ACK for a datagram never sent, 3 missing */
	m.side[0].win.gbn = 1;
	m.side[0].win.rto_fixed_ns = 50000000;
	m.side[0].win.acks_bad = 2;
	m.side[1].udp_sent = 1003;
	m.side[0].win.firsts = 1003;
	model_figures(&m);
	cap_open(&c);
	report_win_text(c.f, &m);
	cap_expect(&c,
	    "l: window 5 (go-back-N): 1003 datagrams sent first, 21 "
	    "retransmitted (21 timeouts); 1018 ACKs received (1000 new), 2 for "
	    "datagrams never sent (ignored); RTO 50.0 ms (--rto), SRTT 60.312 ms "
	    "over 1018 round trips\n"
	    "1: 1021 ACKs sent (one per datagram received); 1000 unique, 21 "
	    "duplicate, 4 misordered, 3 missing\n");
	/* no window: nothing */
	m.swin = 0;
	cap_open(&c);
	report_win_text(c.f, &m);
	cap_expect(&c, "");
}

static void
test_csv(void **state)
{
	struct run_model m;
	struct cap c;
	char *got, *nl;

	(void)state;
	window_run(&m);
	cap_open(&c);
	report_csv(c.f, &m);
	got = cap_close(&c);
	nl = strchr(got, '\n');
	assert_non_null(nl);
	*nl = '\0';
	assert_non_null(strstr(got, ",window,first_sends,retransmissions,timeouts,"
	    "acks_received,srtt_ms,acks_sent,unique,duplicates,misordered,missing"));
	assert_non_null(strstr(nl + 1, ",5,1000,21,21,1018,60.312,,,,,\n1,"));
	assert_non_null(strstr(nl + 1, ",,,,,,,1021,1000,21,4,0\n"));
	free(got);
}

static void
test_json_prom(void **state)
{
	struct run_model m;
	struct cap c;
	char *got;

	(void)state;
	window_run(&m);
	m.host = "h";
	cap_open(&c);
	report_json(c.f, &m);
	got = cap_close(&c);
	assert_non_null(strstr(got, "\"window\": {\n        \"window\": 5,\n"
	    "        \"mode\": \"selective-repeat\",\n        \"retries\": 10,\n"
	    "        \"first_sends\": 1000,\n        \"retransmissions\": 21,\n"
	    "        \"timeouts\": 21,\n        \"acks_received\": 1018,\n"
	    "        \"acks_new\": 1000,\n        \"acks_unsent\": 0,\n"
	    "        \"rtt_samples\": 1018,\n        \"srtt_ms\": 60.312,\n"
	    "        \"rto_ms\": 200,\n        \"rto_fixed\": false,\n"
	    "        \"retry_limit_reached\": false\n      }"));
	assert_non_null(strstr(got, "\"window\": {\n        \"acks_sent\": 1021,\n"
	    "        \"unique\": 1000,\n        \"duplicates\": 21,\n"
	    "        \"misordered\": 4,\n        \"missing\": 0\n      }"));
	free(got);
	cap_open(&c);
	report_prom(c.f, &m);
	got = cap_close(&c);
#define LBL(side, role) "{target=\"h\",proto=\"udp\",direction=\"out\"," \
	"side=\"" side "\",role=\"" role "\",stream=\"sum\"} "
	assert_non_null(strstr(got, "\ngput_window_first_sends"
	    LBL("local", "send") "1000\n"));
	assert_non_null(strstr(got, "# TYPE gput_window_retransmissions "
	    "gauge\ngput_window_retransmissions" LBL("local", "send") "21\n"));
	assert_non_null(strstr(got, "\ngput_window_timeouts"
	    LBL("local", "send") "21\n"));
	assert_non_null(strstr(got, "\ngput_window_acks_received"
	    LBL("local", "send") "1018\n"));
	assert_non_null(strstr(got, "\ngput_window_acks_sent"
	    LBL("partner", "recv") "1021\n"));
	assert_non_null(strstr(got, "\ngput_window_datagrams_unique"
	    LBL("partner", "recv") "1000\n"));
	free(got);
}

/* Streams add up; a stream without a window leaves the side without. */
static void
test_sum(void **state)
{
	struct side s;

	(void)state;
	memset(&s, 0, sizeof s);
	assert_int_equal(model_streams(&s, 2), 0);
	s.st[0].have_win = s.st[1].have_win = 1;
	s.st[0].win = (struct win_stats){ .window = 8, .retries = 3, .firsts = 10,
	    .resends = 2, .timeouts = 2, .acks = 12, .acks_new = 10,
	    .srtt_ns = 100, .rto_ns = 300, .rtt_samples = 12, .acks_sent = 1 };
	s.st[1].win = (struct win_stats){ .window = 8, .retries = 3, .firsts = 20,
	    .resends = 1, .timeouts = 1, .acks = 21, .acks_new = 20,
	    .srtt_ns = 300, .rto_ns = 200, .rtt_samples = 21, .acks_sent = 2,
	    .failed = 1 };
	model_win_sum(&s);
	assert_true(s.have_win);
	assert_true(s.win.window == 8 && s.win.retries == 3);
	assert_true(s.win.firsts == 30 && s.win.resends == 3 && s.win.timeouts == 3);
	assert_true(s.win.acks == 33 && s.win.acks_new == 30);
	assert_true(s.win.rtt_samples == 33 && s.win.acks_sent == 3);
	assert_true(s.win.srtt_ns == 200 && s.win.rto_ns == 300 && s.win.failed);
	s.st[1].have_win = 0;
	model_win_sum(&s);
	assert_false(s.have_win);
	assert_true(s.win.firsts == 0);
	model_free(&(struct run_model){ .side = { s } });
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json_prom),
		cmocka_unit_test(test_sum),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
