/* ctl.c: the control protocol: framing, encode, bounds-checked decode. */
#include "ctl.h"

#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "meter.h"
#include "net.h"
#include "stop.h"

#define FLAG_NODELAY 0x01u
#define FLAG_VERIFY  0x02u
#define FLAG_STREAM  0x04u
#define FLAG_VERBOSE 0x08u
#define FLAG_GSO     0x10u
#define FLAG_DISCARD 0x20u
#define FLAG_ALL     0x3fu

/* Writers at named offsets. */
static void put_u8(uint8_t *b, size_t off, uint8_t v) { b[off] = v; }
static void put_u16(uint8_t *b, size_t off, uint16_t v)
{ v = htobe16(v); memcpy(b + off, &v, 2); }
static void put_u32(uint8_t *b, size_t off, uint32_t v)
{ v = htobe32(v); memcpy(b + off, &v, 4); }
static void put_u64(uint8_t *b, size_t off, uint64_t v)
{ v = htobe64(v); memcpy(b + off, &v, 8); }

/* Bounds-checked readers: a read past len sets *bad and yields 0. */
struct rd {
	const uint8_t *b;
	size_t len;
	int bad;
};

static int
rd_ok(struct rd *r, size_t off, size_t n)
{
	if (off > r->len || n > r->len - off) {
		r->bad = 1;
		return 0;
	}
	return 1;
}

static uint8_t get_u8(struct rd *r, size_t off)
{ return rd_ok(r, off, 1) ? r->b[off] : 0; }

static uint16_t
get_u16(struct rd *r, size_t off)
{
	uint16_t v = 0;

	if (rd_ok(r, off, 2))
		memcpy(&v, r->b + off, 2);
	return be16toh(v);
}

static uint32_t
get_u32(struct rd *r, size_t off)
{
	uint32_t v = 0;

	if (rd_ok(r, off, 4))
		memcpy(&v, r->b + off, 4);
	return be32toh(v);
}

static uint64_t
get_u64(struct rd *r, size_t off)
{
	uint64_t v = 0;

	if (rd_ok(r, off, 8))
		memcpy(&v, r->b + off, 8);
	return be64toh(v);
}

static size_t
encode_params(const struct ctl_msg *m, uint8_t *p)
{
	const struct xfer_params *x = &m->params;
	uint8_t flags = (x->nodelay ? FLAG_NODELAY : 0) |
	    (x->verify ? FLAG_VERIFY : 0) | (x->stream ? FLAG_STREAM : 0) |
	    (x->verbose ? FLAG_VERBOSE : 0) | (x->gso ? FLAG_GSO : 0) |
	    (x->discard ? FLAG_DISCARD : 0);

	memset(p, 0, CTL_PARAMS_LEN);
	put_u8(p, 0, x->proto);
	put_u8(p, 1, x->role);
	put_u8(p, 2, flags);
	put_u8(p, 3, x->batch);
	put_u32(p, 4, x->len);
	put_u64(p, 8, x->count);
	put_u32(p, 16, x->window);
	put_u32(p, 20, x->gap_us);
	put_u32(p, 24, x->data_len);
	put_u32(p, 28, x->seed);
	put_u64(p, 32, x->data_bytes);
	put_u64(p, 40, x->data_gap_ps);
	put_u32(p, 48, x->duration_ms);
	put_u32(p, 60, x->data_burst);
	put_u32(p, 52, x->interval_ms);
	put_u32(p, 56, x->omit_ms);
	memcpy(p + 64, x->cc, strnlen(x->cc, sizeof x->cc - 1));
	put_u16(p, 128, x->streams);
	if (m->mcast.family != 0) {         /* as given: a test may send a bad one */
		put_u16(p, 130, CTL_MCAST);
		put_u8(p, 132, m->mcast.family);
		put_u8(p, 133, m->mcast.ttl);
		put_u16(p, 134, m->mcast.port);
		memcpy(p + 136, m->mcast.addr, sizeof m->mcast.addr);
	}
	put_u32(p, CTL_PX_XFLAGS, x->xflags);
	put_u64(p, CTL_PX_AFFINITY, x->cpus);
	if (x->xflags & CTL_XF_LATENCY) {
		put_u32(p, CTL_PX_LATENCY, x->lat_interval_us);
		put_u32(p, CTL_PX_LATENCY + 4, x->lat_idle_ms);
	}
	memcpy(p + CTL_PARAMS_SIGNED, m->mac, CTL_MAC_LEN);
	return CTL_PARAMS_LEN;
}

/* READY's length for n ports. */
static size_t
ready_len(uint16_t n)
{
	return CTL_READY_LEN + 2u * (n > 1 ? n - 1u : 0);
}

static size_t
encode_ready(const struct ctl_msg *m, uint8_t *p)
{
	uint16_t n = m->nports > STREAM_MAX ? STREAM_MAX : m->nports, i;

	put_u16(p, 0, m->port[0]);
	put_u16(p, 2, n);
	memcpy(p + 4, m->nonce, CTL_NONCE_LEN);
	memcpy(p + CTL_READY_SIGNED, m->mac, CTL_MAC_LEN);
	for (i = 1; i < n; i++)
		put_u16(p, CTL_READY_LEN + 2u * (i - 1u), m->port[i]);
	return ready_len(n);
}

