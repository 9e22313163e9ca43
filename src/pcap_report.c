/* SPDX-License-Identifier: BSD-2-Clause */
/* pcap_report.c: gput-pcap's table, CSV and JSON. */
#include "pcap_report.h"

#include <arpa/inet.h>
#include <inttypes.h>

#include "json.h"
#include "model.h"

/* What --link adds to a flow. */
struct linkfig {
	int    has_expected, has_ratio;
	double link_mbit, expected_mbit, ratio;
};

static void
link_figures(const struct pscan_flow *r, double link_bps, struct linkfig *l)
{
	struct fig got = { r->goodput_bps / 1e6, r->has_goodput }, ratio;

	l->link_mbit = link_bps / 1e6;
	l->has_expected = link_bps > 0 && r->has_eta;
	l->expected_mbit = l->has_expected ? r->eta * l->link_mbit : 0;
	ratio = model_ratio(got, l->expected_mbit);
	l->has_ratio = ratio.ok;
	l->ratio = ratio.v;
}

static const char *
proto_name(const struct pflow *f, int upper)
{
	if (f->proto == 6)
		return upper ? "TCP" : "tcp";
	return upper ? "UDP" : "udp";
}

/* ---- table ---- */

/* The lines of a gput UDP flow. */
static void
table_gput(FILE *f, const struct pscan_gput *u)
{
	fputs("  gput UDP       sent ", f);
	if (u->sent_known)
		fprintf(f, "%" PRIu64, u->sent);
	else
		fputs("- (no end marker)", f);
	fprintf(f, ", received %" PRIu64 ", unique %" PRIu64 ", lost ",
	        u->u.received, u->u.unique);
	if (u->sent_known)
		fprintf(f, "%" PRIu64, u->lost);
	else
		fputc('-', f);
	fprintf(f, ", duplicates %" PRIu64 ", late %" PRIu64, u->u.duplicates,
	        u->u.late);
	if (u->u.too_old > 0)
		fprintf(f, ", too old %" PRIu64, u->u.too_old);
	fprintf(f, "\n  reordered      %" PRIu64 " (max displacement %" PRIu64
	        ")\n", u->u.reordered, u->u.max_displacement);
	if (u->has_timing)
		fprintf(f, "  jitter         %.4f ms; delay variation %.4f ms "
		        "mean, %.4f ms max\n", u->jitter_ms, u->delay_var_ms,
		        u->delay_var_max_ms);
	else
		fputs("  jitter         - (no send times: the sender was not "
		      "paced)\n", f);
	if (u->cut > 0)
		fprintf(f, "  not decodable  %" PRIu64 " datagrams (gput header "
		        "cut by the snaplen)\n", u->cut);
}

