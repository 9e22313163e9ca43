/* pcapreport.c: gput-pcap's table, CSV and JSON. */
#include "pcapreport.h"

#include <arpa/inet.h>
#include <inttypes.h>

/* What --link adds to a flow. */
struct linkfig {
	int    has_expected, has_ratio;
	double link_mbit, expected_mbit, ratio;
};

static void
link_figures(const struct pscan_flow *r, double link_bps, struct linkfig *l)
{
	l->link_mbit = link_bps / 1e6;
	l->has_expected = link_bps > 0 && r->has_eta;
	l->expected_mbit = l->has_expected ? r->eta * l->link_mbit : 0;
	l->has_ratio = l->has_expected && r->has_goodput && l->expected_mbit > 0;
	l->ratio = l->has_ratio ? r->goodput_bps / 1e6 / l->expected_mbit : 0;
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
	        u->received, u->unique);
	if (u->sent_known)
		fprintf(f, "%" PRIu64, u->lost);
	else
		fputc('-', f);
	fprintf(f, ", duplicates %" PRIu64 ", late %" PRIu64, u->duplicates,
	        u->late);
	if (u->too_old > 0)
		fprintf(f, ", too old %" PRIu64, u->too_old);
	fprintf(f, "\n  reordered      %" PRIu64 " (max displacement %" PRIu64
	        ")\n", u->reordered, u->max_displacement);
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
	if (d->markers > 0)
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
	csv_u64(f, g, u->received, ',');
	csv_u64(f, g, u->unique, ',');
	csv_u64(f, g && u->sent_known, u->lost, ',');
	csv_u64(f, g, u->duplicates, ',');
	csv_u64(f, g, u->reordered, ',');
	csv_u64(f, g, u->max_displacement, ',');
	csv_u64(f, g, u->late, ',');
	csv_u64(f, g, u->too_old, ',');
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

/* Bytes of the well-formed UTF-8 sequence at s (RFC 3629 4), or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;  /* overlong */
	else if (s[0] == 0xed)
		hi = 0x9f;  /* UTF-16 surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;  /* overlong */
	else if (s[0] == 0xf4)
		hi = 0x8f;  /* past U+10FFFF */
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)  /* also stops at the NUL */
			return 0;
	return n;
}

/* A JSON string (RFC 8259 7): quote, backslash and control characters
 * escaped; a byte that is not part of well-formed UTF-8 (a file name
 * need not be) becomes U+FFFD, so that the output is always valid JSON. */
static void
json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', f);
	for (; *s != '\0'; s += n ? n : 1) {
		n = utf8_len(s);
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else if (n == 0)
			fputs("\\ufffd", f);
		else
			fwrite(s, 1, n, f);
	}
	fputc('"', f);
}

/* "name": number or null, then the separator. */
static void
json_num(FILE *f, const char *name, int has, int prec, double v,
         const char *sep)
{
	fprintf(f, "\"%s\": ", name);
	if (has)
		fprintf(f, "%.*f", prec, v);
	else
		fputs("null", f);
	fputs(sep, f);
}

/* "name": count or null, then ", ". */
static void
json_u64(FILE *f, const char *name, int has, uint64_t v)
{
	if (has)
		fprintf(f, "\"%s\": %" PRIu64 ", ", name, v);
	else
		fprintf(f, "\"%s\": null, ", name);
}

/* "gput_udp": {...}, then the separator. */
static void
json_gput(FILE *f, const struct pscan_gput *u, const char *sep)
{
	int t = u->has_timing;

	fputs("\"gput_udp\": {", f);
	json_u64(f, "sent", u->sent_known, u->sent);
	json_u64(f, "received", 1, u->received);
	json_u64(f, "unique", 1, u->unique);
	json_u64(f, "lost", u->sent_known, u->lost);
	fprintf(f, "\"duplicates\": %" PRIu64 ",\n      \"reordered\": %"
	        PRIu64 ", \"max_displacement\": %" PRIu64 ", \"late\": %"
	        PRIu64 ", \"too_old\": %" PRIu64 ", \"not_decodable\": %"
	        PRIu64 ",\n      ", u->duplicates, u->reordered,
	        u->max_displacement, u->late, u->too_old, u->cut);
	json_num(f, "jitter_ms", t, 6, u->jitter_ms, ", ");
	json_num(f, "delay_var_ms", t, 6, u->delay_var_ms, ", ");
	json_num(f, "delay_var_max_ms", t, 6, u->delay_var_max_ms, "}");
	fputs(sep, f);
}

