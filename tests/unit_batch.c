/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_batch.c: the batched data paths (--batch, --gso, --discard): how a
 * GRO message is cut into datagrams, how a batch keeps to the pacing
 * schedule, and each path run for real over loopback with exact counts,
 * the GSO fallback included. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pattern.h"
#include "wire_udp.h"
#include "xfer.h"
#include "xfer_markers.h"
#include "xfer_batch.h"
#include "streamrun.h"
#include "sockhelp.h"
#include "params.h"

/* A stream of the fixture (params.h). */
#define stream_of(len, bytes) test_params(PROTO_UDP, ROLE_SEND, (len), (bytes))

#ifndef UDP_GRO
#define UDP_GRO 104             /* linux/udp.h */
#endif

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

/* ---- arithmetic ---------------------------------------------------- */

static void
test_gro_segs(void **state)
{
	static const struct { size_t n; uint32_t gso, segs; size_t last; } rows[] = {
		{ 1472, 0, 1, 1472 },           /* not coalesced: one datagram */
		{ 0, 0, 1, 0 },
		{ 1472, 1472, 1, 1472 },        /* one of gso bytes */
		{ 100, 1472, 1, 100 },
		{ 1472 * 10, 1472, 10, 1472 },  /* whole segments */
		{ 1472 * 9 + 100, 1472, 10, 100 },  /* a short last one */
		{ 1472 * 9 + 1, 1472, 10, 1 },
		{ 1472 * 44, 1472, 44, 1472 },
		{ 65535, 1472, 45, 65535 - 44 * 1472 },
		{ 64 * 1000, 1000, 64, 1000 },
		{ 2, 1, 2, 1 },
	};
	size_t i, last;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		uint32_t k = xfer_gro_segs(rows[i].n, rows[i].gso, &last);

		if (k != rows[i].segs || last != rows[i].last)
			MISS("%zu bytes of %u: %u segments, last %zu; want %u, %zu",
			     rows[i].n, rows[i].gso, k, last, rows[i].segs, rows[i].last);
	}
	MISSED();
}

/* A GRO message as the kernel hands it over: k datagrams back to back,
 * each with its own header, the last one shorter; cut apart, every
 * datagram is whole and in order. */
static void
test_gro_split_headers(void **state)
{
	const uint32_t gso = 200, k = 7, lastlen = 50;
	uint8_t buf[7 * 200];
	size_t n = (size_t)(k - 1) * gso + lastlen, last, off = 0;
	uint32_t segs, j;

	(void)state;
	memset(buf, 0xaa, sizeof buf);
	for (j = 0; j < k; j++)
		wire_gpud_encode(buf + (size_t)j * gso, 1000 + j, 7 * j);
	segs = xfer_gro_segs(n, gso, &last);
	assert_int_equal(segs, k);
	assert_int_equal(last, lastlen);
	for (j = 0; j < segs; j++) {
		size_t len = j + 1 < segs ? gso : last;
		uint64_t seq, send;

		assert_true(wire_gpud_data(buf + off, len, &seq, &send));
		assert_int_equal(seq, 1000 + j);
		assert_int_equal(send, 7 * j);
		off += len;
	}
	assert_int_equal(off, n);
}

static void
test_gso_segs(void **state)
{
	static const struct { uint32_t len; uint8_t gso; uint32_t segs; } rows[] = {
		{ 1472, 1, 44 },                /* 44 * 1472 = 64768 */
		{ 1000, 1, 64 },                /* the kernel's most */
		{ 24, 1, 64 },
		{ 32753, 1, 2 },
		{ 32754, 1, 1 },                /* two would pass 64 KiB */
		{ 65507, 1, 1 },
		{ 1472, 0, 1 },                 /* GSO off */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(rows[i].len, 1000000);
		uint32_t k;

		p.gso = rows[i].gso;
		k = xfer_gso_segs(&p);
		if (k != rows[i].segs)
			MISS("-l %u gso %u: %u segments, want %u", rows[i].len,
			     rows[i].gso, k, rows[i].segs);
	}
	MISSED();
}