static size_t
encode_result(const struct gput_result *r, uint8_t *p)
{
	const uint64_t v[] = { r->bytes, r->calls, r->real_ns, r->cpu_ns,
	    r->dgrams, r->dgrams_sent, r->verify_bad, r->verify_first,
	    r->unsent, r->unacked, r->sock_drops };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		put_u64(p, 8 * i, v[i]);
	put_u32(p, 88, r->flags);
	put_u32(p, 92, r->sndbuf);
	put_u32(p, 96, r->rcvbuf);
	return CTL_RESULT_LEN;
}

static size_t
encode_interval(const struct ctl_msg *m, uint8_t *p)
{
	const struct ival *iv = &m->ival;

	put_u32(p, 0, m->ival_index);
	put_u32(p, 4, iv->flags);
	put_u64(p, 8, iv->start_ns);
	put_u64(p, 16, iv->end_ns);
	put_u64(p, 24, iv->bytes);
	put_u64(p, 32, iv->calls);
	put_u64(p, 40, iv->dgrams);
	/* a UDP receiver's interval has no TCP fields: its counts go there */
	put_u32(p, 48, iv->flags & IVAL_UDP ? iv->dups : iv->retrans);
	put_u32(p, 52, iv->flags & IVAL_UDP ? iv->reordered : iv->cwnd);
	put_u32(p, 56, iv->srtt_us);
	put_u32(p, 60, m->stream);
	return CTL_INTERVAL_LEN;
}

static size_t
encode_tcpinfo(const struct tcp_stats *t, uint32_t stream, uint8_t *p)
{
	memset(p, 0, CTL_TCPINFO_LEN);
	memcpy(p, t->cc, strnlen(t->cc, sizeof t->cc - 1));
	put_u64(p, 16, t->retrans);
	put_u32(p, 24, t->rtt_us);
	put_u32(p, 28, t->min_rtt_us);
	put_u32(p, 32, t->cwnd);
	put_u32(p, 36, t->mss);
	put_u64(p, 40, t->delivery_rate);
	put_u64(p, 48, t->busy_us);
	put_u64(p, 56, t->rwnd_limited_us);
	put_u64(p, 64, t->sndbuf_limited_us);
	put_u32(p, 72, stream);
	put_u32(p, 76, t->ecn);
	put_u32(p, 80, t->delivered_ce);
	put_u32(p, 84, t->received_ce);
	put_u32(p, 88, t->received_ce_bytes);
	return CTL_TCPINFO_LEN;
}

static size_t
encode_udpstats(const struct udp_stats *u, uint32_t stream, uint8_t *p)
{
	const uint64_t v[] = { u->received, u->unique, u->duplicates,
	    u->reordered, u->max_displacement, u->late, u->too_old, u->other,
	    u->jitter_ns, u->delay_var_ns, u->delay_var_max_ns,
	    (uint64_t)u->owd_min_ns, (uint64_t)u->owd_mean_ns };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		put_u64(p, 8 * i, v[i]);
	put_u32(p, 104, u->flags);
	put_u32(p, 108, stream);
	for (i = 0; i < 4; i++)
		put_u64(p, 112 + 8 * i, u->ecn[i]);
	return CTL_UDPSTATS_LEN;
}

/* The ECN counts: with UDPS_ECN they take every datagram received apart
 * (by subtraction, as above), without it they are zero. */
static int
ecn_invalid(const struct udp_stats *u)
{
	uint64_t left = u->received;
	int i;

	if (!(u->flags & UDPS_ECN))
		return (u->ecn[0] | u->ecn[1] | u->ecn[2] | u->ecn[3]) != 0;
	for (i = 0; i < 3; i++) {
		if (u->ecn[i] > left)
			return 1;
		left -= u->ecn[i];
	}
	return u->ecn[3] != left;
}

static int
decode_udpstats(struct rd *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct udp_stats *u = &m->udp;
	uint64_t *v[] = { &u->received, &u->unique, &u->duplicates,
	    &u->reordered, &u->max_displacement, &u->late, &u->too_old, &u->other,
	    &u->jitter_ns, &u->delay_var_ns, &u->delay_var_max_ns };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		*v[i] = get_u64(r, 8 * i);
	u->owd_min_ns = (int64_t)get_u64(r, 88);
	u->owd_mean_ns = (int64_t)get_u64(r, 96);
	u->flags = get_u32(r, 104);
	m->stream = get_u32(r, 108);
	for (i = 0; i < 4; i++)
		u->ecn[i] = get_u64(r, 112 + 8 * i);
	if ((u->flags & ~UDPS_ALL) != 0) {
		snprintf(err, errlen, "bad UDPSTATS message: reserved bits set");
		return -1;
	}
	if (m->stream == 0 || m->stream > STREAM_MAX) {
		snprintf(err, errlen, "bad UDPSTATS message: stream %u", m->stream);
		return -1;
	}
	/* every copy counted once: received = unique + duplicates + too old,
	 * taken apart by subtraction (a sum could wrap around 2^64) */
	if (u->unique > u->received || u->duplicates > u->received - u->unique ||
	    u->too_old != u->received - u->unique - u->duplicates) {
		snprintf(err, errlen, "bad UDPSTATS message: counts that do not add up");
		return -1;
	}
	if (ecn_invalid(u)) {
		snprintf(err, errlen, "bad UDPSTATS message: ECN counts that do not "
		         "add up to the datagrams received");
		return -1;
	}
	return 0;
}

