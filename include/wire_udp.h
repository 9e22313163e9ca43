/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_WIRE_UDP_H
#define GPUT_WIRE_UDP_H

#include <stddef.h>
#include <stdint.h>

/*
 * The datagrams of gput's UDP data path (gput(1), PROTOCOL): their layout,
 * encoded and decoded here only, by the data path and by gput-pcap alike.
 * Pure: no sockets, no clock, no stop request. Every number is big-endian.
 * Each decoder reads only the n bytes it is given (a capture may hold fewer
 * than the datagram had) and says what they showed.
 */

/* Does one decoded datagram's kind show in buf? */
enum wire_udp_res {
	WIRE_NONE,   /* not this kind */
	WIRE_OK,     /* this kind, every field decoded */
	WIRE_CUT     /* this kind by its first bytes, the rest not in buf */
};

/*
 * GPUD, the data header, at the start of every data datagram when the
 * sender's datagrams (data_len and the last one under -x) are at least
 * WIRE_GPUD_LEN bytes: gput's own 24 bytes after UDP's 8 (OVH_UDP_HDR); the
 * pattern fills the rest:
 *   0 "GPUD", 4 stream u32 (0), 8 sequence u64 (from 0), 16 send time u64
 *   (ns on the sender's real-time clock: the time its schedule set for the
 *   datagram, so no clock is read per datagram; 0 when unpaced).
 * Shorter datagrams carry none: the receiver then counts by length only.
 */
#define WIRE_GPUD_LEN     24u
#define WIRE_GPUD_STREAM   4u
#define WIRE_GPUD_SEQ      8u
#define WIRE_GPUD_SEND    16u

struct wire_gpud {
	uint32_t stream;
	uint64_t seq, send_ns;
};

/* Build the header in h (WIRE_GPUD_LEN bytes) for stream 0. */
void wire_gpud_encode(uint8_t *h, uint64_t seq, uint64_t send_ns);
/* buf[0..n): WIRE_OK with *d filled (n >= WIRE_GPUD_LEN), WIRE_CUT (the
 * magic only), or WIRE_NONE. */
enum wire_udp_res wire_gpud_decode(const uint8_t *buf, size_t n,
                                   struct wire_gpud *d);
/* The receiver's test: is buf[0..n) headed data of stream 0? Stores its
 * sequence and send time. */
int  wire_gpud_data(const uint8_t *buf, size_t n, uint64_t *seq,
                    uint64_t *send_ns);

/*
 * GPUE, the end-of-transfer marker. The sender sends MARKER_COUNT of them,
 * so that losing one or two does not leave the receiver waiting. A
 * marker's length (wire_len_apart from MARKER_BASE_LEN) differs from every
 * data datagram's length, so a marker can never be mistaken for data:
 *   0 "GPUE", 4 version u8 (1), 5 index u8 (1..3), 6 zero u16,
 *   8 datagrams sent u64, 16 bytes sent u64, 24 zero u64, then zero padding.
 */
#define MARKER_BASE_LEN    32u
#define MARKER_MAX_LEN     34u
#define MARKER_COUNT       3
#define WIRE_GPUE_VERSION  4u
#define WIRE_GPUE_INDEX    5u
#define WIRE_GPUE_RSVD     6u
#define WIRE_GPUE_DGRAMS   8u
#define WIRE_GPUE_BYTES   16u
#define WIRE_GPUE_PAD     24u

struct wire_gpue {
	uint8_t  idx;
	uint64_t dgrams, bytes;
	int      have_dgrams; /* buf held the datagrams' count */
	int      zero;        /* the reserved u16 and every byte from
	                         WIRE_GPUE_PAD on (of those in buf) are zero */
};

/* Build marker idx in buf (len bytes, MARKER_BASE_LEN to MARKER_MAX_LEN). */
void wire_gpue_encode(uint8_t *buf, size_t len, uint8_t idx, uint64_t dgrams,
                      uint64_t bytes);
/* buf[0..n): a marker by its first 6 bytes (magic, version 1, index 1 to
 * MARKER_COUNT); WIRE_OK when both counts are there too (n >=
 * WIRE_GPUE_PAD), else WIRE_CUT, with the datagrams' count when n >=
 * WIRE_GPUE_BYTES (d->have_dgrams). */
enum wire_udp_res wire_gpue_decode(const uint8_t *buf, size_t n,
                                   struct wire_gpue *d);

/*
 * GPUH, the proof datagram: the client sends it from its data socket to the
 * partner's, so that the partner learns an address that really listens
 * (and sends nothing before it has one):
 *   0 "GPUH", 4 version u8 (3), 5 zero u8, 6 stream u16 (1..N), 8 nonce[16],
 *   then zero padding.
 * Version 2 had three zero bytes and no stream. Its length (from
 * PROOF_BASE_LEN, wire_len_apart) differs from every data datagram's and
 * from a marker's, so a late copy can never be counted as data.
 */
