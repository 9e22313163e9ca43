/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_databuf.c: the data path's buffers start on a page (databuf.c),
 * and every data path really reads into and writes from such buffers:
 * the test interposes the socket calls (recv, recvmsg, recvmmsg, send,
 * sendmsg, sendmmsg), notes the address of every payload buffer a data
 * path hands the kernel, and passes the call on to the kernel. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "databuf.h"
#include "model.h"
#include "pattern.h"
#include "xfer.h"
#include "xfer_batch.h"
#include "streamrun.h"
#include "sockhelp.h"
#include "params.h"

/* A stream of the fixture (params.h). */
#define stream_of(len, bytes) test_params(PROTO_TCP, ROLE_SEND, (len), (bytes))

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

/* ---- the interposed calls: every payload buffer's address ---------- */

#define SEEN_MAX 4096
static uintptr_t seen[SEEN_MAX];
static size_t nseen;
static int watching;    /* note only while a data path runs */

static void
note(const void *p, size_t len)
{
	/* the receiver's drain and marker reads use small stack buffers of
	 * their own (at most 64 bytes): not data buffers */
	if (watching && len > 64 && nseen < SEEN_MAX)
		seen[nseen++] = (uintptr_t)p;
}

static void
note_msg(const struct msghdr *mh)
{
	if (mh->msg_iovlen > 0)
		note(mh->msg_iov[0].iov_base, mh->msg_iov[0].iov_len);
}

ssize_t
recv(int fd, void *buf, size_t len, int flags)
{
	note(buf, len);
	return syscall(SYS_recvfrom, fd, buf, len, flags, NULL, NULL);
}

ssize_t
send(int fd, const void *buf, size_t len, int flags)
{
	note(buf, len);
	return syscall(SYS_sendto, fd, buf, len, flags, NULL, 0);
}

ssize_t
recvmsg(int fd, struct msghdr *mh, int flags)
{
	note_msg(mh);
	return syscall(SYS_recvmsg, fd, mh, flags);
}

ssize_t
sendmsg(int fd, const struct msghdr *mh, int flags)
{
	note_msg(mh);
	return syscall(SYS_sendmsg, fd, mh, flags);
}

int
recvmmsg(int fd, struct mmsghdr *mm, unsigned int vlen, int flags,
         struct timespec *t)
{
	unsigned int i;

	for (i = 0; i < vlen; i++)
		note_msg(&mm[i].msg_hdr);
	return (int)syscall(SYS_recvmmsg, fd, mm, vlen, flags, t);
}

int
sendmmsg(int fd, struct mmsghdr *mm, unsigned int vlen, int flags)
{
	note_msg(&mm[0].msg_hdr);       /* a batch's frames are laid out from it */
	return (int)syscall(SYS_sendmmsg, fd, mm, vlen, flags);
}

/* How many noted buffers are not aligned to align; clears the notes. */
static size_t
misaligned(size_t align, size_t *total)
{
	size_t i, bad = 0;

	for (i = 0; i < nseen; i++)
		if (seen[i] % align != 0)
			bad++;
	*total = nseen;
	nseen = 0;
	return bad;
}

/* ---- databuf itself ------------------------------------------------- */

static void
test_databuf(void **state)
{
	static const size_t sizes[] = { 1, 16, 1448, 1472, 4095, 4096, 4097,
	    65507, 65536, 131072, 131073, 1u << 22 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		size_t want = (sizes[i] + 4095) / 4096 * 4096;
		uint8_t *b = databuf_alloc(sizes[i]);

		if (b == NULL || (uintptr_t)b % 4096 != 0)
			MISS("%zu bytes: %p", sizes[i], (void *)b);
		if (databuf_size(sizes[i]) != want)
			MISS("%zu bytes: size %zu, want %zu", sizes[i],
			     databuf_size(sizes[i]), want);
		if (b != NULL)
			memset(b, 0xa5, want);  /* all of it is ours (ASan checks) */
		free(b);
	}
	assert_int_equal(databuf_stride(1), 64);
	assert_int_equal(databuf_stride(1472), 1472);
	assert_int_equal(databuf_stride(1473), 1536);
	assert_int_equal(databuf_stride(1536), 1536);
	assert_int_equal(databuf_stride(65536), 65536);
	assert_int_equal(databuf_stride(SIZE_MAX), 0);
	assert_int_equal(databuf_size(SIZE_MAX - 10), 0);
	errno = 0;
	assert_null(databuf_alloc(0));
	assert_int_equal(errno, ENOMEM);
	errno = 0;
	assert_null(databuf_alloc(SIZE_MAX - 10));
	assert_int_equal(errno, ENOMEM);
	MISSED();
}

