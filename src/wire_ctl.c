/* SPDX-License-Identifier: BSD-2-Clause */
/* wire_ctl.c: the control protocol's messages (wire_ctl.h): encode, and a
 * bounds-checked decode of every field at its named offset. Pure: bytes in,
 * a message or a reason out; no socket, clock or stop request. The I/O over
 * it (framing, deadlines) is ctl.c. */
#include "wire_ctl.h"

#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "net.h"

static size_t
encode_params(const struct ctl_msg *m, uint8_t *p)
{
	struct bytes w = bytes_writer(p, CTL_PARAMS_LEN);
	const struct xfer_params *x = &m->params;
	uint8_t flags = (x->nodelay ? CTL_PF_NODELAY : 0) |
	    (x->verify ? CTL_PF_VERIFY : 0) | (x->pattern_spans ? CTL_PF_STREAM : 0) |
	    (x->verbose ? CTL_PF_VERBOSE : 0) | (x->gso ? CTL_PF_GSO : 0) |
	    (x->discard ? CTL_PF_DISCARD : 0);

	memset(p, 0, CTL_PARAMS_LEN);
	bytes_put_u8(&w, CTL_PX_PROTO, x->proto);
	bytes_put_u8(&w, CTL_PX_ROLE, x->role);
	bytes_put_u8(&w, CTL_PX_FLAGS, flags);
	bytes_put_u8(&w, CTL_PX_BATCH, x->batch);
	bytes_put_be32(&w, CTL_PX_LEN, x->len);
	bytes_put_be64(&w, CTL_PX_COUNT, x->count);
	bytes_put_be32(&w, CTL_PX_WINDOW, x->window);
	bytes_put_be32(&w, CTL_PX_GAP_US, x->gap_us);
	bytes_put_be32(&w, CTL_PX_DATA_LEN, x->data_len);
	bytes_put_be32(&w, CTL_PX_SEED, x->seed);
	bytes_put_be64(&w, CTL_PX_DATA_BYTES, x->data_bytes);
	bytes_put_be64(&w, CTL_PX_DATA_GAP_PS, x->data_gap_ps);
	bytes_put_be32(&w, CTL_PX_DURATION_MS, x->duration_ms);
	bytes_put_be32(&w, CTL_PX_DATA_BURST, x->data_burst);
	bytes_put_be32(&w, CTL_PX_INTERVAL_MS, x->interval_ms);
	bytes_put_be32(&w, CTL_PX_OMIT_MS, x->omit_ms);
	bytes_put(&w, CTL_PX_CC, x->cc, strnlen(x->cc, sizeof x->cc - 1));
	bytes_put_be16(&w, CTL_PX_STREAMS, x->streams);
	if (m->mcast.family != 0) {         /* as given: a test may send a bad one */
		bytes_put_be16(&w, CTL_PX_MFLAGS, CTL_MCAST);
		bytes_put_u8(&w, CTL_PX_MFAMILY, m->mcast.family);
		bytes_put_u8(&w, CTL_PX_MTTL, m->mcast.ttl);
		bytes_put_be16(&w, CTL_PX_MPORT, m->mcast.port);
		bytes_put(&w, CTL_PX_MGROUP, m->mcast.addr, sizeof m->mcast.addr);
	}
	bytes_put_be32(&w, CTL_PX_XFLAGS, x->xflags);
	bytes_put_be64(&w, CTL_PX_AFFINITY, x->cpus);
	if (x->xflags & CTL_XF_LATENCY) {
		bytes_put_be32(&w, CTL_PX_LAT_INTERVAL_US, x->lat_interval_us);
		bytes_put_be32(&w, CTL_PX_LAT_IDLE_MS, x->lat_idle_ms);
	}
	if (x->xflags & CTL_XF_PEERTIME)
		bytes_put_be32(&w, CTL_PX_PEER_TIMEOUT, x->peer_timeout_s);
	bytes_put(&w, CTL_PX_MAC, m->mac, CTL_MAC_LEN);
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
	struct bytes w = bytes_writer(p, CTL_MAX_PAYLOAD);
	uint16_t n = m->nports > STREAM_MAX ? STREAM_MAX : m->nports, i;

	bytes_put_be16(&w, CTL_RDY_PORT, m->port[0]);
	bytes_put_be16(&w, CTL_RDY_NPORTS, n);
	bytes_put(&w, CTL_RDY_NONCE, m->nonce, CTL_NONCE_LEN);
	bytes_put(&w, CTL_RDY_MAC, m->mac, CTL_MAC_LEN);
	for (i = 1; i < n; i++)
		bytes_put_be16(&w, CTL_RDY_PORTS + 2u * (i - 1u), m->port[i]);
	return ready_len(n);
}

