/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_render.c: the renderers of the result model (JSON, JSON lines, CSV,
 * interval lines, steady state, TCP_INFO), byte for byte, on hand-built
 * models; the JSON writer's escaping and numbers; and, when jq is on PATH,
 * that every JSON output parses and reads back the same values. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json.h"
#include "model.h"
#include "report_csv.h"
#include "report_ival.h"
#include "report_json.h"
#include "version.h"
#include "xfer.h"
#include "capture.h"

/* The hand-built models of the renderer tests. */
static void
side_init(struct side *s, char tag, uint8_t proto, uint8_t role)
{
	memset(s, 0, sizeof *s);
	s->tag = tag;
	s->proto = proto;
	s->role = role;
}

static void
add_ival(struct side *s, double t0, double t1, uint64_t bytes, uint64_t calls,
         uint64_t dgrams, uint32_t flags, uint32_t retrans, uint32_t cwnd,
         uint32_t srtt_us)
{
	struct ival iv;

	memset(&iv, 0, sizeof iv);
	iv.start_ns = (uint64_t)(t0 * 1e9);
	iv.end_ns = (uint64_t)(t1 * 1e9);
	iv.bytes = bytes;
	iv.calls = calls;
	iv.dgrams = dgrams;
	iv.flags = flags;
	iv.retrans = retrans;
	iv.cwnd = cwnd;
	iv.srtt_us = srtt_us;
	assert_int_equal(model_add_ival(s, &iv), 0);
}

/* TCP, count mode: l sends 8192000 bytes in 2 s, 1 receives them. */
static void
model_tcp(struct run_model *m)
{
	struct side *l = &m->side[0], *p = &m->side[1];

	memset(m, 0, sizeof *m);
	m->proto = PROTO_TCP;
	m->data_bytes = 8192000;
	m->data_len = 4096;
	m->host = "peer.example";
	m->port = 5037;
	side_init(l, 'l', PROTO_TCP, ROLE_SEND);
	l->len = 4096;
	l->count = 2000;
	l->have_result = 1;
	l->r.bytes = 8192000;
	l->r.calls = 2000;
	l->r.real_ns = 2000000000;
	l->r.cpu_ns = 500000000;
	add_ival(l, 0, 1, 4096000, 1000, 0, IVAL_TCP, 3, 20, 14200);
	add_ival(l, 1, 2, 4096000, 1000, 0, IVAL_TCP | IVAL_LAST, 0, 23, 14200);
	l->tcp.valid = 1;
	strcpy(l->tcp.cc, "cubic");
	l->tcp.retrans = 3;
	l->tcp.rtt_us = 14200;
	l->tcp.min_rtt_us = 10100;
	l->tcp.cwnd = 23;
	l->tcp.delivery_rate = 1176000;
	l->tcp.busy_us = 5000000;
	l->tcp.sndbuf_limited_us = 120000;
	side_init(p, '1', PROTO_TCP, ROLE_RECV);
	p->have_result = 1;
	p->r.bytes = 8192000;
	p->r.calls = 5000;
	p->r.real_ns = 2000000000;
	p->r.cpu_ns = 0;                /* a rate over zero time: null */
}

/* UDP, time mode, 3 s with 1 s intervals and --omit 1, --link 10M: l sends
 * 1000 datagrams of 1400 bytes a second, 1 receives 2990 of 3000. */
static void
model_udp(struct run_model *m)
{
	struct side *l = &m->side[0], *p = &m->side[1];

	memset(m, 0, sizeof *m);
	m->proto = PROTO_UDP;
	m->duration_ms = 3000;
	m->interval_ms = 1000;
	m->omit_ms = 1000;
	m->data_len = 1400;
	m->host = "::1";
	m->port = 5037;
	m->link_bps = 10e6;
	m->link_eta = 0.95;
	m->link_expected_mbit = 9.5;
	side_init(l, 'l', PROTO_UDP, ROLE_SEND);
	l->have_result = 1;
	l->r.bytes = 4200000;
	l->r.calls = 3000;
	l->r.real_ns = 3000000000;
	l->r.cpu_ns = 250000000;
	l->r.dgrams = 3000;
	add_ival(l, 0, 1, 1400000, 1000, 0, IVAL_OMITTED, 0, 0, 0);
	add_ival(l, 1, 2, 1400000, 1000, 0, 0, 0, 0, 0);
	add_ival(l, 2, 3, 1400000, 1000, 0, IVAL_LAST, 0, 0, 0);
	side_init(p, '1', PROTO_UDP, ROLE_RECV);
	p->have_result = 1;
	p->r.bytes = 4186000;
	p->r.calls = 2990;
	p->r.real_ns = 3000000000;
	p->r.cpu_ns = 125000000;
	p->r.dgrams = 2990;
	p->udp_sent = 3000;
	add_ival(p, 0, 1, 1393000, 995, 995, IVAL_OMITTED, 0, 0, 0);
	add_ival(p, 1, 2, 1400000, 1000, 1000, 0, 0, 0, 0);
	add_ival(p, 2, 3, 1393000, 995, 995, IVAL_LAST, 0, 0, 0);
	p->have_steady = 1;
	p->steady_bytes = 2793000;
	p->steady_ns = 2000000000;
}

/* A run that failed before any transfer, with an error to escape. */
static void
model_failed(struct run_model *m)
{
	memset(m, 0, sizeof *m);
	m->proto = PROTO_TCP;
	m->duration_ms = 10000;
	m->data_len = 131072;
	m->host = "peer \"x\"";
	m->port = 5037;
	side_init(&m->side[0], 'l', PROTO_TCP, ROLE_SEND);
	side_init(&m->side[1], '1', PROTO_TCP, ROLE_RECV);
	m->error = "connect to peer \"x\" port 5037: Connection refused\n";
}

