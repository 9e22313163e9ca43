/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hostprobe: what this host's loopback can move, without any tool in the way.
 * Built and run by tools/bench.sh (make bench) for its host-ceiling rows; not
 * part of the gput build, not installed.
 *
 *   hostprobe MODE LEN BYTES RXCPU TXCPU [MBITS [BUF]]
 *
 * One sender thread and one receiver thread in this process, pinned to CPUs
 * TXCPU and RXCPU (-1: not pinned), move BYTES in LEN-byte units over one
 * socket pair on 127.0.0.1:
 *   udp-send   one send() per datagram; the receiver one recv() per datagram
 *   udp-mmsg   sendmmsg() of 64 datagrams; recvmmsg() of up to 64
 *   udp-gso    UDP GSO (UDP_SEGMENT) on send, as many LEN-byte segments per
 *              send() as fit one 64 KiB datagram; UDP GRO on receive, each
 *              coalesced read counted as len / gso_size segments (its cmsg)
 *   tcp-copy   LEN-byte writes; the receiver reads with LEN-byte recv()s
 *   tcp-copy-full, tcp-trunc-full  the same with SO_RCVLOWAT = LEN on the
 *              receiver: each recv() waits for a whole LEN (gput --full-reads)
 *   tcp-trunc  the same, read with recv(MSG_TRUNC): the kernel drops the
 *              bytes instead of copying them
 * MBITS over 0 paces the sender to that payload rate (10^6 bit/s) on an
 * absolute schedule: after each call it sleeps until the bytes sent so far
 * are due (so make bench can search the probe's best rate under its loss
 * ceiling like any tool's); 0 or none: unpaced.
 * BUF over 0: both sockets' send and receive buffers (SO_SNDBUF, SO_RCVBUF,
 * capped by net.core.[rw]mem_max), as the tools beside it get with their -w;
 * 0 or none: the system's defaults.
 * Every datagram is counted on arrival.
 *
 * Prints one line of key=value pairs:
 *   mode= len= sent= received= bytes= seconds= rate_Mbps= tx_cpu= rx_cpu=
 *   loss_pct= calls_tx= calls_rx=
 * sent/received: datagrams (UDP) or bytes (TCP); bytes: payload bytes that
 * arrived; seconds: from the sender's first call to the last arrival;
 * rate_Mbps: bytes * 8 / seconds / 10^6; tx_cpu, rx_cpu: each thread's own
 * CPU seconds (user + system, RUSAGE_THREAD). Exit 2: the kernel refused the
 * mode (UDP GSO/GRO); 1: any other failure.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif
#ifndef SOL_UDP
#define SOL_UDP 17
#endif

#define BATCH 64
#define MAXDGRAM 65507             /* largest UDP payload over IPv4 */
#define MAXLEN   (64LL << 20)      /* LEN at most (gput's -l too) */
#define MAXBYTES (1LL << 62)       /* BYTES at most (gput's -x too) */
#define MAXMBITS 1e7               /* MBITS at most: 10 Tbit/s */

enum mode { UDP_SEND, UDP_MMSG, UDP_GSO, TCP_COPY, TCP_TRUNC };
static int full_reads;             /* tcp-*-full: SO_RCVLOWAT = len */

static enum mode mode;
static size_t len;
static uint64_t total;             /* bytes to send */
static int txcpu = -1, rxcpu = -1;
static double mbits;               /* pacing, 10^6 bit/s; 0: none */
static int bufsize;                /* SO_SNDBUF/SO_RCVBUF; 0: defaults */
static int txfd = -1, rxfd = -1;

static atomic_int started;         /* the sender is about to make its first call */
static atomic_int rx_ready;        /* the receiver is pinned and about to read */
static atomic_int sender_done;
static struct timespec t_start;    /* written before started is set */