static size_t
encode_result(const struct gput_result *r, uint8_t *p)
{
	struct bytes w = bytes_writer(p, CTL_RESULT_LEN);
	const uint64_t v[] = { r->bytes, r->calls, r->real_ns, r->cpu_ns,
	    r->dgrams, r->dgrams_sent, r->verify_bad, r->verify_first,
	    r->unsent, r->unacked, r->sock_drops };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		bytes_put_be64(&w, CTL_RES_COUNTS + 8 * i, v[i]);
	bytes_put_be32(&w, CTL_RES_FLAGS, r->flags);
	bytes_put_be32(&w, CTL_RES_SNDBUF, r->sndbuf);
	bytes_put_be32(&w, CTL_RES_RCVBUF, r->rcvbuf);
	return CTL_RESULT_LEN;
}

static size_t
encode_interval(const struct ctl_msg *m, uint8_t *p)
{
	struct bytes w = bytes_writer(p, CTL_INTERVAL_LEN);
	const struct ival *iv = &m->ival;

	bytes_put_be32(&w, CTL_IVL_INDEX, m->ival_index);
	bytes_put_be32(&w, CTL_IVL_FLAGS, iv->flags);
	bytes_put_be64(&w, CTL_IVL_START_NS, iv->start_ns);
	bytes_put_be64(&w, CTL_IVL_END_NS, iv->end_ns);
	bytes_put_be64(&w, CTL_IVL_BYTES, iv->bytes);
	bytes_put_be64(&w, CTL_IVL_CALLS, iv->calls);
	bytes_put_be64(&w, CTL_IVL_DGRAMS, iv->dgrams);
	/* a UDP receiver's interval has no TCP fields: its counts go there */
	bytes_put_be32(&w, CTL_IVL_RETRANS, iv->flags & IVAL_UDP ? iv->dups : iv->retrans);
	bytes_put_be32(&w, CTL_IVL_CWND, iv->flags & IVAL_UDP ? iv->reordered : iv->cwnd);
	bytes_put_be32(&w, CTL_IVL_SRTT_US, iv->srtt_us);
	bytes_put_be32(&w, CTL_IVL_STREAM, m->stream);
	return CTL_INTERVAL_LEN;
}

static size_t
encode_tcpinfo(const struct tcp_stats *t, uint32_t stream, uint8_t *p)
{
	struct bytes w = bytes_writer(p, CTL_TCPINFO_LEN);
	memset(p, 0, CTL_TCPINFO_LEN);
	bytes_put(&w, CTL_TCPI_CC, t->cc, strnlen(t->cc, sizeof t->cc - 1));
	bytes_put_be64(&w, CTL_TCPI_RETRANS, t->retrans);
	bytes_put_be32(&w, CTL_TCPI_RTT_US, t->rtt_us);
	bytes_put_be32(&w, CTL_TCPI_MIN_RTT_US, t->min_rtt_us);
	bytes_put_be32(&w, CTL_TCPI_CWND, t->cwnd);
	bytes_put_be32(&w, CTL_TCPI_MSS, t->mss);
	bytes_put_be64(&w, CTL_TCPI_DELIVERY_RATE, t->delivery_rate);
	bytes_put_be64(&w, CTL_TCPI_BUSY_US, t->busy_us);
	bytes_put_be64(&w, CTL_TCPI_RWND_LIMITED_US, t->rwnd_limited_us);
	bytes_put_be64(&w, CTL_TCPI_SNDBUF_LIMITED_US,
	    t->sndbuf_limited_us);
	bytes_put_be32(&w, CTL_TCPI_STREAM, stream);
	bytes_put_be32(&w, CTL_TCPI_ECN, t->ecn);
	bytes_put_be32(&w, CTL_TCPI_DELIVERED_CE, t->delivered_ce);
	bytes_put_be32(&w, CTL_TCPI_RECEIVED_CE, t->received_ce);
	bytes_put_be32(&w, CTL_TCPI_RECEIVED_CE_BYTES, t->received_ce_bytes);
	return CTL_TCPINFO_LEN;
}