/* ^C: the local receiver has the largest count and no time; the partner
 * never answered. */
static void
model_interrupted(struct run_model *m)
{
	struct side *l = &m->side[0];

	memset(m, 0, sizeof *m);
	m->proto = PROTO_TCP;
	m->data_bytes = UINT64_MAX;
	m->data_len = 4096;
	m->port = 5037;
	m->interrupted = 1;
	side_init(l, 'l', PROTO_TCP, ROLE_RECV);
	l->have_result = 1;
	l->r.bytes = UINT64_MAX;
	l->r.calls = UINT64_MAX;
	side_init(&m->side[1], '1', PROTO_TCP, ROLE_SEND);
}

/* ---- the JSON writer ------------------------------------------------ */

static void
test_json_escape(void **state)
{
	static const struct { const char *in, *out; } rows[] = {
		{ "", "\"\"" },
		{ "plain", "\"plain\"" },
		{ "a\"b", "\"a\\\"b\"" },
		{ "back\\slash", "\"back\\\\slash\"" },
		{ "/", "\"/\"" },
		{ "\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\"" },
		{ "\x01", "\"\\u0001\"" },
		{ "\x1f" "x", "\"\\u001fx\"" },
		{ "\x7f", "\"\\u007f\"" },
		{ "\x1b[31m", "\"\\u001b[31m\"" },
		/* well-formed UTF-8 passes through */
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
		{ "\xe2\x82\xac", "\"\xe2\x82\xac\"" },
		{ "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },
		{ "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },      /* U+10FFFF */
		{ "\xed\x9f\xbf", "\"\xed\x9f\xbf\"" },              /* U+D7FF */
		{ "\xee\x80\x80", "\"\xee\x80\x80\"" },              /* U+E000 */
		/* each maximal ill-formed subpart is one U+FFFD */
		{ "\x80", "\"\\ufffd\"" },
		{ "a\xbf" "b", "\"a\\ufffdb\"" },
		{ "\xc3", "\"\\ufffd\"" },                            /* cut short */
		{ "\xc3(", "\"\\ufffd(\"" },
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },                  /* overlong '/' */
		{ "\xc1\xbf", "\"\\ufffd\\ufffd\"" },
		{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },       /* overlong */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },       /* surrogate */
		{ "\xf0\x8f\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" }, /* > U+10FFFF */
		{ "\xf5\x80", "\"\\ufffd\\ufffd\"" },
		{ "\xfe\xff", "\"\\ufffd\\ufffd\"" },
		{ "\xe2\x82x", "\"\\ufffdx\"" },                       /* 2 of 3 */
		{ "\xf0\x9f\x98", "\"\\ufffd\"" },                     /* 3 of 4, at end */
		{ "\xf0\x9f\x98\xc3\xa9", "\"\\ufffd\xc3\xa9\"" },
	};
	struct json j;
	struct cap c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		cap_open(&c);
		json_init(&j, c.f, 0);
		json_string(&j, rows[i].in);
		cap_expect(&c, rows[i].out);
	}
	cap_open(&c);                   /* NULL; a field with no NUL; keys */
	json_init(&j, c.f, 0);
	json_begin_object(&j);
	json_kv_string(&j, "a\"\n", NULL);
	json_key(&j, "b");
	json_string_n(&j, "0123456789abcdefXYZ", 16);
	json_key(&j, "c");
	json_string_n(&j, "ab\0cd", 5);
	json_key(&j, "d");
	json_string_n(&j, "\xc3\xa9", 1);       /* cut inside a sequence */
	json_end_object(&j);
	cap_expect(&c, "{\"a\\\"\\n\":null,\"b\":\"0123456789abcdef\",\"c\":\"ab\","
	           "\"d\":\"\\ufffd\"}");
}

/* JSON_LAID: the caller's line breaks, ", " and ": "; json_fixed; the
 * bytewise strings (gput-pcap's). */
static void
test_json_laid(void **state)
{
	struct json j;
	struct cap c;

	(void)state;
	cap_open(&c);
	json_init(&j, c.f, JSON_LAID);
	j.bytewise = 1;
	json_begin_object(&j);
	json_break(&j, 2);
	json_kv_string(&j, "s", "a\n\x7f\xe2\x82\t");
	json_kv_fixed(&j, "x", 1.5, 3);
	json_break(&j, 2);
	json_key(&j, "e");
	json_begin_array(&j);
	json_end_array(&j);
	json_key(&j, "o");
	json_begin_object(&j);
	json_kv_fixed(&j, "n", 0.0 / 0.0, 6);
	json_kv_fixed(&j, "m", -2.25, 1);
	json_end_object(&j);
	json_break(&j, 0);
	json_end_object(&j);
	cap_expect(&c, "{\n  \"s\": \"a\\u000a\x7f\\ufffd\\ufffd\\u0009\", "
	           "\"x\": 1.500,\n  \"e\": [], \"o\": {\"n\": null, "
	           "\"m\": -2.2}\n}");
}

static void
test_json_containers(void **state)
{
	struct json j;
	struct cap c;
	int pretty;

	(void)state;
	for (pretty = 0; pretty <= 1; pretty++) {
		cap_open(&c);
		json_init(&j, c.f, pretty);
		json_begin_object(&j);
		json_key(&j, "a");
		json_begin_array(&j);
		json_u64(&j, 1);
		json_begin_object(&j);
		json_end_object(&j);
		json_begin_array(&j);
		json_end_array(&j);
		json_bool(&j, 1);
		json_bool(&j, 0);
		json_null(&j);
		json_end_array(&j);
		json_kv_bool(&j, "b", 0);
		json_end_object(&j);
		cap_expect(&c, pretty ?
		           "{\n  \"a\": [\n    1,\n    {},\n    [],\n    true,\n"
		           "    false,\n    null\n  ],\n  \"b\": false\n}" :
		           "{\"a\":[1,{},[],true,false,null],\"b\":false}");
	}
}

