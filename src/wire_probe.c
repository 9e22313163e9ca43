/* SPDX-License-Identifier: BSD-2-Clause */
/* wire_probe.c: the latency probe's wire format and the echo's rate bound. */
#include "wire_probe.h"

#include <endian.h>
#include <string.h>

#define OFF_MAGIC   0
#define OFF_VERSION 4
#define OFF_KIND    5
#define OFF_ZERO    6
#define OFF_NONCE   8
#define OFF_SEQ     24
#define OFF_TSEND   32
#define OFF_TECHO   40

static void
put64(uint8_t *b, uint64_t v)
{
	v = htobe64(v);
	memcpy(b, &v, 8);
}

static uint64_t
get64(const uint8_t *b)
{
	uint64_t v;

	memcpy(&v, b, 8);
	return be64toh(v);
}

size_t
probe_encode(const struct probe *p, uint8_t *buf)
{
	memcpy(buf + OFF_MAGIC, PROBE_MAGIC, 4);
	buf[OFF_VERSION] = PROBE_VERSION;
	buf[OFF_KIND] = p->kind;
	buf[OFF_ZERO] = 0;
	buf[OFF_ZERO + 1] = 0;
	memcpy(buf + OFF_NONCE, p->nonce, PROBE_NONCE_LEN);
	put64(buf + OFF_SEQ, p->seq);
	put64(buf + OFF_TSEND, p->t_send_ns);
	put64(buf + OFF_TECHO, p->t_echo_ns);
	return PROBE_LEN;
}

int
probe_decode(const uint8_t *b, size_t n, struct probe *p)
{
	if (n != PROBE_LEN || memcmp(b + OFF_MAGIC, PROBE_MAGIC, 4) != 0 ||
	    b[OFF_VERSION] != PROBE_VERSION || b[OFF_ZERO] != 0 ||
	    b[OFF_ZERO + 1] != 0 ||
	    (b[OFF_KIND] != PROBE_REQ && b[OFF_KIND] != PROBE_ECHO))
		return -1;
	p->kind = b[OFF_KIND];
	memcpy(p->nonce, b + OFF_NONCE, PROBE_NONCE_LEN);
	p->seq = get64(b + OFF_SEQ);
	p->t_send_ns = get64(b + OFF_TSEND);
	p->t_echo_ns = get64(b + OFF_TECHO);
	if (p->kind == PROBE_REQ && p->t_echo_ns != 0)
		return -1;
	return 0;
}

int
probe_make_echo(uint8_t *b, size_t n, const uint8_t *nonce, uint64_t t_echo_ns)
{
	struct probe p;

	if (probe_decode(b, n, &p) == -1 || p.kind != PROBE_REQ ||
	    memcmp(p.nonce, nonce, PROBE_NONCE_LEN) != 0)
		return -1;
	b[OFF_KIND] = PROBE_ECHO;
	put64(b + OFF_TECHO, t_echo_ns);
	return 0;
}

void
probe_bucket_init(struct probe_bucket *b, uint64_t interval_ns, mono_ns now)
{
	b->interval_ns = interval_ns;
	b->credit_ns = interval_ns * PROBE_BURST;
	b->last = now;
}

int
probe_bucket_take(struct probe_bucket *b, mono_ns now)
{
	uint64_t full = b->interval_ns * PROBE_BURST;

	if (now > b->last) {
		uint64_t add = now - b->last;

		b->credit_ns = add >= full - b->credit_ns ? full : b->credit_ns + add;
		b->last = now;
	}
	if (b->credit_ns < b->interval_ns)
		return 0;
	b->credit_ns -= b->interval_ns;
	return 1;
}
