/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_prom.c: --prometheus's renderer, byte for byte, on hand-built
 * models: a TCP run with --link, UDP with two streams, failures with each
 * error code, and a target that needs escaping. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "report_prom.h"
#include "xfer.h"

/* What report_prom wrote for m (free it). */
static char *
render(const struct run_model *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct run_model c = *m;        /* its streams are the caller's */

	assert_non_null(f);
	model_figures(&c);
	report_prom(f, &c);
	fclose(f);
	return buf;
}

static void
expect(const struct run_model *m, const char *want)
{
	char *got = render(m);

	assert_string_equal(got, want);
	free(got);
}

static void
side_init(struct side *s, char tag, uint8_t proto, uint8_t role)
{
	memset(s, 0, sizeof *s);
	s->tag = tag;
	s->proto = proto;
	s->role = role;
}

#define T_RUN "target=\"peer.example\",proto=\"tcp\",direction=\"out\""
#define T_L   T_RUN ",side=\"local\",role=\"send\",stream=\"sum\""
#define T_P   T_RUN ",side=\"partner\",role=\"recv\",stream=\"sum\""

#define HEAD(name, type, help) \
	"# HELP " name " " help "\n# TYPE " name " " type "\n"
#define H_UP HEAD("gput_up", "gauge", "1 when the run measured; 0 when it " \
	"failed (gput_probe_error says why).")
#define H_ERR HEAD("gput_probe_error", "gauge", "1, with the reason the run " \
	"failed in the error label; absent when it measured.")
#define H_OFF HEAD("gput_offered_goodput_bytes_per_second", "gauge", \
	"A paced sender's schedule (--rate or -g), payload bytes per second of " \
	"all its streams.")
#define H_TS HEAD("gput_run_timestamp_seconds", "gauge", \
	"When the run began, in seconds since the Unix epoch.")
#define H_EXP HEAD("gput_expected_goodput_bytes_per_second", "gauge", \
	"Goodput the --link rate allows (eta*C), in bytes per second.")
#define H_GP HEAD("gput_goodput_bytes_per_second", "gauge", \
	"Payload bytes per second over the side's real time (Bytes/Real s).")
#define H_BY HEAD("gput_bytes", "gauge", \
	"Payload bytes the side moved in the run.")
#define H_CA HEAD("gput_calls", "gauge", \
	"System calls that moved the side's payload in the run.")
#define H_DU HEAD("gput_duration_seconds", "gauge", \
	"Real time of the side's transfer in the run.")
#define H_CPU HEAD("gput_cpu_seconds", "gauge", \
	"CPU time (user and system) of the side's process during the run.")
#define H_RE HEAD("gput_retransmits", "gauge", \
	"TCP segments the sender retransmitted in the run (TCP_INFO).")
#define H_RTT HEAD("gput_rtt_seconds", "gauge", \
	"TCP sender's smoothed round-trip time at the end of the run (TCP_INFO).")
#define H_LOST HEAD("gput_udp_datagrams_lost", "gauge", \
	"UDP datagrams sent that never arrived in the run.")
#define H_DUP HEAD("gput_udp_datagrams_duplicate", "gauge", \
	"UDP datagrams that arrived more than once in the run.")
#define H_REO HEAD("gput_udp_datagrams_reordered", "gauge", \
	"UDP datagrams that arrived after a later one in the run.")
#define H_JIT HEAD("gput_udp_jitter_seconds", "gauge", \
	"UDP interarrival jitter (RFC 3550) at the end of the run.")
#define H_LIM HEAD("gput_limit", "gauge", "1 for the limit that set the " \
	"run's goodput (gput(1), WHY A RUN FELL SHORT).")

/* TCP, count mode, --link 10M: l sends 8192000 bytes in 2 s; 1 receives
 * them in 2.5 s; the receiver's TCP_INFO is not the sender's figure. */
