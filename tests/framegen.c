/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * framegen: Ethernet frames onto an interface as cheaply as the host can
 * send them, to load the testbed's delay line (tools/gput-delay) harder than
 * a UDP sender's stack can on a small machine. Not installed.
 *
 *   framegen DEV COUNT LEN RATE
 *
 * COUNT frames of LEN bytes (60..9018, Ethernet header included: an IPv4/UDP
 * frame to 198.18.0.2 from 198.18.0.1, broadcast destination) at RATE
 * frames per second (0: as fast as it can), in batches of 64 (sendmmsg on
 * an AF_PACKET socket that bypasses the qdisc). Prints "sent N in S s".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static uint8_t frame[9018];
	struct mmsghdr m[BATCH];
	struct iovec iov;
	struct sockaddr_ll sa;
	long count, len, rate, sent = 0;
	int fd, one = 1, i;
	double t0, t;

	if (argc != 5) {
		fprintf(stderr, "usage: framegen DEV COUNT LEN RATE\n");
		return 2;
	}
	count = strtol(argv[2], NULL, 10);
	len = strtol(argv[3], NULL, 10);
	rate = strtol(argv[4], NULL, 10);
	if (count < 1 || len < 60 || len > 9018 || rate < 0) {
		fprintf(stderr, "framegen: bad COUNT, LEN or RATE\n");
		return 2;
	}
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("framegen: socket");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sll_family = AF_PACKET;
	sa.sll_ifindex = (int)if_nametoindex(argv[1]);
	if (sa.sll_ifindex == 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("framegen: bind");
		return 1;
	}
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	memset(frame, 0xff, 6);                 /* broadcast */
	memcpy(frame + 6, "\x02\x00\x00\x00\x00\x01", 6);
	frame[12] = 0x08;                       /* IPv4 */
	frame[14] = 0x45;
	frame[16] = (uint8_t)((len - 14) >> 8);
	frame[17] = (uint8_t)(len - 14);
	frame[22] = 64;
	frame[23] = 17;                         /* UDP; checksum left 0 */
	memcpy(frame + 26, "\xc6\x12\x00\x01\xc6\x12\x00\x02", 8);
	iov.iov_base = frame;
	iov.iov_len = (size_t)len;
	memset(m, 0, sizeof(m));
	for (i = 0; i < BATCH; i++) {
		m[i].msg_hdr.msg_iov = &iov;
		m[i].msg_hdr.msg_iovlen = 1;
	}
	t0 = now();
	while (sent < count) {
		int n = count - sent < BATCH ? (int)(count - sent) : BATCH;
		int r;

		if (rate) {
			double due = t0 + (double)sent / (double)rate;

			while ((t = now()) < due) {
				if (due - t > 0.0002) {
					struct timespec ts = { 0, (long)((due - t - 0.0001) * 1e9) };

					nanosleep(&ts, NULL);
				}
			}
		}
		r = sendmmsg(fd, m, (unsigned)n, 0);
		if (r < 0) {
			if (errno == EINTR || errno == ENOBUFS || errno == EAGAIN)
				continue;
			perror("framegen: sendmmsg");
			return 1;
		}
		sent += r;
	}
	printf("sent %ld in %.3f s\n", sent, now() - t0);
	return 0;
}