static void
test_batch_take(void **state)
{
	static const struct { uint64_t gap_ps; uint32_t burst; uint64_t i, left, cap,
	    take; } rows[] = {
		{ 0, 0, 0, 1000, 64, 64 },              /* unpaced: as many as fit */
		{ 0, 0, 990, 10, 64, 10 },              /* ... or are left */
		{ 0, 0, 5, 1000, 1, 1 },
		{ 1000000, 0, 0, 1000, 64, 1 },         /* paced, one per gap */
		{ 1000000, 1, 17, 1000, 64, 1 },
		{ 1000000, 10, 0, 1000, 64, 10 },       /* a burst at a time */
		{ 1000000, 10, 7, 1000, 64, 3 },        /* the rest of one */
		{ 1000000, 10, 10, 1000, 4, 4 },        /* the cap first */
		{ 1000000, 10, 18, 1000, 4, 2 },
		{ 1000000, 10, 0, 6, 64, 6 },           /* the end first */
		{ 1000000, 100, 0, 1000, 64, 64 },      /* bursts over the cap */
		{ 1000000, 100, 64, 1000, 64, 36 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(1000, 1000000);
		uint64_t t;

		p.data_gap_ps = rows[i].gap_ps;
		p.data_burst = rows[i].burst;
		t = xfer_batch_take(&p, rows[i].i, rows[i].left, rows[i].cap);
		if (t != rows[i].take)
			MISS("row %zu: takes %llu, want %llu", i, (unsigned long long)t,
			     (unsigned long long)rows[i].take);
	}
	MISSED();
}

/* Walk a whole schedule as the sender does: every batch holds datagrams
 * that are all due at the time of its first (none early), it is as large
 * as cap and the schedule allow, and the batches cover every datagram
 * once. */
static void
test_batch_schedule(void **state)
{
	static const uint32_t bursts[] = { 0, 1, 3, 10, 64, 100 };
	static const uint64_t caps[] = { 1, 4, 44, 64, 128 * 44 };
	static const uint64_t gaps[] = { 0, 1234567, 1000000000 };
	size_t b, c, g;

	(void)state;
	for (g = 0; g < 3; g++)
	for (b = 0; b < sizeof bursts / sizeof bursts[0]; b++)
	for (c = 0; c < sizeof caps / sizeof caps[0]; c++) {
		struct xfer_params p = stream_of(1472, 1472ULL * 997);
		uint64_t n = xfer_data_calls(&p), i = 0, calls = 0;

		p.data_gap_ps = gaps[g];
		p.data_burst = bursts[b];
		while (i < n) {
			uint64_t t = xfer_batch_take(&p, i, n - i, caps[c]), k;

			if (t == 0 || t > caps[c] || t > n - i) {
				MISS("gap %llu burst %u cap %llu: takes %llu at %llu",
				     (unsigned long long)gaps[g], bursts[b],
				     (unsigned long long)caps[c], (unsigned long long)t,
				     (unsigned long long)i);
				break;
			}
			for (k = i + 1; k < i + t; k++)
				if (xfer_due_ns(&p, k) != xfer_due_ns(&p, i))
					MISS("gap %llu burst %u cap %llu: datagram %llu sent "
					     "early", (unsigned long long)gaps[g], bursts[b],
					     (unsigned long long)caps[c], (unsigned long long)k);
			/* as large as allowed: the next one is due later, or no room */
			if (t < caps[c] && i + t < n &&
			    xfer_due_ns(&p, i + t) == xfer_due_ns(&p, i))
				MISS("gap %llu burst %u cap %llu: batch at %llu stops short",
				     (unsigned long long)gaps[g], bursts[b],
				     (unsigned long long)caps[c], (unsigned long long)i);
			i += t;
			calls++;
		}
		if (gaps[g] == 0 && calls != (n + caps[c] - 1) / caps[c])
			MISS("unpaced cap %llu: %llu calls", (unsigned long long)caps[c],
			     (unsigned long long)calls);
	}
	MISSED();
}

static void
test_per_call_max(void **state)
{
	struct xfer_params p = stream_of(1472, 1472000);

	(void)state;
	assert_int_equal(xfer_dgrams_per_call_max(&p), 1);
	p.batch = 1;
	assert_int_equal(xfer_dgrams_per_call_max(&p), 1);
	p.batch = 64;
	assert_int_equal(xfer_dgrams_per_call_max(&p), 64);
	/* GRO: a message of XFER_GRO_BUF bytes may hold as many datagrams
	 * (of 1 byte; the kernel coalesces what arrives, not what -l says) */
	p.gso = 1;
	assert_int_equal(xfer_dgrams_per_call_max(&p), 64 * 65536);
	assert_int_equal(XFER_GRO_BUF, 65536);
	p.batch = 0;
	assert_int_equal(xfer_dgrams_per_call_max(&p), 65536);
	p.role = ROLE_RECV;
	p.batch = 128;
	assert_int_equal(xfer_rx_vlen(&p), XFER_GRO_VLEN_MAX);
	assert_int_equal(xfer_rx_bytes(&p), (uint64_t)XFER_GRO_VLEN_MAX * XFER_GRO_BUF);
	p.gso = 0;
	assert_int_equal(xfer_rx_vlen(&p), 128);
	assert_int_equal(xfer_rx_bytes(&p), 128 * 1472);
	p.discard = 1;
	assert_int_equal(xfer_rx_bytes(&p), 128 * XFER_DISCARD_READ);
	p.gso = 1;                              /* --discard reads one by one */
	assert_int_equal(xfer_rx_vlen(&p), 128);
}

/* ---- data paths over loopback ------------------------------------- */

struct end {
	struct xfer_params p;
	struct gput_result r;
	int rc;
	char err[256];
};

/* The sender runs to the end first (the receive buffer holds it all), then
 * the receiver drains the queue: every count is exact. GRO is turned on
 * before the sender starts, so that the kernel keeps GSO messages whole. */
static void
test_batch_transfer(void **state)
{
	static const struct { const char *name; uint32_t len; uint64_t bytes;
	    uint8_t sbatch, sgso, rbatch, rgso, discard, verify, stream, nocheck;
	    uint64_t scalls, rcalls_max; } rows[] = {
		/* scalls: the sender's calls with its 3 markers */
		{ "--batch 16 both", 1000, 100000, 16, 0, 16, 0, 0, 1, 0, 0, 7 + 3, 100 },
		{ "--batch 16, -x", 1000, 99950, 16, 0, 16, 0, 0, 1, 0, 0, 7 + 3, 100 },
		{ "--batch 16, -s", 1000, 100000, 16, 0, 16, 0, 0, 1, 1, 0, 7 + 3, 100 },
		{ "--batch 128 send only", 1472, 1472 * 300, 128, 0, 0, 0, 0, 1, 0, 0,
		  3 + 3, 300 },
		{ "--batch 7 receive only", 1472, 1472 * 300, 0, 0, 7, 0, 0, 1, 0, 0,
		  300 + 3, 300 },
		{ "--gso both", 1000, 200000, 0, 1, 0, 1, 0, 1, 0, 0, 4 + 3, 199 },
		{ "--gso both, -x", 1000, 199999, 0, 1, 0, 1, 0, 1, 0, 0, 4 + 3, 199 },
		{ "--gso --batch 4 both", 1472, 1472 * 1000, 4, 1, 4, 1, 0, 1, 0, 0,
		  6 + 3, 999 },
		{ "--gso send, plain receive", 1472, 1472 * 100, 0, 1, 0, 0, 0, 1, 0, 0,
		  3 + 3, 100 },
		{ "no header, --gso --batch 2", 16, 16 * 500, 2, 1, 2, 1, 0, 1, 0, 0,
		  4 + 3, 499 },
		{ "--discard --batch 32", 1472, 1472 * 200, 32, 0, 32, 0, 1, 0, 0, 0,
		  7 + 3, 200 },
		{ "--discard, plain", 1472, 1472 * 200 + 99, 0, 0, 0, 0, 1, 0, 0, 0,
		  201 + 3, 201 },
		{ "--discard --gso: one by one", 1472, 1472 * 200, 0, 1, 0, 1, 1, 0, 0, 0,
		  5 + 3, 200 },
		/* SO_NO_CHECK: the kernel refuses UDP_SEGMENT at the first send;
		 * the rest goes a datagram at a time */
		{ "GSO refused: fallback", 1472, 1472 * 100, 0, 1, 0, 0, 0, 1, 0, 1,
		  100 + 3, 100 },
		{ "GSO refused, --batch 8", 1472, 1472 * 100, 8, 1, 8, 0, 0, 1, 0, 1,
		  13 + 3, 100 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct end snd, rcv;
		uint64_t n = (rows[i].bytes + rows[i].len - 1) / rows[i].len;
		int sv[2], one = 1;

		sock_udp_pair(sv, 16 << 20);
		memset(&snd, 0, sizeof snd);
		snd.p = stream_of(rows[i].len, rows[i].bytes);
		snd.p.pattern_spans = rows[i].stream;
		snd.p.seed = pattern_seed(rows[i].name);
		rcv = snd;
		snd.p.batch = rows[i].sbatch;
		snd.p.gso = rows[i].sgso;
		rcv.p.role = ROLE_RECV;
		rcv.p.batch = rows[i].rbatch;
		rcv.p.gso = rows[i].rgso;
		rcv.p.discard = rows[i].discard;
		rcv.p.verify = rows[i].verify;
		if (rows[i].nocheck)
			assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_NO_CHECK, &one,
			                 sizeof one), 0);
		assert_int_equal(xfer_udp_prepare(sv[1], rcv.err, sizeof rcv.err), 0);
		if (rows[i].rgso && !rows[i].discard)
			assert_int_equal(xfer_gro_enable(sv[1]), 0);
		snd.rc = t_run(rows[i].sbatch > 1 || rows[i].sgso ? xfer_udp_send_batch :
		    xfer_udp_send, sv[0], &snd.p, &snd.r, snd.err, sizeof snd.err);
		rcv.rc = t_run(rows[i].rbatch > 1 || rows[i].rgso ? xfer_udp_recv_batch :
		    xfer_udp_recv, sv[1], &rcv.p, &rcv.r, rcv.err, sizeof rcv.err);
		close(sv[0]);
		close(sv[1]);
		if (snd.rc != 0 || rcv.rc != 0) {
			MISS("%s: send '%s', recv '%s'", rows[i].name, snd.err, rcv.err);
			continue;
		}
		if (snd.r.dgrams != n || snd.r.calls != rows[i].scalls ||
		    snd.r.bytes != rows[i].bytes)
			MISS("%s: sender %llu dgrams %llu calls %llu bytes", rows[i].name,
			     (unsigned long long)snd.r.dgrams, (unsigned long long)snd.r.calls,
			     (unsigned long long)snd.r.bytes);
		if (rcv.r.dgrams != n || rcv.r.bytes != rows[i].bytes ||
		    rcv.r.calls == 0 || rcv.r.calls > rows[i].rcalls_max)
			MISS("%s: receiver %llu dgrams %llu calls %llu bytes", rows[i].name,
			     (unsigned long long)rcv.r.dgrams, (unsigned long long)rcv.r.calls,
			     (unsigned long long)rcv.r.bytes);
		if (rcv.r.sock_drops != 0 || rcv.r.verify_bad != 0 ||
		    !(rcv.r.flags & RES_VERIFIED) != !rows[i].verify)
			MISS("%s: receiver flags 0x%x, %llu dropped, %llu bytes differ",
			     rows[i].name, rcv.r.flags, (unsigned long long)rcv.r.sock_drops,
			     (unsigned long long)rcv.r.verify_bad);
	}
	MISSED();
}

