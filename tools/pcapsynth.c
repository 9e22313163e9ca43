/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pcapsynth: write the capture make bench times gput-pcap, tshark and
 * tcptrace on (tools/bench.sh, BENCH_PCAP). Built into the bench's temporary
 * directory; not part of the gput build, not installed.
 *
 *   pcapsynth FILE BYTES [SNAPLEN]
 *
 * One TCP connection over IPv4 on Ethernet, as a 1500-byte-MTU link shows
 * it: the three-way handshake, BYTES of payload from 10.0.0.1:40000 to
 * 10.0.0.2:5001 in full 1448-byte segments (TCP timestamps on, so 1448 =
 * 1500 - 20 - 32), a pure ACK for every second segment, FIN both ways.
 * Timestamps (microseconds) follow the segments' wire time at 1 Gbit/s.
 * Frames are cut to SNAPLEN (default 128) as tcpdump -s 128 would; the
 * headers are complete, the IPv4 header checksum right, the TCP checksum
 * zero (as on a sending host with checksum offload). Prints the payload
 * bytes and the frame count.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSS 1448
#define MAXBYTES (1ULL << 50)    /* BYTES at most */

static FILE *out;
static unsigned snaplen = 128;
static uint64_t t_ns = 1700000000ULL * 1000000000ULL;
static uint64_t frames;

static void put16(uint8_t *b, unsigned v) { b[0] = v >> 8; b[1] = v; }
static void put32(uint8_t *b, uint32_t v)
{
	b[0] = v >> 24; b[1] = v >> 16; b[2] = v >> 8; b[3] = v;
}
static void le32(uint8_t *b, uint32_t v)
{
	b[0] = v; b[1] = v >> 8; b[2] = v >> 16; b[3] = v >> 24;
}

/* One frame: dir 0 = client to server; flags TCP; payload bytes. */
static void frame(int dir, uint32_t seq, uint32_t ack, uint8_t flags,
    unsigned payload)
{
	uint8_t f[14 + 20 + 32 + 64] = { 0 }, rec[16];
	uint8_t *ip = f + 14, *tcp = ip + 20;
	unsigned wirelen = 14 + 20 + 32 + payload, cap, sum = 0;
	static const uint8_t mac[2][6] = { { 2, 0, 0, 0, 0, 1 }, { 2, 0, 0, 0, 0, 2 } };

	memcpy(f, mac[!dir], 6);
	memcpy(f + 6, mac[dir], 6);
	put16(f + 12, 0x0800);
	ip[0] = 0x45;
	put16(ip + 2, 20 + 32 + payload);
	put16(ip + 4, (uint16_t)frames);
	ip[6] = 0x40;                      /* DF */
	ip[8] = 64;
	ip[9] = 6;
	put32(ip + 12, dir ? 0x0a000002 : 0x0a000001);
	put32(ip + 16, dir ? 0x0a000001 : 0x0a000002);
	for (int i = 0; i < 20; i += 2)
		sum += (unsigned)ip[i] << 8 | ip[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	put16(ip + 10, ~sum & 0xffff);
	put16(tcp, dir ? 5001 : 40000);
	put16(tcp + 2, dir ? 40000 : 5001);
	put32(tcp + 4, seq);
	put32(tcp + 8, ack);
	tcp[12] = 8 << 4;                  /* 32-byte header */
	tcp[13] = flags;
	put16(tcp + 14, 65535);
	tcp[20] = 1; tcp[21] = 1;          /* NOP NOP timestamps */
	tcp[22] = 8; tcp[23] = 10;
	put32(tcp + 24, (uint32_t)(t_ns / 1000000));
	put32(tcp + 28, (uint32_t)(t_ns / 1000000) - 1);
	for (unsigned i = 0; i < payload && 66 + i < sizeof f; i++)
		f[66 + i] = 'x';
	cap = wirelen < snaplen ? wirelen : snaplen;
	le32(rec, (uint32_t)(t_ns / 1000000000ULL));
	le32(rec + 4, (uint32_t)(t_ns / 1000 % 1000000));
	le32(rec + 8, cap);
	le32(rec + 12, wirelen);
	fwrite(rec, 1, 16, out);
	fwrite(f, 1, cap, out);
	frames++;
	/* wire time at 1 Gbit/s: preamble, frame, FCS, gap = wirelen + 24 */
	t_ns += (uint64_t)(wirelen + 24) * 8;
}

/* A whole decimal number, the whole word, at most max. Returns 0, or -1. */
static int num(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno == 0 && *end == '\0' && *v <= max ? 0 : -1;
}

int main(int argc, char **argv)
{
	uint8_t gh[24] = { 0 };
	uint64_t bytes, sent = 0, v;
	uint32_t cs = 1000000, ss = 2000000, n = 0;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: pcapsynth FILE BYTES [SNAPLEN]\n");
		return 1;
	}
	if (num(argv[2], MAXBYTES, &bytes) == -1) {
		fprintf(stderr, "pcapsynth: BYTES from 0 to %llu\n",
		        (unsigned long long)MAXBYTES);
		return 1;
	}
	if (argc == 4 && num(argv[3], 128, &v) == -1)
		v = 0;
	if (argc == 4)
		snaplen = (unsigned)v;
	if (snaplen < 66 || snaplen > 128) {
		fprintf(stderr, "pcapsynth: SNAPLEN from 66 to 128\n");
		return 1;
	}
	if (!(out = fopen(argv[1], "wb"))) {
		perror(argv[1]);
		return 1;
	}
	le32(gh, 0xa1b2c3d4);              /* microsecond pcap, this order */
	gh[4] = 2; gh[6] = 4;              /* version 2.4 */
	le32(gh + 16, snaplen);
	le32(gh + 20, 1);                  /* DLT_EN10MB */
	fwrite(gh, 1, 24, out);
	frame(0, cs, 0, 0x02, 0);          /* SYN */
	frame(1, ss, cs + 1, 0x12, 0);     /* SYN ACK */
	cs++; ss++;
	frame(0, cs, ss, 0x10, 0);
	while (sent < bytes) {
		unsigned p = bytes - sent < MSS ? (unsigned)(bytes - sent) : MSS;
		frame(0, cs + (uint32_t)sent, ss, 0x18, p);
		sent += p;
		if (++n % 2 == 0 || sent == bytes)
			frame(1, ss, cs + (uint32_t)sent, 0x10, 0);
	}
	frame(0, cs + (uint32_t)sent, ss, 0x11, 0);        /* FIN */
	frame(1, ss, cs + (uint32_t)sent + 1, 0x11, 0);   /* FIN ACK */
	frame(0, cs + (uint32_t)sent + 1, ss + 1, 0x10, 0);
	if (fclose(out) != 0) {
		perror(argv[1]);
		return 1;
	}
	printf("payload=%llu frames=%llu\n", (unsigned long long)bytes,
	    (unsigned long long)frames);
	return 0;
}
