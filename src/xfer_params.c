/* SPDX-License-Identifier: BSD-2-Clause */
/* xfer_params.c: the arithmetic on a transfer's parameters alone: the
 * sender's schedule, its number of writes, a stream's congestion control;
 * and the ranges every side's parameters keep. */
#include "xfer_params.h"

#include <string.h>

#include "wire_udp.h"

uint64_t
xfer_data_calls(const struct xfer_params *p)
{
	return (p->data_bytes + p->data_len - 1) / p->data_len;
}

uint32_t
xfer_last_len(const struct xfer_params *p)
{
	uint64_t rem = p->data_bytes % p->data_len;

	return rem == 0 ? p->data_len : (uint32_t)rem;
}

uint64_t
xfer_due_ns(const struct xfer_params *p, uint64_t i)
{
	uint32_t b = p->data_burst > 1 ? p->data_burst : 1;
	unsigned __int128 ns = (unsigned __int128)(i / b * b) * p->data_gap_ps /
	    1000u;

	/* a schedule past 2^64 ns (584 years) saturates: wrapped, a remote's
	 * PARAMS could pass the partner's --max-time as a few seconds */
	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

double
xfer_schedule_s(const struct xfer_params *p)
{
	uint64_t n = xfer_data_calls(p);

	return n == 0 ? 0 : (double)xfer_due_ns(p, n - 1) / 1e9;
}

void
xfer_cc_pick(const char *list, uint32_t k, char out[16])
{
	const char *p = list, *e;
	uint32_t n = 1, i;

	out[0] = '\0';
	if (list[0] == '\0')
		return;
	for (e = list; *e != '\0'; e++)
		n += *e == ',';
	for (i = k % n; i > 0; i--)
		p = strchr(p, ',') + 1;
	e = strchr(p, ',');
	i = (uint32_t)(e ? (size_t)(e - p) : strlen(p));
	if (i > 15)
		i = 15;
	memcpy(out, p, i);
	out[i] = '\0';
}

int
xfer_udp_has_header(const struct xfer_params *p)
{
	return p->proto == PROTO_UDP && p->data_len >= WIRE_GPUD_LEN &&
	    xfer_last_len(p) >= WIRE_GPUD_LEN;
}

/* A --cc list: names of 1..15 characters [a-z0-9_-] each, separated by
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

const char *
xfer_params_invalid(const struct xfer_params *x)
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
	if ((x->xflags & CTL_XF_FULLREADS) && x->proto != PROTO_TCP)
		return "--full-reads for UDP";
	if ((x->xflags & CTL_XF_FULLREADS) && (x->xflags & CTL_XF_ZEROCOPY))
		return "--full-reads with --zerocopy";
	if ((x->xflags & CTL_XF_COOKIE) && x->proto != PROTO_UDP)
		return "cookie echo for TCP";
	if ((x->xflags & CTL_XF_ECHOCOOKIE) && !(x->xflags & CTL_XF_LATENCY))
		return "the echo's cookie without latency probes";
	if ((x->xflags & CTL_XF_HOSTUDP) &&
	    (x->proto != PROTO_UDP || x->role != ROLE_RECV))
		return "host UDP counters of a side that does not receive UDP";
	/* acknowledgements: a UDP receiver's, to a validated return path, each
	 * no longer than the datagram it answers (which has the header) */
	if ((x->xflags & CTL_XF_WINDOW) && (x->proto != PROTO_UDP ||
	    x->role != ROLE_RECV || !(x->xflags & CTL_XF_COOKIE) ||
	    !xfer_udp_has_header(x) || x->duration_ms != 0))
		return "--sliding-window other than for a UDP receiver of a "
		       "counted stream with data headers and a validated path";
	return NULL;
}