/* A batch that holds a datagram twice and leaves one out: the accounting
 * is per datagram, whatever the call that brought it. */
static void
test_batch_dups_loss(void **state)
{
	struct xfer_params p = stream_of(500, 500 * 10);
	struct udp_stats us;
	struct end rcv;
	uint8_t d[10][500], mk[MARKER_MAX_LEN];
	static const uint64_t order[] = { 0, 1, 2, 2, 4, 3, 5, 6, 8, 9 };  /* 7 lost */
	int sv[2];
	size_t k;

	(void)state;
	sock_udp_pair(sv, 16 << 20);
	for (k = 0; k < 10; k++) {
		memset(d[k], 0x5a, sizeof d[k]);
		wire_gpud_encode(d[k], order[k], 0);
		assert_int_equal(send(sv[0], d[k], sizeof d[k], 0), (ssize_t)sizeof d[k]);
	}
	for (k = 1; k <= MARKER_COUNT; k++) {
		size_t m = xfer_marker_encode(&p, mk, (uint8_t)k, 10, 5000);

		assert_int_equal(send(sv[0], mk, m, 0), (ssize_t)m);
	}
	memset(&rcv, 0, sizeof rcv);
	memset(&us, 0, sizeof us);
	rcv.p = p;
	rcv.p.role = ROLE_RECV;
	rcv.p.batch = 16;
	t_set_out(&us, -1);
	rcv.rc = t_run(xfer_udp_recv_batch, sv[1], &rcv.p, &rcv.r, rcv.err,
	    sizeof rcv.err);
	t_set_out(NULL, -1);
	close(sv[0]);
	close(sv[1]);
	assert_int_equal(rcv.rc, 0);
	assert_int_equal(rcv.r.dgrams, 9);
	assert_int_equal(rcv.r.bytes, 4500);
	assert_int_equal(rcv.r.dgrams_sent, 10);
	assert_true(rcv.r.calls >= 1 && rcv.r.calls <= 10);
	assert_int_equal(us.received, 10);
	assert_int_equal(us.unique, 9);
	assert_int_equal(us.duplicates, 1);
	assert_int_equal(us.reordered, 1);
	assert_true(rcv.r.flags & RES_MARKER);
}