static void
model_tcp(struct run_model *m)
{
	struct side *l = &m->side[0], *p = &m->side[1];

	memset(m, 0, sizeof *m);
	m->proto = PROTO_TCP;
	m->role = ROLE_SEND;
	m->host = "peer.example";
	m->wall_ns = 1700000000123456789ull;
	m->link_bps = 10e6;
	m->link_eta = 0.9493;
	m->link_expected_mbit = 9.493;
	m->link_expected_bps = 9493000;
	m->link_expected_Bps = 1186625;
	side_init(l, 'l', PROTO_TCP, ROLE_SEND);
	l->have_result = 1;
	l->r.bytes = 8192000;
	l->r.calls = 2000;
	l->r.real_ns = 2000000000;
	l->r.cpu_ns = 500000;
	l->tcp.valid = 1;
	l->tcp.retrans = 3;
	l->tcp.rtt_us = 14200;
	side_init(p, '1', PROTO_TCP, ROLE_RECV);
	p->have_result = 1;
	p->r.bytes = 8192000;
	p->r.calls = 5000;
	p->r.real_ns = 2500000000;
	p->r.cpu_ns = 0;
	p->tcp.valid = 1;
	p->tcp.rtt_us = 40;
}

static void
test_tcp(void **state)
{
	struct run_model m;

	(void)state;
	model_tcp(&m);
	expect(&m,
	    H_UP "gput_up{" T_RUN "} 1\n"
	    H_TS "gput_run_timestamp_seconds{" T_RUN "} 1700000000.123456789\n"
	    H_EXP "gput_expected_goodput_bytes_per_second{" T_RUN "} 1186625\n"
	    H_GP "gput_goodput_bytes_per_second{" T_L "} 4096000\n"
	    "gput_goodput_bytes_per_second{" T_P "} 3276800\n"
	    H_BY "gput_bytes{" T_L "} 8192000\n"
	    "gput_bytes{" T_P "} 8192000\n"
	    H_CA "gput_calls{" T_L "} 2000\n"
	    "gput_calls{" T_P "} 5000\n"
	    H_DU "gput_duration_seconds{" T_L "} 2\n"
	    "gput_duration_seconds{" T_P "} 2.5\n"
	    H_CPU "gput_cpu_seconds{" T_L "} 0.0005\n"
	    "gput_cpu_seconds{" T_P "} 0\n"
	    H_RE "gput_retransmits{" T_L "} 3\n"
	    H_RTT "gput_rtt_seconds{" T_L "} 0.0142\n"
	    H_LIM "gput_limit{" T_RUN ",limit=\"unknown\"} 1\n");
}

/* A side without a result (the partner never answered) has no samples; a
 * rate over no time is left out, not printed as a division by zero. */
static void
test_no_partner_no_time(void **state)
{
	struct run_model m;

	(void)state;
	model_tcp(&m);
	m.side[1].have_result = 0;
	m.side[0].r.real_ns = 0;
	m.side[0].tcp.valid = 0;
	m.link_bps = 0;
	m.wall_ns = 0;
	expect(&m,
	    H_UP "gput_up{" T_RUN "} 1\n"
	    H_BY "gput_bytes{" T_L "} 8192000\n"
	    H_CA "gput_calls{" T_L "} 2000\n"
	    H_DU "gput_duration_seconds{" T_L "} 0\n"
	    H_CPU "gput_cpu_seconds{" T_L "} 0.0005\n");
}

#define U_RUN "target=\"::1\",proto=\"udp\",direction=\"in\""
#define U_L(st) U_RUN ",side=\"local\",role=\"recv\",stream=\"" st "\""
#define U_P(st) U_RUN ",side=\"partner\",role=\"send\",stream=\"" st "\""

/* UDP -r -P 2, 1 s: the partner sends 1000 datagrams of 1000 bytes on each
 * stream; l receives 990 and 1000 of them, stream 1 with 2 copies and 3
 * out of order, stream 2 unpaced (no jitter: its own timing is unknown). */
