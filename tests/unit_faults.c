/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_faults.c: system calls that fail on purpose. This program defines
 * fcntl(), setsockopt(), send(), sendmsg(), sendmmsg() and clock_gettime() itself; being in the
 * executable, they take libc's place for the library code linked in
 * (libgput.a), pass every call through to the kernel, and fail the one a
 * test names (or count the calls). Checked: net_connect_sa, net_listen_any
 * and the UDP receiver report a failed call, leak nothing, and never go on
 * with a socket that is not what they asked for; the sender waits out
 * ENOBUFS instead of spinning, the batched one through the same loop, and
 * reads no clock per call; the UDP
 * receiver notices a step of the real-time clock. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "net.h"
#include "xfer.h"
#include "xfer_batch.h"
#include "xfer_markers.h"
#include "streamrun.h"
#include "sockhelp.h"

/* The call to fail: fcntl(fd, fcntl_cmd, ...), or setsockopt(fd, level,
 * name, ...) after letting `skip` matching calls through; 0: none. send()
 * (or sendmsg(), as the UDP sender's headed datagrams go) fails with ENOBUFS `nobufs` times once `send_skip` sends went through.
 * CLOCK_REALTIME jumps by step_ns after `step_skip` reads of it. */
static struct {
	int fcntl_cmd;
	int level, name, skip;
	int err;
	int send_skip, nobufs;
	int step_skip;
	int64_t step_ns;
} fault;

/* Calls counted since the test last cleared them. */
static struct {
	long clock_reads, sends;
} seen;

static void
no_faults(void)
{
	memset(&fault, 0, sizeof fault);
}

int
fcntl(int fd, int cmd, ...)
{
	va_list ap;
	long arg;

	va_start(ap, cmd);
	arg = va_arg(ap, long);         /* as glibc does: unused for F_GETFL */
	va_end(ap);
	if (fault.fcntl_cmd != 0 && cmd == fault.fcntl_cmd) {
		errno = fault.err;
		return -1;
	}
	return (int)syscall(SYS_fcntl, fd, cmd, arg);
}

int
setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	if (fault.level != 0 && level == fault.level && name == fault.name &&
	    fault.skip-- <= 0) {
		errno = fault.err;
		return -1;
	}
	return (int)syscall(SYS_setsockopt, fd, level, name, val, len);
}

ssize_t
send(int fd, const void *buf, size_t n, int flags)
{
	seen.sends++;
	if (fault.nobufs > 0 && fault.send_skip-- <= 0) {
		fault.nobufs--;
		errno = ENOBUFS;
		return -1;
	}
	return syscall(SYS_sendto, fd, buf, n, flags, NULL, 0);
}

ssize_t
sendmsg(int fd, const struct msghdr *m, int flags)
{
	seen.sends++;
	if (fault.nobufs > 0 && fault.send_skip-- <= 0) {
		fault.nobufs--;
		errno = ENOBUFS;
		return -1;
	}
	return syscall(SYS_sendmsg, fd, m, flags);
}

int
sendmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags)
{
	seen.sends++;
	if (fault.nobufs > 0 && fault.send_skip-- <= 0) {
		fault.nobufs--;
		errno = ENOBUFS;
		return -1;
	}
	return (int)syscall(SYS_sendmmsg, fd, v, n, flags);
}

