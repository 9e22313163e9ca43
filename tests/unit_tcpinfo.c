/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_tcpinfo.c: TCP_INFO and TCP_CONGESTION of a real loopback TCP
 * connection after 1 MiB, and the congestion control lists read from files
 * given in place of /proc. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <linux/tcp.h>                 /* tcp_info, for its length */
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "tcpinfo.h"

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

#define MOVE (1 << 20)          /* bytes the sender moves */

/* A connected pair on 127.0.0.1: sv[0] connects (and will send), sv[1] was
 * accepted. cc, if not NULL, is set on sv[0] before it connects. Every
 * blocking call gives up after 10 s rather than hang the test. */
static void
tcp_pair(int sv[2], const char *cc)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = 10 };
	socklen_t al = sizeof a;
	char err[256];
	int l, i;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(l >= 0);
	assert_int_equal(bind(l, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(l, 1), 0);
	assert_int_equal(getsockname(l, (struct sockaddr *)&a, &al), 0);
	sv[0] = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(sv[0] >= 0);
	if (cc != NULL && tcpinfo_set_cc(sv[0], cc, err, sizeof err) == -1)
		fail_msg("%s", err);
	assert_int_equal(connect(sv[0], (struct sockaddr *)&a, sizeof a), 0);
	sv[1] = accept(l, NULL, NULL);
	assert_true(sv[1] >= 0);
	close(l);
	for (i = 0; i < 2; i++) {
		assert_int_equal(setsockopt(sv[i], SOL_SOCKET, SO_RCVTIMEO, &tv,
		                            sizeof tv), 0);
		assert_int_equal(setsockopt(sv[i], SOL_SOCKET, SO_SNDTIMEO, &tv,
		                            sizeof tv), 0);
	}
}

/* The receiver: reads MOVE bytes, then answers one byte. */
static void *
drain(void *arg)
{
	int fd = *(int *)arg;
	static char buf[65536];
	size_t got = 0;
	ssize_t r;

	while (got < MOVE) {
		r = read(fd, buf, sizeof buf);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)                     /* end of file, error, time out */
			return (void *)1;
		got += (size_t)r;
	}
	return write(fd, "k", 1) == 1 ? NULL : (void *)1;
}

/* Moves MOVE bytes from sv[0] to sv[1] and waits for the receiver's answer,
 * so that the data was delivered when this returns. */
static void
move_data(int sv[2])
{
	static char buf[MOVE];
	pthread_t th;
	size_t sent = 0;
	ssize_t r;
	void *rc;
	char k;

	memset(buf, 'x', sizeof buf);
	assert_int_equal(pthread_create(&th, NULL, drain, &sv[1]), 0);
	while (sent < MOVE) {
		r = write(sv[0], buf + sent, MOVE - sent);
		if (r == -1 && errno == EINTR)
			continue;
		assert_true(r > 0);
		sent += (size_t)r;
	}
	do
		r = read(sv[0], &k, 1);
	while (r == -1 && errno == EINTR);
	assert_int_equal(r, 1);
	assert_int_equal(pthread_join(th, &rc), 0);
	assert_null(rc);
}

static void
print_stats(const char *what, const struct tcp_stats *st)
{
	print_message("%s: cc %s, retrans %llu, rtt %u us, min_rtt %u us, "
	              "cwnd %u, mss %u, delivery_rate %llu B/s, busy %llu us, "
	              "rwnd_limited %llu us, sndbuf_limited %llu us, valid %d\n",
	              what, st->cc, (unsigned long long)st->retrans, st->rtt_us,
	              st->min_rtt_us, st->cwnd, st->mss,
	              (unsigned long long)st->delivery_rate,
	              (unsigned long long)st->busy_us,
	              (unsigned long long)st->rwnd_limited_us,
	              (unsigned long long)st->sndbuf_limited_us, st->valid);
}

