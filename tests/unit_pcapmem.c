/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_pcapmem.c: gput-pcap's memory is bounded. Pending IP fragments are
 * given up at the reassembly timeout (30 s), flows that ended (FIN each
 * way, or RST) are closed 60 s after their last packet and idle ones after
 * 600 s, each with exact counts; captures of many fragments and many flows
 * are scanned in a child process whose VmHWM is measured; --max-memory
 * stops a scan with one line. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capbuild.h"
#include "pcap_scan.h"

#define MS 1000000LL   /* ns */
#define S  1000000000LL

static char dir[256];

static int
setup(void **state)
{
	(void)state;
	return cb_tmpdir(dir, sizeof(dir), "unit_pcapmem");
}

static int
teardown(void **state)
{
	(void)state;
	return cb_rmdir(dir);
}

static void
path_of(const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
}

static void
scan(struct pscan *s, const char *name)
{
	cb_scan(s, dir, name, NULL);
}

/* A number from /proc/self/status ("VmHWM:", "VmRSS:"), kB. */
static long
status_kb(const char *field)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, field, strlen(field)) == 0)
			v = strtol(line + strlen(field), NULL, 10);
	fclose(f);
	return v;
}

/* What a scan in a child process did. */
struct child {
	int      rc;
	long     hwm_kb, rss0_kb;     /* VmHWM at the end, VmRSS at the start */
	uint64_t mem_peak, frags_expired, flows_closed, orphan_frags;
	size_t   nflows, nfrags;
	char     err[400];
};

