/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_pathlim.c: the window limit, bandwidth-delay product and Mathis
 * bound (pathlim.c) with exact numbers, and their lines (report_link.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_link.h"
#include "pathlim.h"

/* Relative error: the figures are products and quotients of exact inputs. */
#define assert_near(got, want) do { double g_ = (got), w_ = (want); \
	if (!(fabs(g_ - w_) <= 1e-12 * fabs(w_))) \
		fail_msg("%.17g != %.17g", g_, w_); } while (0)

static void
test_window(void **state)
{
	(void)state;
	/* 64 KiB at 40 ms: 65536 * 8 / 0.04 = 13107200 bit/s exactly */
	assert_near(plim_window_bps(65536, 0.040), 13107200.0);
	/* 16 KiB at 1 ms: 131.072 Mbit/s */
	assert_near(plim_window_bps(16384, 0.001), 131072000.0);
	/* 4 MiB at 100 ms: 335.54432 Mbit/s */
	assert_near(plim_window_bps(4u << 20, 0.1), 335544320.0);
}

static void
test_mathis(void **state)
{
	(void)state;
	/* MSS 1448, RTT 20 ms, p 0.01: 579200 bit/s per segment per RTT,
	 * x sqrt(3/2) / 0.1 = 7093722.2951 bit/s (the rounded 1.22 gives
	 * 7066240) */
	assert_near(plim_mathis_bps(1448, 0.020, 0.01), 579200.0 * 10 * sqrt(1.5));
	assert_true(fabs(plim_mathis_bps(1448, 0.020, 0.01) - 7093722.2951) < 1e-3);
	/* p 1: one loss a segment still gives sqrt(3/2) segments per RTT */
	assert_near(plim_mathis_bps(1000, 1.0, 1.0), 8000 * PLIM_MATHIS_C);
	assert_near(PLIM_MATHIS_C * PLIM_MATHIS_C, 1.5);
	/* MSS 1460, RTT 100 ms, p 1e-4: 116800 * 100 * 1.2247 */
	assert_near(plim_mathis_bps(1460, 0.1, 1e-4), 11680000.0 * sqrt(1.5));
}

static void
test_bdp(void **state)
{
	(void)state;
	assert_near(plim_bdp_bytes(10e6, 0.040), 50000.0);
	/* eta * C of TCP with timestamps on 100 Mbit/s across 20 ms */
	assert_near(plim_bdp_bytes(100e6 * 1448 / 1538, 0.020),
	            250000.0 * 1448 / 1538);
}

static void
test_compute(void **state)
{
	struct plim_in in = { .rtt_s = 0.040, .window = 65536,
	                      .expected_bps = 94148244.47334200 };
	struct plim p;
	char err[128];

	(void)state;
	/* 100 Mbit/s, 40 ms, 64 KiB: window-limited to 13.1072 */
	assert_int_equal(plim_compute(&in, &p, err, sizeof err), 0);
	assert_true(p.have_bdp && p.have_window && !p.have_mathis);
	assert_true(p.window_limited);
	assert_near(p.window_bps, 13107200.0);
	assert_near(p.bound_bps, 13107200.0);
	assert_near(p.bdp_bytes, 94148244.47334200 * 0.005);
	/* 10 Mbit/s: not window-limited, the bound is eta * C */
	in.expected_bps = 9414824.447334200;
	assert_int_equal(plim_compute(&in, &p, err, sizeof err), 0);
	assert_false(p.window_limited);
	assert_near(p.bound_bps, 9414824.447334200);
	/* loss 1% at 20 ms on 100 Mbit/s: loss-limited, the Mathis bound */
	in = (struct plim_in){ .rtt_s = 0.020, .loss = 0.01, .mss = 1448,
	                       .expected_bps = 94148244.47334200 };
	assert_int_equal(plim_compute(&in, &p, err, sizeof err), 0);
	assert_true(p.have_mathis && p.loss_limited && !p.have_window);
	assert_near(p.mathis_bps, 579200.0 * 10 * sqrt(1.5));
	assert_near(p.bound_bps, p.mathis_bps);
	/* no link: no comparison, the bound is the least limit */
	in = (struct plim_in){ .rtt_s = 0.040, .window = 65536, .loss = 0.005,
	                       .mss = 1448 };
	assert_int_equal(plim_compute(&in, &p, err, sizeof err), 0);
	assert_false(p.have_bdp || p.window_limited || p.loss_limited);
	assert_near(p.bound_bps, p.mathis_bps);
	assert_true(p.mathis_bps < p.window_bps);
	/* an RTT alone with a link: the BDP, the bound eta * C */
	in = (struct plim_in){ .rtt_s = 0.001, .expected_bps = 8e6 };
	assert_int_equal(plim_compute(&in, &p, err, sizeof err), 0);
	assert_near(p.bdp_bytes, 1000.0);
	assert_near(p.bound_bps, 8e6);
}