static void
test_json_numbers(void **state)
{
	static const struct { double v; const char *out; } rows[] = {
		{ 0, "0" },
		{ 1, "1" },
		{ 0.5, "0.5" },
		{ 0.1, "0.1" },
		{ 9.46176, "9.46176" },
		{ 1.0 / 3, "0.3333333333333333" },
		{ 0.1 + 0.2, "0.30000000000000004" },
		{ 1e21, "1e+21" },
		{ 123456789012.25, "123456789012.25" },
		{ -2.5e-7, "-2.5e-07" },
		{ 1.8446744073709552e19, "1.8446744073709552e+19" },
	};
	struct json j;
	struct cap c;
	char buf[JSON_DOUBLE_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		assert_int_equal(json_fmt_double(buf, sizeof buf, rows[i].v), 0);
		assert_string_equal(buf, rows[i].out);
		assert_true(strtod(buf, NULL) == rows[i].v);
	}
	assert_int_equal(json_fmt_double(buf, sizeof buf, NAN), -1);
	assert_string_equal(buf, "");
	assert_int_equal(json_fmt_double(buf, sizeof buf, INFINITY), -1);
	assert_int_equal(json_fmt_double(buf, 8, 1.0), -1);     /* too short */
	cap_open(&c);
	json_init(&j, c.f, 0);
	json_begin_array(&j);
	json_u64(&j, UINT64_MAX);
	json_u64(&j, 0);
	json_double(&j, NAN);
	json_double(&j, -INFINITY);
	json_double(&j, 2.5);
	json_end_array(&j);
	cap_expect(&c, "[18446744073709551615,0,null,null,2.5]");
	/* A locale with a decimal comma still gets JSON's '.' */
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL &&
	    setlocale(LC_NUMERIC, "fr_FR.UTF-8") == NULL)
		print_message("no decimal-comma locale: not checked\n");
	assert_int_equal(json_fmt_double(buf, sizeof buf, 2.5), 0);
	setlocale(LC_NUMERIC, "C");
	assert_string_equal(buf, "2.5");
}

/* ---- report_json, report_json_summary_line, report_json_ival --------- */

static const char tcp_pretty[] =
	"{\n"
	"  \"version\": \"gput " GPUT_VERSION "\",\n"
	"  \"params\": {\n"
	"    \"proto\": \"tcp\",\n"
	"    \"mode\": \"count\",\n"
	"    \"bytes\": 8192000,\n"
	"    \"length\": 4096,\n"
	"    \"interval_s\": 0,\n"
	"    \"omit_s\": 0,\n"
	"    \"host\": \"peer.example\",\n"
	"    \"port\": 5037\n"
	"  },\n"
	"  \"sides\": [\n"
	"    {\n"
	"      \"side\": \"l\",\n"
	"      \"role\": \"send\",\n"
	"      \"bytes\": 8192000,\n"
	"      \"calls\": 2000,\n"
	"      \"real_s\": 2,\n"
	"      \"cpu_s\": 0.5,\n"
	"      \"real_mbit\": 32.768,\n"
	"      \"cpu_mbit\": 131.072,\n"
	"      \"cpu_us_per_mb\": 61035.15625,\n"
	"      \"intervals\": [\n"
	"        {\n"
	"          \"start\": 0,\n"
	"          \"end\": 1,\n"
	"          \"bytes\": 4096000,\n"
	"          \"calls\": 1000,\n"
	"          \"real_mbit\": 32.768,\n"
	"          \"omitted\": false,\n"
	"          \"last\": false,\n"
	"          \"retrans\": 3,\n"
	"          \"cwnd\": 20,\n"
	"          \"rtt_us\": 14200\n"
	"        },\n"
	"        {\n"
	"          \"start\": 1,\n"
	"          \"end\": 2,\n"
	"          \"bytes\": 4096000,\n"
	"          \"calls\": 1000,\n"
	"          \"real_mbit\": 32.768,\n"
	"          \"omitted\": false,\n"
	"          \"last\": true,\n"
	"          \"retrans\": 0,\n"
	"          \"cwnd\": 23,\n"
	"          \"rtt_us\": 14200\n"
	"        }\n"
	"      ],\n"
	"      \"tcp_info\": {\n"
	"        \"cc\": \"cubic\",\n"
	"        \"retrans\": 3,\n"
	"        \"rtt_us\": 14200,\n"
	"        \"min_rtt_us\": 10100,\n"
	"        \"cwnd\": 23,\n"
	"        \"delivery_rate_bit_s\": 9408000,\n"
	"        \"busy_us\": 5000000,\n"
	"        \"rwnd_limited_us\": 0,\n"
	"        \"sndbuf_limited_us\": 120000\n"
	"      }\n"
	"    },\n"
	"    {\n"
	"      \"side\": \"1\",\n"
	"      \"role\": \"recv\",\n"
	"      \"bytes\": 8192000,\n"
	"      \"calls\": 5000,\n"
	"      \"real_s\": 2,\n"
	"      \"cpu_s\": 0,\n"
	"      \"real_mbit\": 32.768,\n"
	"      \"cpu_mbit\": null,\n"
	"      \"cpu_us_per_mb\": 0,\n"
	"      \"intervals\": []\n"
	"    }\n"
	"  ],\n"
	"  \"explain\": {\n"
	"    \"limit\": \"link\",\n"
	"    \"ratio\": null,\n"
	"    \"bound\": null,\n"
	"    \"evidence\": {\n"
	"      \"queue_ms\": 4.1,\n"
	"      \"delivery_mbit\": 9.408,\n"
	"      \"goodput_mbit\": 32.768,\n"
	"      \"retrans\": 3,\n"
	"      \"cwnd\": 23,\n"
	"      \"srtt_ms\": 14.2,\n"
	"      \"min_rtt_ms\": 10.1\n"
	"    },\n"
	"    \"warnings\": [],\n"
	"    \"cc\": \"cubic\"\n"
	"  },\n"
	"  \"interrupted\": false,\n"
	"  \"error\": null\n"
	"}\n";