/* TCP --discard: the same bytes, counted by the kernel, none copied. */
struct tcp_end { struct end e; int fd; };

static void *
tcp_sender(void *arg)
{
	struct tcp_end *s = arg;

	s->e.rc = t_run(xfer_tcp_send, s->fd, &s->e.p, &s->e.r, s->e.err,
	    sizeof s->e.err);
	return NULL;
}

static void
test_tcp_discard(void **state)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof a;
	struct tcp_end snd;
	struct end rcv;
	pthread_t th;
	int l, fd;

	(void)state;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(l >= 0);
	assert_int_equal(bind(l, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(l, 1), 0);
	assert_int_equal(getsockname(l, (struct sockaddr *)&a, &al), 0);
	memset(&snd, 0, sizeof snd);
	snd.fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_int_equal(connect(snd.fd, (struct sockaddr *)&a, sizeof a), 0);
	fd = accept(l, NULL, NULL);
	assert_true(fd >= 0);
	close(l);
	snd.e.p = stream_of(131072, 131072ULL * 64 + 5);
	snd.e.p.proto = PROTO_TCP;
	memset(&rcv, 0, sizeof rcv);
	rcv.p = snd.e.p;
	rcv.p.role = ROLE_RECV;
	rcv.p.discard = 1;
	assert_int_equal(pthread_create(&th, NULL, tcp_sender, &snd), 0);
	rcv.rc = t_run(xfer_tcp_recv, fd, &rcv.p, &rcv.r, rcv.err, sizeof rcv.err);
	pthread_join(th, NULL);
	close(fd);
	close(snd.fd);
	assert_int_equal(snd.e.rc, 0);
	if (rcv.rc != 0)
		fail_msg("receiver: %s", rcv.err);
	assert_int_equal(rcv.r.bytes, 131072ULL * 64 + 5);
	assert_int_equal(snd.e.r.bytes, rcv.r.bytes);
	assert_true(rcv.r.calls >= 65);
}