#define PROOF_BASE_LEN  40u
#define PROOF_MAX_LEN   42u
#define PROOF_NONCE_LEN 16u
#define WIRE_GPUH_VERSION 4u
#define WIRE_GPUH_STREAM  6u
#define WIRE_GPUH_NONCE   8u

/* Build the proof in buf (len bytes, PROOF_BASE_LEN to PROOF_MAX_LEN). */
void wire_gpuh_encode(uint8_t *buf, size_t len,
                      const uint8_t nonce[PROOF_NONCE_LEN], uint16_t stream);
/* Is buf[0..n) a proof by its first 8 bytes (version 3 with a stream, or
 * version 2)? */
int  wire_gpuh_is(const uint8_t *buf, size_t n);

/*
 * GPUC, the partner's cookie, and GPUK, the client's echo of it: the return
 * path's validation (gput(1) SECURITY). Before a partner sends a UDP stream
 * anything, it sends the cookie from the stream's data socket to the address
 * the proof came from and waits for the echo from that address and port;
 * the echo is the cookie transformed (another magic, another length), so a
 * UDP echo service or any other reflector at a spoofed port cannot give it:
 *   0 "GPUC" or "GPUK", 4 version u8 (1), 5 zero u8, 6 stream u16 (1..N),
 *   8 cookie[16] (random, per stream), then zero padding.
 * Their lengths (from COOKIE_BASE_LEN and CECHO_BASE_LEN, wire_len_apart)
 * differ from every data datagram's, a marker's and a proof's.
 */
#define COOKIE_BASE_LEN   44u
#define COOKIE_MAX_LEN    46u
#define CECHO_BASE_LEN    48u
#define CECHO_MAX_LEN     50u
#define WIRE_COOKIE_LEN   16u
#define WIRE_GPUC_VERSION  4u
#define WIRE_GPUC_STREAM   6u
#define WIRE_GPUC_COOKIE   8u
#define WIRE_GPUC_PAD     24u

struct wire_cookie {
	uint16_t stream;
	uint8_t  cookie[WIRE_COOKIE_LEN];
};

/* Build the cookie (GPUC) or its echo (GPUK) in buf (len bytes: from
 * COOKIE_BASE_LEN or CECHO_BASE_LEN up to the kind's MAX_LEN). */
void wire_gpuc_encode(uint8_t *buf, size_t len, const struct wire_cookie *c);
void wire_gpuk_encode(uint8_t *buf, size_t len, const struct wire_cookie *c);
/* buf[0..n): a cookie or an echo by its first 8 bytes (magic, version 1,
 * zero, a stream) and its length in the kind's range? WIRE_OK with *c
 * filled when it is whole, its padding zero and n its datagram's length;
 * WIRE_CUT when only its first bytes are in buf (a capture's snap length:
 * pcap_decode.c); else WIRE_NONE. n is the datagram's length for WIRE_OK,
 * and len the datagram's real length (MSG_TRUNC, a capture's payload). */
enum wire_udp_res wire_gpuc_decode(const uint8_t *buf, size_t n, size_t len,
                                   struct wire_cookie *c);
enum wire_udp_res wire_gpuk_decode(const uint8_t *buf, size_t n, size_t len,
                                   struct wire_cookie *c);

/*
 * GPUA, the acknowledgement of --sliding-window: the receiver answers each
 * data datagram it reads with one, from its data socket to the sender's
 * (the address and port the stream proved: a partner sends it only after
 * the return path's cookie came back, xfer_path.h):
 *   0 "GPUA", 4 version u8 (1), 5 zero u8, 6 stream u16 (1..N),
 *   8 sequence u64 (the data header's it answers), 16 send time u64 (the
 *   data header's, echoed, so the sender measures the round trip).
 * Exactly WIRE_GPUA_LEN bytes: never more than the datagram it answers,
 * which carries the data header (WIRE_GPUD_LEN, as long).
 */
#define WIRE_GPUA_LEN      24u
#define WIRE_GPUA_VERSION   4u
#define WIRE_GPUA_STREAM    6u
#define WIRE_GPUA_SEQ       8u
#define WIRE_GPUA_SEND     16u

struct wire_gpua {
	uint16_t stream;
	uint64_t seq, send_ns;
};

/* Build the acknowledgement in buf (WIRE_GPUA_LEN bytes). */
void wire_gpua_encode(uint8_t *buf, const struct wire_gpua *a);
/* buf[0..n) of a datagram len bytes long (MSG_TRUNC, a capture's
 * payload): WIRE_OK with *a filled when it is an acknowledgement, whole
 * (n == len == WIRE_GPUA_LEN), version 1, its zero byte zero and a stream;
 * WIRE_CUT when its first 8 bytes say so and the rest is not in buf;
 * else WIRE_NONE. */
enum wire_udp_res wire_gpua_decode(const uint8_t *buf, size_t n, size_t len,
                                   struct wire_gpua *a);

/* The length from base up that is neither data_len nor last_len (a
 * marker's or a proof's: at most base + 2). */
uint32_t wire_len_apart(uint32_t base, uint32_t data_len, uint32_t last_len);

#endif
