/* unit_pcapedge.c: gput-pcap on odd but legal captures, and on what the
 * fuzzer found: pcapng timestamp units, standard input, TCP sequence
 * wrap-around and reused ports, IPv6 extension headers and fragments,
 * IPv4 fragment trains, the link types without an Ethernet header, and
 * JSON with strings that need escaping. Every number is checked exactly. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capbuild.h"
#include "pcapreport.h"
#include "pcapscan.h"

#define MS 1000000LL  /* ns */

static char dir[256];

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/unit_pcapedge.XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
scan(struct pscan *s, const char *name)
{
	char path[512], err[512] = "";

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pscan_file(s, path, NULL, 1500, err, sizeof(err)) != 0)
		fail_msg("%s: %s", name, err);
}

/* The error after "DIR/NAME: " of a capture that must be refused. */
static void
scan_fails(const char *name, const char *want)
{
	char path[512], full[1024], err[512] = "";
	struct pscan s;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(full, sizeof(full), "%s: %s", path, want);
	assert_int_equal(pscan_file(&s, path, NULL, 1500, err, sizeof(err)),
	                 PSCAN_EBAD);
	assert_string_equal(err, full);
	pscan_free(&s);
}

static void
assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * (fabs(want) > 1 ? fabs(want) : 1))
		fail_msg("got %.12g, want %.12g", got, want);
}

/* ---- timestamps ---- */

/* Fuzzer: a pcapng timestamp in units of seconds (if_tsresol 0) past the
 * year 2262 overflowed the ns arithmetic (signed overflow, then absurd
 * durations). Such a capture is refused with one line. */
static void
test_ts_range(void **state)
{
	struct cap *c = cb_new();
	struct spec d = cb_tcp4(DLT_EN10MB, 1, 100, 0);
	struct pscan s;
	char err[256];
	size_t n;

	(void)state;
	cb_open_ng(c, dir, "ts_range.pcapng", DLT_EN10MB, 65535, 0);
	n = cb_build(c->buf, &d);
	cb_put_units(c, c->buf, (uint32_t)n, (uint32_t)n, (uint64_t)1 << 40);
	cb_close(c);
	free(c);
	scan_fails("ts_range.pcapng", "packet 1: timestamp "
	           "1099511627776.000000000 s is out of range (1970 to 2262)");

	/* pscan_packet() itself refuses a negative time */
	pscan_init(&s, 1500, DLT_EN10MB);
	assert_int_equal(pscan_packet(&s, -1, 20, 20, (const uint8_t *)"x",
	                              err, sizeof(err)), PSCAN_EBAD);
	assert_string_equal(err, "packet 1: timestamp before 1970");
	pscan_free(&s);
}

/* Five 1448-byte TCP segments 1 ms apart, 123 ns after the millisecond,
 * as pcap (ns), pcapng with ns and with us resolution: the ns files keep
 * the 123 ns, the us file loses them; payload, eta, goodput agree. */
static void
test_pcapng_resolution(void **state)
{
	static const struct { const char *name; int ng, tsresol; int64_t off; }
	files[] = {
		{ "res.pcap", 0, 9, 123 },
		{ "res_ns.pcapng", 1, 9, 123 },
		{ "res_us.pcapng", 1, 6, 0 },
	};
	struct spec d = cb_tcp4(DLT_EN10MB, 0, 1448, 12);
	struct pscan s;
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct cap *c = cb_new();

		if (files[i].ng)
			cb_open_ng(c, dir, files[i].name, DLT_EN10MB, 65535,
			           files[i].tsresol);
		else
			cb_open(c, dir, files[i].name, DLT_EN10MB, 65535);
		for (k = 0; k < 5; k++) {
			d.seq = 1000 + (uint32_t)k * 1448;
			cb_put(c, &d, T0 + k * MS + 123);
		}
		cb_close(c);
		free(c);
	}
	for (i = 0; i < 3; i++) {
		print_message("%s\n", files[i].name);
		scan(&s, files[i].name);
		assert_int_equal(s.nflows, 1);
		assert_int_equal(s.flows[0].data->payload, 5 * 1448);
		assert_int_equal(s.flows[0].data->first_ns, T0 + files[i].off);
		assert_int_equal(s.flows[0].data->last_ns,
		                 T0 + 4 * MS + files[i].off);
		assert_near(s.flows[0].eta, 1448.0 / 1538);
		assert_near(s.flows[0].duration_s, 0.004);
		assert_near(s.flows[0].goodput_bps, 4 * 1448 * 8 / 0.004);
		assert_int_equal(s.nwarnings, 0);
		pscan_free(&s);
	}
}

/* '-' reads standard input; an empty one is named as such. */
static void
test_stdin(void **state)
{
	struct spec u = { .dlt = DLT_EN10MB, .proto = 17, .src = "10.0.0.1",
	                  .dst = "10.0.0.2", .sport = 40001, .dport = 5038,
	                  .payload = 1472 };
	struct cap *c = cb_new();
	char path[512], err[256];
	struct pscan s;
	int saved, fd, i, rc;

	(void)state;
	cb_open(c, dir, "stdin.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < 3; i++)
		cb_put(c, &u, T0 + i * FT_10M(1538));
	cb_close(c);
	free(c);
	snprintf(path, sizeof(path), "%s/stdin.pcap", dir);
	assert_true((saved = dup(0)) >= 0);
	assert_true((fd = open(path, O_RDONLY)) >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	clearerr(stdin);
	rc = pscan_file(&s, "-", NULL, 1500, err, sizeof(err));
	assert_true((fd = open("/dev/null", O_RDONLY)) >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	assert_int_equal(rc, 0);
	assert_int_equal(s.packets, 3);
	assert_int_equal(s.flows[0].data->payload, 3 * 1472);
	assert_near(s.flows[0].goodput_bps, 1472 * 8 / (1538 * 800e-9));
	pscan_free(&s);
	clearerr(stdin);
	assert_int_equal(pscan_file(&s, "-", NULL, 1500, err, sizeof(err)),
	                 PSCAN_EBAD);
	assert_string_equal(err, "-: standard input is empty, not a capture");
	pscan_free(&s);
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
	clearerr(stdin);
}

/* ---- link types ---- */

/* An ARP frame (IEEE 802.3 type 0x0806) of 60 bytes cut to a snaplen of
 * 54, and a bare TCP ACK of 54 bytes, uncut: the warning about frames cut
 * short counted the ARP frame, whose size nothing is taken from. */
static void
test_cut_other(void **state)
{
	struct spec a = cb_tcp4(DLT_EN10MB, 1, 0, 0);
	uint8_t arp[60] = { 0 };
	struct cap *c = cb_new();
	struct pscan s;

	(void)state;
	cb_put16(arp + 12, 0x0806);
	cb_open(c, dir, "cut_other.pcap", DLT_EN10MB, 54);
	cb_put_raw(c, arp, sizeof(arp), sizeof(arp), T0);
	cb_put(c, &a, T0 + MS);
	cb_close(c);
	free(c);
	scan(&s, "cut_other.pcap");
	assert_int_equal(s.packets, 2);
	assert_int_equal(s.other, 1);
	assert_int_equal(s.cut, 0);
	assert_int_equal(s.nflows, 1);
	assert_int_equal(s.nwarnings, 0);
	pscan_free(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ts_range),
		cmocka_unit_test(test_pcapng_resolution),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_cut_other),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
