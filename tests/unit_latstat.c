/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_latstat.c: nearest-rank percentiles, the trimmed mean, RPM and a
 * phase's summary (latstat.c), exact on known samples; the latency probe's
 * wire format and the echo's token bucket (wire_probe.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client_latency.h"
#include "latstat.h"
#include "wire_probe.h"
#include "report_lat.h"
#include "json.h"

static void
test_pctl_nearest_rank(void **state)
{
	uint64_t four[] = { 4, 1, 3, 2 }, one[] = { 7 }, hundred[100], ten[10];
	int64_t s[] = { 5, -3, 0 };
	size_t i;

	(void)state;
	latstat_sort(four, 4);
	assert_int_equal(four[0], 1);
	assert_int_equal(four[3], 4);
	/* rank ceil(p * n / 100): p50 of 1..4 is the 2nd, p51 the 3rd */
	assert_int_equal(latstat_pctl(four, 4, 50), 2);
	assert_int_equal(latstat_pctl(four, 4, 51), 3);
	assert_int_equal(latstat_pctl(four, 4, 25), 1);
	assert_int_equal(latstat_pctl(four, 4, 26), 2);
	assert_int_equal(latstat_pctl(four, 4, 100), 4);
	assert_int_equal(latstat_pctl(four, 4, 1), 1);
	assert_int_equal(latstat_pctl(one, 1, 50), 7);
	assert_int_equal(latstat_pctl(one, 1, 99), 7);
	assert_int_equal(latstat_pctl(one, 0, 50), 0);   /* none: 0 */
	for (i = 0; i < 100; i++)
		hundred[i] = 100 - i;                    /* 100 .. 1 */
	latstat_sort(hundred, 100);
	assert_int_equal(latstat_pctl(hundred, 100, 50), 50);
	assert_int_equal(latstat_pctl(hundred, 100, 90), 90);
	assert_int_equal(latstat_pctl(hundred, 100, 99), 99);
	for (i = 0; i < 10; i++)
		ten[i] = (i + 1) * 10;                   /* 10 .. 100 */
	assert_int_equal(latstat_pctl(ten, 10, 50), 50);
	assert_int_equal(latstat_pctl(ten, 10, 90), 90);
	assert_int_equal(latstat_pctl(ten, 10, 99), 100);   /* rank 10 */
	latstat_sort_signed(s, 3);
	assert_int_equal(s[0], -3);
	assert_int_equal(latstat_pctl_signed(s, 3, 50), 0);
}

static void
test_trimmed_mean_rpm(void **state)
{
	uint64_t x[20], y[3] = { 10, 20, 1000 };
	size_t i;

	(void)state;
	/* 19 samples of 100 ms and one of 10 s: the 95% kept are the 19 */
	for (i = 0; i < 19; i++)
		x[i] = 100000000;
	x[19] = 10000000000ull;
	assert_int_equal(latstat_trimmed_mean(x, 20, 95), 100000000);
	assert_true(latstat_rpm(100000000) == 600.0);    /* 60 s / 0.1 s */
	assert_true(latstat_rpm(0) == 0.0);
	/* 3 samples: ceil(2.85) = 3 kept, nothing dropped */
	assert_int_equal(latstat_trimmed_mean(y, 3, 95), 343);
	assert_int_equal(latstat_trimmed_mean(y, 0, 95), 0);
	/* 40 samples 1..40: 38 kept, mean of 1..38 = 19.5 -> 19 (down) */
	{
		uint64_t z[40];

		for (i = 0; i < 40; i++)
			z[i] = i + 1;
		assert_int_equal(latstat_trimmed_mean(z, 40, 95), 19);
	}
}

static void
test_phase(void **state)
{
	uint64_t rtt[5] = { 30, 10, 50, 20, 40 };
	int64_t up[5] = { 3, 1, 5, 2, 4 }, down[5] = { -1, -2, -3, -4, -5 };
	struct lat_phase ph;

	(void)state;
	latstat_phase(&ph, 8, rtt, up, down, 5);
	assert_int_equal(ph.sent, 8);
	assert_int_equal(ph.answered, 5);
	assert_int_equal(ph.lost, 3);                    /* sent = answered + lost */
	assert_int_equal(ph.min_ns, 10);
	assert_int_equal(ph.p50_ns, 30);
	assert_int_equal(ph.p90_ns, 50);
	assert_int_equal(ph.p99_ns, 50);
	assert_int_equal(ph.max_ns, 50);
	assert_int_equal(ph.tmean_ns, 30);
	assert_int_equal(ph.have_owd, 1);
	assert_int_equal(ph.up_p50_ns, 3);
	assert_int_equal(ph.down_p50_ns, -3);
	latstat_phase(&ph, 4, rtt, NULL, NULL, 0);      /* nothing answered */
	assert_int_equal(ph.lost, 4);
	assert_int_equal(ph.p50_ns, 0);
	assert_int_equal(ph.have_owd, 0);
}