static void
json_flow(FILE *f, const struct pscan_flow *r, size_t n, double link_bps)
{
	const struct pflow_dir *d = r->data, *v = r->rev;
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	struct linkfig l;

	link_figures(r, link_bps, &l);
	fprintf(f, "    {\"flow\": %zu, \"proto\": \"%s\", \"ip_version\": %d, "
	        "\"src\": \"%s\", \"sport\": %u, \"dst\": \"%s\", \"dport\": %u,\n",
	        n, proto_name(r->f, 0), r->f->ipv,
	        pscan_addr(r->f, r->src, a, sizeof(a)), r->sport,
	        pscan_addr(r->f, r->dst, b, sizeof(b)), r->dport);
	fprintf(f, "     \"packets\": %" PRIu64 ", \"data_packets\": %" PRIu64
	        ", \"retrans_packets\": %" PRIu64 ", \"fragments\": %" PRIu64
	        ", \"markers\": %" PRIu64 ",\n", d->packets, d->data_packets,
	        d->retrans_packets, d->fragments, d->markers);
	fprintf(f, "     \"payload_bytes\": %" PRIu64 ", \"retrans_bytes\": %"
	        PRIu64 ", \"missing_bytes\": %" PRIu64 ", \"marker_bytes\": %"
	        PRIu64 ",\n", d->payload, d->retrans, r->missing,
	        d->marker_bytes);
	fprintf(f, "     \"l4_bytes\": %" PRIu64 ", \"l3_bytes\": %" PRIu64
	        ", \"l2_bytes\": %" PRIu64 ", \"pad_bytes\": %" PRIu64
	        ", \"l1_bytes\": %" PRIu64 ",\n", d->l4, d->l3, d->l2, d->pad,
	        d->l1);
	fprintf(f, "     \"wire_bytes\": %" PRIu64 ", \"data_wire_bytes\": %"
	        PRIu64 ",\n     ", d->wire, d->data_wire);
	json_num(f, "eta", r->has_eta, 6, r->eta, ", ");
	json_num(f, "duration_s", r->has_goodput, 9, r->duration_s, ", ");
	json_num(f, "goodput_mbit", r->has_goodput, 6,
	         r->goodput_bps / 1e6, ",\n     ");
	if (link_bps > 0) {
		json_num(f, "link_mbit", 1, 6, l.link_mbit, ", ");
		json_num(f, "expected_mbit", l.has_expected, 6,
		         l.expected_mbit, ", ");
		json_num(f, "ratio", l.has_ratio, 6, l.ratio, ",\n     ");
	}
	if (r->has_gput)
		json_gput(f, &r->gput, ",\n     ");
	fprintf(f, "\"reverse\": {\"packets\": %" PRIu64 ", \"payload_bytes\": %"
	        PRIu64 ", \"wire_bytes\": %" PRIu64 "}}", v->packets, v->payload,
	        v->wire);
}

void
preport_json(FILE *f, const struct pscan *s, const char *file,
             double link_bps)
{
	size_t i;

	fputs("{\n  \"file\": ", f);
	json_str(f, file);
	fputs(",\n  \"link_type\": ", f);
	json_str(f, s->linkname);
	fprintf(f, ", \"mtu\": %u, \"packets\": %" PRIu64 ", \"other_packets\": %"
	        PRIu64 ",\n  ", s->mtu, s->packets, s->other);
	json_num(f, "link_mbit", link_bps > 0, 6, link_bps / 1e6, ",\n");
	fputs("  \"flows\": [", f);
	for (i = 0; i < s->nflows; i++) {
		fputs(i == 0 ? "\n" : ",\n", f);
		json_flow(f, &s->flows[i], i + 1, link_bps);
	}
	fputs(s->nflows > 0 ? "\n  ],\n" : "],\n", f);
	fputs("  \"warnings\": [", f);
	for (i = 0; i < s->nwarnings; i++) {
		fputs(i == 0 ? "\n    " : ",\n    ", f);
		json_str(f, s->warnings[i]);
	}
	fputs(s->nwarnings > 0 ? "\n  ]\n}\n" : "]\n}\n", f);
}

void
preport_warnings(FILE *f, const struct pscan *s)
{
	size_t i;

	for (i = 0; i < s->nwarnings; i++)
		fprintf(f, "gput-pcap: warning: %s\n", s->warnings[i]);
}
