/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ecnpeer: a UDP sender that marks its datagrams ECN-capable and a receiver
 * that counts the ECN field of each arrival, for tests/live_delay.sh (the
 * testbed's CE marking counted against the marker's own counter).
 *
 *   ecnpeer recv IDLE_MS         bind 0.0.0.0 port 0, print "port N", then
 *                                count until IDLE_MS pass without a datagram
 *                                (after the first one); print
 *                                "received N not-ect A ect1 B ect0 C ce D"
 *   ecnpeer send ADDR PORT N LEN GAP_US [TOS]
 *                                N datagrams of LEN bytes, one every GAP_US
 *                                microseconds (0: as fast as it can), with
 *                                IP_TOS TOS (default 2, ECT(0)); prints
 *                                "sent N"
 *
 * Not installed. Every wait is bounded: the receiver gives up 10 s after
 * start if nothing arrives.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "ecnpeer: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long arg(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "ecnpeer: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static int do_recv(int idle_ms)
{
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	unsigned long n[4] = { 0 }, total = 0;
	int fd, one = 1, buf = 4 << 20;
	char data[65536];

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &sl) < 0)
		die("bind");
	if (setsockopt(fd, IPPROTO_IP, IP_RECVTOS, &one, sizeof(one)) < 0)
		die("IP_RECVTOS");
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf));
	printf("port %d\n", ntohs(sa.sin_port));
	fflush(stdout);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		union { char b[CMSG_SPACE(sizeof(int))]; struct cmsghdr a; } ctl;
		struct iovec iov = { data, sizeof(data) };
		struct msghdr m = { 0 };
		struct cmsghdr *c;
		int r = poll(&p, 1, total ? idle_ms : 10000);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		m.msg_control = ctl.b;
		m.msg_controllen = sizeof(ctl.b);
		if (recvmsg(fd, &m, 0) < 0)
			die("recvmsg");
		total++;
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS) {
				unsigned char tos;

				memcpy(&tos, CMSG_DATA(c), 1);
				n[tos & 3]++;
			}
		}
	}
	printf("received %lu not-ect %lu ect1 %lu ect0 %lu ce %lu\n", total, n[0], n[1], n[2], n[3]);
	return 0;
}

static int do_send(const char *addr, int port, long count, long len, long gap_us, int tos)
{
	struct sockaddr_in sa;
	struct timespec next;
	static char data[65507];
	int fd;
	long i;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	if (setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)) < 0)
		die("IP_TOS");
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)port);
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		fprintf(stderr, "ecnpeer: bad address '%s'\n", addr);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < count; i++) {
		if (gap_us) {
			next.tv_nsec += gap_us * 1000;
			while (next.tv_nsec >= 1000000000) {
				next.tv_nsec -= 1000000000;
				next.tv_sec++;
			}
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
				;
		}
		if (sendto(fd, data, (size_t)len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			die("sendto");
	}
	printf("sent %ld\n", count);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "recv") == 0)
		return do_recv((int)arg(argv[2], 1, 60000));
	if ((argc == 7 || argc == 8) && strcmp(argv[1], "send") == 0)
		return do_send(argv[2], (int)arg(argv[3], 1, 65535), arg(argv[4], 1, 100000000),
		    arg(argv[5], 1, 65507), arg(argv[6], 0, 10000000),
		    argc == 8 ? (int)arg(argv[7], 0, 255) : 2);
	fprintf(stderr, "usage: ecnpeer recv IDLE_MS | ecnpeer send ADDR PORT N LEN GAP_US [TOS]\n");
	return 2;
}
