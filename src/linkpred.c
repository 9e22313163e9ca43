/* SPDX-License-Identifier: BSD-2-Clause */
/* linkpred.c: --link and --predict: the overhead model applied to gput's
 * own connection or options. */
#include "linkpred.h"

#include <errno.h>
#include <math.h>
#include <linux/tcp.h>                 /* tcp_info with the segment counts */
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "config.h"
#include "wire_udp.h"

/* TCP: the data segments and their payload bytes this socket really sent
 * (a sender) or received, counted by the kernel in MSS-sized segments even
 * with TSO/GSO/GRO. Retransmissions count on a sender, duplicates on a
 * receiver. Kernels before 4.19 do not fill these fields: left at 0. */
static void
tcp_segments(const struct tcp_info *ti, socklen_t il, uint8_t role,
             struct link_conn *lc)
{
	if (il < offsetof(struct tcp_info, tcpi_bytes_sent) + sizeof ti->tcpi_bytes_sent)
		return;
	if (role == ROLE_SEND) {
		lc->tcp_bytes = ti->tcpi_bytes_sent;
		lc->tcp_segs = ti->tcpi_data_segs_out;
	} else {
		/* called after end of file: bytes_received counts the
		 * sequence number of the sender's FIN too */
		lc->tcp_bytes = ti->tcpi_bytes_received - (ti->tcpi_bytes_received > 0);
		lc->tcp_segs = ti->tcpi_data_segs_in;
	}
}

void
linkpred_tcp_sent(int fd, uint64_t *bytes, uint64_t *segs)
{
	struct tcp_info ti;
	socklen_t il = sizeof ti;
	struct link_conn lc;

	memset(&lc, 0, sizeof lc);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &il) == 0)
		tcp_segments(&ti, il, ROLE_SEND, &lc);
	*bytes = lc.tcp_bytes;
	*segs = lc.tcp_segs;
}

int
linkpred_from_socket(int fd, const struct xfer_params *p,
                     const struct config *c, struct link_conn *lc,
                     char *err, size_t errlen)
{
	struct ovh_conf *oc = &lc->oc;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss, il;
	struct tcp_info ti;
	int mtu = 0;

	memset(lc, 0, sizeof *lc);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == -1) {
		snprintf(err, errlen, "getsockname: %s", strerror(errno));
		return -1;
	}
	oc->ipv6 = ss.ss_family == AF_INET6;
	sl = sizeof mtu;
	if ((oc->ipv6 ? getsockopt(fd, IPPROTO_IPV6, IPV6_MTU, &mtu, &sl)
	    : getsockopt(fd, IPPROTO_IP, IP_MTU, &mtu, &sl)) == -1 || mtu <= 0) {
		snprintf(err, errlen, "reading the path MTU: %s", strerror(errno));
		return -1;
	}
	oc->mtu = (unsigned)mtu;
	oc->vlan_tags = c->vlan_tags;
	oc->pppoe = c->pppoe;
	oc->proto = p->proto == PROTO_UDP ? OVH_UDP : OVH_TCP;
	lc->rtt_s = c->rtt_s;
	lc->loss = c->loss;
	lc->window = c->loc.window;
	if (c->rem.window > 0 && (lc->window == 0 || c->rem.window < lc->window))
		lc->window = c->rem.window;
	if (p->proto == PROTO_UDP && c->swin > 0)   /* the datagrams' window */
		lc->dgrams = c->swin;
	if (oc->proto == OVH_TCP) {
		memset(&ti, 0, sizeof ti);
		il = sizeof ti;
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &il) == -1) {
			snprintf(err, errlen, "TCP_INFO: %s", strerror(errno));
			return -1;
		}
		/* tcpi_snd_mss is the payload of a full segment, options excluded. */
		oc->mss = ti.tcpi_snd_mss;
		if (p->role == ROLE_SEND)       /* the window's segments */
			lc->snd_mss = ti.tcpi_snd_mss;
		oc->tcp_opts = (ti.tcpi_options & TCPI_OPT_TIMESTAMPS) ? 12 : 0;
		oc->per_message = p->nodelay;
		tcp_segments(&ti, il, p->role, lc);
	}
	return 0;
}

/* The model's configuration from --predict's options. */
static void
linkpred_from_config(const struct config *c, struct ovh_conf *oc)
{
	memset(oc, 0, sizeof *oc);
	oc->proto = c->proto == PROTO_UDP ? OVH_UDP : OVH_TCP;
	oc->ipv6 = c->family == AF_INET6;
	oc->mtu = c->mtu;
	oc->tcp_opts = (oc->proto == OVH_TCP && !c->no_ts) ? 12 : 0;
	oc->per_message = c->loc.nodelay;
	oc->vlan_tags = c->vlan_tags;
	oc->pppoe = c->pppoe;
}