int
clock_gettime(clockid_t id, struct timespec *ts)
{
	int rc = (int)syscall(SYS_clock_gettime, id, ts);

	seen.clock_reads++;
	if (rc == 0 && id == CLOCK_REALTIME && fault.step_ns != 0 &&
	    fault.step_skip-- <= 0) {
		int64_t t = (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec + fault.step_ns;

		ts->tv_sec = t / 1000000000;
		ts->tv_nsec = t % 1000000000;
	}
	return rc;
}

/* A 100-byte data datagram as the sender writes it: the header with
 * sequence k (the receiver counts only datagrams that carry it). */
static uint8_t *
headed(uint8_t *buf, uint64_t k)
{
	wire_gpud_encode(buf, k, 0);
	return buf;
}

/* The lowest free descriptor: the same before and after means no leak. */
static int
next_fd(void)
{
	int fd = dup(0);

	assert_true(fd >= 0);
	close(fd);
	return fd;
}

static struct sockaddr_storage
loopback4(uint16_t port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

	memset(&ss, 0, sizeof ss);
	s4->sin_family = AF_INET;
	s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s4->sin_port = htons(port);
	return ss;
}

static int
sock_family(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;

	assert_int_equal(getsockname(fd, (struct sockaddr *)&ss, &sl), 0);
	return ss.ss_family;
}

/* Can this host listen on IPv6 at all? */
static int
have_ipv6(void)
{
	int fd = socket(AF_INET6, SOCK_STREAM, 0);

	if (fd == -1)
		return 0;
	close(fd);
	return 1;
}

/* ---- net_connect_sa ------------------------------------------------ */

/* The socket comes back blocking; if that cannot be made so, -1 with the
 * call named, and the socket closed. */
static void
test_connect_blocking(void **state)
{
	char err[256];
	struct sockaddr_storage ss;
	int l, fd, before;

	(void)state;
	no_faults();
	l = net_listen_any(0, err, sizeof err);
	assert_true(l >= 0);
	ss = loopback4(net_local_port(l));
	fd = net_connect_sa(&ss, SOCK_STREAM, 0, 5000, NULL, err, sizeof err);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	close(fd);

	before = next_fd();
	fault.fcntl_cmd = F_SETFL;
	fault.err = EINVAL;
	strcpy(err, "untouched");
	fd = net_connect_sa(&ss, SOCK_STREAM, 0, 5000, NULL, err, sizeof err);
	no_faults();
	assert_int_equal(fd, -1);
	assert_string_equal(err, "fcntl O_NONBLOCK off: Invalid argument");
	assert_int_equal(next_fd(), before);
	close(l);
}

/* ---- net_listen_any ------------------------------------------------ */

/* Dual stack when it can be had: IPv4 clients reach the IPv6 socket. */
static void
test_listen_dual_stack(void **state)
{
	char err[256];
	struct sockaddr_storage ss;
	int l, fd;

	(void)state;
	no_faults();
	l = net_listen_any(0, err, sizeof err);
	assert_true(l >= 0);
	assert_int_equal(sock_family(l), have_ipv6() ? AF_INET6 : AF_INET);
	ss = loopback4(net_local_port(l));
	fd = net_connect_sa(&ss, SOCK_STREAM, 0, 5000, NULL, err, sizeof err);
	if (fd == -1)
		fail_msg("127.0.0.1: %s", err);
	close(fd);
	close(l);
}

/* If IPV6_V6ONLY cannot be cleared, the IPv6 socket might take IPv6 only:
 * an IPv4 socket is used instead, and IPv4 clients still get in. */
static void
test_listen_v6only_fails(void **state)
{
	char err[256];
	struct sockaddr_storage ss;
	int l, fd, before = next_fd();

	(void)state;
	fault.level = IPPROTO_IPV6;
	fault.name = IPV6_V6ONLY;
	fault.err = ENOPROTOOPT;
	l = net_listen_any(0, err, sizeof err);
	no_faults();
	if (l == -1)
		fail_msg("net_listen_any: %s", err);
	assert_int_equal(sock_family(l), AF_INET);
	assert_int_equal(l, before);            /* the IPv6 socket was closed */
	ss = loopback4(net_local_port(l));
	fd = net_connect_sa(&ss, SOCK_STREAM, 0, 5000, NULL, err, sizeof err);
	if (fd == -1)
		fail_msg("127.0.0.1: %s", err);
	close(fd);
	close(l);
}

/* SO_REUSEADDR failing everywhere: -1, the call named, nothing left open. */
static void
test_listen_reuseaddr_fails(void **state)
{
	char err[256];
	int l, before = next_fd();

	(void)state;
	fault.level = SOL_SOCKET;
	fault.name = SO_REUSEADDR;
	fault.err = ENOPROTOOPT;
	strcpy(err, "untouched");
	l = net_listen_any(0, err, sizeof err);
	no_faults();
	assert_int_equal(l, -1);
	assert_string_equal(err, "cannot listen on port 0: setsockopt "
	                    "SO_REUSEADDR: Protocol not available");
	assert_int_equal(next_fd(), before);
}

/* ---- the UDP receiver ---------------------------------------------- */

/* The idle timeout set when the first datagram arrives: if it cannot be set,
 * the receiver would wait on the 10 s start timeout (or for ever) instead;
 * it stops with the call named. The first SO_RCVTIMEO (the start timeout)
 * goes through, the second fails. */
static void
test_udp_idle_timeout_fails(void **state)
{
	struct xfer_params p;
	struct gput_result r;
	uint8_t buf[100] = { 0 }, mk[MARKER_MAX_LEN];
	char err[256];
	int sv[2], k;

	(void)state;
	memset(&p, 0, sizeof p);
	p.proto = PROTO_UDP;
	p.role = ROLE_RECV;
	p.len = p.data_len = sizeof buf;
	p.count = 5;
	p.data_bytes = 5 * sizeof buf;
	sock_udp_pair(sv, 0);
	for (k = 0; k < 5; k++)
		assert_int_equal(send(sv[0], headed(buf, (uint64_t)k), sizeof buf, 0),
		                 (ssize_t)sizeof buf);
	k = (int)xfer_marker_encode(&p, mk, 1, 5, p.data_bytes);
	assert_int_equal(send(sv[0], mk, (size_t)k, 0), k);

	fault.level = SOL_SOCKET;
	fault.name = SO_RCVTIMEO;
	fault.skip = 1;
	fault.err = EINVAL;
	memset(&r, 0, sizeof r);
	strcpy(err, "untouched");
	k = t_run(xfer_udp_recv, sv[1], &p, &r, err, sizeof err);
	no_faults();
	close(sv[0]);
	close(sv[1]);
	assert_int_equal(k, -1);
	assert_string_equal(err, "setsockopt timeouts: Invalid argument");
}

/* A step of the real-time clock while datagrams arrive: the kernel's
 * arrival stamps (CLOCK_REALTIME) cannot be compared any more, so the
 * window is the monotonic time from reading the first datagram to reading
 * the last, and the result says so. Here the clock is stepped back an hour
 * after the receiver read the offset at the first datagram. */
static void
test_udp_clock_step(void **state)
{
	static const int64_t steps[] = { 0, -3600LL * 1000000000, 2000000 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		struct xfer_params p;
		struct gput_result r;
		uint8_t buf[100] = { 0 }, mk[MARKER_MAX_LEN];
		char err[256];
		struct timespec t0, t1;
		uint64_t took;
		int sv[2], k;

		memset(&p, 0, sizeof p);
		p.proto = PROTO_UDP;
		p.role = ROLE_RECV;
		p.len = p.data_len = sizeof buf;
		p.count = 5;
		p.data_bytes = 5 * sizeof buf;
		sock_udp_pair(sv, 0);
		assert_int_equal(xfer_udp_prepare(sv[1], err, sizeof err), 0);
		for (k = 0; k < 5; k++)
			assert_int_equal(send(sv[0], headed(buf, (uint64_t)k), sizeof buf,
			                 0), (ssize_t)sizeof buf);
		k = (int)xfer_marker_encode(&p, mk, 1, 5, p.data_bytes);
		assert_int_equal(send(sv[0], mk, (size_t)k, 0), k);

		no_faults();
		fault.step_skip = 3;            /* meter_real_offset reads it 3 times */
		fault.step_ns = steps[i];
		memset(&r, 0, sizeof r);
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t0);
		k = t_run(xfer_udp_recv, sv[1], &p, &r, err, sizeof err);
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t1);
		no_faults();
		close(sv[0]);
		close(sv[1]);
		took = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u +
		    (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec;
		if (k != 0)
			fail_msg("step %lld: %s", (long long)steps[i], err);
		assert_int_equal(r.dgrams, 5);
		if (steps[i] == 0) {
			assert_int_equal(r.flags & RES_STEPPED, 0);
		} else {
			assert_int_equal(r.flags & RES_STEPPED, RES_STEPPED);
			/* every datagram was queued: read within the call; the
			 * window is widened by the first of the 5 equal datagrams'
			 * share (span x 5/4) */
			assert_true(r.real_ns <= took * 5 / 4);
		}
	}
}

