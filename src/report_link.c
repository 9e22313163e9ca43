/* SPDX-License-Identifier: BSD-2-Clause */
/* report_link.c: the link prediction's lines: --predict's per-layer
 * breakdown, the path's limits, and --link's line and comparisons after a
 * run. The numbers come from overhead.c, pathlim.c and linkpred.c. */
#include "report_link.h"

#include <inttypes.h>

/* Label column and number column of the breakdown table. */
#define ROW_FMT "%-28s %10" PRIu64 "\n"

static void
print_title(FILE *f, const struct ovh_conf *c, const struct ovh_msg *m)
{
	fprintf(f, "%s over %s, MTU %u", c->proto == OVH_TCP ? "TCP" : "UDP",
	        c->ipv6 ? "IPv6" : "IPv4", c->mtu);
	if (c->proto == OVH_TCP)
		fprintf(f, ", MSS %u, TCP options %u", m->full_payload,
		        c->tcp_opts);
	fprintf(f, ", Ethernet");
	if (c->vlan_tags > 0)
		fprintf(f, " with %u 802.1Q tag%s", c->vlan_tags,
		        c->vlan_tags > 1 ? "s" : "");
	if (c->pppoe)
		fprintf(f, ", PPPoE");
	fprintf(f, "\n");
}

static void
print_shape(FILE *f, const struct ovh_conf *c, uint64_t msg_bytes,
            const struct ovh_msg *m)
{
	const char *unit;

	if (m->bulk) {
		fprintf(f, "bulk stream cut into full %u-byte segments: a "
		        "%" PRIu64 "-byte message is %.2f segments; "
		        "bytes per segment:\n", m->full_payload, msg_bytes,
		        m->msg_frames);
		return;
	}
	if (c->proto == OVH_TCP)
		unit = m->frames == 1 ? "segment" : "segments";
	else if (m->frames > 1)
		unit = "IP fragments";
	else
		unit = "frame";
	fprintf(f, "a %" PRIu64 "-byte message is %" PRIu64 " %s; bytes per "
	        "message:\n", msg_bytes, m->frames, unit);
}

void
report_link_breakdown(FILE *f, const struct ovh_conf *c, uint64_t msg_bytes,
                      const struct ovh_msg *m, double expected_bps)
{
	const char *l4 = c->proto == OVH_TCP ? (c->tcp_opts > 0 ?
	    "L4 TCP header + options" : "L4 TCP header") : "L4 UDP header";
	const char *l3;

	if (c->ipv6)
		l3 = c->ip_opts > 0 || (m->frames > 1 && c->proto == OVH_UDP) ?
		    "L3 IPv6 + extension headers" : "L3 IPv6 header";
	else
		l3 = c->ip_opts > 0 ? "L3 IPv4 header + options" :
		    "L3 IPv4 header";
	print_title(f, c, m);
	print_shape(f, c, msg_bytes, m);
	fprintf(f, ROW_FMT, "payload", m->bytes.payload);
	fprintf(f, ROW_FMT, l4, m->bytes.l4);
	fprintf(f, ROW_FMT, l3, m->bytes.l3);
	fprintf(f, ROW_FMT, c->pppoe || c->vlan_tags > 0 ?
	        "L2 MAC + tags/PPPoE + FCS" : "L2 MAC header + FCS", m->bytes.l2);
	fprintf(f, ROW_FMT, "L2 padding to 64 bytes", m->bytes.pad);
	fprintf(f, ROW_FMT, "L1 preamble, SFD, gap", m->bytes.l1);
	fprintf(f, ROW_FMT, "wire", m->wire);
	fprintf(f, "eta %.4f\n", m->eta);
	if (expected_bps > 0)
		fprintf(f, "expected %.4f MBit/s\n", expected_bps / 1e6);
}

/* ": window-limited, 0.1392 of expected" or ": not ..., 1.3923 x expected"
 * after a limit (limited, and its ratio to eta * C, as pathlim computed
 * them), when there is a link to compare with. */
