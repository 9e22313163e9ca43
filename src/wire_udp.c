/* SPDX-License-Identifier: BSD-2-Clause */
/* wire_udp.c: the UDP data path's datagrams (GPUD, GPUE, GPUH, GPUC,
 * GPUK, GPUA), encoded and decoded; pure. */
#include "wire_udp.h"

#include <string.h>

static void
put_be64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t
get_be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

void
wire_gpud_encode(uint8_t *h, uint64_t seq, uint64_t send_ns)
{
	memcpy(h, "GPUD\0\0\0\0", WIRE_GPUD_SEQ);
	put_be64(h + WIRE_GPUD_SEQ, seq);
	put_be64(h + WIRE_GPUD_SEND, send_ns);
}

enum wire_udp_res
wire_gpud_decode(const uint8_t *buf, size_t n, struct wire_gpud *d)
{
	if (n < 4 || memcmp(buf, "GPUD", 4) != 0)
		return WIRE_NONE;
	if (n < WIRE_GPUD_LEN)
		return WIRE_CUT;
	d->stream = (uint32_t)buf[WIRE_GPUD_STREAM] << 24 |
	    (uint32_t)buf[WIRE_GPUD_STREAM + 1] << 16 |
	    (uint32_t)buf[WIRE_GPUD_STREAM + 2] << 8 | buf[WIRE_GPUD_STREAM + 3];
	d->seq = get_be64(buf + WIRE_GPUD_SEQ);
	d->send_ns = get_be64(buf + WIRE_GPUD_SEND);
	return WIRE_OK;
}

int
wire_gpud_data(const uint8_t *buf, size_t n, uint64_t *seq, uint64_t *send_ns)
{
	struct wire_gpud d;

	if (wire_gpud_decode(buf, n, &d) != WIRE_OK || d.stream != 0)
		return 0;
	*seq = d.seq;
	*send_ns = d.send_ns;
	return 1;
}

void
wire_gpue_encode(uint8_t *buf, size_t len, uint8_t idx, uint64_t dgrams,
                 uint64_t bytes)
{
	memset(buf, 0, len);
	memcpy(buf, "GPUE", 4);
	buf[WIRE_GPUE_VERSION] = 1;
	buf[WIRE_GPUE_INDEX] = idx;
	put_be64(buf + WIRE_GPUE_DGRAMS, dgrams);
	put_be64(buf + WIRE_GPUE_BYTES, bytes);
}

enum wire_udp_res
wire_gpue_decode(const uint8_t *buf, size_t n, struct wire_gpue *d)
{
	size_t i;

	if (n < WIRE_GPUE_RSVD || memcmp(buf, "GPUE", 4) != 0 ||
	    buf[WIRE_GPUE_VERSION] != 1 || buf[WIRE_GPUE_INDEX] < 1 ||
	    buf[WIRE_GPUE_INDEX] > MARKER_COUNT)
		return WIRE_NONE;
	memset(d, 0, sizeof *d);
	d->idx = buf[WIRE_GPUE_INDEX];
	d->zero = n < WIRE_GPUE_DGRAMS ||
	    (buf[WIRE_GPUE_RSVD] == 0 && buf[WIRE_GPUE_RSVD + 1] == 0);
	for (i = WIRE_GPUE_PAD; i < n; i++)   /* reserved and padding */
		if (buf[i] != 0)
			d->zero = 0;
	if (n >= WIRE_GPUE_BYTES) {
		d->have_dgrams = 1;
		d->dgrams = get_be64(buf + WIRE_GPUE_DGRAMS);
	}
	if (n < WIRE_GPUE_PAD)
		return WIRE_CUT;
	d->bytes = get_be64(buf + WIRE_GPUE_BYTES);
	return WIRE_OK;
}

void
wire_gpuh_encode(uint8_t *buf, size_t len,
                 const uint8_t nonce[PROOF_NONCE_LEN], uint16_t stream)
{
	memset(buf, 0, len);
	memcpy(buf, "GPUH", 4);
	buf[WIRE_GPUH_VERSION] = 3;
	buf[WIRE_GPUH_STREAM] = (uint8_t)(stream >> 8);
	buf[WIRE_GPUH_STREAM + 1] = (uint8_t)stream;
	memcpy(buf + WIRE_GPUH_NONCE, nonce, PROOF_NONCE_LEN);
}