static void
table_flow(FILE *f, const struct pscan_flow *r, size_t n, double link_bps)
{
	const struct pflow_dir *d = r->data, *v = r->rev;
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	const char *lb = r->f->ipv == 6 ? "[" : "", *rb = r->f->ipv == 6 ? "]" : "";
	struct linkfig l;

	link_figures(r, link_bps, &l);
	fprintf(f, "flow %zu: %s %s%s%s:%u -> %s%s%s:%u\n", n,
	        proto_name(r->f, 1), lb, pscan_addr(r->f, r->src, a, sizeof(a)),
	        rb, r->sport, lb, pscan_addr(r->f, r->dst, b, sizeof(b)), rb,
	        r->dport);
	fprintf(f, "  packets        %" PRIu64 " (%" PRIu64 " with new payload, "
	        "%" PRIu64 " retransmitted, %" PRIu64 " fragments)\n",
	        d->packets, d->data_packets, d->retrans_packets, d->fragments);
	fprintf(f, "  payload        %" PRIu64 " bytes\n", d->payload);
	fprintf(f, "  retransmitted  %" PRIu64 " bytes\n", d->retrans);
	if (d->markers > 0 && r->f->proto == 6)
		fprintf(f, "  stream header  %" PRIu64 " bytes in %" PRIu64
		        " gput TCP data connection header (not payload)\n",
		        d->marker_bytes, d->markers);
	else if (d->markers > 0)
		fprintf(f, "  end markers    %" PRIu64 " bytes in %" PRIu64
		        " gput UDP end markers and proof (not payload)\n", d->marker_bytes,
		        d->markers);
	fprintf(f, "  headers        L4 %" PRIu64 ", L3 %" PRIu64 ", L2 %" PRIu64
	        ", padding %" PRIu64 ", L1 %" PRIu64 " bytes\n",
	        d->l4, d->l3, d->l2, d->pad, d->l1);
	fprintf(f, "  wire           %" PRIu64 " bytes (%" PRIu64 " in data "
	        "frames)\n", d->wire, d->data_wire);
	if (r->has_eta)
		fprintf(f, "  eta            %.4f\n", r->eta);
	else
		fprintf(f, "  eta            - (no frame with new payload)\n");
	if (r->has_goodput)
		fprintf(f, "  goodput        %.4f MBit/s over %.6f s\n",
		        r->goodput_bps / 1e6, r->duration_s);
	else
		fprintf(f, "  goodput        - (fewer than two data frames)\n");
	if (l.has_expected)
		fprintf(f, "  expected       %.4f MBit/s on a %g MBit/s link\n",
		        l.expected_mbit, l.link_mbit);
	if (l.has_ratio)
		fprintf(f, "  ratio          %.4f (goodput / expected)\n", l.ratio);
	if (r->has_gput)
		table_gput(f, &r->gput);
	fprintf(f, "  reverse        %" PRIu64 " packets, %" PRIu64 " payload "
	        "bytes, %" PRIu64 " wire bytes\n", v->packets, v->payload,
	        v->wire);
}

void
preport_table(FILE *f, const struct pscan *s, const char *file,
              double link_bps)
{
	size_t i;

	fprintf(f, "capture %s: %" PRIu64 " packets (%" PRIu64 " not TCP/UDP), "
	        "link type %s, MTU %u\n", file, s->packets, s->other,
	        s->linkname, s->mtu);
	for (i = 0; i < s->nflows; i++)
		table_flow(f, &s->flows[i], i + 1, link_bps);
}

/* ---- CSV ---- */

static const char csv_header[] =
	"flow,proto,ip_version,src,sport,dst,dport,packets,data_packets,"
	"retrans_packets,fragments,payload_bytes,retrans_bytes,l4_bytes,"
	"l3_bytes,l2_bytes,pad_bytes,l1_bytes,wire_bytes,data_wire_bytes,"
	"missing_bytes,eta,duration_s,goodput_mbit,link_mbit,expected_mbit,"
	"ratio,rev_packets,rev_payload_bytes,rev_wire_bytes,markers,"
	"marker_bytes,gput_sent,gput_received,gput_unique,gput_lost,"
	"gput_duplicates,gput_reordered,gput_max_displacement,gput_late,"
	"gput_too_old,gput_not_decodable,gput_jitter_ms,gput_delay_var_ms,"
	"gput_delay_var_max_ms\n";

/* A number, or nothing when it is undefined. */
static void
csv_num(FILE *f, int has, int prec, double v)
{
	if (has)
		fprintf(f, "%.*f", prec, v);
	fputc(',', f);
}

/* A count, or nothing when it is undefined; then sep. */
static void
csv_u64(FILE *f, int has, uint64_t v, char sep)
{
	if (has)
		fprintf(f, "%" PRIu64, v);
	fputc(sep, f);
}

/* The gput_ columns: empty for a flow that is not gput UDP. */
static void
csv_gput(FILE *f, const struct pscan_flow *r)
{
	const struct pscan_gput *u = &r->gput;
	int g = r->has_gput, t = g && u->has_timing;

	csv_u64(f, g && u->sent_known, u->sent, ',');
	csv_u64(f, g, u->u.received, ',');
	csv_u64(f, g, u->u.unique, ',');
	csv_u64(f, g && u->sent_known, u->lost, ',');
	csv_u64(f, g, u->u.duplicates, ',');
	csv_u64(f, g, u->u.reordered, ',');
	csv_u64(f, g, u->u.max_displacement, ',');
	csv_u64(f, g, u->u.late, ',');
	csv_u64(f, g, u->u.too_old, ',');
	csv_u64(f, g, u->cut, ',');
	csv_num(f, t, 6, u->jitter_ms);
	csv_num(f, t, 6, u->delay_var_ms);
	if (t)
		fprintf(f, "%.6f", u->delay_var_max_ms);
	fputc('\n', f);
}