static size_t
encode_udpstats(const struct udp_stats *u, uint32_t stream, uint8_t *p)
{
	struct bytes w = bytes_writer(p, CTL_UDPSTATS_LEN);
	const uint64_t v[] = { u->received, u->unique, u->duplicates,
	    u->reordered, u->max_displacement, u->late, u->too_old, u->other,
	    u->jitter_ns, u->delay_var_ns, u->delay_var_max_ns,
	    (uint64_t)u->owd_min_ns, (uint64_t)u->owd_mean_ns };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		bytes_put_be64(&w, CTL_UDPS_COUNTS + 8 * i, v[i]);
	bytes_put_be32(&w, CTL_UDPS_FLAGS, u->flags);
	bytes_put_be32(&w, CTL_UDPS_STREAM, stream);
	for (i = 0; i < 4; i++)
		bytes_put_be64(&w, CTL_UDPS_ECN + 8 * i, u->ecn[i]);
	return CTL_UDPSTATS_LEN;
}

static size_t
encode_echostats(const struct echo_stats *e, uint8_t *p)
{
	struct bytes w = bytes_writer(p, CTL_ECHOSTATS_LEN);
	const uint64_t v[] = { e->received, e->echoed, e->over_rate,
	    e->strangers, e->malformed, e->failed };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		bytes_put_be64(&w, CTL_ESTATS_COUNTS + 8 * i, v[i]);
	return CTL_ECHOSTATS_LEN;
}

static size_t
encode_hostudp(const struct hostudp *h, uint8_t *p)
{
	struct bytes w = bytes_writer(p, CTL_HOSTUDP_LEN);

	bytes_put_be64(&w, CTL_HUDP_RCVBUF, h->rcvbuf_errors);
	bytes_put_be64(&w, CTL_HUDP_INERR, h->in_errors);
	bytes_put_be32(&w, CTL_HUDP_FLAGS, h->flags);
	bytes_put_be32(&w, CTL_HUDP_RSVD, 0);
	return CTL_HOSTUDP_LEN;
}

size_t
ctl_encode(const struct ctl_msg *m, uint8_t *buf)
{
	uint8_t *p = buf + CTL_HDR_LEN;
	struct bytes w = bytes_writer(p, CTL_MAX_PAYLOAD),
	    h = bytes_writer(buf, CTL_HDR_LEN);
	size_t n = 0;

	switch (m->type) {
	case CTL_HELLO:
		bytes_put_be32(&w, CTL_HELLO_FLAGS, m->hello_flags);
		bytes_put_be32(&w, CTL_HELLO_RSVD, 0);
		bytes_put(&w, CTL_HELLO_CHALLENGE, m->challenge, CTL_CHALLENGE_LEN);
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
		bytes_put_be32(&w, CTL_RES_STREAM, m->stream);
		bytes_put_be64(&w, CTL_RES_START_NS, m->start_ns);
		bytes_put_be64(&w, CTL_RES_END_NS, m->end_ns);
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
		bytes_put_be16(&w, CTL_EPORT_PORT, m->echo_port);
		bytes_put_be16(&w, CTL_EPORT_RSVD, 0);
		n = CTL_ECHOPORT_LEN;
		break;
	case CTL_ECHOSTATS:
		n = encode_echostats(&m->echo, p);
		break;
	case CTL_HOSTUDP:
		n = encode_hostudp(&m->hostudp, p);
		break;
	case CTL_ERROR:
		n = strnlen(m->text, CTL_MAX_TEXT);
		bytes_put(&w, 0, m->text, n);
		break;
	}                                       /* START, STOP: no payload */
	bytes_put(&h, CTL_HDR_MAGIC, CTL_MAGIC, 4);
	bytes_put_u8(&h, CTL_HDR_VERSION, CTL_VERSION);
	bytes_put_u8(&h, CTL_HDR_TYPE, m->type);
	bytes_put_be16(&h, CTL_HDR_PLEN, (uint16_t)n);
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
		memcpy(out + n, r + CTL_RDY_PORTS, rl - CTL_RDY_PORTS);
		n += rl - CTL_RDY_PORTS;
	}
	return n;
}