static void
model_udp(struct run_model *m)
{
	struct side *l = &m->side[0], *p = &m->side[1];
	uint32_t k;

	memset(m, 0, sizeof *m);
	m->proto = PROTO_UDP;
	m->role = ROLE_RECV;
	m->host = "::1";
	m->streams = 2;
	m->wall_ns = 1700000000000000000ull;
	side_init(l, 'l', PROTO_UDP, ROLE_RECV);
	side_init(p, '1', PROTO_UDP, ROLE_SEND);
	assert_int_equal(model_streams(l, 2), 0);
	assert_int_equal(model_streams(p, 2), 0);
	for (k = 0; k < 2; k++) {
		struct side *ls = &l->st[k], *ps = &p->st[k];

		ps->have_result = 1;
		ps->r.bytes = 1000000;
		ps->r.calls = 1000;
		ps->r.dgrams = 1000;
		ps->r.real_ns = 1000000000;
		ls->have_result = 1;
		ls->r.dgrams = k == 0 ? 990 : 1000;
		ls->r.bytes = ls->r.dgrams * 1000;
		ls->r.calls = ls->r.dgrams + (k == 0 ? 2 : 0);
		ls->r.real_ns = 1000000000;
		ls->udp_sent = 1000;
		ls->have_udp = 1;
		ls->udp.flags = k == 0 ? UDPS_ALL : UDPS_SEQ;
		ls->udp.duplicates = k == 0 ? 2 : 0;
		ls->udp.reordered = k == 0 ? 3 : 0;
		ls->udp.jitter_ns = k == 0 ? 25000 : 0;
	}
	model_sum(l);
	model_sum(p);
	l->have_result = p->have_result = 1;
	l->r.cpu_ns = 40000000;
	p->r.cpu_ns = 110000000;
}

static void
test_udp_streams(void **state)
{
	struct run_model m;

	(void)state;
	model_udp(&m);
	m.pace_bps = 16e6;              /* the partner paced: 2 x 8 Mbit/s */
	expect(&m,
	    H_UP "gput_up{" U_RUN "} 1\n"
	    H_TS "gput_run_timestamp_seconds{" U_RUN "} 1700000000\n"
	    H_OFF "gput_offered_goodput_bytes_per_second{" U_RUN "} 2000000\n"
	    H_GP "gput_goodput_bytes_per_second{" U_L("sum") "} 1990000\n"
	    "gput_goodput_bytes_per_second{" U_L("1") "} 990000\n"
	    "gput_goodput_bytes_per_second{" U_L("2") "} 1000000\n"
	    "gput_goodput_bytes_per_second{" U_P("sum") "} 2000000\n"
	    "gput_goodput_bytes_per_second{" U_P("1") "} 1000000\n"
	    "gput_goodput_bytes_per_second{" U_P("2") "} 1000000\n"
	    H_BY "gput_bytes{" U_L("sum") "} 1990000\n"
	    "gput_bytes{" U_L("1") "} 990000\n"
	    "gput_bytes{" U_L("2") "} 1000000\n"
	    "gput_bytes{" U_P("sum") "} 2000000\n"
	    "gput_bytes{" U_P("1") "} 1000000\n"
	    "gput_bytes{" U_P("2") "} 1000000\n"
	    H_CA "gput_calls{" U_L("sum") "} 1992\n"
	    "gput_calls{" U_L("1") "} 992\n"
	    "gput_calls{" U_L("2") "} 1000\n"
	    "gput_calls{" U_P("sum") "} 2000\n"
	    "gput_calls{" U_P("1") "} 1000\n"
	    "gput_calls{" U_P("2") "} 1000\n"
	    H_DU "gput_duration_seconds{" U_L("sum") "} 1\n"
	    "gput_duration_seconds{" U_L("1") "} 1\n"
	    "gput_duration_seconds{" U_L("2") "} 1\n"
	    "gput_duration_seconds{" U_P("sum") "} 1\n"
	    "gput_duration_seconds{" U_P("1") "} 1\n"
	    "gput_duration_seconds{" U_P("2") "} 1\n"
	    H_CPU "gput_cpu_seconds{" U_L("sum") "} 0.04\n"
	    "gput_cpu_seconds{" U_P("sum") "} 0.11\n"
	    H_LOST "gput_udp_datagrams_lost{" U_L("sum") "} 10\n"
	    "gput_udp_datagrams_lost{" U_L("1") "} 10\n"
	    "gput_udp_datagrams_lost{" U_L("2") "} 0\n"
	    /* the sum is sequenced and timed only when every stream is */
	    H_DUP "gput_udp_datagrams_duplicate{" U_L("sum") "} 2\n"
	    "gput_udp_datagrams_duplicate{" U_L("1") "} 2\n"
	    "gput_udp_datagrams_duplicate{" U_L("2") "} 0\n"
	    H_REO "gput_udp_datagrams_reordered{" U_L("sum") "} 3\n"
	    "gput_udp_datagrams_reordered{" U_L("1") "} 3\n"
	    "gput_udp_datagrams_reordered{" U_L("2") "} 0\n"
	    H_JIT "gput_udp_jitter_seconds{" U_L("1") "} 0.000025\n"
	    /* paced, and delivered what was offered: the pace set it */
	    H_LIM "gput_limit{" U_RUN ",limit=\"pacing\"} 1\n");
	model_free(&m);
}

