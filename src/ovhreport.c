/* ovhreport.c: the per-layer breakdown printed by gput --predict. */
#include "ovhreport.h"

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
ovh_print_breakdown(FILE *f, const struct ovh_conf *c, uint64_t msg_bytes,
                    const struct ovh_msg *m, double link_bps)
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
	if (link_bps > 0)
		fprintf(f, "expected %.4f MBit/s\n",
		        ovh_expected_bps(m, link_bps) / 1e6);
}

/* ": window-limited, 0.1392 of expected" or ": not ..., 1.3923 x expected"
 * after a limit of bps, when there is a link to compare with. */
static void
print_against(FILE *f, const struct plim *p, double bps, const char *what)
{
	if (p->expected_bps <= 0) {
		fputc('\n', f);
		return;
	}
	if (bps < p->expected_bps)
		fprintf(f, ": %s-limited, %.4f of expected\n", what,
		        bps / p->expected_bps);
	else
		fprintf(f, ": not %s-limited, %.4f x expected\n", what,
		        bps / p->expected_bps);
}

void
ovh_print_path(FILE *f, const struct plim *p)
{
	double rtt_ms = p->rtt_s * 1e3;

	if (p->have_bdp)
		fprintf(f, "rtt %g ms: bandwidth-delay product %.0f bytes "
		        "(eta*C x RTT)\n", rtt_ms, p->bdp_bytes);
	if (p->have_window) {
		fprintf(f, "window %" PRIu64 " bytes / rtt %g ms = %.4f MBit/s",
		        p->window, rtt_ms, p->window_bps / 1e6);
		print_against(f, p, p->window_bps, "window");
	}
	if (p->have_mathis) {
		fprintf(f, "Mathis bound MSS %u, rtt %g ms, loss %g%%: %.4f MBit/s",
		        p->mss, rtt_ms, p->loss * 100, p->mathis_bps / 1e6);
		print_against(f, p, p->mathis_bps, "loss");
	}
	if (p->have_window || p->have_mathis)
		fprintf(f, "bound %.4f MBit/s (the least of %s)\n",
		        p->bound_bps / 1e6, p->expected_bps <= 0 ?
		        "window/RTT and the Mathis bound" :
		        "eta*C, window/RTT and the Mathis bound");
}