static const char udp_summary[] =
	"{\"type\":\"summary\",\"version\":\"gput " GPUT_VERSION "\",\"params\":{\"proto\":\"udp\",\"mode\":\"time\",\"duration_s\":3,\"length\":1400,\"interval_s\":1,\"omit_s\":1,\"host\":\"::1\",\"port\":5037},\"sides\":[{\"side\":\"l\",\"role\":\"send\",\"bytes\":4200000,\"calls\":3000,\"real_s\":3,\"cpu_s\":0.25,\"real_mbit\":11.2,\"cpu_mbit\":134.4,\"cpu_us_per_mb\":59523.80952380953,\"intervals\":[{\"start\":0,\"end\":1,\"bytes\":1400000,\"calls\":1000,\"real_mbit\":11.2,\"omitted\":true,\"last\":false},{\"start\":1,\"end\":2,\"bytes\":1400000,\"calls\":1000,\"real_mbit\":11.2,\"omitted\":false,\"last\":false},{\"start\":2,\"end\":3,\"bytes\":1400000,\"calls\":1000,\"real_mbit\":11.2,\"omitted\":false,\"last\":true}]},{\"side\":\"1\",\"role\":\"recv\",\"bytes\":4186000,\"calls\":2990,\"real_s\":3,\"cpu_s\":0.125,\"real_mbit\":11.162666666666667,\"cpu_mbit\":267.904,\"cpu_us_per_mb\":29861.442904921165,\"intervals\":[{\"start\":0,\"end\":1,\"bytes\":1393000,\"calls\":995,\"real_mbit\":11.144,\"omitted\":true,\"last\":false,\"datagrams\":995},{\"start\":1,\"end\":2,\"bytes\":1400000,\"calls\":1000,\"real_mbit\":11.2,\"omitted\":false,\"last\":false,\"datagrams\":1000},{\"start\":2,\"end\":3,\"bytes\":1393000,\"calls\":995,\"real_mbit\":11.144,\"omitted\":false,\"last\":true,\"datagrams\":995}],\"steady\":{\"bytes\":2793000,\"real_s\":2,\"real_mbit\":11.172},\"udp\":{\"sent\":3000,\"received\":2990,\"unique\":2990,\"lost\":10,\"duplicates\":0,\"reordered\":0,\"max_displacement\":0,\"late\":0,\"too_old\":0,\"sequenced\":false,\"host_rcvbuf_errors\":null,\"host_in_errors\":null,\"jitter_ms\":null,\"delay_var_ms\":null,\"delay_var_max_ms\":null}}],\"link\":{\"rate_bit_s\":10000000,\"eta\":0.95,\"expected_mbit\":9.5},\"explain\":{\"limit\":\"unknown\",\"ratio\":null,\"bound\":null,\"evidence\":{\"goodput_mbit\":11.162666666666667},\"warnings\":[\"no --link: goodput was not compared with the link's\"],\"cc\":null},\"interrupted\":false,\"error\":null}\n";

static const char failed_pretty[] =
	"{\n"
	"  \"version\": \"gput " GPUT_VERSION "\",\n"
	"  \"params\": {\n"
	"    \"proto\": \"tcp\",\n"
	"    \"mode\": \"time\",\n"
	"    \"duration_s\": 10,\n"
	"    \"length\": 131072,\n"
	"    \"interval_s\": 0,\n"
	"    \"omit_s\": 0,\n"
	"    \"host\": \"peer \\\"x\\\"\",\n"
	"    \"port\": 5037\n"
	"  },\n"
	"  \"sides\": [\n"
	"    {\n"
	"      \"side\": \"l\",\n"
	"      \"role\": \"send\",\n"
	"      \"error\": \"no result\"\n"
	"    },\n"
	"    {\n"
	"      \"side\": \"1\",\n"
	"      \"role\": \"recv\",\n"
	"      \"error\": \"no result\"\n"
	"    }\n"
	"  ],\n"
	"  \"explain\": null,\n"
	"  \"interrupted\": false,\n"
	"  \"error\": \"connect to peer \\\"x\\\" port 5037: Connection refused\\n\"\n"
	"}\n";

static const char intr_summary[] =
	"{\"type\":\"summary\",\"version\":\"gput " GPUT_VERSION "\",\"params\":{\"proto\":\"tcp\",\"mode\":\"count\",\"bytes\":18446744073709551615,\"length\":4096,\"interval_s\":0,\"omit_s\":0,\"host\":null,\"port\":5037},\"sides\":[{\"side\":\"l\",\"role\":\"recv\",\"bytes\":18446744073709551615,\"calls\":18446744073709551615,\"real_s\":0,\"cpu_s\":0,\"real_mbit\":null,\"cpu_mbit\":null,\"cpu_us_per_mb\":0,\"intervals\":[]},{\"side\":\"1\",\"role\":\"send\",\"error\":\"no result\"}],\"explain\":null,\"interrupted\":true,\"error\":null}\n";

