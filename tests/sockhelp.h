/* SPDX-License-Identifier: BSD-2-Clause */
/* sockhelp.h: connected loopback socket pairs for the unit tests (include
 * after cmocka.h: a failed call fails the test). */
#ifndef GPUT_TESTS_SOCKHELP_H
#define GPUT_TESTS_SOCKHELP_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Two connected UDP sockets on 127.0.0.1; sv[1] receives into a buffer of
 * rcvbuf bytes (SO_RCVBUFFORCE, else SO_RCVBUF; 0: the default). */
static inline void
sock_udp_pair(int sv[2], int rcvbuf)
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
	if (rcvbuf > 0 && setsockopt(sv[1], SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
	    sizeof rcvbuf) == -1)
		assert_int_equal(setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &rcvbuf,
		                            sizeof rcvbuf), 0);
	assert_int_equal(connect(sv[0], (struct sockaddr *)&a[1], sizeof a[1]), 0);
	assert_int_equal(connect(sv[1], (struct sockaddr *)&a[0], sizeof a[0]), 0);
}

/* A connected TCP pair on 127.0.0.1: sv[0] connected, sv[1] accepted. */
static inline void
sock_tcp_pair(int sv[2])
{
	struct sockaddr_in a;
	socklen_t al = sizeof a;
	int l = socket(AF_INET, SOCK_STREAM, 0);

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(l >= 0);
	assert_int_equal(bind(l, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(l, 1), 0);
	assert_int_equal(getsockname(l, (struct sockaddr *)&a, &al), 0);
	sv[0] = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(sv[0] >= 0);
	assert_int_equal(connect(sv[0], (struct sockaddr *)&a, sizeof a), 0);
	sv[1] = accept(l, NULL, NULL);
	assert_true(sv[1] >= 0);
	close(l);
}

#endif