/* The receiver's own drops (its socket's counter, per stream and summed)
 * and its host's UDP drop counters (the side's only: they are the host's). */
static void
test_udp_drops(void **state)
{
	struct run_model m;
	struct side *l;
	char *got;

	(void)state;
	model_udp(&m);
	l = &m.side[0];
	l->st[0].r.flags |= RES_DROPS;
	l->st[0].r.sock_drops = 10;
	l->st[1].r.flags |= RES_DROPS;
	model_sum(l);
	l->have_host_udp = 1;
	l->host_rcvbuf_errors = 12;
	l->host_in_errors = 13;
	got = render(&m);
	assert_non_null(strstr(got, "# HELP gput_udp_socket_drops UDP datagrams "
	    "the receiving socket dropped in the run (its buffer was full; "
	    "SO_RXQ_OVFL).\n# TYPE gput_udp_socket_drops gauge\n"
	    "gput_udp_socket_drops{" U_L("sum") "} 10\n"
	    "gput_udp_socket_drops{" U_L("1") "} 10\n"
	    "gput_udp_socket_drops{" U_L("2") "} 0\n# HELP "));
	assert_non_null(strstr(got, "# TYPE gput_udp_host_rcvbuf_errors gauge\n"
	    "gput_udp_host_rcvbuf_errors{" U_L("sum") "} 12\n# HELP "));
	assert_non_null(strstr(got, "# TYPE gput_udp_host_in_errors gauge\n"
	    "gput_udp_host_in_errors{" U_L("sum") "} 13\n# HELP "));
	free(got);
	model_free(&m);
}

/* --latency: percentiles of each phase with answers, probes of both; the
 * idle phase here lost every probe, so it has no round trip to rank. */