/* Scan name with max_memory in a child, so that its VmHWM is the scan's. */
static void
scan_child(const char *name, uint64_t max_memory, struct child *out)
{
	char path[512];
	int fd[2], st;
	pid_t pid;

	path_of(name, path, sizeof(path));
	assert_int_equal(pipe(fd), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct child c = { 0 };
		struct pscan s;

		close(fd[0]);
		c.rss0_kb = status_kb("VmRSS:");
		c.rc = pscan_file_mem(&s, path, NULL, 1500, max_memory, c.err,
		                      sizeof(c.err));
		c.hwm_kb = status_kb("VmHWM:");
		c.mem_peak = s.table.mem_peak;
		c.frags_expired = s.table.frags_expired;
		c.flows_closed = s.table.flows_closed;
		c.orphan_frags = s.orphans.fragments;
		c.nflows = s.table.nflows;
		c.nfrags = s.table.nfrags;
		(void)!write(fd[1], &c, sizeof(c));
		_exit(0);
	}
	close(fd[1]);
	assert_int_equal(read(fd[0], out, sizeof(*out)), (ssize_t)sizeof(*out));
	close(fd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* The child's VmHWM grew by less than kb. Not under the sanitizers
 * (make check-asan sets GPUT_SANITIZED): their shadow memory and
 * quarantine are not the scan's; the table's own count (mem_peak) is
 * checked either way. */
static void
hwm_below(const struct child *ch, long kb)
{
	if (getenv("GPUT_SANITIZED") != NULL) {
		print_message("VmHWM not checked under the sanitizers\n");
		return;
	}
	assert_true(ch->hwm_kb - ch->rss0_kb < kb);
}

/* A first fragment of a UDP datagram from src with identification id. */
static struct spec
first_frag(const char *src, uint16_t id)
{
	struct spec u = { .dlt = DLT_EN10MB, .proto = 17, .src = src,
	                  .dst = "10.0.0.2", .sport = 40001, .dport = 5038,
	                  .frag = 1, .udp_len = 2960, .id = id, .mf = 1,
	                  .frag_bytes = 1480 };

	return u;
}

/* The reassembly timeout: a datagram whose last fragment comes 29 s after
 * its first is whole; one whose last comes 31 s after is lost (both its
 * fragments orphans, one given up at the timeout). */
static void
test_frag_timeout(void **state)
{
	struct cap *c = cb_new();
	struct spec u = first_frag("10.0.0.1", 7);
	struct pscan s;

	(void)state;
	cb_open(c, dir, "frag_timeout.pcap", DLT_EN10MB, 65535);
	cb_put(c, &u, T0);
	u.frag_off8 = 185, u.mf = 0;
	cb_put(c, &u, T0 + 29 * S);             /* whole */
	u.id = 8, u.frag_off8 = 0, u.mf = 1;
	cb_put(c, &u, T0 + 30 * S);
	u.frag_off8 = 185, u.mf = 0;
	cb_put(c, &u, T0 + 61 * S);             /* 31 s: too late */
	cb_close(c);
	free(c);
	scan(&s, "frag_timeout.pcap");
	assert_int_equal(s.nflows, 1);
	assert_int_equal(s.flows[0].data->packets, 2);
	assert_int_equal(s.flows[0].data->payload, 2952);
	assert_int_equal(s.orphans.packets, 2);
	assert_int_equal(s.orphans.fragments, 2);
	assert_int_equal(s.table.frags_expired, 1);
	assert_int_equal(s.table.nfrags, 1);    /* the late last one waits */
	pscan_free(&s);
}

/* A flow that ended (FIN each way) and a flow reset: packets on the same
 * ports 59 s later belong to it, 61 s later begin a new flow. A flow idle
 * for more than 600 s is closed too. */
static void
test_flow_close(void **state)
{
	struct cap *c = cb_new();
	struct spec d = cb_tcp4(DLT_EN10MB, 1000, 100, 0), a;
	struct pscan s;
	int64_t t = T0;

	(void)state;
	cb_open(c, dir, "flow_close.pcap", DLT_EN10MB, 65535);
	d.flags = 0x01;                         /* data and FIN */
	cb_put(c, &d, t);
	a = cb_ack_of(&d);
	a.flags = 0x01;
	cb_put(c, &a, t += MS);
	d.seq = 2000, d.flags = 0;
	cb_put(c, &d, t += 59 * S);             /* the same flow: 2 data */
	d.seq = 3000;
	cb_put(c, &d, t += 61 * S);             /* a new flow */
	d.sport = 40001, d.seq = 1000;
	cb_put(c, &d, t += MS);                 /* another, then reset */
	a = cb_ack_of(&d);
	a.flags = 0x04;
	a.payload = 0;
	cb_put(c, &a, t += MS);
	d.seq = 1100;
	cb_put(c, &d, t += 61 * S);             /* new again */
	d.sport = 40002;
	cb_put(c, &d, t += MS);                 /* idle for 601 s: new */
	d.seq = 1200;
	cb_put(c, &d, t += 601 * S);
	cb_close(c);
	free(c);
	scan(&s, "flow_close.pcap");
	assert_int_equal(s.nflows, 6);
	/* closed: the first, the reset one, and at the end the three idle
	 * for 601 s (the last packet's own flow among them) */
	assert_int_equal(s.table.flows_closed, 5);
	/* the first flow holds its three data segments and both FINs; no
	 * byte of another's counts as retransmitted */
	assert_int_equal(s.table.flows[0].dir[0].packets, 2);
	assert_int_equal(s.table.flows[0].dir[0].payload, 200);
	assert_int_equal(s.table.flows[0].dir[1].packets, 1);
	assert_int_equal(s.table.flows[1].dir[0].payload, 100);
	assert_int_equal(s.table.flows[1].dir[0].retrans, 0);
	assert_int_equal(s.table.flows[0].dir[0].holes_dropped, 900);
	/* one warning says so: three flows reopened a closed one's ports */
	assert_int_equal(s.nwarnings, 2);  /* and the first's missing bytes */
	assert_string_equal(s.warnings[0], "flows that began on the addresses "
	                    "and ports of a flow closed before them (it ended and "
	                    "was quiet for 60 s, or was quiet for 600 s), each "
	                    "reported on its own: 3");
	pscan_free(&s);
}

/* 300,000 first fragments that never complete, one a millisecond (300 s
 * of capture, 10.0.X.1 with identifications 0..65535): at most 30 s of
 * them pending at once. */
static void
write_frags(void)
{
	struct cap *c = cb_new();
	char src[32];
	uint32_t i;

	cb_open(c, dir, "many_frags.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < 300000; i++) {
		struct spec u;

		snprintf(src, sizeof(src), "10.0.%u.1", i >> 16);
		u = first_frag(src, (uint16_t)i);
		u.frag_bytes = 8;
		cb_put(c, &u, T0 + (int64_t)i * MS);
	}
	cb_close(c);
	free(c);
}

static void
test_many_frags(void **state)
{
	struct child ch;
	char want[600];
	unsigned long pkt = 0, pending = 0;
	int end = 0;

	(void)state;
	write_frags();
	scan_child("many_frags.pcap", PFLOW_MAX_MEMORY_DEFAULT, &ch);
	print_message("300000 fragments: rc %d, VmHWM %ld kB (RSS at start %ld "
	              "kB), table peak %llu bytes, %zu pending at the end\n",
	              ch.rc, ch.hwm_kb, ch.rss0_kb,
	              (unsigned long long)ch.mem_peak, ch.nfrags);
	assert_int_equal(ch.rc, 0);
	assert_int_equal(ch.orphan_frags, 300000);
	assert_int_equal(ch.frags_expired + ch.nfrags, 300000);
	assert_true(ch.nfrags <= 31001);
	/* 31,001 pending at most, in arrays that double: under 32 MB, where
	 * keeping all 300,000 took over 100 MB */
	assert_true(ch.mem_peak < 32u << 20);
	hwm_below(&ch, 48 * 1024);

	/* --max-memory 4M: one line, when the 4 MiB are reached */
	scan_child("many_frags.pcap", 4u << 20, &ch);
	assert_int_equal(ch.rc, PSCAN_EBAD);
	print_message("%s\n", ch.err);
	/* where it stops depends on the size of an entry: the packet that
	 * found no room, after one pending datagram for each before it */
	path_of("many_frags.pcap", want, sizeof(want));
	strcat(want, ": packet ");
	assert_int_equal(strncmp(ch.err, want, strlen(want)), 0);
	assert_int_equal(sscanf(ch.err + strlen(want), "%lu: --max-memory "
	                 "4194304 bytes (4 MiB) reached with 0 flows (0 closed) "
	                 "and %lu fragmented datagrams pending: raise it, or "
	                 "filter the capture%n", &pkt, &pending, &end), 2);
	assert_int_equal((size_t)end, strlen(ch.err + strlen(want)));
	assert_int_equal(pkt, pending + 1);
	assert_true(pending > 1000 && pending < 65536);
	assert_null(strchr(ch.err, '\n'));
}

/* 10,000 gput UDP flows of one datagram each, 200 ms apart (2000 s of
 * capture): each holds a window of sequence numbers (8 KiB) until it is
 * closed, 600 s after its datagram; at most 3,001 are open at once. */
static void
write_flows(void)
{
	struct cap *c = cb_new();
	uint8_t h[CB_GPUD_LEN];
	uint32_t i;

	cb_open(c, dir, "many_flows.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < 10000; i++) {
		struct spec u = cb_gput4(DLT_EN10MB, 100, h);

		cb_gpud(h, 1, 0, 0);
		u.sport = (uint16_t)(1024 + i);
		cb_put(c, &u, T0 + (int64_t)i * 200 * MS);
	}
	cb_close(c);
	free(c);
}

static void
test_many_flows(void **state)
{
	struct child ch;

	(void)state;
	write_flows();
	scan_child("many_flows.pcap", PFLOW_MAX_MEMORY_DEFAULT, &ch);
	print_message("10000 gput flows: rc %d, VmHWM %ld kB (RSS at start %ld "
	              "kB), table peak %llu bytes, %llu closed\n", ch.rc,
	              ch.hwm_kb, ch.rss0_kb, (unsigned long long)ch.mem_peak,
	              (unsigned long long)ch.flows_closed);
	assert_int_equal(ch.rc, 0);
	assert_int_equal(ch.nflows, 10000);
	assert_int_equal(ch.flows_closed, 10000 - 3001);
	/* 3,001 windows of 8 KiB and 10,000 flows' counts: under 48 MB,
	 * where keeping every window took over 90 MB */
	assert_true(ch.mem_peak < 48u << 20);
	hwm_below(&ch, 64 * 1024);
}

/* 20,000 TCP flows over IPv6 whose keys all hash to 0 modulo 2^16 under
 * the unseeded FNV-1a the flow table used: FNV's low 16 bits depend only
 * on the low 16 bits of its state, so for each value v of the source
 * address's bytes 12-13 a source port is solved for (its first byte
 * tried, its second then fixed). Every insertion probed every flow before
 * it (quadratic); with a keyed hash they spread. */
static void
write_collide(void)
{
	const uint32_t P = 16777619u;
	uint8_t k[40] = { 6, 6 };
	struct cap *c = cb_new();
	struct spec d = cb_tcp4(DLT_EN10MB, 1, 10, 0);
	char src[64];
	uint32_t h32 = 2166136261u, v, n = 0;
	int i;

	/* k[2..19] the lower endpoint (fd00::1 port 5038), k[20..35] the
	 * source address fd00::V:2, k[36..37] its port, k[38..39] zero */
	k[2] = 0xfd, k[17] = 1, k[18] = 5038 >> 8, k[19] = 5038 & 0xff;
	k[20] = 0xfd;
	for (i = 0; i < 32; i++)
		h32 = (h32 ^ k[i]) * P;
	d.v6 = 1;
	d.dst = "fd00::1";
	d.dport = 5038;
	cb_open(c, dir, "collide.pcap", DLT_EN10MB, 65535);
	for (v = 0; v < 65536 && n < 20000; v++) {
		uint32_t st = h32, b1;

		st = (st ^ (v >> 8)) * P;
		st = (st ^ (v & 0xff)) * P;
		st = (st ^ 0) * P;
		st = (st ^ 2) * P;
		for (b1 = 0; b1 < 256; b1++) {
			uint32_t x = ((st ^ b1) * P) & 0xffff;

			if ((x & 0xff00) != 0)
				continue;
			snprintf(src, sizeof(src), "fd00::%x:2", v);
			d.src = src;
			d.sport = (uint16_t)(b1 << 8 | (x & 0xff));
			cb_put(c, &d, T0 + (int64_t)n * 1000);
			n++;
			break;
		}
	}
	cb_close(c);
	free(c);
	assert_int_equal(n, 20000);
}

static void
test_collide(void **state)
{
	struct pscan s;

	(void)state;
	write_collide();
	scan(&s, "collide.pcap");
	print_message("20000 crafted flows: %llu lookups, %llu probes\n",
	              (unsigned long long)s.table.lookups,
	              (unsigned long long)s.table.probes);
	assert_int_equal(s.nflows, 20000);
	/* linear probing at most half full: about 1.5 probes a lookup; FNV
	 * made it about 10,000 */
	assert_true(s.table.probes < 4 * s.table.lookups);
	pscan_free(&s);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frag_timeout),
		cmocka_unit_test(test_flow_close),
		cmocka_unit_test(test_many_frags),
		cmocka_unit_test(test_many_flows),
		cmocka_unit_test(test_collide),
	};

	/* --captures DIR: the two large captures, for measuring by hand */
	if (argc == 3 && strcmp(argv[1], "--captures") == 0) {
		snprintf(dir, sizeof(dir), "%s", argv[2]);
		write_frags();
		write_flows();
		write_collide();
		return 0;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