void
preport_csv(FILE *f, const struct pscan *s, double link_bps)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	size_t i;

	fputs(csv_header, f);
	for (i = 0; i < s->nflows; i++) {
		const struct pscan_flow *r = &s->flows[i];
		const struct pflow_dir *d = r->data, *v = r->rev;
		struct linkfig l;

		link_figures(r, link_bps, &l);
		fprintf(f, "%zu,%s,%d,%s,%u,%s,%u,%" PRIu64 ",%" PRIu64 ",%"
		        PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		        ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%"
		        PRIu64 ",%" PRIu64 ",%" PRIu64 ",", i + 1,
		        proto_name(r->f, 0), r->f->ipv,
		        pscan_addr(r->f, r->src, a, sizeof(a)), r->sport,
		        pscan_addr(r->f, r->dst, b, sizeof(b)), r->dport,
		        d->packets, d->data_packets, d->retrans_packets,
		        d->fragments, d->payload, d->retrans, d->l4, d->l3, d->l2,
		        d->pad, d->l1, d->wire, d->data_wire, r->missing);
		csv_num(f, r->has_eta, 6, r->eta);
		csv_num(f, r->has_goodput, 9, r->duration_s);
		csv_num(f, r->has_goodput, 6, r->goodput_bps / 1e6);
		csv_num(f, link_bps > 0, 6, l.link_mbit);
		csv_num(f, l.has_expected, 6, l.expected_mbit);
		csv_num(f, l.has_ratio, 6, l.ratio);
		fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%"
		        PRIu64 ",", v->packets, v->payload, v->wire, d->markers,
		        d->marker_bytes);
		csv_gput(f, r);
	}
}

/* ---- JSON ---- */

/* "name": v with prec digits, or null. */
static void
kv_num(struct json *j, const char *name, int has, int prec, double v)
{
	if (has)
		json_kv_fixed(j, name, v, prec);
	else
		json_kv_null(j, name);
}

/* "name": v, or null. */
static void
kv_u64(struct json *j, const char *name, int has, uint64_t v)
{
	if (has)
		json_kv_u64(j, name, v);
	else
		json_kv_null(j, name);
}

static void
json_gput(struct json *j, const struct pscan_gput *u)
{
	int t = u->has_timing;

	json_key(j, "gput_udp");
	json_begin_object(j);
	kv_u64(j, "sent", u->sent_known, u->sent);
	json_kv_u64(j, "received", u->u.received);
	json_kv_u64(j, "unique", u->u.unique);
	kv_u64(j, "lost", u->sent_known, u->lost);
	json_kv_u64(j, "duplicates", u->u.duplicates);
	json_break(j, 6);
	json_kv_u64(j, "reordered", u->u.reordered);
	json_kv_u64(j, "max_displacement", u->u.max_displacement);
	json_kv_u64(j, "late", u->u.late);
	json_kv_u64(j, "too_old", u->u.too_old);
	json_kv_u64(j, "not_decodable", u->cut);
	json_break(j, 6);
	kv_num(j, "jitter_ms", t, 6, u->jitter_ms);
	kv_num(j, "delay_var_ms", t, 6, u->delay_var_ms);
	kv_num(j, "delay_var_max_ms", t, 6, u->delay_var_max_ms);
	json_end_object(j);
}

/* The counts of a flow's data direction, in lines as they are read. */
static void
json_counts(struct json *j, const struct pscan_flow *r)
{
	const struct pflow_dir *d = r->data;

	json_break(j, 5);
	json_kv_u64(j, "packets", d->packets);
	json_kv_u64(j, "data_packets", d->data_packets);
	json_kv_u64(j, "retrans_packets", d->retrans_packets);
	json_kv_u64(j, "fragments", d->fragments);
	json_kv_u64(j, "markers", d->markers);
	json_break(j, 5);
	json_kv_u64(j, "payload_bytes", d->payload);
	json_kv_u64(j, "retrans_bytes", d->retrans);
	json_kv_u64(j, "missing_bytes", r->missing);
	json_kv_u64(j, "marker_bytes", d->marker_bytes);
	json_break(j, 5);
	json_kv_u64(j, "l4_bytes", d->l4);
	json_kv_u64(j, "l3_bytes", d->l3);
	json_kv_u64(j, "l2_bytes", d->l2);
	json_kv_u64(j, "pad_bytes", d->pad);
	json_kv_u64(j, "l1_bytes", d->l1);
	json_break(j, 5);
	json_kv_u64(j, "wire_bytes", d->wire);
	json_kv_u64(j, "data_wire_bytes", d->data_wire);
}