static void
test_expected(void **state)
{
	(void)state;
	/* 20 ms + 100000 bytes at 10 Mbit/s (80 ms) */
	assert_true(latency_expected_ns(20e6, 100000, 10e6) == 100e6);
}

static void
test_probe_codec(void **state)
{
	struct probe p = { .kind = PROBE_REQ, .seq = 0x0102030405060708ull,
	    .t_send_ns = 0x1112131415161718ull }, q;
	uint8_t b[PROBE_LEN + 4], nonce[PROBE_NONCE_LEN], bad[PROBE_LEN];
	static const uint8_t want[PROBE_LEN] = {
		'G', 'P', 'L', 'P', 1, 1, 0, 0,
		0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
		0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
		1, 2, 3, 4, 5, 6, 7, 8,
		0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
		0, 0, 0, 0, 0, 0, 0, 0 };
	size_t i;

	(void)state;
	for (i = 0; i < PROBE_NONCE_LEN; i++)
		nonce[i] = p.nonce[i] = (uint8_t)(0xa0 + i);
	assert_int_equal(probe_encode(&p, b), PROBE_LEN);
	assert_memory_equal(b, want, PROBE_LEN);
	assert_int_equal(probe_decode(b, PROBE_LEN, &q), 0);
	assert_int_equal(q.kind, PROBE_REQ);
	assert_true(q.seq == p.seq && q.t_send_ns == p.t_send_ns &&
	    q.t_echo_ns == 0);
	/* every other length is refused: never a reply of another size */
	assert_int_equal(probe_decode(b, PROBE_LEN - 1, &q), -1);
	assert_int_equal(probe_decode(b, PROBE_LEN + 1, &q), -1);
	assert_int_equal(probe_decode(b, 0, &q), -1);
	/* each malformed field */
	memcpy(bad, b, PROBE_LEN); bad[0] = 'X';
	assert_int_equal(probe_decode(bad, PROBE_LEN, &q), -1);
	memcpy(bad, b, PROBE_LEN); bad[4] = 2;
	assert_int_equal(probe_decode(bad, PROBE_LEN, &q), -1);
	memcpy(bad, b, PROBE_LEN); bad[5] = 3;
	assert_int_equal(probe_decode(bad, PROBE_LEN, &q), -1);
	memcpy(bad, b, PROBE_LEN); bad[5] = 0;
	assert_int_equal(probe_decode(bad, PROBE_LEN, &q), -1);
	memcpy(bad, b, PROBE_LEN); bad[7] = 1;
	assert_int_equal(probe_decode(bad, PROBE_LEN, &q), -1);
	memcpy(bad, b, PROBE_LEN); bad[47] = 1;          /* a request, stamped */
	assert_int_equal(probe_decode(bad, PROBE_LEN, &q), -1);
	/* the echo: the same bytes, kind 2 and the stamp */
	assert_int_equal(probe_make_echo(b, PROBE_LEN, nonce, 0x2122232425262728ull),
	    0);
	assert_int_equal(b[5], PROBE_ECHO);
	assert_memory_equal(b + 8, want + 8, 32);
	assert_int_equal(probe_decode(b, PROBE_LEN, &q), 0);
	assert_int_equal(q.kind, PROBE_ECHO);
	assert_true(q.t_echo_ns == 0x2122232425262728ull);
	/* an echo is not echoed again; a wrong nonce, a wrong length: none */
	memcpy(bad, b, PROBE_LEN);
	assert_int_equal(probe_make_echo(bad, PROBE_LEN, nonce, 1), -1);
	assert_memory_equal(bad, b, PROBE_LEN);          /* left as it was */
	probe_encode(&p, b);
	nonce[3] ^= 1;
	assert_int_equal(probe_make_echo(b, PROBE_LEN, nonce, 1), -1);
	nonce[3] ^= 1;
	assert_int_equal(probe_make_echo(b, PROBE_LEN + 1, nonce, 1), -1);
	assert_int_equal(probe_make_echo(b, PROBE_LEN, nonce, 1), 0);
}

static void
test_bucket(void **state)
{
	struct probe_bucket b;
	uint64_t ms = 1000000, taken = 0;
	int i;

	(void)state;
	probe_bucket_init(&b, 10 * ms, 1000 * ms);
	/* a burst at once: PROBE_BURST pass, the rest are dropped */
	for (i = 0; i < 100; i++)
		taken += (uint64_t)probe_bucket_take(&b, 1000 * ms);
	assert_int_equal(taken, PROBE_BURST);
	/* one interval later, one more */
	assert_int_equal(probe_bucket_take(&b, 1009 * ms), 0);
	assert_int_equal(probe_bucket_take(&b, 1010 * ms), 1);
	assert_int_equal(probe_bucket_take(&b, 1010 * ms), 0);
	/* at the agreed rate for a long time: every one passes */
	for (i = 1, taken = 0; i <= 1000; i++)
		taken += (uint64_t)probe_bucket_take(&b, (1010 + 10 * (uint64_t)i) * ms);
	assert_int_equal(taken, 1000);
	/* twice the rate for 10 s: half, and the burst */
	probe_bucket_init(&b, 10 * ms, 0);
	for (i = 0, taken = 0; i < 2000; i++)
		taken += (uint64_t)probe_bucket_take(&b, (uint64_t)i * 5 * ms);
	assert_int_equal(taken, 1000 + PROBE_BURST - 1);
	/* a long pause refills no more than the burst */
	for (i = 0, taken = 0; i < 100; i++)
		taken += (uint64_t)probe_bucket_take(&b, 3600000 * ms);
	assert_int_equal(taken, PROBE_BURST);
	/* time that goes back takes nothing from the bucket's state */
	assert_int_equal(probe_bucket_take(&b, 5 * ms), 0);
}