/* A receiving socket opened for --gso has GRO on before any datagram can
 * arrive (xfer_udp_prepare_rx, called where the sides open their data
 * sockets, before START): a whole run queued before the data path starts
 * is still read in coalesced messages. Without --gso, or with --discard
 * (which reads headers one by one), GRO stays off. */
static void
test_prepare_rx(void **state)
{
	static const struct { uint8_t gso, discard; int gro; } rows[] = {
		{ 0, 0, 0 }, { 1, 0, 1 }, { 1, 1, 0 }, { 0, 1, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(1472, 1472 * 10);
		char err[256];
		int sv[2], v = -1;
		socklen_t len = sizeof v;

		sock_udp_pair(sv, 16 << 20);
		p.role = ROLE_RECV;
		p.gso = rows[i].gso;
		p.discard = rows[i].discard;
		assert_int_equal(xfer_udp_prepare_rx(sv[1], &p, err, sizeof err), 0);
		assert_int_equal(getsockopt(sv[1], IPPROTO_UDP, UDP_GRO, &v, &len), 0);
		if ((v != 0) != rows[i].gro)
			MISS("--gso %u --discard %u: UDP_GRO %d", rows[i].gso,
			     rows[i].discard, v);
		close(sv[0]);
		close(sv[1]);
	}
	{
		struct end snd, rcv;
		int sv[2];

		sock_udp_pair(sv, 16 << 20);
		memset(&snd, 0, sizeof snd);
		snd.p = stream_of(1472, 1472 * 440);
		snd.p.gso = 1;
		rcv = snd;
		rcv.p.role = ROLE_RECV;
		assert_int_equal(xfer_udp_prepare_rx(sv[1], &rcv.p, rcv.err,
		                 sizeof rcv.err), 0);
		/* the whole run is queued before the receiver's data path runs */
		snd.rc = t_run(xfer_udp_send_batch, sv[0], &snd.p, &snd.r, snd.err,
		               sizeof snd.err);
		rcv.rc = t_run(xfer_udp_recv_batch, sv[1], &rcv.p, &rcv.r, rcv.err,
		               sizeof rcv.err);
		assert_int_equal(snd.rc, 0);
		assert_int_equal(rcv.rc, 0);
		assert_int_equal(rcv.r.dgrams, 440);
		/* 10 sends of 44 datagrams: as many coalesced reads (and the
		 * markers), never one a datagram */
		if (rcv.r.calls > 20)
			MISS("a run queued before the data path: %llu calls for 440 "
			     "datagrams", (unsigned long long)rcv.r.calls);
		close(sv[0]);
		close(sv[1]);
	}
	MISSED();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gro_segs),
		cmocka_unit_test(test_gro_split_headers),
		cmocka_unit_test(test_gso_segs),
		cmocka_unit_test(test_batch_take),
		cmocka_unit_test(test_batch_schedule),
		cmocka_unit_test(test_per_call_max),
		cmocka_unit_test(test_batch_transfer),
		cmocka_unit_test(test_batch_dups_loss),
		cmocka_unit_test(test_tcp_discard),
		cmocka_unit_test(test_prepare_rx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