/* What each thread writes as it goes, a cache line (or more) of its own:
 * counters of the two threads side by side in one line would bounce it
 * between their CPUs on every call, a cost no tool beside the probe pays
 * (the probe read 25% under gput at 1448-byte writes with them so). */
#define LINE 64
static struct {
	uint64_t units, calls;     /* datagrams or bytes sent; calls made */
	double cpu;
	int err;
} __attribute__((aligned(LINE))) txc;
static struct {
	uint64_t units, bytes, calls;
	double t_last;             /* the last arrival */
	double cpu;
	int err;
} __attribute__((aligned(LINE))) rxc;

/* A buffer at a page boundary, its length whole pages: the kernel's copy
 * routines run fastest so, and gput's data paths allocate the same way
 * (src/databuf.c), so the ceiling is measured as gput's rows are. */
static void *
page_alloc(size_t n)
{
	return aligned_alloc(4096, (n + 4095) / 4096 * 4096);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double thread_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void pin(int cpu)
{
	cpu_set_t set;
	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* With --rate: sleep until SENT bytes are due after the start. */
static void pace(uint64_t sent)
{
	double due;
	struct timespec ts;
	if (mbits <= 0)
		return;
	due = t_start.tv_sec + t_start.tv_nsec / 1e9 + (double)sent * 8 / (mbits * 1e6);
	if (now_s() >= due)
		return;
	ts.tv_sec = (time_t)due;
	ts.tv_nsec = (long)((due - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void *sender(void *arg)
{
	char *buf;
	double c0;
	uint64_t left = total;
	(void)arg;
	pin(txcpu);
	buf = page_alloc(MAXDGRAM > len ? MAXDGRAM : len);
	if (!buf) { txc.err = ENOMEM; return NULL; }
	memset(buf, 0, MAXDGRAM > len ? MAXDGRAM : len);
	while (!atomic_load(&rx_ready))     /* no datagram before the receiver is there */
		sched_yield();
	usleep(1000);
	c0 = thread_cpu();
	clock_gettime(CLOCK_MONOTONIC, &t_start);
	atomic_store(&started, 1);
	if (mode == UDP_SEND || mode == TCP_COPY || mode == TCP_TRUNC) {
		while (left) {
			size_t n = left < len ? left : len;
			ssize_t w = send(txfd, buf, n, 0);
			txc.calls++;
			if (w < 0) {
				if (errno == EINTR || errno == ENOBUFS)
					continue;
				txc.err = errno;
				break;
			}
			left -= (size_t)w;
			txc.units += mode == UDP_SEND ? 1 : (uint64_t)w;
			pace(total - left);
		}
	} else if (mode == UDP_MMSG) {
		struct mmsghdr mm[BATCH];
		struct iovec iov[BATCH];
		memset(mm, 0, sizeof mm);
		for (int i = 0; i < BATCH; i++) {
			iov[i].iov_base = buf;
			iov[i].iov_len = len;
			mm[i].msg_hdr.msg_iov = &iov[i];
			mm[i].msg_hdr.msg_iovlen = 1;
		}
		while (left) {
			uint64_t want = (left + len - 1) / len;
			int k = want < BATCH ? (int)want : BATCH;
			if ((uint64_t)k * len > left)  /* a shorter last datagram */
				iov[k - 1].iov_len = left - (uint64_t)(k - 1) * len;
			int r = sendmmsg(txfd, mm, (unsigned)k, 0);
			txc.calls++;
			if (r < 0) {
				if (errno == EINTR || errno == ENOBUFS)
					continue;
				txc.err = errno;
				break;
			}
			for (int i = 0; i < r; i++)
				left -= iov[i].iov_len;
			txc.units += (uint64_t)r;
			pace(total - left);
		}
	} else {                           /* UDP_GSO */
		size_t per = (MAXDGRAM / len) * len;  /* whole segments per send */
		while (left) {
			size_t n = left < per ? left : per;
			ssize_t w = send(txfd, buf, n, 0);
			txc.calls++;
			if (w < 0) {
				if (errno == EINTR || errno == ENOBUFS)
					continue;
				txc.err = errno;
				break;
			}
			left -= (size_t)w;
			txc.units += ((uint64_t)w + len - 1) / len;
			pace(total - left);
		}
	}
	if (mode == TCP_COPY || mode == TCP_TRUNC)
		shutdown(txfd, SHUT_WR);
	txc.cpu = thread_cpu() - c0;
	atomic_store(&sender_done, 1);
	free(buf);
	return NULL;
}

static void *receiver(void *arg)
{
	char *buf;
	double c0;
	size_t blen = MAXDGRAM > len ? MAXDGRAM : len;
	int idle = 0;
	(void)arg;
	pin(rxcpu);
	buf = page_alloc(blen * (mode == UDP_MMSG ? BATCH : 1));
	if (!buf) { rxc.err = ENOMEM; return NULL; }
	c0 = thread_cpu();
	atomic_store(&rx_ready, 1);
	for (;;) {
		if (mode == TCP_COPY || mode == TCP_TRUNC) {
			ssize_t r = recv(rxfd, buf, len, mode == TCP_TRUNC ? MSG_TRUNC : 0);
			rxc.calls++;
			if (r < 0) {
				if (errno == EINTR || errno == EAGAIN)
					continue;
				rxc.err = errno;
				break;
			}
			if (r == 0)
				break;
			rxc.bytes += (uint64_t)r;
			rxc.units += (uint64_t)r;
			if (rxc.bytes == total)    /* the last byte: no clock per call */
				rxc.t_last = now_s();
			continue;
		}
		/* UDP: a 20 ms receive timeout; after the sender is done, five
		 * of them in a row end the run (what is still queued arrives
		 * well within that on loopback). */
		if (mode == UDP_SEND) {
			ssize_t r = recv(rxfd, buf, blen, 0);
			rxc.calls++;
			if (r >= 0) {
				rxc.units++;
				rxc.bytes += (uint64_t)r;
				rxc.t_last = now_s();
				idle = 0;
			} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
				if (atomic_load(&sender_done) && ++idle >= 5)
					break;
			} else if (errno != EINTR) {
				rxc.err = errno;
				break;
			}
		} else if (mode == UDP_MMSG) {
			struct mmsghdr mm[BATCH];
			struct iovec iov[BATCH];
			memset(mm, 0, sizeof mm);
			for (int i = 0; i < BATCH; i++) {
				iov[i].iov_base = buf + (size_t)i * blen;
				iov[i].iov_len = blen;
				mm[i].msg_hdr.msg_iov = &iov[i];
				mm[i].msg_hdr.msg_iovlen = 1;
			}
			int r = recvmmsg(rxfd, mm, BATCH, MSG_WAITFORONE, NULL);
			rxc.calls++;
			if (r > 0) {
				for (int i = 0; i < r; i++)
					rxc.bytes += mm[i].msg_len;
				rxc.units += (uint64_t)r;
				rxc.t_last = now_s();
				idle = 0;
			} else if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
				if (atomic_load(&sender_done) && ++idle >= 5)
					break;
			} else if (r < 0 && errno != EINTR) {
				rxc.err = errno;
				break;
			}
		} else {                   /* UDP_GSO: GRO on receive */
			char cbuf[CMSG_SPACE(sizeof(int))];
			struct iovec iov = { buf, blen };
			struct msghdr mh = { 0 };
			mh.msg_iov = &iov;
			mh.msg_iovlen = 1;
			mh.msg_control = cbuf;
			mh.msg_controllen = sizeof cbuf;
			ssize_t r = recvmsg(rxfd, &mh, 0);
			rxc.calls++;
			if (r >= 0) {
				int gso = 0;
				for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c;
				    c = CMSG_NXTHDR(&mh, c))
					if (c->cmsg_level == SOL_UDP &&
					    c->cmsg_type == UDP_GRO)
						memcpy(&gso, CMSG_DATA(c), sizeof gso);
				rxc.units += gso > 0 ? ((uint64_t)r + (uint64_t)gso - 1) /
				    (uint64_t)gso : 1;
				rxc.bytes += (uint64_t)r;
				rxc.t_last = now_s();
				idle = 0;
			} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
				if (atomic_load(&sender_done) && ++idle >= 5)
					break;
			} else if (errno != EINTR) {
				rxc.err = errno;
				break;
			}
		}
	}
	rxc.cpu = thread_cpu() - c0;
	free(buf);
	return NULL;
}

static void fail(const char *what)
{
	fprintf(stderr, "hostprobe: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void setup(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof a;
	int udp = mode == UDP_SEND || mode == UDP_MMSG || mode == UDP_GSO;
	int one = 1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (udp) {
		struct timeval tv = { 0, 20000 };
		int fds[2];
		if ((rxfd = socket(AF_INET, SOCK_DGRAM, 0)) < 0 ||
		    (txfd = socket(AF_INET, SOCK_DGRAM, 0)) < 0)
			fail("socket");
		if (bind(rxfd, (struct sockaddr *)&a, sizeof a) < 0 ||
		    getsockname(rxfd, (struct sockaddr *)&a, &al) < 0 ||
		    connect(txfd, (struct sockaddr *)&a, sizeof a) < 0)
			fail("bind/connect");
		if (setsockopt(rxfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) < 0)
			fail("SO_RCVTIMEO");
		fds[0] = rxfd;
		fds[1] = txfd;
		for (int i = 0; bufsize > 0 && i < 2; i++)
			if (setsockopt(fds[i], SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof bufsize) < 0 ||
			    setsockopt(fds[i], SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof bufsize) < 0)
				fail("SO_RCVBUF/SO_SNDBUF");
		if (mode == UDP_GSO) {
			int seg = (int)len;
			if (setsockopt(txfd, SOL_UDP, UDP_SEGMENT, &seg, sizeof seg) < 0 ||
			    setsockopt(rxfd, SOL_UDP, UDP_GRO, &one, sizeof one) < 0) {
				fprintf(stderr, "hostprobe: UDP GSO/GRO refused: %s\n",
				    strerror(errno));
				exit(2);
			}
		}
	} else {
		int lfd = socket(AF_INET, SOCK_STREAM, 0);
		if (lfd < 0 || (txfd = socket(AF_INET, SOCK_STREAM, 0)) < 0)
			fail("socket");
		for (int i = 0; bufsize > 0 && i < 2; i++) {
			int fd = i ? txfd : lfd;   /* the accepted socket inherits lfd's */
			if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof bufsize) < 0 ||
			    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof bufsize) < 0)
				fail("SO_RCVBUF/SO_SNDBUF");
		}
		if (bind(lfd, (struct sockaddr *)&a, sizeof a) < 0 ||
		    listen(lfd, 1) < 0 ||
		    getsockname(lfd, (struct sockaddr *)&a, &al) < 0 ||
		    connect(txfd, (struct sockaddr *)&a, sizeof a) < 0 ||
		    (rxfd = accept(lfd, NULL, NULL)) < 0)
			fail("listen/connect/accept");
		close(lfd);
		if (full_reads) {
			int lw = (int)len;
			if (setsockopt(rxfd, SOL_SOCKET, SO_RCVLOWAT, &lw, sizeof lw) < 0)
				fail("SO_RCVLOWAT");
		}
	}
}