static void
test_latency(void **state)
{
	struct run_model m;
	struct lat_phase *ld = &m.lat.loaded;
	char *got, *lat;

	(void)state;
	model_tcp(&m);
	m.lat.have = 1;
	m.lat.idle.sent = m.lat.idle.lost = 5;
	ld->sent = 10;
	ld->answered = 9;
	ld->lost = 1;
	ld->min_ns = 20000000;
	ld->p50_ns = 25000000;
	ld->p90_ns = 30000000;
	ld->p99_ns = 31000000;
	ld->max_ns = 1234567891;
	got = render(&m);
	lat = strstr(got, "# HELP gput_latency_rtt_seconds");
	assert_non_null(lat);
#define L_RUN T_RUN ",phase=\"loaded\",percentile="
	assert_string_equal(lat,
	    HEAD("gput_latency_rtt_seconds", "gauge", "--latency: probe round "
	         "trips by phase, nearest-rank percentiles (0: least, 100: "
	         "largest).")
	    "gput_latency_rtt_seconds{" L_RUN "\"0\"} 0.02\n"
	    "gput_latency_rtt_seconds{" L_RUN "\"50\"} 0.025\n"
	    "gput_latency_rtt_seconds{" L_RUN "\"90\"} 0.03\n"
	    "gput_latency_rtt_seconds{" L_RUN "\"99\"} 0.031\n"
	    "gput_latency_rtt_seconds{" L_RUN "\"100\"} 1.234567891\n"
	    HEAD("gput_latency_probes_sent", "gauge",
	         "--latency: probes sent in the phase.")
	    "gput_latency_probes_sent{" T_RUN ",phase=\"idle\"} 5\n"
	    "gput_latency_probes_sent{" T_RUN ",phase=\"loaded\"} 10\n"
	    HEAD("gput_latency_probes_lost", "gauge",
	         "--latency: probes sent in the phase whose echo never came.")
	    "gput_latency_probes_lost{" T_RUN ",phase=\"idle\"} 5\n"
	    "gput_latency_probes_lost{" T_RUN ",phase=\"loaded\"} 1\n"
	    H_LIM "gput_limit{" T_RUN ",limit=\"unknown\"} 1\n");
	free(got);
}

/* Each error code names its label value, in gput_probe_error: gput_up is
 * one series whatever the outcome. A failed run shows nothing but these
 * and when it was tried, whatever its model still holds. */
static void
test_failed(void **state)
{
	static const struct { enum run_error code; const char *name; } rows[] = {
		{ RUN_ERR_FAILED, "failed" },
		{ RUN_ERR_CONNECT, "connect" },
		{ RUN_ERR_BUSY, "busy" },
		{ RUN_ERR_PARTNER, "partner" },
		{ RUN_ERR_INTERRUPTED, "interrupted" },
		{ RUN_ERR_VERIFY, "verify" },
	};
	struct run_model m;
	char want[1024];
	char *got;
	size_t i;

	(void)state;
	assert_null(report_prom_error_name(RUN_OK));
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		model_tcp(&m);
		m.error = "some words";
		m.error_code = rows[i].code;
		assert_string_equal(report_prom_error_name(rows[i].code), rows[i].name);
		snprintf(want, sizeof want, H_UP "gput_up{" T_RUN "} 0\n"
		         H_ERR "gput_probe_error{" T_RUN ",error=\"%s\"} 1\n"
		         H_TS "gput_run_timestamp_seconds{" T_RUN
		         "} 1700000000.123456789\n", rows[i].name);
		got = render(&m);
		assert_string_equal(got, want);
		free(got);
	}
}

/* The target is the partner as given: a backslash, a double quote and a
 * newline are escaped as the text format says. */
static void
test_escaping(void **state)
{
	struct run_model m;

	(void)state;
	memset(&m, 0, sizeof m);
	m.host = "a\\b\"c\nd";
	m.proto = PROTO_TCP;
	m.role = ROLE_RECV;
	m.error_code = RUN_ERR_BUSY;
	expect(&m, H_UP "gput_up{target=\"a\\\\b\\\"c\\nd\",proto=\"tcp\","
	       "direction=\"in\"} 0\n"
	       H_ERR "gput_probe_error{target=\"a\\\\b\\\"c\\nd\",proto=\"tcp\","
	       "direction=\"in\",error=\"busy\"} 1\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp),
		cmocka_unit_test(test_no_partner_no_time),
		cmocka_unit_test(test_udp_streams),
		cmocka_unit_test(test_udp_drops),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_failed),
		cmocka_unit_test(test_escaping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
