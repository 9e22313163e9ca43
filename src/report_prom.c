/* SPDX-License-Identifier: BSD-2-Clause */
/* report_prom.c: the result model in the Prometheus text format. */
#include "report_prom.h"

#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "verdict.h"

/* A sample's value: a count, nanoseconds shown as seconds, or a double. */
struct pval {
	enum { PV_U64, PV_NS, PV_DBL } kind;
	uint64_t u;
	double   d;
};

/* The value of a figure of side (or stream) s into v; 0 when s has none. */
typedef int (*prom_get)(const struct side *s, struct pval *v);

/* A metric family of a side's figures. side_only: not for streams (the
 * process's CPU time is the side's, not a stream's). */
struct prom_metric {
	const char *name, *type, *help;
	prom_get get;
	int side_only;
};

static int
u64v(struct pval *v, uint64_t u)
{
	v->kind = PV_U64;
	v->u = u;
	return 1;
}

static int
nsv(struct pval *v, uint64_t ns)
{
	v->kind = PV_NS;
	v->u = ns;
	return 1;
}

/* TCP_INFO of a sender: a receiver's socket sends no data, so it neither
 * retransmits nor measures the data's round trip. */
static int
tcp_sender(const struct side *s)
{
	return s->proto == PROTO_TCP && s->role == ROLE_SEND && s->tcp.valid;
}

static int
udp_receiver(const struct side *s)
{
	return s->proto == PROTO_UDP && s->role == ROLE_RECV;
}

static int
udp_seq(const struct side *s)
{
	return udp_receiver(s) && s->have_udp && (s->udp.flags & UDPS_SEQ);
}

static int
get_goodput(const struct side *s, struct pval *v)
{
	int ok;

	v->kind = PV_DBL;
	v->d = model_byte_s(s->r.bytes, s->r.real_ns, &ok);
	return ok;
}

static int
get_bytes(const struct side *s, struct pval *v)
{
	return u64v(v, s->r.bytes);
}

static int
get_calls(const struct side *s, struct pval *v)
{
	return u64v(v, s->r.calls);
}

static int
get_duration(const struct side *s, struct pval *v)
{
	return nsv(v, s->r.real_ns);
}

static int
get_cpu(const struct side *s, struct pval *v)
{
	return nsv(v, s->r.cpu_ns);
}

static int
get_retrans(const struct side *s, struct pval *v)
{
	return tcp_sender(s) && u64v(v, s->tcp.retrans);
}

static int
get_rtt(const struct side *s, struct pval *v)
{
	return tcp_sender(s) && nsv(v, (uint64_t)s->tcp.rtt_us * 1000u);
}

static int
get_lost(const struct side *s, struct pval *v)
{
	return udp_receiver(s) && u64v(v, s->fig.udp_lost);
}

static int
get_dups(const struct side *s, struct pval *v)
{
	return udp_seq(s) && u64v(v, s->udp.duplicates);
}

static int
get_reordered(const struct side *s, struct pval *v)
{
	return udp_seq(s) && u64v(v, s->udp.reordered);
}

static int
get_jitter(const struct side *s, struct pval *v)
{
	return udp_receiver(s) && s->have_udp && (s->udp.flags & UDPS_TIMED) &&
	    nsv(v, s->udp.jitter_ns);
}

/* Why a UDP receiver lost what it lost: its own socket's drop count, and
 * its host's UDP drop counters over the run (every socket's). */
static int
get_sock_drops(const struct side *s, struct pval *v)
{
	return udp_receiver(s) && (s->r.flags & RES_DROPS) &&
	    u64v(v, s->r.sock_drops);
}

static int
get_host_rcvbuf(const struct side *s, struct pval *v)
{
	return udp_receiver(s) && s->have_host_udp &&
	    u64v(v, s->host_rcvbuf_errors);
}

static int
get_host_inerr(const struct side *s, struct pval *v)
{
	return udp_receiver(s) && s->have_host_udp &&
	    u64v(v, s->host_in_errors);
}

/* --sliding-window: a sender's counts, a receiver's. */
static int
win_sender(const struct side *s)
{
	return s->have_win && s->role == ROLE_SEND;
}