/* A whole decimal number, the whole word (a sign only for -), in [min, max].
 * Returns 0, or -1. */
static int num(const char *s, long long min, long long max, long long *v)
{
	char *end;

	if (!isdigit((unsigned char)(s[0] == '-' ? s[1] : s[0])))
		return -1;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno == 0 && *end == '\0' && *v >= min && *v <= max ? 0 : -1;
}

/* MBITS: a decimal number (digits and a point) from 0 to MAXMBITS, the
 * whole word. Returns 0, or -1. */
static int rate(const char *s, double *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]) || s[strspn(s, "0123456789.")] != '\0')
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	return errno == 0 && *end == '\0' && isfinite(*v) && *v <= MAXMBITS ?
	    0 : -1;
}

int main(int argc, char **argv)
{
	static const char *names[] = { "udp-send", "udp-mmsg", "udp-gso",
	    "tcp-copy", "tcp-trunc", "tcp-copy-full", "tcp-trunc-full" };
	pthread_t tt, rt;
	const char *pname;
	long long v[5] = { 0 };
	int m = -1;

	if (argc < 6 || argc > 8) {
		fprintf(stderr, "usage: hostprobe udp-send|udp-mmsg|udp-gso|"
		    "tcp-copy|tcp-trunc|tcp-copy-full|tcp-trunc-full LEN BYTES RXCPU "
		    "TXCPU [MBITS [BUF]]\n");
		return 1;
	}
	for (int i = 0; i < 7; i++)
		if (strcmp(argv[1], names[i]) == 0)
			m = i;
	if (m > TCP_TRUNC) {               /* the -full modes */
		full_reads = 1;
		m -= 2;
	}
	pname = argv[1];
	if (num(argv[2], 1, MAXLEN, &v[0]) || num(argv[3], 1, MAXBYTES, &v[1]) ||
	    num(argv[4], -1, CPU_SETSIZE - 1, &v[2]) ||
	    num(argv[5], -1, CPU_SETSIZE - 1, &v[3]) ||
	    (argc >= 7 && rate(argv[6], &mbits)) ||
	    (argc >= 8 && num(argv[7], 0, INT_MAX, &v[4])))
		m = -1;
	len = (size_t)v[0];
	total = (uint64_t)v[1];
	rxcpu = (int)v[2];
	txcpu = (int)v[3];
	bufsize = (int)v[4];
	if (m < 0 || (m <= UDP_GSO && len > MAXDGRAM)) {
		fprintf(stderr, "hostprobe: bad arguments\n");
		return 1;
	}
	mode = (enum mode)m;
	setup();
	if (pthread_create(&rt, NULL, receiver, NULL) ||
	    pthread_create(&tt, NULL, sender, NULL))
		fail("pthread_create");
	pthread_join(tt, NULL);
	pthread_join(rt, NULL);
	if (txc.err || rxc.err) {
		errno = txc.err ? txc.err : rxc.err;
		fail(txc.err ? "send" : "receive");
	}
	{
		double t0 = t_start.tv_sec + t_start.tv_nsec / 1e9;
		double secs = rxc.t_last > t0 ? rxc.t_last - t0 : 0;
		int udp = mode <= UDP_GSO;
		uint64_t sent = udp ? txc.units : total;
		double loss = sent ? 100.0 * (double)(sent - (rxc.units < sent ? rxc.units : sent)) /
		    (double)sent : 0;
		if (!udp && rxc.bytes != total) {
			fprintf(stderr, "hostprobe: TCP: %llu of %llu bytes arrived\n",
			    (unsigned long long)rxc.bytes, (unsigned long long)total);
			return 1;
		}
		printf("mode=%s len=%zu sent=%llu received=%llu bytes=%llu seconds=%.6f "
		    "rate_Mbps=%.4f tx_cpu=%.3f rx_cpu=%.3f loss_pct=%.4f "
		    "calls_tx=%llu calls_rx=%llu\n", pname, len,
		    (unsigned long long)sent, (unsigned long long)rxc.units,
		    (unsigned long long)rxc.bytes, secs,
		    secs > 0 ? (double)rxc.bytes * 8 / secs / 1e6 : 0, txc.cpu, rxc.cpu,
		    loss, (unsigned long long)txc.calls, (unsigned long long)rxc.calls);
	}
	return 0;
}