/* The model for the connection: TCP from the segments it really carried
 * when the kernel counted them, else (and for UDP) from the message size.
 * *segs gets the segment count used, 0 for the message model. */
static int
conn_model(const struct link_conn *lc, uint64_t msg, struct ovh_msg *m,
           uint64_t *segs, char *err, size_t errlen)
{
	*segs = 0;
	if (lc->oc.proto == OVH_TCP && lc->tcp_segs > 0 &&
	    ovh_tcp_stream(&lc->oc, lc->tcp_bytes, lc->tcp_segs, m, err,
	    errlen) == 0) {
		*segs = lc->tcp_segs;
		return 0;
	}
	/* counts the model cannot use (a 32-bit counter wrapped): the model */
	return ovh_message(&lc->oc, msg, m, err, errlen);
}

/* A UDP sliding window of dgrams datagrams of msg bytes into in: its
 * window in bytes, and the wire bytes of the acknowledgement each
 * datagram brings back (wire_udp.h GPUA). Returns 0 or -1 (err). */
static int
udp_window(const struct ovh_conf *oc, uint32_t dgrams, uint64_t msg,
           uint64_t count, struct plim_in *in, char *err, size_t errlen)
{
	struct ovh_msg ack;

	if (ovh_message(oc, WIRE_GPUA_LEN, &ack, err, errlen) == -1)
		return -1;
	in->dgrams = dgrams;
	in->window = (uint64_t)dgrams * msg;
	in->msg = (double)msg;
	in->ack_wire = (double)ack.wire;
	in->count = count;
	return 0;
}

int
linkpred_compute(const struct link_conn *lc, uint64_t msg, double link_bps,
                 struct link_pred *out, char *err, size_t errlen)
{
	struct plim_in in;

	memset(out, 0, sizeof *out);
	if (conn_model(lc, msg, &out->m, &out->segs, err, errlen) == -1)
		return -1;
	out->link_bps = link_bps;
	out->expected_bps = ovh_expected_bps(&out->m, link_bps);
	if (lc->rtt_s <= 0)
		return 0;
	memset(&in, 0, sizeof in);
	in.rtt_s = lc->rtt_s;
	in.window = lc->window;
	in.loss = lc->loss;
	in.link_bps = link_bps;
	if (lc->oc.proto == OVH_TCP && lc->snd_mss > 0) {
		struct ovh_conf path = lc->oc;

		path.mss = 0;                   /* what the MTU allows */
		in.seg_mss = lc->snd_mss;
		in.path_mss = ovh_tcp_mss(&path);
	}
	if (lc->dgrams > 0 && udp_window(&lc->oc, lc->dgrams, msg, 0, &in, err,
	    errlen) == -1)
		return -1;
	in.mss = lc->oc.proto == OVH_TCP ? ovh_tcp_mss(&lc->oc) : 0;
	in.expected_bps = out->expected_bps;
	if (plim_compute(&in, &out->path, err, errlen) == -1)
		return -1;
	out->have_path = 1;
	return 0;
}

double
linkpred_frames(const struct link_pred *pr, uint64_t msg, uint64_t bytes)
{
	if (pr->segs > 0)
		return (double)pr->segs;
	if (pr->m.bulk && pr->m.full_payload > 0)
		return ceil((double)bytes / pr->m.full_payload);
	if (msg == 0)
		return 0;
	return ceil((double)bytes / (double)msg) * (double)pr->m.frames;
}

int
linkpred_predict(const struct config *c, struct link_predict *out, char *err,
                 size_t errlen)
{
	struct plim_in in;

	memset(out, 0, sizeof *out);
	linkpred_from_config(c, &out->oc);
	out->msg = c->loc.len;
	if (ovh_message(&out->oc, out->msg, &out->m, err, errlen) == -1)
		return -1;
	out->link_bps = c->link_bps;
	out->expected_bps = c->link_bps > 0 ?
	    ovh_expected_bps(&out->m, c->link_bps) : 0;
	if (c->rtt_s <= 0)
		return 0;
	memset(&in, 0, sizeof in);
	in.rtt_s = c->rtt_s;
	in.window = c->loc.window;
	in.loss = c->loss;
	in.msg = (double)out->msg;
	in.count = c->count_set ? c->loc.count : 0;
	in.link_bps = c->link_bps;
	if (c->proto == PROTO_UDP && c->swin > 0 && udp_window(&out->oc,
	    c->swin, out->msg, in.count, &in, err, errlen) == -1)
		return -1;
	in.mss = out->oc.proto == OVH_TCP ? ovh_tcp_mss(&out->oc) : 0;
	in.expected_bps = out->expected_bps;
	if (plim_compute(&in, &out->path, err, errlen) == -1)
		return -1;
	out->have_path = 1;
	return 0;
}