static int
get_win_firsts(const struct side *s, struct pval *v)
{
	return win_sender(s) && u64v(v, s->win.firsts);
}

static int
get_win_resends(const struct side *s, struct pval *v)
{
	return win_sender(s) && u64v(v, s->win.resends);
}

static int
get_win_timeouts(const struct side *s, struct pval *v)
{
	return win_sender(s) && u64v(v, s->win.timeouts);
}

static int
get_win_acks_in(const struct side *s, struct pval *v)
{
	return win_sender(s) && u64v(v, s->win.acks);
}

static int
get_win_acks_out(const struct side *s, struct pval *v)
{
	return s->have_win && s->role == ROLE_RECV && u64v(v, s->win.acks_sent);
}

static int
get_win_unique(const struct side *s, struct pval *v)
{
	return s->have_win && udp_seq(s) && u64v(v, s->udp.unique);
}

/* The families of a side's figures, in the order they are written. */
static const struct prom_metric side_metrics[] = {
	{ "gput_goodput_bytes_per_second", "gauge",
	  "Payload bytes per second over the side's real time (Bytes/Real s).",
	  get_goodput, 0 },
	{ "gput_bytes", "gauge", "Payload bytes the side moved in the run.",
	  get_bytes, 0 },
	{ "gput_calls", "gauge",
	  "System calls that moved the side's payload in the run.", get_calls, 0 },
	{ "gput_duration_seconds", "gauge",
	  "Real time of the side's transfer in the run.", get_duration, 0 },
	{ "gput_cpu_seconds", "gauge",
	  "CPU time (user and system) of the side's process during the run.",
	  get_cpu, 1 },
	{ "gput_retransmits", "gauge",
	  "TCP segments the sender retransmitted in the run (TCP_INFO).",
	  get_retrans, 0 },
	{ "gput_rtt_seconds", "gauge",
	  "TCP sender's smoothed round-trip time at the end of the run (TCP_INFO).",
	  get_rtt, 0 },
	{ "gput_udp_datagrams_lost", "gauge",
	  "UDP datagrams sent that never arrived in the run.", get_lost, 0 },
	{ "gput_udp_datagrams_duplicate", "gauge",
	  "UDP datagrams that arrived more than once in the run.", get_dups, 0 },
	{ "gput_udp_datagrams_reordered", "gauge",
	  "UDP datagrams that arrived after a later one in the run.",
	  get_reordered, 0 },
	{ "gput_udp_jitter_seconds", "gauge",
	  "UDP interarrival jitter (RFC 3550) at the end of the run.", get_jitter,
	  0 },
	{ "gput_udp_socket_drops", "gauge",
	  "UDP datagrams the receiving socket dropped in the run (its buffer "
	  "was full; SO_RXQ_OVFL).", get_sock_drops, 0 },
	{ "gput_udp_host_rcvbuf_errors", "gauge",
	  "The receiving host's UDP RcvbufErrors over the run (every socket's).",
	  get_host_rcvbuf, 0 },
	{ "gput_udp_host_in_errors", "gauge",
	  "The receiving host's UDP InErrors over the run (every socket's).",
	  get_host_inerr, 0 },
	{ "gput_window_first_sends", "gauge",
	  "Data datagrams the sliding-window sender sent for the first time.",
	  get_win_firsts, 0 },
	{ "gput_window_retransmissions", "gauge",
	  "Data datagrams the sliding-window sender sent again after a timeout.",
	  get_win_resends, 0 },
	{ "gput_window_timeouts", "gauge",
	  "Retransmission timers of the sliding-window sender that ran out.",
	  get_win_timeouts, 0 },
	{ "gput_window_acks_received", "gauge",
	  "Acknowledgements the sliding-window sender received.",
	  get_win_acks_in, 0 },
	{ "gput_window_acks_sent", "gauge",
	  "Acknowledgements the sliding-window receiver sent.",
	  get_win_acks_out, 0 },
	{ "gput_window_datagrams_unique", "gauge",
	  "Distinct data datagrams the sliding-window receiver got (goodput "
	  "counts each once).", get_win_unique, 0 },
};