static void
test_json_tcp_count(void **state)
{
	struct run_model m;
	struct cap c;

	(void)state;
	model_tcp(&m);
	cap_open(&c);
	model_figures(&m);
	report_json(c.f, &m);
	cap_expect(&c, tcp_pretty);
	model_free(&m);
}

static void
test_json_udp_time(void **state)
{
	struct run_model m;
	struct cap c;

	(void)state;
	model_udp(&m);
	cap_open(&c);
	model_figures(&m);
	report_json_summary_line(c.f, &m);
	cap_expect(&c, udp_summary);
	model_free(&m);
}

/* --link with --rtt: the path's figures in the link object, null where
 * not asked (a window and no loss: 10 Mbit/s, 20 ms, 16 KiB). */
static void
test_json_link_path(void **state)
{
	struct plim_in in = { .rtt_s = 0.020, .window = 16384,
	                      .expected_bps = 9.5e6 };
	struct run_model m;
	struct cap c;
	char err[64], *got;

	(void)state;
	model_udp(&m);
	assert_int_equal(plim_compute(&in, &m.path, err, sizeof err), 0);
	m.have_path = 1;
	cap_open(&c);
	model_figures(&m);
	report_json_summary_line(c.f, &m);
	got = cap_close(&c);
	assert_non_null(strstr(got, "\"link\":{\"rate_bit_s\":10000000,\"eta\":0.95,"
	    "\"expected_mbit\":9.5,\"rtt_ms\":20,\"bdp_bytes\":23750,"
	    "\"window_bytes\":16384,\"window_mbit\":6.5536,\"window_limited\":true,"
	    "\"loss\":null,\"mss\":null,\"mathis_mbit\":null,\"loss_limited\":null,"
	    "\"bound_mbit\":6.5536},"));
	free(got);
	/* loss and no window: 1448-byte segments, 1% */
	in = (struct plim_in){ .rtt_s = 0.020, .loss = 0.01, .mss = 1448,
	                       .expected_bps = 9.5e6 };
	assert_int_equal(plim_compute(&in, &m.path, err, sizeof err), 0);
	cap_open(&c);
	model_figures(&m);
	report_json_summary_line(c.f, &m);
	got = cap_close(&c);
	assert_non_null(strstr(got, "\"window_bytes\":null,\"window_mbit\":null,"
	    "\"window_limited\":null,\"loss\":0.01,\"mss\":1448,"
	    "\"mathis_mbit\":7.0937222951000"));
	assert_non_null(strstr(got, "\"loss_limited\":true,\"bound_mbit\":7.0937222951000"));
	free(got);
	model_free(&m);
}

/* --ecn: tcp_info.ecn per TCP side (received counts null where the kernel
 * keeps none) and udp.ecn for a UDP receiver (null without UDPS_ECN); none
 * of them without --ecn (the other tests' documents). */
static void
test_json_ecn(void **state)
{
	struct run_model m;
	struct cap c;
	char *got;

	(void)state;
	model_tcp(&m);
	m.ecn = 1;
	m.side[0].tcp.ecn = TCPS_ECN | TCPS_ECN_RECEIVED;
	m.side[0].tcp.delivered_ce = 93;
	cap_open(&c);
	model_figures(&m);
	report_json_summary_line(c.f, &m);
	got = cap_close(&c);
	assert_non_null(strstr(got, "\"sndbuf_limited_us\":120000,\"ecn\":{"
	    "\"negotiated\":true,\"seen\":false,\"delivered_ce\":93,"
	    "\"received_ce\":0,\"received_ce_bytes\":0}}"));
	free(got);
	model_free(&m);
	model_udp(&m);
	m.ecn = 1;
	cap_open(&c);
	model_figures(&m);
	report_json_summary_line(c.f, &m);
	got = cap_close(&c);
	assert_non_null(strstr(got, "\"ecn\":{\"not_ect\":null,\"ect1\":null,"
	    "\"ect0\":null,\"ce\":null}"));
	free(got);
	m.side[1].have_udp = 1;
	m.side[1].udp.received = 2990;
	m.side[1].udp.unique = 2990;
	m.side[1].udp.flags = UDPS_ECN;
	m.side[1].udp.ecn[2] = 2704;
	m.side[1].udp.ecn[3] = 286;
	cap_open(&c);
	model_figures(&m);
	report_json_summary_line(c.f, &m);
	got = cap_close(&c);
	assert_non_null(strstr(got, "\"ecn\":{\"not_ect\":0,\"ect1\":0,"
	    "\"ect0\":2704,\"ce\":286}"));
	free(got);
	model_free(&m);
}

static void
test_json_failed(void **state)
{
	struct run_model m;
	struct cap c;

	(void)state;
	model_failed(&m);
	cap_open(&c);
	model_figures(&m);
	report_json(c.f, &m);
	cap_expect(&c, failed_pretty);
}

/* A partner that never answered: its side has only side, role, error. */
static void
test_json_no_result(void **state)
{
	struct run_model m;
	struct cap c;
	char *out;

	(void)state;
	model_tcp(&m);
	m.side[1].have_result = 0;
	cap_open(&c);
	model_figures(&m);
	report_json_summary_line(c.f, &m);
	out = cap_close(&c);
	assert_non_null(strstr(out, "\"tcp_info\":{\"cc\":\"cubic\""));
	assert_non_null(strstr(out, "},{\"side\":\"1\",\"role\":\"recv\","
	                       "\"error\":\"no result\"}],\"explain\":null,"
	                       "\"interrupted\":false,"
	                       "\"error\":null}\n"));
	free(out);
	cap_open(&c);
	model_figures(&m);
	report_csv(c.f, &m);
	cap_expect(&c, "side,role,bytes,calls,real_s,cpu_s,real_mbit,cpu_mbit,"
	           "real_calls_s,cpu_calls_s,limit,limit_ratio\n"
	           "l,send,8192000,2000,2,0.5,32.768,131.072,1000,4000,,\n");
	model_free(&m);
}

