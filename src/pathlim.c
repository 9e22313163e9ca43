/* SPDX-License-Identifier: BSD-2-Clause */
/* pathlim.c: the window limit, the bandwidth-delay product and the Mathis
 * bound of one TCP connection across a path with an RTT. */
#include "pathlim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double
plim_window_bps(uint64_t window, double rtt_s)
{
	return (double)window * 8.0 / rtt_s;
}

double
plim_mathis_bps(unsigned mss, double rtt_s, double p)
{
	return (double)mss * 8.0 / rtt_s * PLIM_MATHIS_C / sqrt(p);
}

double
plim_bdp_bytes(double bps, double rtt_s)
{
	return bps * rtt_s / 8.0;
}

/* The input makes sense? NULL, or why not. */
static const char *
plim_invalid(const struct plim_in *in)
{
	if (!isfinite(in->rtt_s) || !(in->rtt_s > 0))
		return "the RTT must be above 0";
	if (!isfinite(in->expected_bps) || in->expected_bps < 0)
		return "the expected goodput must be 0 or more";
	if (!isfinite(in->loss) || in->loss < 0 || in->loss > 1)
		return "the loss must be a probability from 0 to 1";
	if (in->loss > 0 && in->mss == 0)
		return "the Mathis bound needs the MSS";
	if (!isfinite(in->msg) || in->msg < 0 || !isfinite(in->ack_wire) ||
	    in->ack_wire < 0)
		return "the message and acknowledgement sizes must be 0 or more";
	return NULL;
}

/* A UDP window's acknowledgements and -n's time, at the bound. */
static void
extras(const struct plim_in *in, struct plim *out)
{
	out->dgrams = in->dgrams;
	out->msg = in->msg;
	out->link_bps = in->link_bps;
	if (out->bound_bps <= 0 || in->msg <= 0)
		return;
	if (in->dgrams > 0 && in->ack_wire > 0) {
		out->have_acks = 1;
		out->ack_wire = in->ack_wire;
		out->acks_per_s = out->bound_bps / (in->msg * 8.0);
		out->ack_bps = out->acks_per_s * in->ack_wire * 8.0;
	}
	if (in->count > 0) {
		out->have_count = 1;
		out->count = in->count;
		out->count_s = (double)in->count * in->msg * 8.0 / out->bound_bps;
	}
}

int
plim_compute(const struct plim_in *in, struct plim *out, char *err,
             size_t errlen)
{
	const char *why = plim_invalid(in);
	int link = in->expected_bps > 0;

	memset(out, 0, sizeof *out);
	if (why != NULL) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	out->rtt_s = in->rtt_s;
	out->expected_bps = in->expected_bps;
	out->bound_bps = in->expected_bps;
	if (link) {
		out->have_bdp = 1;
		out->bdp_bytes = plim_bdp_bytes(in->expected_bps, in->rtt_s);
	}
	if (in->window > 0) {
		out->have_window = 1;
		out->window = in->window;
		out->window_held = in->window;
		out->seg_mss = in->seg_mss;
		out->path_mss = in->path_mss;
		if (in->seg_mss > 0 && in->window >= in->seg_mss)   /* whole */
			out->window_held = in->window / in->seg_mss * in->seg_mss;
		out->window_bps = plim_window_bps(out->window_held, in->rtt_s);
		out->window_limited = link && out->window_bps < in->expected_bps;
		out->window_ratio = link ? out->window_bps / in->expected_bps : 0;
		if (out->bound_bps == 0 || out->window_bps < out->bound_bps)
			out->bound_bps = out->window_bps;
	}
	if (in->loss > 0) {
		out->have_mathis = 1;
		out->loss = in->loss;
		out->mss = in->mss;
		out->mathis_bps = plim_mathis_bps(in->mss, in->rtt_s, in->loss);
		out->loss_limited = link && out->mathis_bps < in->expected_bps;
		out->mathis_ratio = link ? out->mathis_bps / in->expected_bps : 0;
		if (out->bound_bps == 0 || out->mathis_bps < out->bound_bps)
			out->bound_bps = out->mathis_bps;
	}
	extras(in, out);
	return 0;
}