const char *
report_prom_error_name(enum run_error code)
{
	switch (code) {
	case RUN_OK:              return NULL;
	case RUN_ERR_CONNECT:     return "connect";
	case RUN_ERR_BUSY:        return "busy";
	case RUN_ERR_PARTNER:     return "partner";
	case RUN_ERR_INTERRUPTED: return "interrupted";
	case RUN_ERR_VERIFY:      return "verify";
	case RUN_ERR_FAILED:      break;
	}
	return "failed";
}

/* s as a label value: backslash, double quote and newline escaped. */
static void
put_escaped(FILE *f, const char *s)
{
	for (; s != NULL && *s != '\0'; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void
put_value(FILE *f, const struct pval *v)
{
	char buf[JSON_DOUBLE_LEN];
	size_t n;

	switch (v->kind) {
	case PV_U64:
		fprintf(f, " %" PRIu64 "\n", v->u);
		return;
	case PV_NS:                     /* exact: seconds, then what is left */
		snprintf(buf, sizeof buf, "%" PRIu64 ".%09" PRIu64, v->u / 1000000000u,
		         v->u % 1000000000u);
		n = strlen(buf);
		while (buf[n - 1] == '0')
			buf[--n] = '\0';
		if (buf[n - 1] == '.')
			buf[--n] = '\0';
		fprintf(f, " %s\n", buf);
		return;
	case PV_DBL:
		if (json_fmt_double(buf, sizeof buf, v->d) == 0)
			fprintf(f, " %s\n", buf);
		else
			fputs(" NaN\n", f);  /* not reached: the callers check */
		return;
	}
}

static void
put_head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* name{target="...",proto="...",direction="..." (the brace left open). */
static void
put_run_labels(FILE *f, const struct run_model *m, const char *name)
{
	fprintf(f, "%s{target=\"", name);
	put_escaped(f, m->host);
	fprintf(f, "\",proto=\"%s\",direction=\"%s\"",
	        m->proto == PROTO_UDP ? "udp" : "tcp",
	        m->role == ROLE_RECV ? "in" : "out");
}

static void
put_side_sample(FILE *f, const struct run_model *m, const char *name,
                const struct side *s, const struct side *in,
                const struct pval *v)
{
	put_run_labels(f, m, name);
	fprintf(f, ",side=\"%s\",role=\"%s\",stream=\"", in == &m->side[0] ?
	        "local" : "partner", s->role == ROLE_RECV ? "recv" : "send");
	if (s->stream == 0)
		fputs("sum\"}", f);
	else
		fprintf(f, "%" PRIu32 "\"}", s->stream);
	put_value(f, v);
}

/* One family of side figures: its samples for each side with a result,
 * the side's sum, then (with -P above 1) its streams with a result. */
static void
put_side_metric(FILE *f, const struct run_model *m, const struct prom_metric *pm)
{
	struct pval v;
	int head = 0;
	size_t i;
	uint32_t k;

	for (i = 0; i < 2; i++) {
		const struct side *s = &m->side[i];

		if (!s->have_result)
			continue;
		for (k = 0; k <= s->nst; k++) {
			const struct side *t = k == 0 ? s : &s->st[k - 1];

			if (k > 0 && (m->streams <= 1 || pm->side_only ||
			    !t->have_result))
				break;
			if (!pm->get(t, &v))
				continue;
			if (!head)
				put_head(f, pm->name, pm->type, pm->help);
			head = 1;
			put_side_sample(f, m, pm->name, t, s, &v);
		}
	}
}

/* --latency: a phase's probes and round trips (nearest-rank percentiles,
 * gput(1), LATENCY UNDER LOAD; 0 and 100 are the least and the largest). */
static void
put_lat_family(FILE *f, const struct run_model *m, int which)
{
	static const char *const phase_name[2] = { "idle", "loaded" };
	static const char *const pct_name[5] = { "0", "50", "90", "99", "100" };
	const struct lat_phase *ph;
	struct pval v;
	size_t i, k;

	for (i = 0; i < 2; i++) {
		ph = i == 0 ? &m->lat.idle : &m->lat.loaded;
		for (k = 0; k < (which == 0 ? 5u : 1u); k++) {
			const uint64_t rtt[5] = { ph->min_ns, ph->p50_ns, ph->p90_ns,
			    ph->p99_ns, ph->max_ns };

			if (which == 0 && ph->answered == 0)
				break;          /* no round trip to rank */
			put_run_labels(f, m, which == 0 ? "gput_latency_rtt_seconds" :
			    which == 1 ? "gput_latency_probes_sent" :
			    "gput_latency_probes_lost");
			fprintf(f, ",phase=\"%s\"", phase_name[i]);
			if (which == 0)
				fprintf(f, ",percentile=\"%s\"", pct_name[k]);
			fputc('}', f);
			if (which == 0)
				nsv(&v, rtt[k]);
			else
				u64v(&v, which == 1 ? ph->sent : ph->lost);
			put_value(f, &v);
		}
	}
}

static void
put_latency(FILE *f, const struct run_model *m)
{
	if (!m->lat.have)
		return;
	if (m->lat.idle.answered > 0 || m->lat.loaded.answered > 0) {
		put_head(f, "gput_latency_rtt_seconds", "gauge", "--latency: probe "
		         "round trips by phase, nearest-rank percentiles (0: least, "
		         "100: largest).");
		put_lat_family(f, m, 0);
	}
	put_head(f, "gput_latency_probes_sent", "gauge",
	         "--latency: probes sent in the phase.");
	put_lat_family(f, m, 1);
	put_head(f, "gput_latency_probes_lost", "gauge",
	         "--latency: probes sent in the phase whose echo never came.");
	put_lat_family(f, m, 2);
}

/* The verdict (verdict.h): the limit named, its value 1. */
static void
put_limit(FILE *f, const struct run_model *m)
{
	int r = model_recv_side(m);
	struct verdict v;

	if (r < 0 || !m->side[r].have_result)
		return;
	verdict_run(m, &v);
	put_head(f, "gput_limit", "gauge", "1 for the limit that set the run's "
	         "goodput (gput(1), WHY A RUN FELL SHORT).");
	put_run_labels(f, m, "gput_limit");
	fprintf(f, ",limit=\"%s\"} 1\n", verdict_name(v.limit));
}

void
report_prom(FILE *f, const struct run_model *m)
{
	const char *err = report_prom_error_name(m->error_code);
	struct pval v;
	size_t i;

	/* one gput_up series whatever the outcome; the reason in a family
	 * of its own, present only when the run failed */
	put_head(f, "gput_up", "gauge", "1 when the run measured; 0 when it "
	         "failed (gput_probe_error says why).");
	put_run_labels(f, m, "gput_up");
	fputs(err != NULL ? "} 0\n" : "} 1\n", f);
	if (err != NULL) {
		put_head(f, "gput_probe_error", "gauge", "1, with the reason the "
		         "run failed in the error label; absent when it measured.");
		put_run_labels(f, m, "gput_probe_error");
		fprintf(f, ",error=\"%s\"} 1\n", err);
	}
	if (m->wall_ns != 0) {
		put_head(f, "gput_run_timestamp_seconds", "gauge",
		         "When the run began, in seconds since the Unix epoch.");
		put_run_labels(f, m, "gput_run_timestamp_seconds");
		fputc('}', f);
		nsv(&v, m->wall_ns);
		put_value(f, &v);
	}
	if (err != NULL)
		return;
	if (m->link_bps > 0) {
		put_head(f, "gput_expected_goodput_bytes_per_second", "gauge",
		         "Goodput the --link rate allows (eta*C), in bytes per second.");
		put_run_labels(f, m, "gput_expected_goodput_bytes_per_second");
		fputc('}', f);
		v.kind = PV_DBL;
		v.d = m->link_expected_Bps;
		put_value(f, &v);
	}
	if (m->pace_bps > 0) {
		put_head(f, "gput_offered_goodput_bytes_per_second", "gauge",
		         "A paced sender's schedule (--rate or -g), payload bytes "
		         "per second of all its streams.");
		put_run_labels(f, m, "gput_offered_goodput_bytes_per_second");
		fputc('}', f);
		v.kind = PV_DBL;
		v.d = m->pace_bps / 8;
		put_value(f, &v);
	}
	for (i = 0; i < sizeof side_metrics / sizeof side_metrics[0]; i++)
		put_side_metric(f, m, &side_metrics[i]);
	put_latency(f, m);
	put_limit(f, m);
}
