/* unit_faults.c: system calls that fail on purpose. This program defines
 * fcntl() and setsockopt() itself; being in the executable, they take libc's
 * place for the library code linked in (libgput.a), pass every call through
 * to the kernel, and fail the one a test names. Checked: net_connect_sa,
 * net_listen_any and the UDP receiver report a failed call, leak nothing,
 * and never go on with a socket that is not what they asked for. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "net.h"
#include "xfer.h"

/* The call to fail: fcntl(fd, fcntl_cmd, ...), or setsockopt(fd, level,
 * name, ...) after letting `skip` matching calls through; 0: none. */
static struct {
	int fcntl_cmd;
	int level, name, skip;
	int err;
} fault;

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
	fd = net_connect_sa(&ss, SOCK_STREAM, 0, 5000, err, sizeof err);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	close(fd);

	before = next_fd();
	fault.fcntl_cmd = F_SETFL;
	fault.err = EINVAL;
	strcpy(err, "untouched");
	fd = net_connect_sa(&ss, SOCK_STREAM, 0, 5000, err, sizeof err);
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
	fd = net_connect_sa(&ss, SOCK_STREAM, 0, 5000, err, sizeof err);
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
	fd = net_connect_sa(&ss, SOCK_STREAM, 0, 5000, err, sizeof err);
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

/* Two connected UDP sockets on 127.0.0.1. */
static void
udp_pair(int sv[2])
{
	struct sockaddr_in a[2];
	socklen_t al = sizeof a[0];
	int i;

	for (i = 0; i < 2; i++) {
		memset(&a[i], 0, sizeof a[i]);
		a[i].sin_family = AF_INET;
		a[i].sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		sv[i] = socket(AF_INET, SOCK_DGRAM, 0);
		assert_true(sv[i] >= 0);
		assert_int_equal(bind(sv[i], (struct sockaddr *)&a[i], sizeof a[i]), 0);
		assert_int_equal(getsockname(sv[i], (struct sockaddr *)&a[i], &al), 0);
	}
	assert_int_equal(connect(sv[0], (struct sockaddr *)&a[1], sizeof a[1]), 0);
	assert_int_equal(connect(sv[1], (struct sockaddr *)&a[0], sizeof a[0]), 0);
}

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
	udp_pair(sv);
	for (k = 0; k < 5; k++)
		assert_int_equal(send(sv[0], buf, sizeof buf, 0), (ssize_t)sizeof buf);
	k = (int)xfer_marker_encode(&p, mk, 1, 5, p.data_bytes);
	assert_int_equal(send(sv[0], mk, (size_t)k, 0), k);

	fault.level = SOL_SOCKET;
	fault.name = SO_RCVTIMEO;
	fault.skip = 1;
	fault.err = EINVAL;
	memset(&r, 0, sizeof r);
	strcpy(err, "untouched");
	k = xfer_udp_recv(sv[1], &p, &r, err, sizeof err);
	no_faults();
	close(sv[0]);
	close(sv[1]);
	assert_int_equal(k, -1);
	assert_string_equal(err, "setsockopt timeouts: Invalid argument");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connect_blocking),
		cmocka_unit_test(test_listen_dual_stack),
		cmocka_unit_test(test_listen_v6only_fails),
		cmocka_unit_test(test_listen_reuseaddr_fails),
		cmocka_unit_test(test_udp_idle_timeout_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
