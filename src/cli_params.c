/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_params.c: what a parsed config means for one test's two sides. */
#include "cli_params.h"

#include <string.h>

#include "net.h"
#include "wire_ctl.h"

uint8_t
cli_role(const struct config *c, const struct partner *p)
{
	return p->reverse ? (c->role == ROLE_SEND ? ROLE_RECV : ROLE_SEND) :
	    c->role;
}

static void
side_params(const struct config *c, const struct side_opts *s, uint8_t role,
            struct xfer_params *p)
{
	memset(p, 0, sizeof *p);
	p->proto = c->proto;
	p->role = role;
	p->nodelay = s->nodelay;
	p->verify = s->verify;
	p->verbose = s->verbose;
	p->batch = s->batch;
	p->gso = s->gso;
	p->discard = s->discard;
	p->cpus = s->cpus;
	if (s->zerocopy)
		p->xflags |= CTL_XF_ZEROCOPY;
	if (s->fullreads)
		p->xflags |= CTL_XF_FULLREADS;
	p->len = s->len;
	p->count = s->total ? (s->total + s->len - 1) / s->len : s->count;
	p->window = s->window;
	p->gap_us = s->gap_us;
}

void
cli_params(const struct config *c, struct xfer_params *local,
           struct xfer_params *remote)
{
	const struct side_opts *snd = c->role == ROLE_SEND ? &c->loc : &c->rem;
	struct xfer_params data;

	memset(&data, 0, sizeof data);
	data.data_len = snd->len;
	data.data_bytes = snd->total ? snd->total : snd->count * snd->len;
	data.data_gap_ps = c->rate_bps > 0 ? (uint64_t)((double)snd->len * 8e12 /
	    c->rate_bps + 0.5) : (uint64_t)snd->gap_us * 1000000u;
	data.data_burst = c->burst;
	data.seed = snd->seed;
	data.pattern_spans = snd->pattern_spans;
	side_params(c, &c->loc, c->role, local);
	side_params(c, &c->rem, c->role == ROLE_SEND ? ROLE_RECV : ROLE_SEND, remote);
	local->data_len = remote->data_len = data.data_len;
	local->data_bytes = remote->data_bytes = data.data_bytes;
	local->data_gap_ps = remote->data_gap_ps = data.data_gap_ps;
	local->data_burst = remote->data_burst = data.data_burst;
	local->seed = remote->seed = data.seed;
	local->pattern_spans = remote->pattern_spans = data.pattern_spans;
	local->duration_ms = remote->duration_ms = c->duration_ms;
	local->interval_ms = remote->interval_ms = c->interval_ms;
	local->omit_ms = remote->omit_ms = c->omit_ms;
	local->streams = remote->streams = c->streams ? c->streams : 1;
	if (c->ecn) {
		local->xflags |= CTL_XF_ECN;
		remote->xflags |= CTL_XF_ECN;
	}
	if (c->cc != NULL) {
		snprintf(local->cc, sizeof local->cc, "%s", c->cc);
		snprintf(remote->cc, sizeof remote->cc, "%s", c->cc);
	}
	if (c->duration_ms)                     /* the sender stops on time */
		local->data_bytes = remote->data_bytes = XFER_TIME_BYTES;
	if (c->swin > 0) {                      /* the partner acknowledges */
		local->win = c->swin;
		local->win_retries = c->retries;
		local->win_rto_ns = (uint64_t)c->rto_ms * 1000000u;
		local->win_gbn = (uint8_t)c->gbn;
		remote->xflags |= CTL_XF_WINDOW;
	}
	/* --peer-timeout: asked of the partner only when not the default, so
	 * that an older partner sees the PARAMS it always saw */
	local->peer_timeout_s = c->peer_timeout_s ? c->peer_timeout_s :
	    NET_PEER_TIMEOUT_S;
	if (local->peer_timeout_s != NET_PEER_TIMEOUT_S) {
		remote->xflags |= CTL_XF_PEERTIME;
		remote->peer_timeout_s = local->peer_timeout_s;
	}
	if (c->latency) {                       /* the partner echoes */
		remote->xflags |= CTL_XF_LATENCY | CTL_XF_ECHOCOOKIE;
		local->lat_interval_us = remote->lat_interval_us = c->lat_interval_us;
		local->lat_idle_ms = remote->lat_idle_ms = c->lat_idle_ms;
	}
}