static size_t
encode_echostats(const struct echo_stats *e, uint8_t *p)
{
	const uint64_t v[] = { e->received, e->echoed, e->over_rate,
	    e->strangers, e->malformed, e->failed };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		put_u64(p, 8 * i, v[i]);
	return CTL_ECHOSTATS_LEN;
}

static int
decode_echoport(struct rd *r, struct ctl_msg *m, char *err, size_t errlen)
{
	m->echo_port = get_u16(r, 0);
	if (m->echo_port == 0 || get_u16(r, 2) != 0) {
		snprintf(err, errlen, "bad ECHOPORT message: %s", m->echo_port == 0 ?
		         "port 0" : "reserved bits set");
		return -1;
	}
	return 0;
}

static int
decode_echostats(struct rd *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct echo_stats *e = &m->echo;
	uint64_t *v[] = { &e->received, &e->echoed, &e->over_rate,
	    &e->strangers, &e->malformed, &e->failed };
	uint64_t left;
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		*v[i] = get_u64(r, 8 * i);
	/* received is the sum of the others: taken apart by subtraction (a
	 * sum could wrap around 2^64) */
	left = e->received;
	for (i = 1; i < sizeof v / sizeof v[0]; i++) {
		if (*v[i] > left) {
			snprintf(err, errlen, "bad ECHOSTATS message: counts that do "
			         "not add up");
			return -1;
		}
		left -= *v[i];
	}
	if (left != 0) {
		snprintf(err, errlen, "bad ECHOSTATS message: counts that do not "
		         "add up");
		return -1;
	}
	return 0;
}

size_t
ctl_encode(const struct ctl_msg *m, uint8_t *buf)
{
	uint8_t *p = buf + CTL_HDR_LEN;
	size_t n = 0;

	switch (m->type) {
	case CTL_HELLO:
		put_u32(p, 0, m->hello_flags);
		put_u32(p, 4, 0);
		memcpy(p + 8, m->challenge, CTL_CHALLENGE_LEN);
		n = CTL_HELLO_LEN;
		break;
	case CTL_PARAMS:
		n = encode_params(m, p);
		break;
	case CTL_READY:
		n = encode_ready(m, p);
		break;
	case CTL_RESULT:
		n = encode_result(&m->result, p);
		put_u32(p, 100, m->stream);
		put_u64(p, 104, m->start_ns);
		put_u64(p, 112, m->end_ns);
		break;
	case CTL_INTERVAL:
		n = encode_interval(m, p);
		break;
	case CTL_TCPINFO:
		n = encode_tcpinfo(&m->tcp, m->stream, p);
		break;
	case CTL_UDPSTATS:
		n = encode_udpstats(&m->udp, m->stream, p);
		break;
	case CTL_ECHOPORT:
		put_u16(p, 0, m->echo_port);
		put_u16(p, 2, 0);
		n = CTL_ECHOPORT_LEN;
		break;
	case CTL_ECHOSTATS:
		n = encode_echostats(&m->echo, p);
		break;
	case CTL_ERROR:
		n = strnlen(m->text, CTL_MAX_TEXT);
		memcpy(p, m->text, n);
		break;
	}                                       /* START, STOP: no payload */
	memcpy(buf, CTL_MAGIC, 4);
	put_u8(buf, 4, CTL_VERSION);
	put_u8(buf, 5, m->type);
	put_u16(buf, 6, (uint16_t)n);
	return CTL_HDR_LEN + n;
}

size_t
ctl_signed_bytes(const uint8_t *challenge, const struct ctl_msg *params,
                 const struct ctl_msg *ready, uint8_t *out)
{
	uint8_t p[CTL_PARAMS_LEN], r[CTL_MAX_PAYLOAD];
	size_t n = 0, rl;

	memcpy(out, challenge, CTL_CHALLENGE_LEN);
	n += CTL_CHALLENGE_LEN;
	encode_params(params, p);
	memcpy(out + n, p, CTL_PARAMS_SIGNED);
	n += CTL_PARAMS_SIGNED;
	if (ready != NULL) {
		rl = encode_ready(ready, r);
		memcpy(out + n, r, CTL_READY_SIGNED);
		n += CTL_READY_SIGNED;
		memcpy(out + n, r + CTL_READY_LEN, rl - CTL_READY_LEN);
		n += rl - CTL_READY_LEN;
	}
	return n;
}

int
ctl_decode_header(const uint8_t *hdr, uint8_t *type, uint16_t *plen,
                  char *err, size_t errlen)
{
	struct rd r = { hdr, CTL_HDR_LEN, 0 };
	uint8_t ver = get_u8(&r, 4), t = get_u8(&r, 5);
	uint16_t n = get_u16(&r, 6);

	if (memcmp(hdr, CTL_MAGIC, 4) != 0) {
		snprintf(err, errlen, "not a gput control message (bad magic)");
		return -1;
	}
	if (ver != CTL_VERSION) {
		snprintf(err, errlen, "control protocol version %u not supported "
		         "(this gput speaks %u)", ver, CTL_VERSION);
		return -1;
	}
	if (!ctl_type_known(t)) {
		snprintf(err, errlen, "unknown control message type %u", t);
		return -1;
	}
	if (n > CTL_MAX_PAYLOAD) {
		snprintf(err, errlen, "control message too long (%u bytes, at most %u)",
		         n, CTL_MAX_PAYLOAD);
		return -1;
	}
	*type = t;
	*plen = n;
	return 0;
}