/* ^C: interrupted is true, u64 max exact, rates over zero time null. */
static void
test_json_interrupted(void **state)
{
	struct run_model m;
	struct cap c;

	(void)state;
	model_interrupted(&m);
	cap_open(&c);
	model_figures(&m);
	report_json_summary_line(c.f, &m);
	cap_expect(&c, intr_summary);
}

static void
test_json_ival(void **state)
{
	struct run_model m;
	struct ival iv;
	struct cap c;
	size_t i, k;

	(void)state;
	model_tcp(&m);
	cap_open(&c);
	for (i = 0; i < m.side[0].niv; i++)
		report_json_ival(c.f, &m, 0, &m.side[0].iv[i]);
	report_json_ival(c.f, &m, 2, &m.side[0].iv[0]);   /* no such side */
	report_json_ival(c.f, &m, -1, &m.side[0].iv[0]);
	cap_expect(&c,
	"{\"type\":\"interval\",\"side\":\"l\",\"start\":0,\"end\":1,\"bytes\":4096000,\"calls\":1000,\"real_mbit\":32.768,\"omitted\":false,\"last\":false,\"retrans\":3,\"cwnd\":20,\"rtt_us\":14200}\n"
	"{\"type\":\"interval\",\"side\":\"l\",\"start\":1,\"end\":2,\"bytes\":4096000,\"calls\":1000,\"real_mbit\":32.768,\"omitted\":false,\"last\":true,\"retrans\":0,\"cwnd\":23,\"rtt_us\":14200}\n");
	model_free(&m);
	model_udp(&m);
	cap_open(&c);
	for (k = 0; k < 2; k++)
		for (i = 0; i < m.side[k].niv; i++)
			report_json_ival(c.f, &m, (int)k, &m.side[k].iv[i]);
	cap_expect(&c,
	"{\"type\":\"interval\",\"side\":\"l\",\"start\":0,\"end\":1,\"bytes\":1400000,\"calls\":1000,\"real_mbit\":11.2,\"omitted\":true,\"last\":false}\n"
	"{\"type\":\"interval\",\"side\":\"l\",\"start\":1,\"end\":2,\"bytes\":1400000,\"calls\":1000,\"real_mbit\":11.2,\"omitted\":false,\"last\":false}\n"
	"{\"type\":\"interval\",\"side\":\"l\",\"start\":2,\"end\":3,\"bytes\":1400000,\"calls\":1000,\"real_mbit\":11.2,\"omitted\":false,\"last\":true}\n"
	"{\"type\":\"interval\",\"side\":\"1\",\"start\":0,\"end\":1,\"bytes\":1393000,\"calls\":995,\"real_mbit\":11.144,\"omitted\":true,\"last\":false,\"datagrams\":995}\n"
	"{\"type\":\"interval\",\"side\":\"1\",\"start\":1,\"end\":2,\"bytes\":1400000,\"calls\":1000,\"real_mbit\":11.2,\"omitted\":false,\"last\":false,\"datagrams\":1000}\n"
	"{\"type\":\"interval\",\"side\":\"1\",\"start\":2,\"end\":3,\"bytes\":1393000,\"calls\":995,\"real_mbit\":11.144,\"omitted\":false,\"last\":true,\"datagrams\":995}\n");
	memset(&iv, 0, sizeof iv);      /* zero length: the rate is null */
	iv.start_ns = iv.end_ns = 3000000000u;
	iv.flags = IVAL_LAST | IVAL_OMITTED;
	cap_open(&c);
	report_json_ival(c.f, &m, 0, &iv);
	cap_expect(&c, "{\"type\":\"interval\",\"side\":\"l\",\"start\":3,\"end\":3,"
	           "\"bytes\":0,\"calls\":0,\"real_mbit\":null,\"omitted\":true,"
	           "\"last\":true}\n");
	model_free(&m);
}

/* ---- report_csv ----------------------------------------------------- */

static void
test_csv(void **state)
{
	static const struct {
		void (*build)(struct run_model *);
		const char *out;
	} rows[] = {
		{ model_tcp,
	"side,role,bytes,calls,real_s,cpu_s,real_mbit,cpu_mbit,real_calls_s,cpu_calls_s,limit,limit_ratio\n"
	"l,send,8192000,2000,2,0.5,32.768,131.072,1000,4000,,\n"
	"1,recv,8192000,5000,2,0,32.768,,2500,,link,\n" },
		{ model_udp,
	"side,role,bytes,calls,real_s,cpu_s,real_mbit,cpu_mbit,real_calls_s,cpu_calls_s,limit,limit_ratio\n"
	"l,send,4200000,3000,3,0.25,11.2,134.4,1000,12000,,\n"
	"1,recv,4186000,2990,3,0.125,11.162666666666667,267.904,996.6666666666666,23920,unknown,\n" },
		{ model_failed,
	"side,role,bytes,calls,real_s,cpu_s,real_mbit,cpu_mbit,real_calls_s,cpu_calls_s,limit,limit_ratio\n" },
		{ model_interrupted,
	"side,role,bytes,calls,real_s,cpu_s,real_mbit,cpu_mbit,real_calls_s,cpu_calls_s,limit,limit_ratio\n"
	"l,recv,18446744073709551615,18446744073709551615,0,0,,,,,unknown,\n" },
	};
	struct run_model m;
	struct cap c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		rows[i].build(&m);
		cap_open(&c);
		model_figures(&m);
		report_csv(c.f, &m);
		cap_expect(&c, rows[i].out);
		model_free(&m);
	}
}