/* The pattern a sender writes from (and -c checks against). */
static void
test_pattern(void **state)
{
	static const uint32_t lens[] = { 1, 1448, 4096, 65536, 131072 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		struct xfer_params p;
		struct pattern pt;
		char err[256];
		int s;

		for (s = 0; s < 2; s++) {
			memset(&p, 0, sizeof p);
			p.len = p.data_len = lens[i];
			p.pattern_spans = (uint8_t)s;
			assert_int_equal(pattern_init(&pt, &p, lens[i], err, sizeof err), 0);
			if ((uintptr_t)pt.buf % 4096 != 0)
				MISS("-l %u%s: pattern at %p", lens[i], s ? " -s" : "",
				     (void *)pt.buf);
			pattern_free(&pt);
		}
	}
	MISSED();
}

/* ---- the data paths, run for real ---------------------------------- */

/* TCP over a socketpair: the sender writes 4 buffers of len from the
 * pattern, the receiver reads them into its buffer (with -c too). */
static void
test_tcp_paths(void **state)
{
	static const uint32_t lens[] = { 1448, 131072 };
	size_t i, n;
	int v;

	(void)state;
	for (i = 0; i < sizeof lens / sizeof lens[0]; i++)
		for (v = 0; v < 2; v++) {
			struct xfer_params p = stream_of(lens[i], 4ull * lens[i]);
			struct gput_result r;
			char err[256];
			int sv[2], big = 1 << 20;

			assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
			setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
			setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
			watching = 1;
			assert_int_equal(t_run(xfer_send_loop, sv[0], &p, &r, err,
			                 sizeof err), 0);
			watching = 0;
			if (misaligned(4096, &n) != 0 || n != 4)
				MISS("TCP send -l %u: %zu calls, some off a page", lens[i], n);
			close(sv[0]);
			p.role = ROLE_RECV;
			p.verify = (uint8_t)v;
			watching = 1;
			assert_int_equal(t_run(xfer_tcp_recv, sv[1], &p, &r, err,
			                 sizeof err), 0);
			watching = 0;
			if (r.bytes != 4ull * lens[i])
				MISS("TCP receive -l %u: %llu bytes", lens[i],
				     (unsigned long long)r.bytes);
			if (misaligned(4096, &n) != 0 || n == 0)
				MISS("TCP receive -l %u%s: %zu calls, some off a page",
				     lens[i], v ? " -c" : "", n);
			close(sv[1]);
		}
	MISSED();
}

/* UDP: 100 datagrams of 1472 bytes, plain, --batch 16 and --gso on both
 * ends. A receiver's buffer starts on a page and, batched, holds its
 * slots on cache lines; a sender's first frame starts on a page. */
static void
test_udp_paths(void **state)
{
	static const struct { const char *name; uint8_t batch, gso; } rows[] = {
		{ "plain", 0, 0 }, { "--batch 16", 16, 0 }, { "--gso", 0, 1 },
	};
	size_t i, n, nrecv;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(1472, 1472 * 100), q;
		struct gput_result r;
		char err[256];
		int sv[2];

		sock_udp_pair(sv, 16 << 20);
		p.batch = rows[i].batch;
		p.gso = rows[i].gso;
		q = p;
		q.role = ROLE_RECV;
		assert_int_equal(xfer_udp_prepare(sv[1], err, sizeof err), 0);
		if (rows[i].gso)
			assert_int_equal(xfer_gro_enable(sv[1]), 0);
		watching = 1;
		assert_int_equal(t_run(p.batch > 1 || p.gso ? xfer_udp_send_batch :
		                 xfer_udp_send, sv[0], &p, &r, err, sizeof err), 0);
		watching = 0;
		/* the plain sender writes from the pattern, a datagram a call */
		if (misaligned(rows[i].batch || rows[i].gso ? 4096 : 1, &n) != 0 ||
		    n == 0)
			MISS("UDP send %s: %zu calls, some off a page", rows[i].name, n);
		watching = 1;
		assert_int_equal(t_run(q.batch > 1 || q.gso ? xfer_udp_recv_batch :
		                 xfer_udp_recv, sv[1], &q, &r, err, sizeof err), 0);
		watching = 0;
		nrecv = nseen;
		if (r.dgrams != 100)
			MISS("UDP %s: %llu datagrams received", rows[i].name,
			     (unsigned long long)r.dgrams);
		/* every slot on a cache line, and the first of each call on a page */
		if (misaligned(64, &n) != 0 || nrecv == 0)
			MISS("UDP receive %s: %zu slots, some off a cache line",
			     rows[i].name, n);
		close(sv[0]);
		close(sv[1]);
	}
	MISSED();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_databuf),
		cmocka_unit_test(test_pattern),
		cmocka_unit_test(test_tcp_paths),
		cmocka_unit_test(test_udp_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