static void
print_against(FILE *f, const struct plim *p, int limited, double ratio,
              const char *what)
{
	if (p->expected_bps <= 0) {
		fputc('\n', f);
		return;
	}
	if (limited)
		fprintf(f, ": %s-limited, %.4f of expected\n", what, ratio);
	else
		fprintf(f, ": not %s-limited, %.4f x expected\n", what, ratio);
}

/* What sets the bound: the one of eta * C, the window and the Mathis
 * bound that equals it (the link on a tie). */
static const char *
limiter(const struct plim *p)
{
	if (p->expected_bps > 0 && p->bound_bps >= p->expected_bps)
		return "the link (eta*C)";
	if (p->have_window && p->bound_bps >= p->window_bps)
		return "the window";
	return "loss (Mathis)";
}

void
report_link_path(FILE *f, const struct plim *p)
{
	double rtt_ms = p->rtt_s * 1e3;

	if (p->have_bdp)
		fprintf(f, "rtt %g ms: bandwidth-delay product %.0f bytes "
		        "(eta*C x RTT)\n", rtt_ms, p->bdp_bytes);
	if (p->have_window && p->dgrams > 0) {    /* --sliding-window */
		fprintf(f, "window %u datagram%s x %.0f bytes / rtt %g ms = %.4f "
		        "MBit/s", p->dgrams, p->dgrams == 1 ? "" : "s", p->msg,
		        rtt_ms, p->window_bps / 1e6);
		print_against(f, p, p->window_limited, p->window_ratio, "window");
	} else if (p->have_window && p->window_held != p->window) {
		fprintf(f, "window %" PRIu64 " bytes, %" PRIu64 " in whole segments "
		        "of MSS %u (TCP_INFO", p->window, p->window_held, p->seg_mss);
		if (p->path_mss > p->seg_mss)
			fprintf(f, ": the kernel chose less than the path's %u",
			        p->path_mss);
		fprintf(f, ") / rtt %g ms = %.4f MBit/s", rtt_ms,
		        p->window_bps / 1e6);
		print_against(f, p, p->window_limited, p->window_ratio, "window");
	} else if (p->have_window) {
		fprintf(f, "window %" PRIu64 " bytes / rtt %g ms = %.4f MBit/s",
		        p->window, rtt_ms, p->window_bps / 1e6);
		print_against(f, p, p->window_limited, p->window_ratio, "window");
	}
	if (p->have_mathis) {
		fprintf(f, "Mathis bound MSS %u, rtt %g ms, loss %g%%: %.4f MBit/s",
		        p->mss, rtt_ms, p->loss * 100, p->mathis_bps / 1e6);
		print_against(f, p, p->loss_limited, p->mathis_ratio, "loss");
	}
	if ((p->have_window || p->have_mathis) && p->dgrams == 0)
		fprintf(f, "bound %.4f MBit/s (the least of %s)\n",
		        p->bound_bps / 1e6, p->expected_bps <= 0 ?
		        "window/RTT and the Mathis bound" :
		        "eta*C, window/RTT and the Mathis bound");
	if (p->dgrams > 0)                      /* --sliding-window */
		fprintf(f, "bound %.4f MBit/s (%s): %s limits\n",
		        p->bound_bps / 1e6, p->expected_bps <= 0 ? "window/RTT, no "
		        "link given" : "the least of eta*C and window/RTT",
		        limiter(p));
	if (p->have_acks) {
		fprintf(f, "ACKs on the reverse path at the bound: %.1f a second of "
		        "%.0f wire bytes = %.4f MBit/s", p->acks_per_s, p->ack_wire,
		        p->ack_bps / 1e6);
		if (p->link_bps > 0)
			fprintf(f, ", %.2f%% of the link", 100.0 * p->ack_bps /
			        p->link_bps);
		fputc('\n', f);
	}
	if (p->have_count)
		fprintf(f, "%" PRIu64 " %s of %.0f bytes at the bound: %.3f s\n",
		        p->count, p->dgrams > 0 ? "datagrams" : "writes", p->msg,
		        p->count_s);
}

