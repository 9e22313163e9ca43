/* SPDX-License-Identifier: BSD-2-Clause */
/* pcap_scan.c: read a capture into flows, judge whether it can be trusted. */
#include "pcap_scan.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "pcap_decode.h"

void
pscan_init(struct pscan *s, unsigned mtu, int dlt)
{
	const char *name = pcap_datalink_val_to_name(dlt);

	memset(s, 0, sizeof(*s));
	s->mtu = mtu;
	s->dlt = dlt;
	s->table.row_bytes = sizeof(struct pscan_flow);
	s->table.mem_max = PFLOW_MAX_MEMORY_DEFAULT;
	snprintf(s->linkname, sizeof(s->linkname), "%s", name ? name : "?");
}

int
pscan_packet(struct pscan *s, int64_t ts_ns, uint32_t caplen, uint32_t len,
             const uint8_t *bytes, char *err, size_t errlen)
{
	struct pdec_frame fr;
	char why[400];

	s->packets++;
	if (ts_ns < 0) {  /* durations are differences of int64_t */
		snprintf(err, errlen, "packet %llu: timestamp before 1970",
		         (unsigned long long)s->packets);
		return PSCAN_EBAD;
	}
	switch (pdec_frame(s->dlt, bytes, caplen, len, &fr, why, sizeof(why))) {
	case PDEC_OTHER:
		s->other++;
		return 0;
	case PDEC_CUT:
		s->cut++;
		s->cut_skipped++;
		return 0;
	case PDEC_BAD:          /* one bad frame spoils no other: skip it */
		if (s->malformed++ == 0) {
			s->malformed_first = s->packets;
			snprintf(s->malformed_why, sizeof(s->malformed_why), "%.159s",
			         why);
		}
		return 0;
	case PDEC_OK:
		break;
	}
	s->cut += caplen < len;
	if (fr.ip_len > s->mtu)
		s->oversized++;
	if (fr.ip_len > s->max_ip)
		s->max_ip = fr.ip_len;
	if (pflow_add(&s->table, &fr, ts_ns, why, sizeof(why)) == 0)
		return 0;
	snprintf(err, errlen, "packet %llu: %s", (unsigned long long)s->packets,
	         why);
	return PSCAN_EBAD;
}