int
ctl_decode_header(const uint8_t *hdr, uint8_t *type, uint16_t *plen,
                  char *err, size_t errlen)
{
	struct bytes r = bytes_reader(hdr, CTL_HDR_LEN);
	uint8_t ver = bytes_u8(&r, CTL_HDR_VERSION),
	    t = bytes_u8(&r, CTL_HDR_TYPE);
	uint16_t n = bytes_be16(&r, CTL_HDR_PLEN);

	if (memcmp(hdr + CTL_HDR_MAGIC, CTL_MAGIC, 4) != 0) {
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
zero_bytes(struct bytes *r, size_t off, size_t n)
{
	size_t i;

	if (!bytes_fits(r, off, n))
		return 0;
	for (i = 0; i < n; i++)
		if (r->p[off + i] != 0)
			return 0;
	return 1;
}

/* Bytes 130..151: nothing but zeros, or a multicast group for a partner
 * that receives one UDP stream (wire_ctl.h). Fills m->mcast; returns NULL or
 * what is wrong. */
static const char *
decode_mcast(struct bytes *r, struct ctl_msg *m)
{
	const struct xfer_params *x = &m->params;
	struct mcast_group *g = &m->mcast;
	uint16_t mflags = bytes_be16(r, CTL_PX_MFLAGS);
	const char *bad;

	memset(g, 0, sizeof *g);
	if ((mflags & ~CTL_MCAST) != 0)
		return "reserved bits set";
	if (!(mflags & CTL_MCAST))
		return zero_bytes(r, CTL_PX_MFAMILY,
		    CTL_PX_XFLAGS - CTL_PX_MFAMILY) ? NULL : "reserved bits set";
	g->family = bytes_u8(r, CTL_PX_MFAMILY);
	g->ttl = bytes_u8(r, CTL_PX_MTTL);
	g->port = bytes_be16(r, CTL_PX_MPORT);
	if (bytes_fits(r, CTL_PX_MGROUP, sizeof g->addr))
		bytes_get(r, CTL_PX_MGROUP, g->addr, sizeof g->addr);
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
decode_latency(struct bytes *r, struct xfer_params *x)
{
	if (!(x->xflags & CTL_XF_LATENCY))
		return zero_bytes(r, CTL_PX_LATENCY,
		    CTL_PX_AFFINITY - CTL_PX_LATENCY) ? NULL : "reserved bits set";
	x->lat_interval_us = bytes_be32(r, CTL_PX_LAT_INTERVAL_US);
	x->lat_idle_ms = bytes_be32(r, CTL_PX_LAT_IDLE_MS);
	if (bytes_be32(r, CTL_PX_LAT_RSVD) != 0)
		return "reserved bits set";
	if (x->lat_interval_us < CTL_LAT_MIN_US ||
	    x->lat_interval_us > CTL_LAT_MAX_US)
		return "latency probe interval out of range";
	if (x->lat_idle_ms > CTL_LAT_MAX_IDLE_MS)
		return "latency idle phase out of range";
	if (bytes_be16(r, CTL_PX_MFLAGS) != 0)
		return "latency probes with multicast";
	return NULL;
}

/* PARAMS bytes 176..179: the dead-peer deadline asked (CTL_XF_PEERTIME),
 * else zero. Returns NULL or what is wrong. */
static const char *
decode_peer_timeout(struct bytes *r, struct xfer_params *x)
{
	x->peer_timeout_s = bytes_be32(r, CTL_PX_PEER_TIMEOUT);
	if (!(x->xflags & CTL_XF_PEERTIME))
		return x->peer_timeout_s == 0 ? NULL : "reserved bits set";
	if (x->peer_timeout_s < NET_PEER_TIMEOUT_S ||
	    x->peer_timeout_s > NET_PEER_TIMEOUT_MAX_S)
		return "peer timeout out of range";
	return NULL;
}

static int
decode_params(struct bytes *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct xfer_params *x = &m->params;
	uint8_t flags = bytes_u8(r, CTL_PX_FLAGS);
	const char *why;

	memset(x, 0, sizeof *x);
	x->proto = bytes_u8(r, CTL_PX_PROTO);
	x->role = bytes_u8(r, CTL_PX_ROLE);
	x->nodelay = (flags & CTL_PF_NODELAY) != 0;
	x->verify = (flags & CTL_PF_VERIFY) != 0;
	x->pattern_spans = (flags & CTL_PF_STREAM) != 0;
	x->verbose = (flags & CTL_PF_VERBOSE) != 0;
	x->gso = (flags & CTL_PF_GSO) != 0;
	x->discard = (flags & CTL_PF_DISCARD) != 0;
	x->batch = bytes_u8(r, CTL_PX_BATCH);
	x->len = bytes_be32(r, CTL_PX_LEN);
	x->count = bytes_be64(r, CTL_PX_COUNT);
	x->window = bytes_be32(r, CTL_PX_WINDOW);
	x->gap_us = bytes_be32(r, CTL_PX_GAP_US);
	x->data_len = bytes_be32(r, CTL_PX_DATA_LEN);
	x->seed = bytes_be32(r, CTL_PX_SEED);
	x->data_bytes = bytes_be64(r, CTL_PX_DATA_BYTES);
	x->data_gap_ps = bytes_be64(r, CTL_PX_DATA_GAP_PS);
	x->data_burst = bytes_be32(r, CTL_PX_DATA_BURST);
	x->duration_ms = bytes_be32(r, CTL_PX_DURATION_MS);
	x->interval_ms = bytes_be32(r, CTL_PX_INTERVAL_MS);
	x->omit_ms = bytes_be32(r, CTL_PX_OMIT_MS);
	if (bytes_fits(r, CTL_PX_CC, sizeof x->cc))
		bytes_get(r, CTL_PX_CC, x->cc, sizeof x->cc);
	x->streams = bytes_be16(r, CTL_PX_STREAMS);
	if (bytes_fits(r, CTL_PX_MAC, CTL_MAC_LEN))
		bytes_get(r, CTL_PX_MAC, m->mac, CTL_MAC_LEN);
	x->xflags = bytes_be32(r, CTL_PX_XFLAGS);
	x->cpus = bytes_be64(r, CTL_PX_AFFINITY);
	if ((flags & ~CTL_PF_ALL) != 0 || (x->xflags & ~CTL_XF_KNOWN) != 0)
		why = "reserved bits set";
	else if ((why = decode_latency(r, x)) != NULL)
		;
	else if ((why = decode_peer_timeout(r, x)) != NULL)
		;
	else if (!zero_bytes(r, CTL_PX_HARDEN, CTL_PARAMS_SIGNED - CTL_PX_HARDEN))
		why = "reserved bits set";
	else if ((why = xfer_params_invalid(x)) == NULL)
		why = decode_mcast(r, m);
	if (why != NULL) {
		snprintf(err, errlen, "bad PARAMS message: %s", why);
		return -1;
	}
	return 0;
}

static int
decode_result(struct bytes *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct gput_result *res = &m->result;
	uint64_t *v[] = { &res->bytes, &res->calls, &res->real_ns, &res->cpu_ns,
	    &res->dgrams, &res->dgrams_sent, &res->verify_bad,
	    &res->verify_first, &res->unsent, &res->unacked, &res->sock_drops };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		*v[i] = bytes_be64(r, CTL_RES_COUNTS + 8 * i);
	res->flags = bytes_be32(r, CTL_RES_FLAGS);
	res->sndbuf = bytes_be32(r, CTL_RES_SNDBUF);
	res->rcvbuf = bytes_be32(r, CTL_RES_RCVBUF);
	m->stream = bytes_be32(r, CTL_RES_STREAM);
	m->start_ns = bytes_be64(r, CTL_RES_START_NS);
	m->end_ns = bytes_be64(r, CTL_RES_END_NS);
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
decode_text(struct bytes *r, struct ctl_msg *m, char *err, size_t errlen)
{
	size_t i;

	if (r->len == 0 || r->len > CTL_MAX_TEXT) {
		snprintf(err, errlen, "bad ERROR message: text of %zu bytes", r->len);
		return -1;
	}
	for (i = 0; i < r->len; i++) {
		if (r->p[i] < 0x20 || r->p[i] > 0x7e) {
			snprintf(err, errlen, "bad ERROR message: unprintable text");
			return -1;
		}
		m->text[i] = (char)r->p[i];
	}
	m->text[i] = '\0';
	return 0;
}

/* HELLO: flags known to this version, reserved zero. */
static int
decode_hello(struct bytes *r, struct ctl_msg *m, char *err, size_t errlen)
{
	m->hello_flags = bytes_be32(r, CTL_HELLO_FLAGS);
	if ((m->hello_flags & ~CTL_HELLO_KEY) != 0 || bytes_be32(r, CTL_HELLO_RSVD) != 0) {
		snprintf(err, errlen, "bad HELLO message: reserved bits set");
		return -1;
	}
	if (bytes_fits(r, CTL_HELLO_CHALLENGE, CTL_CHALLENGE_LEN))
		bytes_get(r, CTL_HELLO_CHALLENGE, m->challenge, CTL_CHALLENGE_LEN);
	return 0;
}

static int
decode_interval(struct bytes *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct ival *iv = &m->ival;

	m->ival_index = bytes_be32(r, CTL_IVL_INDEX);
	iv->flags = bytes_be32(r, CTL_IVL_FLAGS);
	iv->start_ns = bytes_be64(r, CTL_IVL_START_NS);
	iv->end_ns = bytes_be64(r, CTL_IVL_END_NS);
	iv->bytes = bytes_be64(r, CTL_IVL_BYTES);
	iv->calls = bytes_be64(r, CTL_IVL_CALLS);
	iv->dgrams = bytes_be64(r, CTL_IVL_DGRAMS);
	iv->retrans = bytes_be32(r, CTL_IVL_RETRANS);
	iv->cwnd = bytes_be32(r, CTL_IVL_CWND);
	if (iv->flags & IVAL_UDP) {
		iv->dups = iv->retrans;
		iv->reordered = iv->cwnd;
		iv->retrans = iv->cwnd = 0;
	}
	iv->srtt_us = bytes_be32(r, CTL_IVL_SRTT_US);
	m->stream = bytes_be32(r, CTL_IVL_STREAM);
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
decode_tcpinfo(struct bytes *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct tcp_stats *t = &m->tcp;

	memset(t, 0, sizeof *t);
	if (bytes_fits(r, CTL_TCPI_CC, sizeof t->cc))
		bytes_get(r, CTL_TCPI_CC, t->cc, sizeof t->cc);
	if (!cc_name_ok(t->cc)) {
		snprintf(err, errlen, "bad TCPINFO message: congestion control name");
		return -1;
	}
	t->retrans = bytes_be64(r, CTL_TCPI_RETRANS);
	t->rtt_us = bytes_be32(r, CTL_TCPI_RTT_US);
	t->min_rtt_us = bytes_be32(r, CTL_TCPI_MIN_RTT_US);
	t->cwnd = bytes_be32(r, CTL_TCPI_CWND);
	t->mss = bytes_be32(r, CTL_TCPI_MSS);
	t->delivery_rate = bytes_be64(r, CTL_TCPI_DELIVERY_RATE);
	t->busy_us = bytes_be64(r, CTL_TCPI_BUSY_US);
	t->rwnd_limited_us = bytes_be64(r, CTL_TCPI_RWND_LIMITED_US);
	t->sndbuf_limited_us = bytes_be64(r, CTL_TCPI_SNDBUF_LIMITED_US);
	m->stream = bytes_be32(r, CTL_TCPI_STREAM);
	t->ecn = bytes_be32(r, CTL_TCPI_ECN);
	t->delivered_ce = bytes_be32(r, CTL_TCPI_DELIVERED_CE);
	t->received_ce = bytes_be32(r, CTL_TCPI_RECEIVED_CE);
	t->received_ce_bytes = bytes_be32(r, CTL_TCPI_RECEIVED_CE_BYTES);
	if (m->stream == 0 || m->stream > STREAM_MAX || (t->ecn & ~TCPS_ECN_ALL) ||
	    bytes_be32(r, CTL_TCPI_RSVD) != 0) {
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
decode_ready(struct bytes *r, struct ctl_msg *m, char *err, size_t errlen)
{
	uint16_t i;

	m->nports = bytes_be16(r, CTL_RDY_NPORTS);
	if (m->nports == 0 || m->nports > STREAM_MAX ||
	    r->len != ready_len(m->nports)) {
		snprintf(err, errlen, "bad READY message: %u ports in %zu bytes",
		         m->nports, r->len);
		return -1;
	}
	m->port[0] = bytes_be16(r, CTL_RDY_PORT);
	for (i = 1; i < m->nports; i++)
		m->port[i] = bytes_be16(r, CTL_RDY_PORTS + 2u * (i - 1u));
	for (i = 0; i < m->nports; i++)
		if (m->port[i] == 0) {
			snprintf(err, errlen, "bad READY message: port 0");
			return -1;
		}
	if (bytes_fits(r, CTL_RDY_NONCE, CTL_NONCE_LEN) &&
	    bytes_fits(r, CTL_RDY_MAC, CTL_MAC_LEN)) {
		bytes_get(r, CTL_RDY_NONCE, m->nonce, CTL_NONCE_LEN);
		bytes_get(r, CTL_RDY_MAC, m->mac, CTL_MAC_LEN);
	}
	return 0;
}

/* The ECN counts: with UDPS_ECN they take every datagram received apart
 * (by subtraction, as decode_udpstats takes its counts apart), without it
 * they are zero. */
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
decode_udpstats(struct bytes *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct udp_stats *u = &m->udp;
	uint64_t *v[] = { &u->received, &u->unique, &u->duplicates,
	    &u->reordered, &u->max_displacement, &u->late, &u->too_old, &u->other,
	    &u->jitter_ns, &u->delay_var_ns, &u->delay_var_max_ns };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		*v[i] = bytes_be64(r, CTL_UDPS_COUNTS + 8 * i);
	u->owd_min_ns = (int64_t)bytes_be64(r, CTL_UDPS_OWD_MIN);
	u->owd_mean_ns = (int64_t)bytes_be64(r, CTL_UDPS_OWD_MEAN);
	u->flags = bytes_be32(r, CTL_UDPS_FLAGS);
	m->stream = bytes_be32(r, CTL_UDPS_STREAM);
	for (i = 0; i < 4; i++)
		u->ecn[i] = bytes_be64(r, CTL_UDPS_ECN + 8 * i);
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

static int
decode_echoport(struct bytes *r, struct ctl_msg *m, char *err, size_t errlen)
{
	m->echo_port = bytes_be16(r, CTL_EPORT_PORT);
	if (m->echo_port == 0 || bytes_be16(r, CTL_EPORT_RSVD) != 0) {
		snprintf(err, errlen, "bad ECHOPORT message: %s", m->echo_port == 0 ?
		         "port 0" : "reserved bits set");
		return -1;
	}
	return 0;
}

static int
decode_echostats(struct bytes *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct echo_stats *e = &m->echo;
	uint64_t *v[] = { &e->received, &e->echoed, &e->over_rate,
	    &e->strangers, &e->malformed, &e->failed };
	uint64_t left;
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		*v[i] = bytes_be64(r, CTL_ESTATS_COUNTS + 8 * i);
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

/* HOSTUDP: flags known, the reserved word zero, each count at most
 * HOSTUDP_MAX (the client bounds them by the run's time on top). */
static int
decode_hostudp(struct bytes *r, struct ctl_msg *m, char *err, size_t errlen)
{
	struct hostudp *h = &m->hostudp;
	const char *why = NULL;

	h->rcvbuf_errors = bytes_be64(r, CTL_HUDP_RCVBUF);
	h->in_errors = bytes_be64(r, CTL_HUDP_INERR);
	h->flags = bytes_be32(r, CTL_HUDP_FLAGS);
	if ((h->flags & ~HOSTUDP_ALL) != 0 || bytes_be32(r, CTL_HUDP_RSVD) != 0)
		why = "reserved bits set";
	else if (h->rcvbuf_errors > HOSTUDP_MAX || h->in_errors > HOSTUDP_MAX)
		why = "a count over 2^32";
	if (why != NULL) {
		snprintf(err, errlen, "bad HOSTUDP message: %s", why);
		return -1;
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
	    [CTL_ECHOSTATS] = CTL_ECHOSTATS_LEN, [CTL_HOSTUDP] = CTL_HOSTUDP_LEN };
	struct bytes r = bytes_reader(p, plen);
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
	case CTL_HOSTUDP:
		rc = decode_hostudp(&r, m, err, errlen);
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

const char *
ctl_type_name(uint8_t type)
{
	static const char *const names[] = { [CTL_PARAMS] = "PARAMS",
	    [CTL_READY] = "READY", [CTL_RESULT] = "RESULT", [CTL_ERROR] = "ERROR",
	    [CTL_HELLO] = "HELLO", [CTL_START] = "START", [CTL_STOP] = "STOP",
	    [CTL_INTERVAL] = "INTERVAL", [CTL_TCPINFO] = "TCPINFO",
	    [CTL_UDPSTATS] = "UDPSTATS", [CTL_ECHOPORT] = "ECHOPORT",
	    [CTL_ECHOSTATS] = "ECHOSTATS", [CTL_HOSTUDP] = "HOSTUDP" };

	return ctl_type_known(type) ? names[type] : "unknown";
}

int
ctl_type_known(uint8_t t)
{
	return (t >= CTL_PARAMS && t <= CTL_UDPSTATS) || t == CTL_ECHOPORT ||
	    t == CTL_ECHOSTATS || t == CTL_HOSTUDP;
}

uint32_t
ctl_data_hello_stream(const uint8_t *buf, size_t n)
{
	struct bytes r = bytes_reader(buf, n);
	uint32_t id;

	if (n != CTL_DATA_HELLO_LEN)
		return 0;
	id = bytes_be16(&r, CTL_NONCE_LEN);
	return id >= 1 && id <= STREAM_MAX ? id : 0;
}

void
ctl_data_hello(const uint8_t *nonce, uint16_t stream, uint8_t *buf)
{
	struct bytes w = bytes_writer(buf, CTL_DATA_HELLO_LEN);

	bytes_put(&w, 0, nonce, CTL_NONCE_LEN);
	bytes_put_be16(&w, CTL_NONCE_LEN, stream);
}