static void
test_compute_errors(void **state)
{
	static const struct {
		struct plim_in in;
		const char *err;
	} rows[] = {
		{ { .rtt_s = 0 }, "the RTT must be above 0" },
		{ { .rtt_s = -1 }, "the RTT must be above 0" },
		{ { .rtt_s = NAN }, "the RTT must be above 0" },
		{ { .rtt_s = INFINITY }, "the RTT must be above 0" },
		{ { .rtt_s = 1, .loss = 1.5, .mss = 1 },
		  "the loss must be a probability from 0 to 1" },
		{ { .rtt_s = 1, .loss = -0.1, .mss = 1 },
		  "the loss must be a probability from 0 to 1" },
		{ { .rtt_s = 1, .loss = 0.1 }, "the Mathis bound needs the MSS" },
		{ { .rtt_s = 1, .expected_bps = -1 },
		  "the expected goodput must be 0 or more" },
	};
	struct plim p;
	char err[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		err[0] = '\0';
		assert_int_equal(plim_compute(&rows[i].in, &p, err, sizeof err), -1);
		assert_string_equal(err, rows[i].err);
	}
}

static void
expect_lines(const struct plim_in *in, const char *want)
{
	char err[128], *buf = NULL;
	size_t len = 0;
	struct plim p;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(plim_compute(in, &p, err, sizeof err), 0);
	report_link_path(f, &p);
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
}

/* A UDP sliding window (--sliding-window): N datagrams of l bytes a round
 * trip, the acknowledgements on the reverse path (90 wire bytes each over
 * Ethernet: 24 + 8 + 20 + 18 + 20) and -n's time, at the bound. */
static void
test_udp_window(void **state)
{
	/* eta * C of UDP 1440 over IPv4: 1440 / 1506 */
	const double eta_c = 10e6 * 1440 / 1506;
	struct plim_in in = { .rtt_s = 0.060, .dgrams = 5, .window = 5 * 1440,
	    .msg = 1440, .ack_wire = 90, .count = 180000, .link_bps = 10e6,
	    .expected_bps = eta_c };
	struct plim p;
	char err[100];

	(void)state;
	assert_int_equal(plim_compute(&in, &p, err, sizeof err), 0);
	assert_true(fabs(p.window_bps - 960000) < 1e-6);
	assert_true(p.window_limited && p.bound_bps == p.window_bps);
	assert_true(p.have_acks && fabs(p.acks_per_s - 960000 / 11520.0) < 1e-9);
	assert_true(fabs(p.ack_bps - p.acks_per_s * 720) < 1e-6);
	assert_true(p.have_count && fabs(p.count_s - 180000 * 11520 / 960000.0) < 1e-9);
	expect_lines(&in,
	    "rtt 60 ms: bandwidth-delay product 71713 bytes (eta*C x RTT)\n"
	    "window 5 datagrams x 1440 bytes / rtt 60 ms = 0.9600 MBit/s: "
	    "window-limited, 0.1004 of expected\n"
	    "bound 0.9600 MBit/s (the least of eta*C and window/RTT): the window "
	    "limits\n"
	    "ACKs on the reverse path at the bound: 83.3 a second of 90 wire bytes "
	    "= 0.0600 MBit/s, 0.60% of the link\n"
	    "180000 datagrams of 1440 bytes at the bound: 2160.000 s\n");
	/* 50: the link limits; the ACKs at its rate */
	in.dgrams = 50;
	in.window = 50 * 1440;
	in.count = 0;
	expect_lines(&in,
	    "rtt 60 ms: bandwidth-delay product 71713 bytes (eta*C x RTT)\n"
	    "window 50 datagrams x 1440 bytes / rtt 60 ms = 9.6000 MBit/s: not "
	    "window-limited, 1.0040 x expected\n"
	    "bound 9.5618 MBit/s (the least of eta*C and window/RTT): the link "
	    "(eta*C) limits\n"
	    "ACKs on the reverse path at the bound: 830.0 a second of 90 wire "
	    "bytes = 0.5976 MBit/s, 5.98% of the link\n");
	/* stop-and-wait, no link */
	in = (struct plim_in){ .rtt_s = 0.0833, .dgrams = 1, .window = 1440,
	    .msg = 1440, .ack_wire = 90 };
	expect_lines(&in,
	    "window 1 datagram x 1440 bytes / rtt 83.3 ms = 0.1383 MBit/s\n"
	    "bound 0.1383 MBit/s (window/RTT, no link given): the window limits\n"
	    "ACKs on the reverse path at the bound: 12.0 a second of 90 wire bytes "
	    "= 0.0086 MBit/s\n");
	in.msg = -1;
	assert_int_equal(plim_compute(&in, &p, err, sizeof err), -1);
	assert_string_equal(err, "the message and acknowledgement sizes must be 0 "
	                    "or more");
}