const char *
pscan_addr(const struct pflow *f, const uint8_t *addr, char *buf, size_t len)
{
	if (inet_ntop(f->ipv == 6 ? AF_INET6 : AF_INET, addr, buf,
	              (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
	return buf;
}

static void warn(struct pscan *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
warn(struct pscan *s, const char *fmt, ...)
{
	char **w, *msg;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((w = realloc(s->warnings, (s->nwarnings + 1) * sizeof(*w))) == NULL) {
		free(msg);
		return;
	}
	s->warnings = w;
	s->warnings[s->nwarnings++] = msg;
}

/* "flow 2 (TCP 10.0.0.1:40000 -> 10.0.0.2:5038)" */
static void
flow_name(const struct pscan_flow *r, size_t n, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];

	snprintf(buf, len, "flow %zu (%s %s%s%s:%u -> %s%s%s:%u)", n,
	         r->f->proto == 6 ? "TCP" : "UDP",
	         r->f->ipv == 6 ? "[" : "", pscan_addr(r->f, r->src, a, sizeof(a)),
	         r->f->ipv == 6 ? "]" : "", r->sport,
	         r->f->ipv == 6 ? "[" : "", pscan_addr(r->f, r->dst, b, sizeof(b)),
	         r->f->ipv == 6 ? "]" : "", r->dport);
}

/* What the data direction's gput headers and end markers say. */
static void
resolve_gput(struct pscan_flow *r, const struct pflow_dir *x)
{
	const struct pflow_gput *g = x->gput;
	struct pscan_gput *u = &r->gput;

	r->held = x->datagrams;
	if (g == NULL)
		return;
	u->sent_known = g->sent_known;
	u->sent = g->sent;
	if (r->f->proto != 17 || g->acct.n.received + g->cut == 0)
		return;
	r->has_gput = 1;
	udpacct_figures(&g->acct, 0, &u->u);
	u->lost = g->sent_known ? udpacct_lost(&g->acct, g->sent) : 0;
	u->cut = g->cut;
	u->has_timing = g->timed > 0;
	if (u->has_timing) {
		u->jitter_ms = g->acct.jitter_ns / 1e6;
		u->delay_var_ms = udpacct_delay_var_mean_ns(&g->acct) / 1e6;
		u->delay_var_max_ms = udpacct_delay_var_max_ns(&g->acct) / 1e6;
	}
	r->held = x->datagrams - u->u.duplicates;
}

/* The data direction carries more payload (new or not); on a tie the first
 * sender's. Goodput: over N data frames the timestamps span N - 1 frame
 * times, so the first data frame's payload is left out of the numerator;
 * for back-to-back frames on a link of rate C this gives exactly eta * C.
 * A gput UDP duplicate is not a data frame (pcap_flow.c). */
static void
resolve(struct pscan_flow *r, const struct pflow *f)
{
	int d = f->dir[1].payload + f->dir[1].retrans >
	        f->dir[0].payload + f->dir[0].retrans;
	const struct pflow_dir *x;

	memset(r, 0, sizeof(*r));
	r->f = f;
	r->data = x = &f->dir[d];
	r->rev = &f->dir[!d];
	r->src = d ? f->b : f->a;
	r->dst = d ? f->a : f->b;
	r->sport = d ? f->bport : f->aport;
	r->dport = d ? f->aport : f->bport;
	r->missing = pflow_missing(x);
	if (x->data_wire > 0) {
		r->has_eta = 1;
		r->eta = (double)x->payload / (double)x->data_wire;
	}
	if (x->data_packets >= 2 && x->last_ns > x->first_ns) {
		r->has_goodput = 1;
		r->duration_s = (double)(x->last_ns - x->first_ns) / 1e9;
		r->goodput_bps = (double)(x->payload - x->first_payload) * 8 /
		                 r->duration_s;
	}
	resolve_gput(r, x);
}

static int
by_payload(const void *pa, const void *pb)
{
	const struct pscan_flow *a = pa, *b = pb;

	if (a->data->payload != b->data->payload)
		return a->data->payload > b->data->payload ? -1 : 1;
	return a->f < b->f ? -1 : a->f > b->f;  /* first seen first */
}

static void
capture_warnings(struct pscan *s)
{
	long reopened;

	if (s->oversized > 0)
		warn(s, "frames longer than the %u-byte MTU: %llu of %llu (largest "
		     "IP packet: %u bytes); TSO/GSO/GRO was on where the capture "
		     "was taken (or it is a loopback capture), so these are not "
		     "the frames that crossed the wire and eta is overstated; "
		     "remedy: ethtool -K IF tso off gso off gro off, and capture "
		     "again (or give --mtu if the link MTU really is larger)",
		     s->mtu, (unsigned long long)s->oversized,
		     (unsigned long long)s->packets, s->max_ip);
	if (s->cut > s->cut_skipped)
		warn(s, "packets cut short by the capture's snaplen (%u bytes): "
		     "%llu; their sizes are taken from the IP headers", s->snaplen,
		     (unsigned long long)(s->cut - s->cut_skipped));
	if (s->cut_skipped > 0)
		warn(s, "packets cut by the snaplen (%u bytes) before their "
		     "TCP/UDP header, not counted: %llu; capture with "
		     "tcpdump -s 0", s->snaplen, (unsigned long long)s->cut_skipped);
	if (s->malformed > 0)
		warn(s, "malformed frames, skipped and not counted: %llu (the "
		     "first, packet %llu: %s)", (unsigned long long)s->malformed,
		     (unsigned long long)s->malformed_first, s->malformed_why);
	if (s->orphans.packets > 0)
		warn(s, "IP fragments of datagrams that are not complete in the "
		     "capture (a fragment is missing: the receiver cannot "
		     "reassemble them), not counted in any flow: %llu (%llu "
		     "payload bytes)", (unsigned long long)s->orphans.packets,
		     (unsigned long long)s->orphans.payload);
	if ((reopened = pflow_reopened(&s->table)) > 0)
		warn(s, "flows that began on the addresses and ports of a flow "
		     "closed before them (it ended and was quiet for 60 s, or was "
		     "quiet for 600 s), each reported on its own: %ld", reopened);
	if (s->nflows == 0)
		warn(s, "no TCP or UDP flow in the capture (other packets: %llu, "
		     "cut before their headers: %llu)",
		     (unsigned long long)s->other,
		     (unsigned long long)s->cut_skipped);
}

/* Data both ways: the remedy is a filter that keeps one direction, here
 * the reverse one, so that it is reported as data. */
static void
both_ways_warning(struct pscan *s, const struct pscan_flow *r,
                  const char *name)
{
	char b[INET6_ADDRSTRLEN];

	warn(s, "%s carries data in both directions (%llu and %llu payload "
	     "bytes): the larger is reported as data, the other as reverse "
	     "traffic; for the other direction's figures, add the filter "
	     "'src host %s and src port %u'", name,
	     (unsigned long long)r->data->payload,
	     (unsigned long long)r->rev->payload,
	     pscan_addr(r->f, r->dst, b, sizeof(b)), r->dport);
}

/* A gput UDP sender's end markers say how many datagrams it sent: a
 * capture that holds fewer missed some (lost on the way, or dropped by
 * the capture), and its figures are those of what it holds. */
static void
gput_warnings(struct pscan *s, const struct pscan_flow *r, const char *name)
{
	const struct pscan_gput *u = &r->gput;

	if (u->sent_known && u->sent > r->held)
		warn(s, "%s: the sender sent %llu datagrams, the capture holds "
		     "%llu of them: %llu were lost before the capture point or "
		     "dropped by the capture (tcpdump: \"packets dropped by "
		     "kernel\"); payload, eta and goodput are those of the "
		     "datagrams captured, not of the transfer", name,
		     (unsigned long long)u->sent, (unsigned long long)r->held,
		     (unsigned long long)(u->sent - r->held));
	if (r->has_gput && u->cut > 0)
		warn(s, "%s: %llu datagrams whose gput header the snaplen (%u "
		     "bytes) cut: not decodable, so counted as lost and left out "
		     "of the duplicate and reordering counts; capture with "
		     "tcpdump -s 0", name,
		     (unsigned long long)u->cut, s->snaplen);
}

static void
flow_warnings(struct pscan *s)
{
	char name[160];
	size_t i;

	for (i = 0; i < s->nflows; i++) {
		const struct pscan_flow *r = &s->flows[i];

		flow_name(r, i + 1, name, sizeof(name));
		if (r->rev->data_packets >= 10 &&
		    r->rev->payload * 10 >= r->data->payload)
			both_ways_warning(s, r, name);
		if (r->data->connections > 1)
			warn(s, "%s holds %llu TCP connections that reused the "
			     "same ports (a new SYN), counted as one flow: its "
			     "goodput spans the time between them", name,
			     (unsigned long long)r->data->connections);
		if (r->missing > 0)
			warn(s, "%s: %llu bytes of the TCP sequence space never "
			     "appear in the capture (dropped by the capture, or "
			     "lost before the capture point): goodput is "
			     "understated", name, (unsigned long long)r->missing);
		gput_warnings(s, r, name);
	}
}

int
pscan_finish(struct pscan *s, char *err, size_t errlen)
{
	size_t i;

	pflow_orphans(&s->table, &s->orphans);
	s->nflows = s->table.nflows;
	if (s->nflows > 0 &&
	    (s->flows = calloc(s->nflows, sizeof(*s->flows))) == NULL) {
		snprintf(err, errlen, "out of memory for %zu flows", s->nflows);
		return PSCAN_EBAD;
	}
	for (i = 0; i < s->nflows; i++)
		resolve(&s->flows[i], &s->table.flows[i]);
	if (s->nflows > 1)
		qsort(s->flows, s->nflows, sizeof(*s->flows), by_payload);
	capture_warnings(s);
	flow_warnings(s);
	return 0;
}

/* A capture is opened here, not by libpcap, so that its first bytes can be
 * looked at: libpcap's errors are text only, and gput-pcap tells an empty
 * input, bytes that are no capture and a cut-off file header apart by the
 * bytes themselves. libpcap then reads from a stream that gives those bytes
 * again before the rest (a pipe cannot be rewound). */
#define HEAD_MAX 28                     /* a pcapng section header's least */

struct head {
	int fd;                         /* 0, standard input, is not closed */
	uint8_t b[HEAD_MAX];
	size_t n, off;
};

static ssize_t
head_read(void *cookie, char *buf, size_t size)
{
	struct head *h = cookie;
	ssize_t n;
	size_t k = 0;

	if (h->off < h->n) {
		k = h->n - h->off < size ? h->n - h->off : size;
		memcpy(buf, h->b + h->off, k);
		h->off += k;
		if (k == size)
			return (ssize_t)k;
	}
	if (k > 0)
		return (ssize_t)k;      /* the rest at the next call */
	do
		n = read(h->fd, buf, size);
	while (n == -1 && errno == EINTR);
	return n;
}

static int
head_close(void *cookie)
{
	struct head *h = cookie;

	if (h->fd > 0)
		close(h->fd);
	free(h);
	return 0;
}

/* The file header's length for a magic number libpcap may know (pcap in
 * either byte order, with micro- or nanoseconds; pcapng), 0 for other
 * bytes. Used only to explain a capture libpcap refused. */
static size_t
head_len(const uint8_t *b, size_t n)
{
	struct bytes c = bytes_reader(b, n);
	uint32_t m;

	if (n < 4)
		return 0;
	m = bytes_be32(&c, 0);
	switch (m) {
	case 0xa1b2c3d4: case 0xd4c3b2a1: case 0xa1b23c4d: case 0x4d3cb2a1:
		return 24;
	case 0x0a0d0d0a:
		return HEAD_MAX;
	}
	return 0;
}

/* path ("-": standard input) as a stream with its first bytes in *h. */
static FILE *
open_head(const char *path, struct head **hp, char *err, size_t errlen)
{
	static const cookie_io_functions_t io = { .read = head_read,
	                                          .close = head_close };
	struct head *h = calloc(1, sizeof *h);
	ssize_t n = 0;
	FILE *fp;

	if (h == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	h->fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (h->fd == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(h);
		return NULL;
	}
	while (h->n < sizeof h->b && (n = read(h->fd, h->b + h->n,
	    sizeof h->b - h->n)) != 0) {
		if (n > 0)
			h->n += (size_t)n;
		else if (errno != EINTR)
			break;
	}
	if (h->n == 0) {
		if (n == -1)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		else if (h->fd == 0)
			snprintf(err, errlen, "-: standard input is empty, not a "
			         "capture");
		else
			snprintf(err, errlen, "%s: the file is empty, not a capture",
			         path);
		head_close(h);
		return NULL;
	}
	if ((fp = fopencookie(h, "rb", io)) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		head_close(h);
		return NULL;
	}
	*hp = h;
	return fp;
}

/* One line for a capture libpcap would not open, from its first bytes. */
static void
open_error(const char *path, const struct head *h, const char *ebuf,
           char *err, size_t errlen)
{
	size_t want = head_len(h->b, h->n);

	if (want == 0)
		snprintf(err, errlen, "%s: not a pcap or pcapng capture", path);
	else if (h->n < want)
		snprintf(err, errlen, "%s: the capture's file header is cut off "
		         "(%zu of %zu bytes)", path, h->n, want);
	else
		snprintf(err, errlen, "%s: %s", path, ebuf);
}

static int
set_filter(pcap_t *p, const char *path, const char *filter, char *err,
           size_t errlen)
{
	struct bpf_program prog;
	int rc;

	if (pcap_compile(p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) == -1) {
		snprintf(err, errlen, "bad filter '%s': %s", filter,
		         pcap_geterr(p));
		return PSCAN_EUSAGE;
	}
	rc = pcap_setfilter(p, &prog);
	pcap_freecode(&prog);
	if (rc == -1) {
		snprintf(err, errlen, "%s: cannot set filter: %s", path,
		         pcap_geterr(p));
		return PSCAN_EBAD;
	}
	return 0;
}

/* A record's timestamp in ns since 1970 (tv_usec holds nanoseconds: the
 * capture is opened with nanosecond precision). pcapng stores 64 bits in
 * units it chooses (if_tsresol), so a corrupt or odd capture can name a
 * time that ns since 1970 cannot hold (after the year 2262, or before
 * 1970): -1 then. */
static int
record_ns(const struct timeval *tv, int64_t *ns)
{
	if (tv->tv_sec < 0 || tv->tv_usec < 0 ||
	    tv->tv_sec > (INT64_MAX - tv->tv_usec) / 1000000000)
		return -1;
	*ns = (int64_t)tv->tv_sec * 1000000000 + tv->tv_usec;
	return 0;
}

size_t
pscan_ts_text(long long sec, long long frac_ns, char *buf, size_t len)
{
	/* a record's two halves can have either sign (libpcap reads a pcap
	 * record's 32-bit seconds and fraction as signed): their sum, in 128
	 * bits so that no pair overflows, then sign and magnitude */
	__int128 t = (__int128)sec * 1000000000 + frac_ns;
	unsigned __int128 m = t < 0 ? -(unsigned __int128)t : (unsigned __int128)t;
	int n = snprintf(buf, len, "%s%llu.%09u", t < 0 ? "-" : "",
	                 (unsigned long long)(m / 1000000000),
	                 (unsigned)(m % 1000000000));

	return n < 0 ? 0 : (size_t)n;
}

/* Read every record; the reasons to stop are end of file (PCAP_ERROR_BREAK),
 * a cut-off record, a timestamp out of range, or memory (a malformed frame
 * is counted and skipped). */
static int
read_all(struct pscan *s, pcap_t *p, const char *path, char *err,
         size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	char why[256];
	char tt[48];
	int64_t ts;
	int rc;

	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		if (record_ns(&h->ts, &ts) == -1) {
			pscan_ts_text((long long)h->ts.tv_sec, (long long)h->ts.tv_usec,
			              tt, sizeof(tt));
			snprintf(err, errlen, "%s: packet %llu: timestamp %s s is out "
			         "of range (1970 to 2262)", path,
			         (unsigned long long)s->packets + 1, tt);
			return PSCAN_EBAD;
		}
		if (pscan_packet(s, ts, h->caplen, h->len, data, why,
		                 sizeof(why)) != 0) {
			snprintf(err, errlen, "%s: %s", path, why);
			return PSCAN_EBAD;
		}
	}
	if (rc != PCAP_ERROR_BREAK) {
		snprintf(err, errlen, "%s: packet %llu is cut off: %s", path,
		         (unsigned long long)s->packets + 1, pcap_geterr(p));
		return PSCAN_EBAD;
	}
	return 0;
}

int
pscan_file(struct pscan *s, const char *path, const char *filter,
           unsigned mtu, char *err, size_t errlen)
{
	return pscan_file_mem(s, path, filter, mtu, PFLOW_MAX_MEMORY_DEFAULT,
	                      err, errlen);
}

int
pscan_file_mem(struct pscan *s, const char *path, const char *filter,
               unsigned mtu, uint64_t max_memory, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	struct head *h = NULL;
	pcap_t *p;
	FILE *fp;
	int rc, dlt;

	pscan_init(s, mtu, -1);
	if ((fp = open_head(path, &h, err, errlen)) == NULL)
		return PSCAN_EBAD;
	p = pcap_fopen_offline_with_tstamp_precision(fp,
	    PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (p == NULL) {
		open_error(path, h, ebuf, err, errlen);
		fclose(fp);
		return PSCAN_EBAD;
	}
	dlt = pcap_datalink(p);
	pscan_init(s, mtu, dlt);
	s->table.mem_max = max_memory;
	s->snaplen = (uint32_t)pcap_snapshot(p);
	if (!pdec_supported(dlt)) {
		snprintf(err, errlen, "%s: unsupported link type %s (%d); "
		         "gput-pcap reads EN10MB, LINUX_SLL, LINUX_SLL2, RAW, IPV4, "
		         "IPV6, NULL and LOOP", path, s->linkname, dlt);
		pcap_close(p);
		return PSCAN_EBAD;
	}
	rc = filter != NULL ? set_filter(p, path, filter, err, errlen) : 0;
	if (rc == 0)
		rc = read_all(s, p, path, err, errlen);
	pcap_close(p);
	if (rc == 0 && s->packets == 0) {
		if (filter != NULL)
			snprintf(err, errlen, "%s: no packet matches the filter "
			         "'%s'", path, filter);
		else
			snprintf(err, errlen, "%s: the capture holds no packets",
			         path);
		rc = PSCAN_EBAD;
	}
	return rc != 0 ? rc : pscan_finish(s, err, errlen);
}

void
pscan_free(struct pscan *s)
{
	size_t i;

	for (i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	free(s->flows);
	pflow_free(&s->table);
	memset(s, 0, sizeof(*s));
}
