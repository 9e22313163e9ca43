/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spoofproof.c: a client that lies about its UDP source port, for
 * tests/live_spoof.sh. Not installed. Needs root (a raw socket).
 *
 *   spoofproof [-c | -e] [-o | -a] [-1] PORT N L GAP_US
 *
 * It asks the partner on 127.0.0.1 PORT, as a real client would (HELLO,
 * PARAMS saying that it echoes cookies, READY), to send N datagrams of L
 * bytes GAP_US microseconds apart. It opens a victim UDP socket of its own
 * on 127.0.0.1 and sends the proof datagram, with READY's real nonce, from
 * a raw socket whose UDP source port is the victim's (again every 200 ms
 * until the partner speaks): the partner would send the test to the victim.
 * It echoes nothing. -c: the victim's port is closed (bound, then closed:
 * ICMP port unreachable answers there); -e: the victim is a UDP echo
 * service, sending back whatever it gets (a reflector at the spoofed port);
 * -o: PARAMS without xflags 0x8, for a partner from before return-path
 * validation (which refuses the bit it does not know); -a: the partner
 * is asked to receive N datagrams with --sliding-window (xflags 0x20), so
 * that it would send its acknowledgements to the victim; -1: one spoofed
 * proof only.
 *
 * It reads the control connection until ERROR, the end of RESULT or the
 * partner's close (TIMEOUT_MS at most), counting what reaches the victim
 * meanwhile, then prints, one line each:
 *   victim port V
 *   proofs P                 spoofed proofs sent
 *   partner ERROR text | partner START | partner closed
 *   victim data D bytes B cookies C other O reflected R
 * D counts the data datagrams (GPUD), C the partner's cookies (GPUC), O
 * anything else; R what the echo service sent back. A failure to run the
 * attack (no raw socket, the handshake refused) prints "spoofproof: why"
 * on stderr and exits 1: the test cannot then pass.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl.h"
#include "net.h"
#include "xfer_markers.h"
#include "xfer_path.h"

#define TIMEOUT_MS 30000
#define PROOF_EVERY_MS 200

struct victim {
	int fd;
	uint16_t port;
	int echo;                       /* -e: send back what arrives */
	uint64_t data, bytes, cookies, other, reflected;
};

static void __attribute__((noreturn))
die(const char *what, const char *why)
{
	fprintf(stderr, "spoofproof: %s: %s\n", what, why);
	exit(1);
}

