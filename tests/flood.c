/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flood.c: a refused client in a tight, bounded loop, for the live tests of
 * the partner's refusal log. Not installed.
 *
 *   flood [-6] SRC PORT N   connect N times from address SRC to loopback
 *                           (127.0.0.1, -6: ::1) PORT, one after another;
 *                           each connection is read until the partner
 *                           closes it (5 s deadline each), then closed.
 *
 * Prints "ok flood N answered A ms T": A connections got bytes (an ERROR)
 * before the close; T the loop's wall time. Exit 1 (one line) when a
 * connect fails.
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

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
one(int fam, const char *src, unsigned port)
{
	struct sockaddr_storage s, d;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&s, *d4 = (struct sockaddr_in *)&d;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&s, *d6 = (struct sockaddr_in6 *)&d;
	socklen_t len = fam == AF_INET ? sizeof *s4 : sizeof *s6;
	char buf[512];
	int fd, got = 0;

	memset(&s, 0, sizeof s);
	memset(&d, 0, sizeof d);
	if (fam == AF_INET) {
		s4->sin_family = d4->sin_family = AF_INET;
		d4->sin_port = htons((uint16_t)port);
		if (inet_pton(AF_INET, src, &s4->sin_addr) != 1 ||
		    inet_pton(AF_INET, "127.0.0.1", &d4->sin_addr) != 1)
			return -1;
	} else {
		s6->sin6_family = d6->sin6_family = AF_INET6;
		d6->sin6_port = htons((uint16_t)port);
		if (inet_pton(AF_INET6, src, &s6->sin6_addr) != 1 ||
		    inet_pton(AF_INET6, "::1", &d6->sin6_addr) != 1)
			return -1;
	}
	if ((fd = socket(fam, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (bind(fd, (struct sockaddr *)&s, len) == -1 ||
	    connect(fd, (struct sockaddr *)&d, len) == -1) {
		close(fd);
		return -1;
	}
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, 5000) <= 0)
			break;
		n = read(fd, buf, sizeof buf);
		if (n <= 0)
			break;
		got = 1;
	}
	close(fd);
	return got;
}

int
main(int argc, char **argv)
{
	int i = 1, fam = AF_INET;
	unsigned long n, port, answered = 0, k;
	double t0;

	if (i < argc && strcmp(argv[i], "-6") == 0) {
		fam = AF_INET6;
		i++;
	}
	if (argc - i != 3) {
		fprintf(stderr, "usage: flood [-6] SRC PORT N\n");
		return 2;
	}
	port = strtoul(argv[i + 1], NULL, 10);
	n = strtoul(argv[i + 2], NULL, 10);
	if (port == 0 || port > 65535 || n == 0 || n > 10000000) {
		fprintf(stderr, "flood: bad PORT or N\n");
		return 2;
	}
	t0 = now_ms();
	for (k = 0; k < n; k++) {
		int r = one(fam, argv[i], (unsigned)port);

		if (r < 0) {
			fprintf(stderr, "flood: connect %lu of %lu: %s\n", k + 1, n,
			        strerror(errno));
			return 1;
		}
		answered += (unsigned long)r;
	}
	printf("ok flood %lu answered %lu ms %.0f\n", n, answered, now_ms() - t0);
	return 0;
}