/* ---- the sender and ENOBUFS -------------------------------------- */

/* Run xfer_send_loop (batch 0) or the batched sender (--batch batch) for
 * 20 datagrams of 100 bytes with -v, its standard error kept in msg.
 * Returns its status; *ns is the run's length. */
static int
send_20b(int fd, uint8_t batch, struct gput_result *r, char *msg,
         size_t msglen, uint64_t *ns)
{
	struct xfer_params p;
	struct timespec t0, t1;
	char err[256];
	FILE *tmp = tmpfile();
	int saved, rc;
	size_t n;

	assert_non_null(tmp);
	memset(&p, 0, sizeof p);
	p.proto = PROTO_UDP;
	p.verbose = 1;
	p.len = p.data_len = 100;
	p.count = 20;
	p.data_bytes = 2000;
	p.batch = batch;
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), 2) >= 0);
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t0);       /* not counted */
	memset(&seen, 0, sizeof seen);
	memset(r, 0, sizeof *r);
	rc = t_run(batch > 1 ? xfer_udp_send_batch : xfer_send_loop, fd, &p, r,
	    err, sizeof err);
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t1);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(msg, 1, msglen - 1, tmp);
	msg[n] = '\0';
	fclose(tmp);
	*ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u +
	    (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec;
	if (rc != 0)
		print_error("sender: %s\n", err);
	return rc;
}

static int
send_20(int fd, struct gput_result *r, char *msg, size_t msglen, uint64_t *ns)
{
	return send_20b(fd, 0, r, msg, msglen, ns);
}

/* Datagrams waiting on fd, drained. */
static int
drain(int fd)
{
	char buf[200];
	int k = 0;

	while (recv(fd, buf, sizeof buf, MSG_DONTWAIT) == 100)
		k++;
	return k;
}