/* ---- interval lines, steady state, TCP_INFO ------------------------- */

static void
test_ival_lines(void **state)
{
	struct run_model m;
	struct cap c;
	size_t i, k;

	(void)state;
	cap_open(&c);
	report_ival_title(c.f);
	cap_expect(&c,
	"  Interval            Bytes          Calls     Real-MBit/s\n");
	model_tcp(&m);
	cap_open(&c);
	for (i = 0; i < m.side[0].niv; i++)
		report_ival_line(c.f, &m.side[0], &m.side[0].iv[i]);
	cap_expect(&c,
	"l  0.00- 1.00 s     4096000 bytes     1000 calls   32.7680 MBit/s  retr 3  cwnd 20  rtt 14.20 ms\n"
	"l  1.00- 2.00 s     4096000 bytes     1000 calls   32.7680 MBit/s  retr 0  cwnd 23  rtt 14.20 ms (last)\n");
	model_free(&m);
	model_udp(&m);
	cap_open(&c);
	for (k = 0; k < 2; k++)
		for (i = 0; i < m.side[k].niv; i++)
			report_ival_line(c.f, &m.side[k], &m.side[k].iv[i]);
	cap_expect(&c,
	"l  0.00- 1.00 s     1400000 bytes     1000 calls   11.2000 MBit/s (omitted)\n"
	"l  1.00- 2.00 s     1400000 bytes     1000 calls   11.2000 MBit/s\n"
	"l  2.00- 3.00 s     1400000 bytes     1000 calls   11.2000 MBit/s (last)\n"
	"1  0.00- 1.00 s     1393000 bytes      995 calls   11.1440 MBit/s  995 datagrams (omitted)\n"
	"1  1.00- 2.00 s     1400000 bytes     1000 calls   11.2000 MBit/s  1000 datagrams\n"
	"1  2.00- 3.00 s     1393000 bytes      995 calls   11.1440 MBit/s  995 datagrams (last)\n");
	model_free(&m);
}

/* Values that fill or overflow their columns keep one space; a zero-length
 * interval's rate is "-". */
static void
test_ival_widths(void **state)
{
	struct side s;
	struct ival iv;
	struct cap c;

	(void)state;
	side_init(&s, '1', PROTO_TCP, ROLE_SEND);
	memset(&iv, 0, sizeof iv);
	iv.start_ns = 100000000000u;
	iv.end_ns = 101000000000u;
	iv.bytes = 123456789012345u;
	iv.calls = 999999999;
	iv.flags = IVAL_TCP | IVAL_OMITTED | IVAL_LAST;
	iv.retrans = 4294967295u;
	iv.cwnd = 10;
	iv.srtt_us = 1;
	cap_open(&c);
	report_ival_line(c.f, &s, &iv);
	iv.start_ns = iv.end_ns = 9999000000000u;
	iv.bytes = 123456789012u;
	iv.flags = 0;
	report_ival_line(c.f, &s, &iv);
	iv.end_ns = iv.start_ns + 1;     /* 1 ns: 8000 MBit/s a byte */
	report_ival_line(c.f, &s, &iv);
	cap_expect(&c,
	    "1 100.00-101.00 s 123456789012345 bytes 999999999 calls"
	    " 987654312.0988 MBit/s  retr 4294967295  cwnd 10  rtt 0.00 ms"
	    " (omitted) (last)\n"
	    "1 9999.00-9999.00 s 123456789012 bytes 999999999 calls         -"
	    " MBit/s\n"
	    "1 9999.00-9999.00 s 123456789012 bytes 999999999 calls"
	    " 987654312096000.0000 MBit/s\n");
}

static void
test_steady_and_tcp_stats(void **state)
{
	struct run_model m;
	struct tcp_stats t;
	struct cap c;

	(void)state;
	model_udp(&m);
	cap_open(&c);
	report_steady_line(c.f, &m.side[0], m.omit_ms);    /* none: nothing */
	report_steady_line(c.f, &m.side[1], m.omit_ms);
	m.side[1].steady_ns = 0;
	report_steady_line(c.f, &m.side[1], 250);
	cap_expect(&c,
	"1 steady state after 1.00 s: 2793000 bytes in 2.000 s, 11.1720 MBit/s\n"
	    "1 steady state after 0.25 s: 2793000 bytes in 0.000 s, - MBit/s\n");
	model_free(&m);
	model_tcp(&m);
	cap_open(&c);
	report_tcp_stats(c.f, 'l', &m.side[0].tcp);
	report_tcp_stats(c.f, '1', &m.side[1].tcp);        /* not valid */
	t = m.side[0].tcp;
	t.retrans = 1;
	memcpy(t.cc, "bbr\x1b[2J\xff", 8);       /* not printable: '?' */
	report_tcp_stats(c.f, '1', &t);
	memset(t.cc, 'x', sizeof t.cc);          /* no NUL: cut at 15 */
	t.retrans = 0;
	report_tcp_stats(c.f, '1', &t);
	cap_expect(&c,
	"l: tcp cubic, 3 retransmitted segments, rtt 14.20 ms (min 10.10), cwnd 23, delivery 9.41 MBit/s, busy 5.00 s, limited by rwnd 0.00 s, by sndbuf 0.12 s\n"
	    "1: tcp bbr?[2J?, 1 retransmitted segment, rtt 14.20 ms (min 10.10),"
	    " cwnd 23, delivery 9.41 MBit/s, busy 5.00 s, limited by rwnd 0.00 s,"
	    " by sndbuf 0.12 s\n"
	    "1: tcp xxxxxxxxxxxxxxx, 0 retransmitted segments, rtt 14.20 ms"
	    " (min 10.10), cwnd 23, delivery 9.41 MBit/s, busy 5.00 s, limited by"
	    " rwnd 0.00 s, by sndbuf 0.12 s\n");
	model_free(&m);
}