void
report_link_predict(FILE *f, const struct link_predict *pr)
{
	report_link_breakdown(f, &pr->oc, pr->msg, &pr->m, pr->expected_bps);
	if (pr->have_path)
		report_link_path(f, &pr->path);
}

/* "link 10 MBit/s: TCP over IPv4, ...: eta 0.9415, expected 9.4148 MBit/s" */
static void
print_link_line(FILE *f, const struct link_conn *lc, uint64_t msg,
                const struct link_pred *pr)
{
	const struct ovh_conf *oc = &lc->oc;
	const struct ovh_msg *m = &pr->m;

	fprintf(f, "link %g MBit/s: %s over IPv%d, MTU %u", pr->link_bps / 1e6,
	        oc->proto == OVH_UDP ? "UDP" : "TCP", oc->ipv6 ? 6 : 4, oc->mtu);
	if (oc->vlan_tags > 0)
		fprintf(f, ", %u 802.1Q tag%s", oc->vlan_tags,
		        oc->vlan_tags > 1 ? "s" : "");
	if (oc->pppoe)
		fprintf(f, ", PPPoE");
	if (oc->proto == OVH_TCP)
		fprintf(f, ", MSS %u, TCP options %u bytes", ovh_tcp_mss(oc),
		        oc->tcp_opts);
	if (pr->segs > 0)
		fprintf(f, ", %llu data segments of %.1f bytes",
		        (unsigned long long)pr->segs, (double)lc->tcp_bytes / pr->segs);
	else if (oc->proto == OVH_TCP)
		fprintf(f, ", %s", m->bulk ? "full segments" : "a segment per write");
	else
		fprintf(f, ", datagram %llu bytes in %llu frame%s",
		        (unsigned long long)msg, (unsigned long long)m->frames,
		        m->frames == 1 ? "" : "s");
	fprintf(f, ": eta %.4f, expected %.4f MBit/s\n", m->eta,
	        pr->expected_bps / 1e6);
}

/* A short run's own uncertainty: its receiver's Real s opens at the first
 * byte, one frame time after the first frame began on the wire, and a
 * shaper's bucket (a token bucket's burst) may pass the first frame at
 * once: N frames in as little as N - 2 frame times, a rate up to
 * N / (N - 2) of the link's, 2 / (N - 2) high. */
static void
short_run(FILE *f, const struct run_model *m, const struct report_row *row)
{
	double n = m->link_frames;

	if (!m->link_high.ok || n >= LINKPRED_SHORT_FRAMES)
		return;
	fprintf(f, "%c: a run of %.0f frames: its ratio may read up to %.2f%% "
	        "high (%.0f frames in %.0f frame times: the window opens at the "
	        "first byte, a shaper may pass the first frame at once)\n",
	        row->tag, n, 100 * m->link_high.v, n, n - 2);
}

void
report_link(FILE *f, const struct run_model *m, const struct report_row *rows,
            int nrows, int recv_row)
{
	const struct link_pred *pr = &m->link_pred;
	int i;

	print_link_line(f, &m->link_conn, m->data_len, pr);
	if (pr->have_path)
		report_link_path(f, &pr->path);
	for (i = 0; i < nrows; i++) {
		const struct figures *fig = rows[i].fig;

		if (!fig->link_ratio.ok) {
			fprintf(f, "%c: measured -, no time to compare\n", rows[i].tag);
			continue;
		}
		fprintf(f, "%c: measured %.4f MBit/s, %.4f of expected", rows[i].tag,
		        fig->real_mbit.v, fig->link_ratio.v);
		if (fig->bound_ratio.ok)
			fprintf(f, ", %.4f of the bound", fig->bound_ratio.v);
		fputc('\n', f);
		if (i == recv_row)
			short_run(f, m, &rows[i]);
	}
}