/* The renderers, exact on a hand-made result. */
static void
test_render(void **state)
{
	struct lat_result l;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct json j;

	(void)state;
	memset(&l, 0, sizeof l);
	l.have = 1;
	l.interval_us = 10000;
	l.idle_ms = 1000;
	l.idle = (struct lat_phase){ .sent = 100, .answered = 100, .min_ns = 20080000,
	    .p50_ns = 20140000, .p90_ns = 20220000, .p99_ns = 21560000,
	    .max_ns = 22750000, .tmean_ns = 20150000 };
	l.loaded = (struct lat_phase){ .sent = 901, .answered = 900, .lost = 1,
	    .unsent = 2, .min_ns = 20130000, .p50_ns = 99880000, .p90_ns = 100690000,
	    .p99_ns = 102280000, .max_ns = 102540000, .tmean_ns = 100000000,
	    .have_owd = 1, .up_p50_ns = 89820000, .down_p50_ns = 10040000 };
	l.have_expected = 1;
	l.queue_bytes = 100000;
	l.link_bps = 10e6;
	l.expected_ns = 100140000;
	f = open_memstream(&buf, &len);
	report_lat_text(f, &l, 0);
	fclose(f);
	assert_string_equal(buf,
	    "latency idle  : 100 sent, 100 answered, 0 lost; rtt min 20.08 p50 20.14 "
	    "p90 20.22 p99 21.56 max 22.75 ms\n"
	    "latency loaded: 901 sent, 900 answered, 1 lost; rtt min 20.13 p50 99.88 "
	    "p90 100.69 p99 102.28 max 102.54 ms; 2 due but not sent; one way p50 up "
	    "89.82 down 10.04 ms\n"
	    "latency: +79.74 ms under load (p50), responsiveness 600 RPM (60 s / "
	    "100.00 ms, the loaded round trips' mean without their largest 5%)\n"
	    "latency: expected loaded rtt 100.14 ms (idle p50 20.14 + 80.00 to drain "
	    "100000 bytes of queue at 10.00 Mbit/s), measured p50 99.88\n");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	json_init(&j, f, 0);
	json_begin_object(&j);
	report_lat_json(&j, &l);
	json_end_object(&j);
	fclose(f);
	assert_string_equal(buf, "{\"latency\":{\"interval_ms\":10,\"idle_s\":1,"
	    "\"idle\":{\"n\":100,\"answered\":100,\"lost\":0,\"unsent\":0,"
	    "\"min_ms\":20.08,\"p50_ms\":20.14,\"p90_ms\":20.22,\"p99_ms\":21.56,"
	    "\"max_ms\":22.75,\"trimmed_mean_ms\":20.15},"
	    "\"loaded\":{\"n\":901,\"answered\":900,\"lost\":1,\"unsent\":2,"
	    "\"min_ms\":20.13,\"p50_ms\":99.88,\"p90_ms\":100.69,\"p99_ms\":102.28,"
	    "\"max_ms\":102.54,\"trimmed_mean_ms\":100,\"up_p50_ms\":89.82,"
	    "\"down_p50_ms\":10.04},\"increase_ms\":79.74,\"rpm\":600,"
	    "\"queue_bytes\":100000,\"expected_loaded_ms\":100.14}}");
	free(buf);
	/* nothing answered: nulls, no RPM; no latency: nothing at all */
	l.loaded.answered = 0;
	l.have_expected = 0;
	buf = NULL;
	f = open_memstream(&buf, &len);
	report_lat_text(f, &l, 0);
	fclose(f);
	assert_non_null(strstr(buf, "latency: no loaded round trip: no responsiveness\n"));
	free(buf);
	l.have = 0;
	buf = NULL;
	f = open_memstream(&buf, &len);
	report_lat_text(f, &l, 1);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pctl_nearest_rank),
		cmocka_unit_test(test_trimmed_mean_rpm),
		cmocka_unit_test(test_phase),
		cmocka_unit_test(test_expected),
		cmocka_unit_test(test_probe_codec),
		cmocka_unit_test(test_bucket),
		cmocka_unit_test(test_render),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