/* TCP: the window holds whole segments of the MSS the kernel chose
 * (TCP_INFO): -w 1 with an MSS of 576 carries 576 bytes a round trip. */
static void
test_whole_segments(void **state)
{
	struct plim_in in = { .rtt_s = 0.060, .window = 1024, .seg_mss = 576,
	    .path_mss = 1448, .expected_bps = 10e6 * 1448 / 1538 };
	struct plim p;
	char err[100];

	(void)state;
	assert_int_equal(plim_compute(&in, &p, err, sizeof err), 0);
	assert_true(p.window == 1024 && p.window_held == 576);
	assert_true(fabs(p.window_bps - 576 * 8 / 0.060) < 1e-6);
	assert_true(p.bound_bps == p.window_bps);
	expect_lines(&in,
	    "rtt 60 ms: bandwidth-delay product 70611 bytes (eta*C x RTT)\n"
	    "window 1024 bytes, 576 in whole segments of MSS 576 (TCP_INFO: the "
	    "kernel chose less than the path's 1448) / rtt 60 ms = 0.0768 MBit/s: "
	    "window-limited, 0.0082 of expected\n"
	    "bound 0.0768 MBit/s (the least of eta*C, window/RTT and the Mathis "
	    "bound)\n");
	/* a whole number of segments: the window as given */
	in.window = 1152;
	assert_int_equal(plim_compute(&in, &p, err, sizeof err), 0);
	assert_true(p.window_held == 1152);
	/* below one segment: its bytes (segments below the MSS) */
	in.window = 500;
	assert_int_equal(plim_compute(&in, &p, err, sizeof err), 0);
	assert_true(p.window_held == 500);
	/* the path's MSS: whole segments without the kernel's remark */
	in = (struct plim_in){ .rtt_s = 0.040, .window = 65536, .seg_mss = 1448,
	    .path_mss = 1448 };
	expect_lines(&in,
	    "window 65536 bytes, 65160 in whole segments of MSS 1448 (TCP_INFO) / "
	    "rtt 40 ms = 13.0320 MBit/s\n"
	    "bound 13.0320 MBit/s (the least of window/RTT and the Mathis bound)\n");
}

static void
test_lines(void **state)
{
	/* eta * C of TCP with timestamps: 1448 / 1538 of the link */
	struct plim_in in = { .rtt_s = 0.040, .window = 65536,
	                      .expected_bps = 100e6 * 1448 / 1538 };

	(void)state;
	expect_lines(&in,
	    "rtt 40 ms: bandwidth-delay product 470741 bytes (eta*C x RTT)\n"
	    "window 65536 bytes / rtt 40 ms = 13.1072 MBit/s: window-limited, "
	    "0.1392 of expected\n"
	    "bound 13.1072 MBit/s (the least of eta*C, window/RTT and the "
	    "Mathis bound)\n");
	in.expected_bps = 10e6 * 1448 / 1538;
	in.loss = 0.01;
	in.mss = 1448;
	in.rtt_s = 0.020;
	expect_lines(&in,
	    "rtt 20 ms: bandwidth-delay product 23537 bytes (eta*C x RTT)\n"
	    "window 65536 bytes / rtt 20 ms = 26.2144 MBit/s: not "
	    "window-limited, 2.7844 x expected\n"
	    "Mathis bound MSS 1448, rtt 20 ms, loss 1%: 7.0937 MBit/s: "
	    "loss-limited, 0.7535 of expected\n"
	    "bound 7.0937 MBit/s (the least of eta*C, window/RTT and the "
	    "Mathis bound)\n");
	in = (struct plim_in){ .rtt_s = 0.0005, .loss = 0.001, .mss = 8948 };
	expect_lines(&in,
	    "Mathis bound MSS 8948, rtt 0.5 ms, loss 0.1%: 5544.8728 MBit/s\n"
	    "bound 5544.8728 MBit/s (the least of window/RTT and the Mathis "
	    "bound)\n");
	in = (struct plim_in){ .rtt_s = 0.1, .expected_bps = 8e6 };
	expect_lines(&in,
	    "rtt 100 ms: bandwidth-delay product 100000 bytes (eta*C x RTT)\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_mathis),
		cmocka_unit_test(test_bdp),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_compute_errors),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_udp_window),
		cmocka_unit_test(test_whole_segments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