/* A congestion control name: NUL-terminated within its 16 bytes, NUL
 * padded, [a-z0-9_-] only (an empty name: the host's default). */
static int
cc_name_ok(const char *cc)
{
	size_t n = strnlen(cc, 16), i;

	if (n == 16)
		return 0;
	for (i = 0; i < 16; i++) {
		char c = cc[i];

		if (i >= n ? c != '\0' : !((c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

/* Are bytes off..off+n all zero (reserved)? */
static int
zero_bytes(struct rd *r, size_t off, size_t n)
{
	size_t i;

	if (!rd_ok(r, off, n))
		return 0;
	for (i = 0; i < n; i++)
		if (r->b[off + i] != 0)
			return 0;
	return 1;
}

/* A --cc list: names as cc_name_ok's, 1..15 characters each, separated by
 * single commas, NUL-terminated within its bytes and NUL padded; or empty. */
static int
cc_list_ok(const char *list, size_t size)
{
	size_t n = strnlen(list, size), i, run = 0;

	if (n == size)
		return 0;
	for (i = n; i < size; i++)
		if (list[i] != '\0')
			return 0;
	for (i = 0; i < n; i++) {
		char c = list[i];

		if (c == ',') {
			if (run == 0)
				return 0;
			run = 0;
		} else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '_' || c == '-') {
			if (++run > 15)
				return 0;
		} else {
			return 0;
		}
	}
	return n == 0 || run > 0;
}

/* Range checks shared by every PARAMS a partner accepts. The partner's own
 * limits (--max-*) are checked by the partner on top of these. */
static const char *
params_invalid(const struct xfer_params *x)
{
	uint32_t maxlen = x->proto == PROTO_UDP ? XFER_UDP_MAX : XFER_TCP_MAX;

	if (x->proto > PROTO_UDP)
		return "unknown protocol";
	if (x->role > ROLE_RECV)
		return "unknown role";
	if (x->len == 0 || x->len > XFER_TCP_MAX)
		return "buffer length out of range";
	if (x->data_len == 0 || x->data_len > maxlen)
		return "sender's buffer length out of range";
	if (x->role == ROLE_SEND && x->len != x->data_len)
		return "sender's buffer length disagrees with its stream";
	if (x->count == 0 || x->data_bytes == 0 || x->data_bytes > (1ULL << 62))
		return "transfer size out of range";
	if (x->window > (1u << 30))
		return "socket buffer size out of range";
	if (x->gap_us > 10000000u || x->data_gap_ps > XFER_MAX_GAP_PS ||
	    x->data_burst > XFER_MAX_BURST)
		return "gap out of range";
	if (x->duration_ms > CTL_MAX_MS || x->omit_ms > CTL_MAX_MS ||
	    (x->interval_ms != 0 && (x->interval_ms < CTL_MIN_INTERVAL_MS ||
	    x->interval_ms > CTL_MAX_MS)))
		return "time out of range";
	if (x->duration_ms != 0 && x->data_bytes != XFER_TIME_BYTES)
		return "a timed test with a length";
	/* an --omit the client would refuse (past the end, not on an interval
	 * boundary) or a --cc for UDP only changes what the partner reports
	 * about its own side: harmless, so not refused here */
	if (!cc_list_ok(x->cc, sizeof x->cc))
		return "bad congestion control name";
	if (x->streams == 0 || x->streams > STREAM_MAX)
		return "stream count out of range";
	if (x->batch > XFER_BATCH_MAX)
		return "--batch out of range";
	if ((x->batch > 1 || x->gso) && x->proto != PROTO_UDP)
		return "--batch or --gso for TCP";
	if (x->discard && x->verify)
		return "--discard with -c";
	if ((x->xflags & CTL_XF_ZEROCOPY) && x->proto != PROTO_TCP)
		return "--zerocopy for UDP";
	if ((x->xflags & CTL_XF_ZEROCOPY) && x->discard)
		return "--zerocopy with --discard";
	if ((x->xflags & CTL_XF_COOKIE) && x->proto != PROTO_UDP)
		return "cookie echo for TCP";
	return NULL;
}

/* Bytes 130..151: nothing but zeros, or a multicast group for a partner
 * that receives one UDP stream (ctl.h). Fills m->mcast; returns NULL or
 * what is wrong. */
static const char *
decode_mcast(struct rd *r, struct ctl_msg *m)
{
	const struct xfer_params *x = &m->params;
	struct mcast_group *g = &m->mcast;
	uint16_t mflags = get_u16(r, 130);
	const char *bad;

	memset(g, 0, sizeof *g);
	if ((mflags & ~CTL_MCAST) != 0)
		return "reserved bits set";
	if (!(mflags & CTL_MCAST))
		return zero_bytes(r, 132, 20) ? NULL : "reserved bits set";
	g->family = get_u8(r, 132);
	g->ttl = get_u8(r, 133);
	g->port = get_u16(r, 134);
	if (rd_ok(r, 136, sizeof g->addr))
		memcpy(g->addr, r->b + 136, sizeof g->addr);
	if (g->family != MCAST_V4 && g->family != MCAST_V6)
		return "multicast group of unknown family";
	if ((bad = mcast_group_invalid(g->family, g->addr)) != NULL)
		return bad;
	if (g->ttl == 0)
		return "multicast TTL 0";
	if (g->port < MCAST_MIN_PORT)
		return "multicast data port below 1024";
	if (x->proto != PROTO_UDP)
		return "multicast is UDP only";
	if (x->role != ROLE_RECV)
		return "multicast: a partner only receives from a group";
	if (x->streams != 1)
		return "multicast is one stream";
	return NULL;
}

/* Bytes 156..167: zero, or with CTL_XF_LATENCY the probes' interval and
 * idle phase in range (and not for multicast: nothing to echo). Returns
 * NULL or what is wrong. */
static const char *
decode_latency(struct rd *r, struct xfer_params *x)
{
	if (!(x->xflags & CTL_XF_LATENCY))
		return zero_bytes(r, CTL_PX_LATENCY, 12) ? NULL : "reserved bits set";
	x->lat_interval_us = get_u32(r, CTL_PX_LATENCY);
	x->lat_idle_ms = get_u32(r, CTL_PX_LATENCY + 4);
	if (get_u32(r, CTL_PX_LATENCY + 8) != 0)
		return "reserved bits set";
	if (x->lat_interval_us < CTL_LAT_MIN_US ||
	    x->lat_interval_us > CTL_LAT_MAX_US)
		return "latency probe interval out of range";
	if (x->lat_idle_ms > CTL_LAT_MAX_IDLE_MS)
		return "latency idle phase out of range";
	if (get_u16(r, 130) != 0)
		return "latency probes with multicast";
	return NULL;
}

static int
decode_params(struct rd *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct xfer_params *x = &m->params;
	uint8_t flags = get_u8(r, 2);
	const char *why;

	memset(x, 0, sizeof *x);
	x->proto = get_u8(r, 0);
	x->role = get_u8(r, 1);
	x->nodelay = (flags & FLAG_NODELAY) != 0;
	x->verify = (flags & FLAG_VERIFY) != 0;
	x->stream = (flags & FLAG_STREAM) != 0;
	x->verbose = (flags & FLAG_VERBOSE) != 0;
	x->gso = (flags & FLAG_GSO) != 0;
	x->discard = (flags & FLAG_DISCARD) != 0;
	x->batch = get_u8(r, 3);
	x->len = get_u32(r, 4);
	x->count = get_u64(r, 8);
	x->window = get_u32(r, 16);
	x->gap_us = get_u32(r, 20);
	x->data_len = get_u32(r, 24);
	x->seed = get_u32(r, 28);
	x->data_bytes = get_u64(r, 32);
	x->data_gap_ps = get_u64(r, 40);
	x->data_burst = get_u32(r, 60);
	x->duration_ms = get_u32(r, 48);
	x->interval_ms = get_u32(r, 52);
	x->omit_ms = get_u32(r, 56);
	if (rd_ok(r, 64, sizeof x->cc))
		memcpy(x->cc, r->b + 64, sizeof x->cc);
	x->streams = get_u16(r, 128);
	if (rd_ok(r, CTL_PARAMS_SIGNED, CTL_MAC_LEN))
		memcpy(m->mac, r->b + CTL_PARAMS_SIGNED, CTL_MAC_LEN);
	x->xflags = get_u32(r, CTL_PX_XFLAGS);
	x->cpus = get_u64(r, CTL_PX_AFFINITY);
	if ((flags & ~FLAG_ALL) != 0 || (x->xflags & ~CTL_XF_KNOWN) != 0)
		why = "reserved bits set";
	else if ((why = decode_latency(r, x)) != NULL)
		;
	else if (!zero_bytes(r, CTL_PX_HARDEN, CTL_PARAMS_SIGNED - CTL_PX_HARDEN))
		why = "reserved bits set";
	else if ((why = params_invalid(x)) == NULL)
		why = decode_mcast(r, m);
	if (why != NULL) {
		snprintf(err, errlen, "bad PARAMS message: %s", why);
		return -1;
	}
	return 0;
}

static int
decode_result(struct rd *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct gput_result *res = &m->result;
	uint64_t *v[] = { &res->bytes, &res->calls, &res->real_ns, &res->cpu_ns,
	    &res->dgrams, &res->dgrams_sent, &res->verify_bad,
	    &res->verify_first, &res->unsent, &res->unacked, &res->sock_drops };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		*v[i] = get_u64(r, 8 * i);
	res->flags = get_u32(r, 88);
	res->sndbuf = get_u32(r, 92);
	res->rcvbuf = get_u32(r, 96);
	m->stream = get_u32(r, 100);
	m->start_ns = get_u64(r, 104);
	m->end_ns = get_u64(r, 112);
	if ((res->flags & ~RES_ALL) != 0) {
		snprintf(err, errlen, "bad RESULT message: reserved bits set");
		return -1;
	}
	if (m->stream > STREAM_MAX || m->end_ns < m->start_ns) {
		snprintf(err, errlen, "bad RESULT message: stream %u, or it ends "
		         "before it starts", m->stream);
		return -1;
	}
	return 0;
}

static int
decode_text(struct rd *r, struct ctl_msg *m, char *err, size_t errlen)
{
	size_t i;

	if (r->len == 0 || r->len > CTL_MAX_TEXT) {
		snprintf(err, errlen, "bad ERROR message: text of %zu bytes", r->len);
		return -1;
	}
	for (i = 0; i < r->len; i++) {
		if (r->b[i] < 0x20 || r->b[i] > 0x7e) {
			snprintf(err, errlen, "bad ERROR message: unprintable text");
			return -1;
		}
		m->text[i] = (char)r->b[i];
	}
	m->text[i] = '\0';
	return 0;
}

/* HELLO: flags known to this version, reserved zero. */
static int
decode_hello(struct rd *r, struct ctl_msg *m, char *err, size_t errlen)
{
	m->hello_flags = get_u32(r, 0);
	if ((m->hello_flags & ~CTL_HELLO_KEY) != 0 || get_u32(r, 4) != 0) {
		snprintf(err, errlen, "bad HELLO message: reserved bits set");
		return -1;
	}
	if (rd_ok(r, 8, CTL_CHALLENGE_LEN))
		memcpy(m->challenge, r->b + 8, CTL_CHALLENGE_LEN);
	return 0;
}

static int
decode_interval(struct rd *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct ival *iv = &m->ival;

	m->ival_index = get_u32(r, 0);
	iv->flags = get_u32(r, 4);
	iv->start_ns = get_u64(r, 8);
	iv->end_ns = get_u64(r, 16);
	iv->bytes = get_u64(r, 24);
	iv->calls = get_u64(r, 32);
	iv->dgrams = get_u64(r, 40);
	iv->retrans = get_u32(r, 48);
	iv->cwnd = get_u32(r, 52);
	if (iv->flags & IVAL_UDP) {
		iv->dups = iv->retrans;
		iv->reordered = iv->cwnd;
		iv->retrans = iv->cwnd = 0;
	}
	iv->srtt_us = get_u32(r, 56);
	m->stream = get_u32(r, 60);
	if ((iv->flags & ~IVAL_ALL) != 0) {
		snprintf(err, errlen, "bad INTERVAL message: reserved bits set");
		return -1;
	}
	if (m->stream == 0 || m->stream > STREAM_MAX) {
		snprintf(err, errlen, "bad INTERVAL message: stream %u", m->stream);
		return -1;
	}
	if (iv->end_ns < iv->start_ns) {
		snprintf(err, errlen, "bad INTERVAL message: it ends before it starts");
		return -1;
	}
	return 0;
}

static int
decode_tcpinfo(struct rd *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct tcp_stats *t = &m->tcp;

	memset(t, 0, sizeof *t);
	if (rd_ok(r, 0, sizeof t->cc))
		memcpy(t->cc, r->b, sizeof t->cc);
	if (!cc_name_ok(t->cc)) {
		snprintf(err, errlen, "bad TCPINFO message: congestion control name");
		return -1;
	}
	t->retrans = get_u64(r, 16);
	t->rtt_us = get_u32(r, 24);
	t->min_rtt_us = get_u32(r, 28);
	t->cwnd = get_u32(r, 32);
	t->mss = get_u32(r, 36);
	t->delivery_rate = get_u64(r, 40);
	t->busy_us = get_u64(r, 48);
	t->rwnd_limited_us = get_u64(r, 56);
	t->sndbuf_limited_us = get_u64(r, 64);
	m->stream = get_u32(r, 72);
	t->ecn = get_u32(r, 76);
	t->delivered_ce = get_u32(r, 80);
	t->received_ce = get_u32(r, 84);
	t->received_ce_bytes = get_u32(r, 88);
	if (m->stream == 0 || m->stream > STREAM_MAX || (t->ecn & ~TCPS_ECN_ALL) ||
	    get_u32(r, 92) != 0) {
		snprintf(err, errlen, "bad TCPINFO message: stream %u or reserved "
		         "bits set", m->stream);
		return -1;
	}
	/* counts the partner's kernel cannot have: CE received without the
	 * counters, or any CE without ECN negotiated */
	if ((!(t->ecn & TCPS_ECN_RECEIVED) && (t->received_ce ||
	    t->received_ce_bytes)) || (!(t->ecn & TCPS_ECN) && (t->delivered_ce ||
	    t->received_ce))) {
		snprintf(err, errlen, "bad TCPINFO message: ECN counts without ECN");
		return -1;
	}
	t->valid = 1;
	return 0;
}

static int
decode_ready(struct rd *r, struct ctl_msg *m, char *err, size_t errlen)
{
	uint16_t i;

	m->nports = get_u16(r, 2);
	if (m->nports == 0 || m->nports > STREAM_MAX ||
	    r->len != ready_len(m->nports)) {
		snprintf(err, errlen, "bad READY message: %u ports in %zu bytes",
		         m->nports, r->len);
		return -1;
	}
	m->port[0] = get_u16(r, 0);
	for (i = 1; i < m->nports; i++)
		m->port[i] = get_u16(r, CTL_READY_LEN + 2u * (i - 1u));
	for (i = 0; i < m->nports; i++)
		if (m->port[i] == 0) {
			snprintf(err, errlen, "bad READY message: port 0");
			return -1;
		}
	if (rd_ok(r, 4, CTL_NONCE_LEN + CTL_MAC_LEN)) {
		memcpy(m->nonce, r->b + 4, CTL_NONCE_LEN);
		memcpy(m->mac, r->b + CTL_READY_SIGNED, CTL_MAC_LEN);
	}
	return 0;
}

int
ctl_decode_payload(uint8_t type, const uint8_t *p, size_t plen,
                   struct ctl_msg *m, char *err, size_t errlen)
{
	static const size_t want[] = { [CTL_PARAMS] = CTL_PARAMS_LEN,
	    [CTL_READY] = CTL_READY_LEN, [CTL_RESULT] = CTL_RESULT_LEN,
	    [CTL_HELLO] = CTL_HELLO_LEN, [CTL_START] = 0, [CTL_STOP] = 0,
	    [CTL_INTERVAL] = CTL_INTERVAL_LEN, [CTL_TCPINFO] = CTL_TCPINFO_LEN,
	    [CTL_UDPSTATS] = CTL_UDPSTATS_LEN, [CTL_ECHOPORT] = CTL_ECHOPORT_LEN,
	    [CTL_ECHOSTATS] = CTL_ECHOSTATS_LEN };
	struct rd r = { p, plen, 0 };
	int rc = 0;

	if (!ctl_type_known(type)) {
		snprintf(err, errlen, "unknown control message type %u", type);
		return -1;
	}
	if (type != CTL_ERROR && !(type == CTL_READY ? plen >= CTL_READY_LEN &&
	    plen <= ready_len(STREAM_MAX) : plen == want[type])) {
		if (type == CTL_READY)
			snprintf(err, errlen, "control message type %u has %zu bytes, "
			         "expected %u to %zu", type, plen, CTL_READY_LEN,
			         ready_len(STREAM_MAX));
		else
			snprintf(err, errlen, "control message type %u has %zu bytes, "
			         "expected %zu", type, plen, want[type]);
		return -1;
	}
	m->type = type;
	switch (type) {
	case CTL_HELLO:
		rc = decode_hello(&r, m, err, errlen);
		break;
	case CTL_PARAMS:
		rc = decode_params(&r, m, err, errlen);
		break;
	case CTL_READY:
		rc = decode_ready(&r, m, err, errlen);
		break;
	case CTL_RESULT:
		rc = decode_result(&r, m, err, errlen);
		break;
	case CTL_INTERVAL:
		rc = decode_interval(&r, m, err, errlen);
		break;
	case CTL_TCPINFO:
		rc = decode_tcpinfo(&r, m, err, errlen);
		break;
	case CTL_UDPSTATS:
		rc = decode_udpstats(&r, m, err, errlen);
		break;
	case CTL_ECHOPORT:
		rc = decode_echoport(&r, m, err, errlen);
		break;
	case CTL_ECHOSTATS:
		rc = decode_echostats(&r, m, err, errlen);
		break;
	case CTL_ERROR:
		rc = decode_text(&r, m, err, errlen);
		break;
	}                                       /* START, STOP: nothing more */
	if (rc == 0 && r.bad) {          /* cannot happen after the length check */
		snprintf(err, errlen, "truncated control message");
		rc = -1;
	}
	return rc;
}

int
ctl_error_busy(const struct ctl_msg *m)
{
	return m->type == CTL_ERROR &&
	    strncmp(m->text, CTL_BUSY_TEXT, strlen(CTL_BUSY_TEXT)) == 0;
}

void
ctl_error(struct ctl_msg *m, const char *text)
{
	size_t i;

	memset(m, 0, sizeof *m);
	m->type = CTL_ERROR;
	for (i = 0; text[i] != '\0' && i < CTL_MAX_TEXT; i++)
		m->text[i] = (text[i] >= 0x20 && text[i] <= 0x7e) ? text[i] : '?';
	if (i == 0)
		m->text[i++] = '?';
	m->text[i] = '\0';
}

int
ctl_send(int fd, const struct ctl_msg *m, char *err, size_t errlen)
{
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	size_t len = ctl_encode(m, buf), done = 0;

	while (done < len) {
		ssize_t n = send(fd, buf + done, len - done, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)  /* a short message: finish it, */
			continue;               /* also while stopping (STOP) */
		if (n <= 0) {
			snprintf(err, errlen, "sending control message: %s",
			         n == 0 ? "connection closed" : strerror(errno));
			return -1;
		}
		done += (size_t)n;
	}
	return 0;
}

/* Read exactly n bytes before the deadline. Returns 0, or -1 with err filled. */
static int
read_full(int fd, uint8_t *buf, size_t n, mono_ns deadline, const char *what,
          char *err, size_t errlen)
{
	size_t done = 0;

	while (done < n) {
		mono_ns now = mono_now();
		struct pollfd pfd[2] = { { fd, POLLIN, 0 }, { stop_fd(stop_process()), POLLIN, 0 } };
		ssize_t got;
		int pr;

		if (now >= deadline || stop_requested(stop_process())) {
			snprintf(err, errlen, "%s waiting for %s", stop_requested(stop_process()) ?
			         "interrupted" : "timed out", what);
			return -1;
		}
		pr = poll(pfd, 2, net_poll_ms(deadline - now));
		if (pr == -1 && errno == EINTR)
			continue;
		if (pr <= 0 || pfd[0].revents == 0)
			continue;               /* timeout: the loop re-checks the deadline */
		got = recv(fd, buf + done, n - done, 0);
		if (got == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0) {
			snprintf(err, errlen, "connection closed while waiting for %s%s%s",
			         what, got == 0 ? "" : ": ", got == 0 ? "" : strerror(errno));
			return -1;
		}
		done += (size_t)got;
	}
	return 0;
}

const char *
ctl_type_name(uint8_t type)
{
	static const char *const names[] = { [CTL_PARAMS] = "PARAMS",
	    [CTL_READY] = "READY", [CTL_RESULT] = "RESULT", [CTL_ERROR] = "ERROR",
	    [CTL_HELLO] = "HELLO", [CTL_START] = "START", [CTL_STOP] = "STOP",
	    [CTL_INTERVAL] = "INTERVAL", [CTL_TCPINFO] = "TCPINFO",
	    [CTL_UDPSTATS] = "UDPSTATS", [CTL_ECHOPORT] = "ECHOPORT",
	    [CTL_ECHOSTATS] = "ECHOSTATS" };

	return ctl_type_known(type) ? names[type] : "unknown";
}

int
ctl_type_known(uint8_t t)
{
	return (t >= CTL_PARAMS && t <= CTL_UDPSTATS) || t == CTL_ECHOPORT ||
	    t == CTL_ECHOSTATS;
}

/* ctl_recv with the waits named after what is awaited: "a control message",
 * or with want != 0 "a READY message". */
static int
recv_msg(int fd, struct ctl_msg *m, uint8_t want, mono_ns deadline, char *err,
         size_t errlen)
{
	uint8_t hdr[CTL_HDR_LEN], payload[CTL_MAX_PAYLOAD];
	char what[64];
	uint16_t plen;
	uint8_t type;

	if (want == 0)
		snprintf(what, sizeof what, "a control message");
	else
		snprintf(what, sizeof what, "a%s %s message", want == CTL_ERROR ?
		         "n" : "", ctl_type_name(want));
	if (read_full(fd, hdr, sizeof hdr, deadline, what, err, errlen) == -1)
		return -1;
	if (ctl_decode_header(hdr, &type, &plen, err, errlen) == -1)
		return -1;
	if (want == 0)
		snprintf(what, sizeof what, "the rest of a control message");
	else
		snprintf(what, sizeof what, "the rest of the %s message",
		         ctl_type_name(type));
	if (read_full(fd, payload, plen, deadline, what, err, errlen) == -1)
		return -1;
	memset(m, 0, sizeof *m);
	return ctl_decode_payload(type, payload, plen, m, err, errlen);
}

static mono_ns
deadline_in(int timeout_ms)
{
	return mono_now() + (mono_ns)timeout_ms * 1000000u;
}

int
ctl_recv(int fd, struct ctl_msg *m, int timeout_ms, char *err, size_t errlen)
{
	return recv_msg(fd, m, 0, deadline_in(timeout_ms), err, errlen);
}

int
ctl_recv_any_until(int fd, struct ctl_msg *m, mono_ns deadline, char *err,
                   size_t errlen)
{
	m->type = 0;
	if (recv_msg(fd, m, 0, deadline, err, errlen) == -1) {
		m->type = 0;                    /* nothing whole and valid arrived */
		return -1;
	}
	return 0;
}

int
ctl_recv_until(int fd, uint8_t want, struct ctl_msg *m, mono_ns deadline,
               char *err, size_t errlen)
{
	m->type = 0;
	if (recv_msg(fd, m, want, deadline, err, errlen) == -1) {
		m->type = 0;                    /* nothing whole arrived */
		return -1;
	}
	if (m->type == want)
		return 0;
	if (m->type == CTL_ERROR)
		snprintf(err, errlen, "ERROR instead of %s: %s", ctl_type_name(want),
		         m->text);
	else
		snprintf(err, errlen, "unexpected %s message (expected %s)",
		         ctl_type_name(m->type), ctl_type_name(want));
	return -1;
}

int
ctl_recv_type(int fd, uint8_t want, struct ctl_msg *m, int timeout_ms,
              char *err, size_t errlen)
{
	return ctl_recv_until(fd, want, m, deadline_in(timeout_ms), err, errlen);
}

enum ctl_peer
ctl_peer_state(int fd, char *err, size_t errlen)
{
	char c;
	ssize_t n;

	do
		n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
	while (n == -1 && errno == EINTR);
	if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return CTL_PEER_QUIET;
	if (n == 0) {
		snprintf(err, errlen, "connection closed");
		return CTL_PEER_CLOSED;
	}
	if (n == -1) {
		snprintf(err, errlen, "%s", strerror(errno));
		return CTL_PEER_FAILED;
	}
	snprintf(err, errlen, "unexpected data on the control connection");
	return CTL_PEER_SPOKE;
}
