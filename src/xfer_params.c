/* xfer_params.c: the arithmetic on a transfer's parameters alone: the
 * sender's schedule, its number of writes, a stream's congestion control. */
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