/* ---- jq: every JSON output parses and reads back -------------------- */

static int
have_jq(void)
{
	return system("command -v jq >/dev/null 2>&1") == 0;
}

/* Does jq (with opts) find expr true of the file at path? */
static int
jq_true(const char *opts, const char *path, const char *expr)
{
	char cmd[1024], line[256];
	FILE *p;
	int st;

	snprintf(cmd, sizeof cmd, "jq %s -e '%s' '%s' 2>&1 >/dev/null", opts, expr, path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof line, p) != NULL)
		print_message("jq: %s", line);
	st = pclose(p);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Write what render makes of the model build makes to a temporary file and
 * check every expression in exprs (NULL-terminated) with jq opts. */
static void
jq_check(void (*build)(struct run_model *),
         void (*render)(FILE *, const struct run_model *), const char *opts,
         const char *const *exprs)
{
	char path[] = "/tmp/gput-unit-render-XXXXXX";
	struct run_model m;
	FILE *f;
	int fd = mkstemp(path), bad = 0;
	size_t i, k;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	build(&m);
	model_figures(&m);
	render(f, &m);
	for (k = 0; render == report_json_summary_line && k < 2; k++)
		for (i = 0; i < m.side[k].niv; i++)
			report_json_ival(f, &m, (int)k, &m.side[k].iv[i]);
	model_free(&m);
	assert_int_equal(fclose(f), 0);
	for (i = 0; exprs[i] != NULL; i++)
		if (!jq_true(opts, path, exprs[i])) {
			print_error("jq %s -e '%s' failed\n", opts, exprs[i]);
			bad++;
		}
	unlink(path);
	assert_int_equal(bad, 0);
}

static void
test_jq(void **state)
{
	static const char *const tcp[] = { ".",
		".sides[0].bytes == 8192000 and .sides[0].real_mbit == 32.768",
		".sides[1].cpu_mbit == null and .params.mode == \"count\"",
		".sides[0].tcp_info.cc == \"cubic\" and .error == null",
		"[.sides[0].intervals[].bytes] | add == 8192000", NULL };
	static const char *const udp[] = { "length == 7",
		".[0].type == \"summary\" and .[0].sides[1].udp.lost == 10",
		".[0].sides[1].steady.real_mbit == 11.172 and .[0].link.eta == 0.95",
		"all(.[1:][]; .type == \"interval\")",
		"[.[4:][] | .datagrams] | add == 2990", NULL };
	static const char *const failed[] = {
		".error == \"connect to peer \\\"x\\\" port 5037: Connection refused\\n\"",
		".params.host == \"peer \\\"x\\\"\" and .sides[1].error == \"no result\"",
		NULL };
	static const char *const intr[] = {
		".sides[0].bytes == 18446744073709551615",
		".interrupted and .sides[0].real_mbit == null", NULL };

	(void)state;
	if (!have_jq()) {
		print_message("jq not on PATH: skipping the jq checks\n");
		skip();
	}
	jq_check(model_tcp, report_json, "", tcp);
	jq_check(model_tcp, report_json_summary_line, "-s", (const char *const[]){
	         "length == 3 and .[0].type == \"summary\"", NULL });
	jq_check(model_udp, report_json_summary_line, "-s", udp);
	jq_check(model_udp, report_json, "", (const char *const[]){ ".", NULL });
	jq_check(model_failed, report_json, "", failed);
	jq_check(model_interrupted, report_json, "", intr);
}

/* Every escaping case of test_json_escape reads back through jq. */
static void
test_jq_escape(void **state)
{
	char path[] = "/tmp/gput-unit-render-XXXXXX";
	struct json j;
	FILE *f;
	int fd;

	(void)state;
	if (!have_jq()) {
		print_message("jq not on PATH: skipping the jq checks\n");
		skip();
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	json_init(&j, f, 1);
	json_begin_object(&j);
	json_kv_string(&j, "ctl", "a\"b\\\n\t\r\b\f\x01\x1f\x7f");
	json_kv_string(&j, "utf8", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	json_kv_string(&j, "bad", "\x80\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xc3");
	json_end_object(&j);
	fputc('\n', f);
	assert_int_equal(fclose(f), 0);
	assert_true(jq_true("", path, ".ctl == \"a\\\"b\\\\\\n\\t\\r\\b\\f"
	                    "\\u0001\\u001f\\u007f\""));
	assert_true(jq_true("", path, ".utf8 == \"caf\xc3\xa9 \xe2\x82\xac "
	                    "\xf0\x9f\x98\x80\" and (.utf8 | length) == 8"));
	assert_true(jq_true("", path, ".bad | explode | all(. == 65533) and "
	                    "length == 11"));
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_json_containers),
		cmocka_unit_test(test_json_laid),
		cmocka_unit_test(test_json_numbers),
		cmocka_unit_test(test_json_tcp_count),
		cmocka_unit_test(test_json_udp_time),
		cmocka_unit_test(test_json_link_path),
		cmocka_unit_test(test_json_ecn),
		cmocka_unit_test(test_json_failed),
		cmocka_unit_test(test_json_no_result),
		cmocka_unit_test(test_json_interrupted),
		cmocka_unit_test(test_json_ival),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_ival_lines),
		cmocka_unit_test(test_ival_widths),
		cmocka_unit_test(test_steady_and_tcp_stats),
		cmocka_unit_test(test_jq),
		cmocka_unit_test(test_jq_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