/* Without ENOBUFS: two clock reads (the window's ends), however many calls. */
static void
test_send_no_clock_per_call(void **state)
{
	struct gput_result r;
	char msg[512];
	uint64_t ns;
	int sv[2];

	(void)state;
	no_faults();
	sock_udp_pair(sv, 0);
	assert_int_equal(send_20(sv[0], &r, msg, sizeof msg, &ns), 0);
	assert_int_equal(seen.clock_reads, 2);
	assert_int_equal(seen.sends, 20);
	assert_int_equal(r.calls, 20);
	assert_string_equal(msg, "");
	assert_int_equal(drain(sv[1]), 20);
	close(sv[0]);
	close(sv[1]);
}

/* Five ENOBUFS in a row: each is waited out (the socket stays writable,
 * so by a 1 ms sleep), never counted as a call, and -v tells how often;
 * still no clock read per call. The plain sender at its 7th datagram, and
 * the batched one (--batch 8: calls of 8, 8 and 4 datagrams, then the
 * markers, plain datagrams) at its second call: the same loop, the same
 * words. */
static void
test_send_nobufs(void **state)
{
	static const struct {
		uint8_t batch;
		int skip;
		long sends, clock_reads;   /* -1: not counted (the markers') */
		uint64_t calls;
	} rows[] = {
		{ 0, 6, 20 + 5, 2, 20 },
		{ 8, 1, 3 + 5 + MARKER_COUNT, -1, 3 + MARKER_COUNT },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct gput_result r;
		char msg[512];
		uint64_t ns;
		int sv[2];

		no_faults();
		sock_udp_pair(sv, 0);
		fault.send_skip = rows[i].skip;
		fault.nobufs = 5;
		assert_int_equal(send_20b(sv[0], rows[i].batch, &r, msg, sizeof msg,
		    &ns), 0);
		no_faults();
		if (rows[i].clock_reads >= 0)
			assert_int_equal(seen.clock_reads, rows[i].clock_reads);
		assert_int_equal(seen.sends, rows[i].sends);
		assert_int_equal(r.calls, rows[i].calls);
		assert_int_equal(r.dgrams, 20);
		assert_int_equal(r.bytes, 2000);
		assert_string_equal(msg, "gput: sending: the queue below the socket "
		                    "was full (ENOBUFS) 5 times; waited up to 1 ms "
		                    "each time\n");
		if (ns < 5000000u)
			fail_msg("5 ENOBUFS waited out in %llu ns, want at least 5 ms",
			         (unsigned long long)ns);
		assert_true(r.real_ns >= 5000000u);
		assert_int_equal(drain(sv[1]), 20);
		close(sv[0]);
		close(sv[1]);
	}
}

/* A control connection: keepalive as documented, and TCP_NODELAY, or a
 * small message (START behind READY) waits 40 ms for a delayed ACK; a
 * dead-peer deadline (--peer-timeout) sets TCP_USER_TIMEOUT, 2 s short of
 * it, within 10 to 240 s. */
static void
test_control_options(void **state)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), v;
	socklen_t l = sizeof v;
	char err[128];

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(net_set_control(fd, 60, err, sizeof err), 0);
	assert_int_equal(getsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &v, &l), 0);
	assert_int_equal(v, 58000);
	assert_int_equal(net_set_control(fd, 241, err, sizeof err), -1);
	assert_string_equal(err, "dead-peer deadline 241 s out of range");
	assert_int_equal(net_set_control(fd, 9, err, sizeof err), -1);
	assert_int_equal(getsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &v, &l), 0);
	assert_int_equal(v, 58000);
	assert_int_equal(net_set_control(fd, NET_PEER_TIMEOUT_S, err, sizeof err), 0);
	assert_int_equal(getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &v, &l), 0);
	assert_int_equal(v, 1);
	assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &v, &l), 0);
	assert_int_equal(v, 1);
	assert_int_equal(getsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &v, &l), 0);
	assert_int_equal(v, NET_KEEPIDLE_S);
	assert_int_equal(getsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &v, &l), 0);
	assert_int_equal(v, NET_KEEPINTVL_S);
	assert_int_equal(getsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &v, &l), 0);
	assert_int_equal(v, NET_KEEPCNT);
	assert_int_equal(getsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &v, &l), 0);
	assert_int_equal(v, NET_USER_TIMEOUT_MS);
	assert_int_equal(v, 8000);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_options),
		cmocka_unit_test(test_connect_blocking),
		cmocka_unit_test(test_listen_dual_stack),
		cmocka_unit_test(test_listen_v6only_fails),
		cmocka_unit_test(test_listen_reuseaddr_fails),
		cmocka_unit_test(test_udp_idle_timeout_fails),
		cmocka_unit_test(test_udp_clock_step),
		cmocka_unit_test(test_send_no_clock_per_call),
		cmocka_unit_test(test_send_nobufs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