static uint16_t
csum_add(uint32_t sum, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(b[i] << 8 | b[i + 1]);
	if (n & 1)
		sum += (uint32_t)b[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* The proof of stream 1, from 127.0.0.1 port sport to 127.0.0.1 port
 * dport, on a raw socket (IPPROTO_RAW: this builds the IP header too; the
 * kernel fills its checksum and id). */
static void
send_spoofed(int raw, uint16_t sport, uint16_t dport, const uint8_t *payload,
             size_t n)
{
	uint8_t pkt[20 + 8 + PROOF_MAX_LEN], ph[12];
	struct sockaddr_in to = { .sin_family = AF_INET,
	    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	size_t ulen = 8 + n;
	uint16_t sum;

	memset(pkt, 0, sizeof pkt);
	pkt[0] = 0x45;                              /* IPv4, 20 bytes */
	pkt[2] = (uint8_t)((20 + ulen) >> 8);
	pkt[3] = (uint8_t)(20 + ulen);
	pkt[8] = 64;                                /* TTL */
	pkt[9] = IPPROTO_UDP;
	memcpy(pkt + 12, "\x7f\0\0\x01\x7f\0\0\x01", 8);
	pkt[20] = (uint8_t)(sport >> 8);
	pkt[21] = (uint8_t)sport;
	pkt[22] = (uint8_t)(dport >> 8);
	pkt[23] = (uint8_t)dport;
	pkt[24] = (uint8_t)(ulen >> 8);
	pkt[25] = (uint8_t)ulen;
	memcpy(pkt + 28, payload, n);
	memcpy(ph, pkt + 12, 8);                    /* the pseudo-header */
	ph[8] = 0;
	ph[9] = IPPROTO_UDP;
	ph[10] = pkt[24];
	ph[11] = pkt[25];
	sum = (uint16_t)~csum_add(csum_add(0, ph, sizeof ph), pkt + 20, ulen);
	if (sum == 0)
		sum = 0xffff;
	pkt[26] = (uint8_t)(sum >> 8);
	pkt[27] = (uint8_t)sum;
	if (sendto(raw, pkt, 20 + ulen, 0, (struct sockaddr *)&to, sizeof to) !=
	    (ssize_t)(20 + ulen))
		die("raw send", strerror(errno));
}

/* Everything queued at the victim, counted (and with -e sent back). */
static void
victim_read(struct victim *v)
{
	int k;

	for (k = 0; k < 4096; k++) {        /* then the caller looks again */
		uint8_t b[65536];
		struct sockaddr_storage from;
		socklen_t fl = sizeof from;
		struct wire_gpud d;
		struct wire_cookie c;
		ssize_t n = recvfrom(v->fd, b, sizeof b, MSG_DONTWAIT,
		    (struct sockaddr *)&from, &fl);

		if (n < 0)
			return;
		if (wire_gpud_decode(b, (size_t)n, &d) != WIRE_NONE) {
			v->data++;
			v->bytes += (uint64_t)n;
		} else if (wire_gpuc_decode(b, (size_t)n, (size_t)n, &c) == WIRE_OK) {
			v->cookies++;
		} else {
			v->other++;
		}
		if (v->echo && sendto(v->fd, b, (size_t)n, 0,
		    (struct sockaddr *)&from, fl) == n)
			v->reflected++;
	}
}

static void
victim_open(struct victim *v, int closed)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
	    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof a;
	int big = 8 << 20;

	v->fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (v->fd == -1 || bind(v->fd, (struct sockaddr *)&a, sizeof a) == -1 ||
	    getsockname(v->fd, (struct sockaddr *)&a, &al) == -1)
		die("victim socket", strerror(errno));
	/* room for the whole test: what arrives is counted, not dropped */
	(void)setsockopt(v->fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big);
	v->port = ntohs(a.sin_port);
	if (closed) {                   /* nothing listens there now */
		close(v->fd);
		v->fd = -1;
	}
}

/* HELLO, PARAMS (the partner sends; this client says it echoes), READY. */
/* -a: ask the partner to receive with --sliding-window. */
static int acks;

static void
handshake(int ctl, unsigned long n, unsigned long len, unsigned long gap_us,
          int old, struct ctl_msg *params, struct ctl_msg *ready)
{
	struct xfer_params *x = &params->params;
	struct ctl_msg hello;
	char err[256];

	if (ctl_recv_type(ctl, CTL_HELLO, &hello, TIMEOUT_MS, NULL, err,
	    sizeof err) == -1)
		die("hello", err);
	memset(params, 0, sizeof *params);
	params->type = CTL_PARAMS;
	x->proto = PROTO_UDP;
	x->role = ROLE_SEND;
	x->count = n;
	x->len = x->data_len = (uint32_t)len;
	x->data_bytes = (uint64_t)n * len;
	x->data_gap_ps = (uint64_t)gap_us * 1000000u;
	x->streams = 1;
	x->xflags = old ? 0 : CTL_XF_COOKIE;
	if (acks) {                         /* it receives and acknowledges */
		x->role = ROLE_RECV;
		x->data_gap_ps = 0;
		x->xflags |= CTL_XF_WINDOW;
	}
	if (ctl_send(ctl, params, err, sizeof err) == -1)
		die("params", err);
	if (ctl_recv_type(ctl, CTL_READY, ready, TIMEOUT_MS, NULL, err,
	    sizeof err) == -1)
		die("ready", ready->type == CTL_ERROR ? ready->text : err);
}

/* Wait up to ms for the control connection (1) or the victim, counting. */
static int
wait_ctl(int ctl, struct victim *v, int ms)
{
	struct pollfd pfd[2] = { { ctl, POLLIN, 0 }, { v->fd, POLLIN, 0 } };
	int r = poll(pfd, 2, ms);           /* fd -1 (-c) is skipped */

	if (r > 0 && pfd[1].revents)
		victim_read(v);
	return r > 0 && pfd[0].revents != 0;
}

int
main(int argc, char **argv)
{
	struct victim v = { .fd = -1 };
	struct ctl_msg params, ready, m;
	uint8_t proof[PROOF_MAX_LEN];
	mono_ns deadline, next;
	unsigned long port, n, len, gap;
	uint64_t proofs = 0;
	char err[256];
	int i = 1, closed = 0, old = 0, once = 0, ctl, raw, started = 0;

	acks = 0;
	size_t plen;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0' &&
	    strchr("ceoa1", argv[i][1]) != NULL && argv[i][2] == '\0'; i++) {
		acks |= argv[i][1] == 'a';
		closed |= argv[i][1] == 'c';
		v.echo |= argv[i][1] == 'e';
		old |= argv[i][1] == 'o';
		once |= argv[i][1] == '1';
	}
	if (argc - i != 4 || (closed && v.echo) || (old && acks)) {
		fprintf(stderr, "usage: spoofproof [-c | -e] [-o | -a] [-1] PORT N L "
		        "GAP_US\n");
		return 2;
	}
	port = strtoul(argv[i], NULL, 10);
	n = strtoul(argv[i + 1], NULL, 10);
	len = strtoul(argv[i + 2], NULL, 10);
	gap = strtoul(argv[i + 3], NULL, 10);
	if (port == 0 || port > 65535 || n == 0 || len < WIRE_GPUD_LEN ||
	    len > 1472)
		die("arguments", "PORT 1..65535, N > 0, L 24..1472");
	raw = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (raw == -1)
		die("raw socket (root or CAP_NET_RAW)", strerror(errno));
	victim_open(&v, closed);
	printf("victim port %u\n", v.port);
	ctl = net_connect("127.0.0.1", (uint16_t)port, AF_INET, TIMEOUT_MS, NULL,
	    err, sizeof err);
	if (ctl == -1)
		die("connect", err);
	handshake(ctl, n, len, gap, old, &params, &ready);
	plen = xfer_proof_encode(&params.params, ready.nonce, 1, proof);
	deadline = mono_now() + (mono_ns)TIMEOUT_MS * 1000000u;
	/* the proof from the victim's port, every PROOF_EVERY_MS until the
	 * partner speaks */
	for (next = 0; !wait_ctl(ctl, &v, 10); ) {
		if (mono_now() >= deadline)
			die("waiting for the partner", "timed out");
		if (mono_now() < next || (once && proofs > 0))
			continue;
		send_spoofed(raw, v.port, ready.port[0], proof, plen);
		proofs++;
		next = mono_now() + (mono_ns)PROOF_EVERY_MS * 1000000u;
	}
	printf("proofs %llu\n", (unsigned long long)proofs);
	/* then whatever the partner says, until it is done */
	for (;;) {
		while (!wait_ctl(ctl, &v, 100))
			if (mono_now() >= deadline)
				die("waiting for the partner", "timed out");
		if (ctl_recv_any_until(ctl, &m, deadline, NULL, err, sizeof err) == -1) {
			printf("partner closed\n");
			break;
		}
		if (m.type == CTL_ERROR) {
			printf("partner ERROR %s\n", m.text);
			break;
		}
		if (m.type == CTL_START && !started++)
			printf("partner START\n");
		if (m.type == CTL_RESULT && m.stream == 0)
			break;
	}
	/* on loopback a datagram is queued at the victim when its send returns,
	 * before the message that followed it: all of it is there now */
	if (v.fd != -1)
		victim_read(&v);
	printf("victim data %llu bytes %llu cookies %llu other %llu reflected "
	       "%llu\n", (unsigned long long)v.data, (unsigned long long)v.bytes,
	       (unsigned long long)v.cookies, (unsigned long long)v.other,
	       (unsigned long long)v.reflected);
	return 0;
}