int
wire_gpuh_is(const uint8_t *buf, size_t n)
{
	const uint8_t *s = buf + WIRE_GPUH_STREAM;

	if (n < WIRE_GPUH_NONCE || memcmp(buf, "GPUH", 4) != 0 ||
	    buf[WIRE_GPUH_VERSION + 1] != 0)
		return 0;
	return (buf[WIRE_GPUH_VERSION] == 2 && s[0] == 0 && s[1] == 0) ||
	    (buf[WIRE_GPUH_VERSION] == 3 && (s[0] != 0 || s[1] != 0));
}

static void
cookie_encode(uint8_t *buf, size_t len, const char *magic,
              const struct wire_cookie *c)
{
	memset(buf, 0, len);
	memcpy(buf, magic, 4);
	buf[WIRE_GPUC_VERSION] = 1;
	buf[WIRE_GPUC_STREAM] = (uint8_t)(c->stream >> 8);
	buf[WIRE_GPUC_STREAM + 1] = (uint8_t)c->stream;
	memcpy(buf + WIRE_GPUC_COOKIE, c->cookie, WIRE_COOKIE_LEN);
}

void
wire_gpuc_encode(uint8_t *buf, size_t len, const struct wire_cookie *c)
{
	cookie_encode(buf, len, "GPUC", c);
}

void
wire_gpuk_encode(uint8_t *buf, size_t len, const struct wire_cookie *c)
{
	cookie_encode(buf, len, "GPUK", c);
}

/* A cookie or an echo (magic) of lengths base to base + 2. */
static enum wire_udp_res
cookie_decode(const uint8_t *buf, size_t n, size_t len, const char *magic,
              uint32_t base, struct wire_cookie *c)
{
	const uint8_t *s = buf + WIRE_GPUC_STREAM;
	size_t i;

	if (len < base || len > base + 2 || n < WIRE_GPUC_COOKIE ||
	    memcmp(buf, magic, 4) != 0 || buf[WIRE_GPUC_VERSION] != 1 ||
	    buf[WIRE_GPUC_VERSION + 1] != 0 || (s[0] == 0 && s[1] == 0))
		return WIRE_NONE;
	if (n < len)
		return WIRE_CUT;
	for (i = WIRE_GPUC_PAD; i < len; i++)
		if (buf[i] != 0)
			return WIRE_NONE;
	c->stream = (uint16_t)(s[0] << 8 | s[1]);
	memcpy(c->cookie, buf + WIRE_GPUC_COOKIE, WIRE_COOKIE_LEN);
	return WIRE_OK;
}

enum wire_udp_res
wire_gpuc_decode(const uint8_t *buf, size_t n, size_t len,
                 struct wire_cookie *c)
{
	return cookie_decode(buf, n, len, "GPUC", COOKIE_BASE_LEN, c);
}

enum wire_udp_res
wire_gpuk_decode(const uint8_t *buf, size_t n, size_t len,
                 struct wire_cookie *c)
{
	return cookie_decode(buf, n, len, "GPUK", CECHO_BASE_LEN, c);
}

void
wire_gpua_encode(uint8_t *buf, const struct wire_gpua *a)
{
	memcpy(buf, "GPUA", 4);
	buf[WIRE_GPUA_VERSION] = 1;
	buf[WIRE_GPUA_VERSION + 1] = 0;
	buf[WIRE_GPUA_STREAM] = (uint8_t)(a->stream >> 8);
	buf[WIRE_GPUA_STREAM + 1] = (uint8_t)a->stream;
	put_be64(buf + WIRE_GPUA_SEQ, a->seq);
	put_be64(buf + WIRE_GPUA_SEND, a->send_ns);
}

enum wire_udp_res
wire_gpua_decode(const uint8_t *buf, size_t n, size_t len, struct wire_gpua *a)
{
	const uint8_t *s = buf + WIRE_GPUA_STREAM;

	if (len != WIRE_GPUA_LEN || n < WIRE_GPUA_SEQ || n > len ||
	    memcmp(buf, "GPUA", 4) != 0 || buf[WIRE_GPUA_VERSION] != 1 ||
	    buf[WIRE_GPUA_VERSION + 1] != 0 || (s[0] == 0 && s[1] == 0))
		return WIRE_NONE;
	if (n < len)
		return WIRE_CUT;
	a->stream = (uint16_t)(s[0] << 8 | s[1]);
	a->seq = get_be64(buf + WIRE_GPUA_SEQ);
	a->send_ns = get_be64(buf + WIRE_GPUA_SEND);
	return WIRE_OK;
}

uint32_t
wire_len_apart(uint32_t base, uint32_t data_len, uint32_t last_len)
{
	uint32_t m = base;

	while (m == data_len || m == last_len)
		m++;
	return m;
}