/* What a sender that moved 1 MiB over loopback must show. */
static void
check_sender(const struct tcp_stats *st, const char *want_cc)
{
	if (!st->valid)
		MISS("%s", "valid is 0");
	if (strcmp(st->cc, want_cc) != 0)
		MISS("cc '%s', want '%s'", st->cc, want_cc);
	if (st->mss == 0)
		MISS("%s", "mss 0");
	if (st->rtt_us == 0)
		MISS("%s", "rtt 0");
	if (st->cwnd == 0)
		MISS("%s", "cwnd 0");
	/* a uint64_t count: any value is a number; loopback loses nothing
	 * but the kernel may still retransmit, so only sanity-bound it */
	if (st->retrans > MOVE)
		MISS("retrans %llu for %d bytes", (unsigned long long)st->retrans,
		     MOVE);
	MISSED();
}

/* Is this kernel's tcp_info long enough to hold tcpi_busy_time (4.10)? */
static int
kernel_fills_busy(int fd)
{
	struct tcp_info ti;
	socklen_t il = sizeof ti;

	assert_int_equal(getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &il), 0);
	print_message("the kernel's tcp_info: %u bytes, ours %zu\n", (unsigned)il,
	              sizeof ti);
	return il >= offsetof(struct tcp_info, tcpi_busy_time) +
	    sizeof ti.tcpi_busy_time;
}

static void
test_read_default(void **state)
{
	struct tcp_stats st;
	char def[32], err[256];
	int sv[2];

	(void)state;
	assert_int_equal(tcpinfo_cc_default(def, sizeof def), 0);
	tcp_pair(sv, NULL);
	move_data(sv);
	if (tcpinfo_read(sv[0], &st, err, sizeof err) == -1)
		fail_msg("%s", err);
	print_stats("sender, default cc", &st);
	check_sender(&st, def);
	/* 4.10+ fills busy_time, but counts it in jiffies: 1 MiB over
	 * loopback may take less than one. Move more until it shows. */
	if (kernel_fills_busy(sv[0])) {
		int i;

		for (i = 0; i < 500 && st.busy_us == 0; i++) {
			move_data(sv);
			if (tcpinfo_read(sv[0], &st, err, sizeof err) == -1)
				fail_msg("%s", err);
		}
		print_stats("sender after more MiB", &st);
		print_message("busy_us > 0 after %d more MiB\n", i);
		assert_true(st.busy_us > 0);
	} else {
		print_message("this kernel does not fill tcpi_busy_time\n");
		assert_int_equal(st.busy_us, 0);
	}
	if (tcpinfo_read(sv[1], &st, err, sizeof err) == -1)
		fail_msg("%s", err);
	print_stats("receiver", &st);
	assert_true(st.valid);
	assert_string_equal(st.cc, def);
	close(sv[0]);
	close(sv[1]);
}

/* Sets name on the sender, moves 1 MiB and reads it back; skips when this
 * host does not offer name or this process may not pick it. */