static void
json_flow(struct json *j, const struct pscan_flow *r, size_t n,
          double link_bps)
{
	const struct pflow_dir *v = r->rev;
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	struct linkfig l;

	link_figures(r, link_bps, &l);
	json_begin_object(j);
	json_kv_u64(j, "flow", n);
	json_kv_string(j, "proto", proto_name(r->f, 0));
	json_kv_u64(j, "ip_version", (uint64_t)r->f->ipv);
	json_kv_string(j, "src", pscan_addr(r->f, r->src, a, sizeof(a)));
	json_kv_u64(j, "sport", r->sport);
	json_kv_string(j, "dst", pscan_addr(r->f, r->dst, b, sizeof(b)));
	json_kv_u64(j, "dport", r->dport);
	json_counts(j, r);
	json_break(j, 5);
	kv_num(j, "eta", r->has_eta, 6, r->eta);
	kv_num(j, "duration_s", r->has_goodput, 9, r->duration_s);
	kv_num(j, "goodput_mbit", r->has_goodput, 6, r->goodput_bps / 1e6);
	if (link_bps > 0) {
		json_break(j, 5);
		json_kv_fixed(j, "link_mbit", l.link_mbit, 6);
		kv_num(j, "expected_mbit", l.has_expected, 6, l.expected_mbit);
		kv_num(j, "ratio", l.has_ratio, 6, l.ratio);
	}
	if (r->has_gput) {
		json_break(j, 5);
		json_gput(j, &r->gput);
	}
	json_break(j, 5);
	json_key(j, "reverse");
	json_begin_object(j);
	json_kv_u64(j, "packets", v->packets);
	json_kv_u64(j, "payload_bytes", v->payload);
	json_kv_u64(j, "wire_bytes", v->wire);
	json_end_object(j);
	json_end_object(j);
}

void
preport_json(FILE *f, const struct pscan *s, const char *file,
             double link_bps)
{
	struct json j;
	size_t i;

	json_init(&j, f, JSON_LAID);
	j.bytewise = 1;                     /* gput-pcap(1), OUTPUT */
	json_begin_object(&j);
	json_break(&j, 2);
	json_kv_string(&j, "file", file);
	json_break(&j, 2);
	json_kv_string(&j, "link_type", s->linkname);
	json_kv_u64(&j, "mtu", s->mtu);
	json_kv_u64(&j, "packets", s->packets);
	json_kv_u64(&j, "other_packets", s->other);
	json_break(&j, 2);
	kv_num(&j, "link_mbit", link_bps > 0, 6, link_bps / 1e6);
	json_break(&j, 2);
	json_key(&j, "flows");
	json_begin_array(&j);
	for (i = 0; i < s->nflows; i++) {
		json_break(&j, 4);
		json_flow(&j, &s->flows[i], i + 1, link_bps);
	}
	if (s->nflows > 0)
		json_break(&j, 2);
	json_end_array(&j);
	json_break(&j, 2);
	json_key(&j, "warnings");
	json_begin_array(&j);
	for (i = 0; i < s->nwarnings; i++) {
		json_break(&j, 4);
		json_string(&j, s->warnings[i]);
	}
	if (s->nwarnings > 0)
		json_break(&j, 2);
	json_end_array(&j);
	json_break(&j, 0);
	json_end_object(&j);
	fputc('\n', f);
}

void
preport_warnings(FILE *f, const struct pscan *s)
{
	size_t i;

	for (i = 0; i < s->nwarnings; i++)
		fprintf(f, "gput-pcap: warning: %s\n", s->warnings[i]);
}