static void
read_with_cc(const char *name)
{
	struct tcp_stats st;
	char avail[512], err[512];
	int sv[2], fd;

	assert_int_equal(tcpinfo_cc_available(avail, sizeof avail), 0);
	if (tcpinfo_cc_check(name, err, sizeof err) == -1) {
		print_message("skipped: %s\n", err);
		skip();
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	if (tcpinfo_set_cc(fd, name, err, sizeof err) == -1) {
		int e = errno;

		close(fd);
		if (e == EPERM) {
			print_message("skipped: %s\n", err);
			skip();
		}
		fail_msg("%s", err);
	}
	close(fd);
	tcp_pair(sv, name);
	move_data(sv);
	if (tcpinfo_read(sv[0], &st, err, sizeof err) == -1)
		fail_msg("%s", err);
	print_stats(name, &st);
	check_sender(&st, name);
	close(sv[0]);
	close(sv[1]);
}

static void
test_read_reno(void **state)
{
	(void)state;
	read_with_cc("reno");
}

static void
test_read_cubic(void **state)
{
	(void)state;
	read_with_cc("cubic");
}

/* Set on a connected socket, TCP_CONGESTION switches at once. */
static void
test_set_connected(void **state)
{
	struct tcp_stats st;
	char err[512];
	int sv[2];

	(void)state;
	if (tcpinfo_cc_check("reno", err, sizeof err) == -1) {
		print_message("skipped: %s\n", err);
		skip();
	}
	tcp_pair(sv, NULL);
	if (tcpinfo_set_cc(sv[0], "reno", err, sizeof err) == -1) {
		if (errno == EPERM) {
			print_message("skipped: %s\n", err);
			skip();
		}
		fail_msg("%s", err);
	}
	move_data(sv);
	if (tcpinfo_read(sv[0], &st, err, sizeof err) == -1)
		fail_msg("%s", err);
	assert_string_equal(st.cc, "reno");
	close(sv[0]);
	close(sv[1]);
}

static void
test_sample(void **state)
{
	uint64_t retrans = UINT64_MAX;
	uint32_t cwnd = 0, srtt = 0;
	int sv[2];

	(void)state;
	tcp_pair(sv, NULL);
	move_data(sv);
	assert_int_equal(tcpinfo_sample(sv[0], &retrans, &cwnd, &srtt), 0);
	print_message("sample: retrans %llu, cwnd %u, srtt %u us\n",
	              (unsigned long long)retrans, cwnd, srtt);
	assert_true(retrans <= MOVE);
	assert_true(cwnd > 0);
	assert_true(srtt > 0);
	/* any of the outputs may be NULL */
	assert_int_equal(tcpinfo_sample(sv[0], NULL, NULL, NULL), 0);
	close(sv[0]);
	close(sv[1]);
}

/* Not a TCP socket: every call fails and names what failed. */
static void
test_not_tcp(void **state)
{
	struct tcp_stats st;
	char err[512];
	uint64_t retrans = 7;
	int p[2], u;

	(void)state;
	assert_int_equal(pipe(p), 0);
	memset(&st, 0xff, sizeof st);
	assert_int_equal(tcpinfo_read(p[0], &st, err, sizeof err), -1);
	assert_string_equal(err, "getsockopt TCP_INFO: Socket operation on non-socket");
	assert_int_equal(st.valid, 0);
	assert_int_equal(st.retrans, 0);
	assert_int_equal(tcpinfo_sample(p[0], &retrans, NULL, NULL), -1);
	assert_int_equal(retrans, 7);
	assert_int_equal(tcpinfo_set_cc(p[0], "reno", err, sizeof err), -1);
	assert_int_equal(errno, ENOTSOCK);
	assert_string_equal(err, "setsockopt TCP_CONGESTION 'reno': "
	                    "Socket operation on non-socket");
	u = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(u >= 0);
	assert_int_equal(tcpinfo_read(u, &st, err, sizeof err), -1);
	assert_non_null(strstr(err, "getsockopt TCP_INFO: "));
	close(u);
	close(p[0]);
	close(p[1]);
}

/* A name the kernel does not know: ENOENT, and the message says what is. */
static void
test_set_unknown(void **state)
{
	char err[512], avail[512], want[600];
	int fd;

	(void)state;
	assert_int_equal(tcpinfo_cc_available(avail, sizeof avail), 0);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(tcpinfo_set_cc(fd, "nosuchcc", err, sizeof err), -1);
	assert_int_equal(errno, ENOENT);
	snprintf(want, sizeof want, "setsockopt TCP_CONGESTION 'nosuchcc': No such "
	         "file or directory (this host offers: %s)", avail);
	assert_string_equal(err, want);
	/* refused before the kernel, which would cut it to 15 bytes */
	assert_int_equal(tcpinfo_set_cc(fd, "cubic_and_then_some", err, sizeof err),
	                 -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(err, "congestion control name 'cubic_and_then_some' "
	                    "is longer than 15 bytes");
	close(fd);
}

/* path: a new temporary file holding text. */
static void
temp_file(char *path, size_t len, const char *text)
{
	FILE *f;
	int fd;

	snprintf(path, len, "%s/gput-tcpinfo.XXXXXX",
	         getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void
test_cc_check(void **state)
{
	static const struct {
		const char *name, *want;        /* want NULL: accepted */
	} rows[] = {
		{ "reno", NULL },
		{ "cubic", NULL },
		{ "bbr", NULL },
		{ "dctcp-x_2", NULL },
		{ "abcdefghijklmno", NULL },     /* 15 bytes: the longest */
		{ "foo", "unknown congestion control 'foo' (this host offers: reno "
		  "cubic bbr dctcp-x_2 abcdefghijklmno)" },
		{ "cub", "unknown congestion control 'cub' (this host offers: reno "
		  "cubic bbr dctcp-x_2 abcdefghijklmno)" },
		{ "renox", "unknown congestion control 'renox' (this host offers: "
		  "reno cubic bbr dctcp-x_2 abcdefghijklmno)" },
		{ "", "empty congestion control name" },
		{ "abcdefghijklmnop", "congestion control name 'abcdefghijklmnop' "
		  "is longer than 15 bytes" },
		{ "a234567890123456789012345678901234567890", "congestion control "
		  "name 'a2345678901234567890123456789012...' is longer than 15 "
		  "bytes" },
		{ "Cubic", "congestion control name 'Cubic' has characters other "
		  "than a-z, 0-9, '_' and '-'" },
		{ "reno cubic", "congestion control name 'reno cubic' has "
		  "characters other than a-z, 0-9, '_' and '-'" },
		{ "bbr\n", "congestion control name 'bbr?' has characters other "
		  "than a-z, 0-9, '_' and '-'" },
		{ "../x", "congestion control name '../x' has characters other "
		  "than a-z, 0-9, '_' and '-'" },
	};
	char path[256], err[512];
	size_t i;

	(void)state;
	/* tabs, repeated blanks and no final newline: normalised */
	temp_file(path, sizeof path, "reno  cubic\tbbr dctcp-x_2\n"
	          "abcdefghijklmno");
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int rc;

		strcpy(err, "untouched");
		rc = tcpinfo_cc_check_from(path, rows[i].name, err, sizeof err);
		if (rows[i].want == NULL && rc != 0)
			MISS("'%s': refused: %s", rows[i].name, err);
		else if (rows[i].want != NULL && rc != -1)
			MISS("'%s': accepted", rows[i].name);
		else if (rows[i].want != NULL && strcmp(err, rows[i].want) != 0)
			MISS("'%s': \"%s\", want \"%s\"", rows[i].name, err, rows[i].want);
	}
	unlink(path);
	/* malformed names are refused without reading the file at all */
	assert_int_equal(tcpinfo_cc_check_from("/nonexistent/x", "Cubic", err,
	                                       sizeof err), -1);
	assert_non_null(strstr(err, "has characters other than"));
	assert_int_equal(tcpinfo_cc_check_from("/nonexistent/x", "reno", err,
	                                       sizeof err), -1);
	assert_string_equal(err, "cannot check congestion control 'reno': "
	                    "/nonexistent/x: No such file or directory");
	MISSED();
}

/* What the list readers make of odd files. */
static void
test_cc_lists(void **state)
{
	static const struct {
		const char *what, *text, *want;  /* want NULL: refused */
		size_t len;
		int err;
	} rows[] = {
		{ "kernel format", "reno cubic bbr\n", "reno cubic bbr", 64, 0 },
		{ "one name", "bbr\n", "bbr", 64, 0 },
		{ "blanks around", "  reno \n\n cubic \t", "reno cubic", 64, 0 },
		{ "exact fit", "reno cubic\n", "reno cubic", 11, 0 },
		{ "one byte short", "reno cubic\n", NULL, 10, ERANGE },
		{ "empty file", "", NULL, 64, EINVAL },
		{ "only blanks", " \n\t\n", NULL, 64, EINVAL },
		{ "not a name", "reno Cubic\n", NULL, 64, EINVAL },
		{ "binary", "reno\001\n", NULL, 64, EINVAL },
		{ "a name too long", "reno abcdefghijklmnop\n", NULL, 64, EINVAL },
	};
	char path[256], buf[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int rc;

		temp_file(path, sizeof path, rows[i].text);
		errno = 0;
		rc = tcpinfo_cc_available_from(path, buf, rows[i].len);
		if (rows[i].want != NULL && (rc != 0 || strcmp(buf, rows[i].want) != 0))
			MISS("%s: rc %d, \"%s\", want \"%s\"", rows[i].what, rc,
			     rc == 0 ? buf : "", rows[i].want);
		else if (rows[i].want == NULL && (rc != -1 || errno != rows[i].err))
			MISS("%s: rc %d errno %d, want -1 errno %d", rows[i].what, rc,
			     errno, rows[i].err);
		unlink(path);
	}
	MISSED();
}

/* A file longer than the kernel could write is refused, not cut. */
static void
test_cc_huge_file(void **state)
{
	char path[256], buf[64], *text;
	size_t i, n = 100000;

	(void)state;
	text = malloc(n + 1);
	assert_non_null(text);
	for (i = 0; i < n; i++)
		text[i] = i % 5 == 4 ? ' ' : 'a';
	text[n] = '\0';
	temp_file(path, sizeof path, text);
	free(text);
	errno = 0;
	assert_int_equal(tcpinfo_cc_available_from(path, buf, sizeof buf), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(tcpinfo_cc_default_from(path, buf, sizeof buf), -1);
	unlink(path);
	/* exactly the bound the reader allows (2047 bytes) still reads */
	text = malloc(2048);
	assert_non_null(text);
	memset(text, ' ', 2047);
	memcpy(text + 2043, "reno", 4);
	text[2047] = '\0';
	temp_file(path, sizeof path, text);
	free(text);
	assert_int_equal(tcpinfo_cc_available_from(path, buf, sizeof buf), 0);
	assert_string_equal(buf, "reno");
	unlink(path);
}

static void
test_cc_default(void **state)
{
	char path[256], buf[16], avail[512];

	(void)state;
	temp_file(path, sizeof path, "cubic\n");
	assert_int_equal(tcpinfo_cc_default_from(path, buf, sizeof buf), 0);
	assert_string_equal(buf, "cubic");
	assert_int_equal(tcpinfo_cc_default_from(path, buf, 6), 0);
	assert_int_equal(tcpinfo_cc_default_from(path, buf, 5), -1);
	assert_int_equal(errno, ERANGE);
	unlink(path);
	assert_int_equal(tcpinfo_cc_default_from("/nonexistent/x", buf, sizeof buf),
	                 -1);
	assert_int_equal(errno, ENOENT);
	/* this host: the default is one of those it offers */
	assert_int_equal(tcpinfo_cc_default(buf, sizeof buf), 0);
	assert_int_equal(tcpinfo_cc_available(avail, sizeof avail), 0);
	print_message("this host: default %s, offers %s\n", buf, avail);
	assert_int_equal(tcpinfo_cc_check(buf, avail, sizeof avail), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_default),
		cmocka_unit_test(test_read_reno),
		cmocka_unit_test(test_read_cubic),
		cmocka_unit_test(test_set_connected),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_not_tcp),
		cmocka_unit_test(test_set_unknown),
		cmocka_unit_test(test_cc_check),
		cmocka_unit_test(test_cc_lists),
		cmocka_unit_test(test_cc_huge_file),
		cmocka_unit_test(test_cc_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
