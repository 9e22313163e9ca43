/* SPDX-License-Identifier: BSD-2-Clause */
/* report_json.c: the result model as JSON and JSON lines. */
#include "report_json.h"

#include "version.h"
#include "report_lat.h"
#include "ecn.h"
#include "json.h"
#include "report_verdict.h"

static void put_udp(struct json *j, const struct side *s, int ecn);

static const char *
proto_name(uint8_t proto)
{
	return proto == PROTO_UDP ? "udp" : "tcp";
}

static const char *
role_name(uint8_t role)
{
	return role == ROLE_RECV ? "recv" : "send";
}

static double
secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* key: MBit/s of bytes over ns, or null when ns is 0. */
static void
kv_mbit(struct json *j, const char *key, uint64_t bytes, uint64_t ns)
{
	int ok;
	double v = model_mbit(bytes, ns, &ok);

	if (ok)
		json_kv_double(j, key, v);
	else
		json_kv_null(j, key);
}

/* key: the figure, or null when it has no value. */
static void
kv_fig(struct json *j, const char *key, const struct fig *v)
{
	if (v->ok)
		json_kv_double(j, key, v->v);
	else
		json_kv_null(j, key);
}

void
report_json_put_params(struct json *j, const struct run_model *m)
{
	json_key(j, "params");
	json_begin_object(j);
	json_kv_string(j, "proto", proto_name(m->proto));
	json_kv_string(j, "mode", m->duration_ms > 0 ? "time" : "count");
	if (m->duration_ms > 0)
		json_kv_double(j, "duration_s", m->duration_ms / 1e3);
	else
		json_kv_u64(j, "bytes", m->data_bytes);
	json_kv_u64(j, "length", m->data_len);
	json_kv_double(j, "interval_s", m->interval_ms / 1e3);
	json_kv_double(j, "omit_s", m->omit_ms / 1e3);
	json_kv_string(j, "host", m->host);
	json_kv_u64(j, "port", m->port);
	json_end_object(j);
}

static int
udp_receiver(const struct side *s)
{
	return s->proto == PROTO_UDP && s->role == ROLE_RECV;
}

/* The keys of one interval, into the open object. */
static void
put_ival_keys(struct json *j, const struct side *s, const struct ival *iv)
{
	uint64_t span = iv->end_ns > iv->start_ns ? iv->end_ns - iv->start_ns : 0;

	json_kv_double(j, "start", secs(iv->start_ns));
	json_kv_double(j, "end", secs(iv->end_ns));
	json_kv_u64(j, "bytes", iv->bytes);
	json_kv_u64(j, "calls", iv->calls);
	kv_mbit(j, "real_mbit", iv->bytes, span);
	json_kv_bool(j, "omitted", (iv->flags & IVAL_OMITTED) != 0);
	json_kv_bool(j, "last", (iv->flags & IVAL_LAST) != 0);
	if (iv->flags & IVAL_TCP) {
		json_kv_u64(j, "retrans", iv->retrans);
		json_kv_u64(j, "cwnd", iv->cwnd);
		json_kv_u64(j, "rtt_us", iv->srtt_us);
	}
	if (udp_receiver(s))
		json_kv_u64(j, "datagrams", iv->dgrams);
	if (iv->flags & IVAL_UDP) {
		json_kv_u64(j, "duplicates", iv->dups);
		json_kv_u64(j, "reordered", iv->reordered);
	}
	if (iv->flags & IVAL_LAT)
		json_kv_double(j, "latency_p50_ms", (double)iv->lat_p50_ns / 1e6);
}

static void
put_intervals(struct json *j, const struct side *s)
{
	size_t i;

	json_key(j, "intervals");
	json_begin_array(j);
	for (i = 0; i < s->niv; i++) {
		json_begin_object(j);
		put_ival_keys(j, s, &s->iv[i]);
		json_end_object(j);
	}
	json_end_array(j);
}

/* bytes/s to bit/s, saturating (the partner's figure is not trusted). */
static uint64_t
bit_s(uint64_t bytes_s)
{
	return bytes_s > UINT64_MAX / 8 ? UINT64_MAX : bytes_s * 8;
}

/* --ecn: what TCP_INFO says of ECN (gput(1), ECN); the receiver's counts
 * null where the kernel keeps none. */
static void
put_tcp_ecn(struct json *j, const struct tcp_stats *t)
{
	json_key(j, "ecn");
	json_begin_object(j);
	json_kv_bool(j, "negotiated", (t->ecn & TCPS_ECN) != 0);
	json_kv_bool(j, "seen", (t->ecn & TCPS_ECN_SEEN) != 0);
	json_kv_u64(j, "delivered_ce", t->delivered_ce);
	if (t->ecn & TCPS_ECN_RECEIVED) {
		json_kv_u64(j, "received_ce", t->received_ce);
		json_kv_u64(j, "received_ce_bytes", t->received_ce_bytes);
	} else {
		json_kv_null(j, "received_ce");
		json_kv_null(j, "received_ce_bytes");
	}
	json_end_object(j);
}

static void
put_tcp_info(struct json *j, const struct tcp_stats *t, int ecn)
{
	json_key(j, "tcp_info");
	json_begin_object(j);
	json_key(j, "cc");
	json_string_n(j, t->cc, sizeof t->cc);
	json_kv_u64(j, "retrans", t->retrans);
	json_kv_u64(j, "rtt_us", t->rtt_us);
	json_kv_u64(j, "min_rtt_us", t->min_rtt_us);
	json_kv_u64(j, "cwnd", t->cwnd);
	json_kv_u64(j, "delivery_rate_bit_s", bit_s(t->delivery_rate));
	json_kv_u64(j, "busy_us", t->busy_us);
	json_kv_u64(j, "rwnd_limited_us", t->rwnd_limited_us);
	json_kv_u64(j, "sndbuf_limited_us", t->sndbuf_limited_us);
	if (ecn)
		put_tcp_ecn(j, t);
	json_end_object(j);
}

/* A UDP side that moved several datagrams per call (--batch, --gso): Calls
 * are system calls, so its datagrams and what one call moved. */
static void
put_batch(struct json *j, const struct side *s)
{
	json_kv_u64(j, "batch", s->batch > 1 ? s->batch : 1);
	json_kv_bool(j, "gso", s->gso != 0);
	json_kv_u64(j, "datagrams", s->r.dgrams);
	kv_fig(j, "datagrams_per_call", &s->fig.dgrams_per_call);
	kv_fig(j, "bytes_per_call", &s->fig.bytes_per_call);
}

/* --sliding-window: a sender's sends, timeouts, acknowledgements and
 * timer, or a receiver's acknowledgements and datagrams (missing: the
 * sender's first sends less the unique arrivals). */
static void
put_window(struct json *j, const struct side *s)
{
	const struct win_stats *w = &s->win;

	json_key(j, "window");
	json_begin_object(j);
	if (s->role == ROLE_SEND) {
		json_kv_u64(j, "window", w->window);
		json_kv_string(j, "mode", w->gbn ? "go-back-n" : "selective-repeat");
		json_kv_u64(j, "retries", w->retries);
		json_kv_u64(j, "first_sends", w->firsts);
		json_kv_u64(j, "retransmissions", w->resends);
		json_kv_u64(j, "timeouts", w->timeouts);
		json_kv_u64(j, "acks_received", w->acks);
		json_kv_u64(j, "acks_new", w->acks_new);
		json_kv_u64(j, "acks_unsent", w->acks_bad);
		json_kv_u64(j, "rtt_samples", w->rtt_samples);
		if (w->srtt_ns)
			json_kv_double(j, "srtt_ms", (double)w->srtt_ns / 1e6);
		else
			json_kv_null(j, "srtt_ms");
		json_kv_double(j, "rto_ms", (double)w->rto_ns / 1e6);
		json_kv_bool(j, "rto_fixed", w->rto_fixed_ns != 0);
		json_kv_bool(j, "retry_limit_reached", w->failed != 0);
	} else {
		json_kv_u64(j, "acks_sent", w->acks_sent);
		json_kv_u64(j, "unique", s->have_udp ? s->udp.unique : s->r.dgrams);
		json_kv_u64(j, "duplicates", s->have_udp ? s->udp.duplicates : 0);
		json_kv_u64(j, "misordered", s->have_udp ? s->udp.reordered : 0);
		json_kv_u64(j, "missing", s->fig.udp_lost);
	}
	json_end_object(j);
}

/* The optional objects of a side with a result. */
static void
put_side_extras(struct json *j, const struct side *s, int ecn)
{
	if (s->have_win)
		put_window(j, s);
	if (s->have_steady) {
		json_key(j, "steady");
		json_begin_object(j);
		json_kv_u64(j, "bytes", s->steady_bytes);
		json_kv_double(j, "real_s", secs(s->steady_ns));
		kv_mbit(j, "real_mbit", s->steady_bytes, s->steady_ns);
		json_end_object(j);
	}
	if (s->proto == PROTO_TCP && s->tcp.valid)
		put_tcp_info(j, &s->tcp, ecn);
	if (udp_receiver(s))
		put_udp(j, s, ecn);
}

/* A UDP receiver's arrivals: r.dgrams counts each sequence number once
 * (unique), so unique + lost = sent. Without sequence numbers, received is
 * unique and the rest are 0; the timing keys are null unless the sender was
 * paced (its send times come from its schedule). */
static void
put_udp(struct json *j, const struct side *s, int ecn)
{
	const struct udp_stats *u = &s->udp;
	int timed = s->have_udp && (u->flags & UDPS_TIMED);

	json_key(j, "udp");
	json_begin_object(j);
	json_kv_u64(j, "sent", s->fig.udp_sent);
	json_kv_u64(j, "received", s->have_udp ? u->received : s->r.dgrams);
	json_kv_u64(j, "unique", s->r.dgrams);
	json_kv_u64(j, "lost", s->fig.udp_lost);
	json_kv_u64(j, "duplicates", s->have_udp ? u->duplicates : 0);
	json_kv_u64(j, "reordered", s->have_udp ? u->reordered : 0);
	json_kv_u64(j, "max_displacement", s->have_udp ? u->max_displacement : 0);
	json_kv_u64(j, "late", s->have_udp ? u->late : 0);
	json_kv_u64(j, "too_old", s->have_udp ? u->too_old : 0);
	json_kv_bool(j, "sequenced", s->have_udp && (u->flags & UDPS_SEQ));
	/* the receiving host's counters (every UDP socket's), null unknown */
	if (s->have_host_udp) {
		json_kv_u64(j, "host_rcvbuf_errors", s->host_rcvbuf_errors);
		json_kv_u64(j, "host_in_errors", s->host_in_errors);
	} else {
		json_kv_null(j, "host_rcvbuf_errors");
		json_kv_null(j, "host_in_errors");
	}
	if (timed) {
		json_kv_double(j, "jitter_ms", u->jitter_ns / 1e6);
		json_kv_double(j, "delay_var_ms", u->delay_var_ns / 1e6);
		json_kv_double(j, "delay_var_max_ms", u->delay_var_max_ns / 1e6);
	} else {
		json_kv_null(j, "jitter_ms");
		json_kv_null(j, "delay_var_ms");
		json_kv_null(j, "delay_var_max_ms");
	}
	if (ecn) {              /* --ecn: the data datagrams by codepoint */
		int k = s->have_udp && (u->flags & UDPS_ECN);

		json_key(j, "ecn");
		json_begin_object(j);
		if (k) {
			json_kv_u64(j, "not_ect", u->ecn[ECN_NOT_ECT]);
			json_kv_u64(j, "ect1", u->ecn[ECN_ECT1]);
			json_kv_u64(j, "ect0", u->ecn[ECN_ECT0]);
			json_kv_u64(j, "ce", u->ecn[ECN_CE]);
		} else {
			json_kv_null(j, "not_ect");
			json_kv_null(j, "ect1");
			json_kv_null(j, "ect0");
			json_kv_null(j, "ce");
		}
		json_end_object(j);
	}
	json_end_object(j);
}

/* A stream's object: its totals, where it lies in time, its share of the
 * receiver's goodput and the extras a side has. Its CPU time is the
 * process's over its window (gput(1), PARALLEL STREAMS): no cpu_mbit. */
/* "cpu_us_per_mb": the side's service demand, or null with nothing moved. */
static void
kv_service_demand(struct json *j, const struct gput_result *r)
{
	int ok;
	double v = model_service_demand(r, &ok);

	if (ok)
		json_kv_double(j, "cpu_us_per_mb", v);
	else
		json_kv_null(j, "cpu_us_per_mb");
}

static void
put_stream(struct json *j, const struct run_model *m, const struct side *t)
{
	json_begin_object(j);
	json_kv_u64(j, "stream", t->stream);
	if (!t->have_result) {
		json_kv_string(j, "error", "no result");
		json_end_object(j);
		return;
	}
	json_kv_u64(j, "bytes", t->r.bytes);
	json_kv_u64(j, "calls", t->r.calls);
	json_kv_double(j, "real_s", secs(t->r.real_ns));
	json_kv_double(j, "cpu_s", secs(t->r.cpu_ns));
	kv_fig(j, "real_mbit", &t->fig.real_mbit);
	json_kv_double(j, "start_s", secs(t->start_ns));
	json_kv_double(j, "fct_s", secs(t->end_ns));
	if (m->have_fair && t->role == ROLE_RECV)
		json_kv_double(j, "share", t->share);
	else
		json_kv_null(j, "share");
	put_intervals(j, t);
	put_side_extras(j, t, m->ecn);
	if (t->role == ROLE_RECV) {             /* the stream's verdict */
		struct verdict v;

		verdict_stream(m, t->stream - 1, &v);
		json_key(j, "explain");
		report_verdict_json(j, &v);
	}
	json_end_object(j);
}

static void
put_side(struct json *j, const struct run_model *m, const struct side *s)
{
	char tag[2] = { s->tag, '\0' };
	uint32_t k;

	json_begin_object(j);
	json_kv_string(j, "side", tag);
	json_kv_string(j, "role", role_name(s->role));
	if (!s->have_result) {
		json_kv_string(j, "error", "no result");
		json_end_object(j);
		return;
	}
	json_kv_u64(j, "bytes", s->r.bytes);
	json_kv_u64(j, "calls", s->r.calls);
	json_kv_double(j, "real_s", secs(s->r.real_ns));
	json_kv_double(j, "cpu_s", secs(s->r.cpu_ns));
	kv_fig(j, "real_mbit", &s->fig.real_mbit);
	kv_fig(j, "cpu_mbit", &s->fig.cpu_mbit);
	kv_service_demand(j, &s->r);
	if (s->proto == PROTO_UDP && (s->batch > 1 || s->gso))
		put_batch(j, s);
	put_intervals(j, s);
	put_side_extras(j, s, m->ecn);
	if (m->streams > 1 && s->nst > 0) {
		json_key(j, "streams");
		json_begin_array(j);
		for (k = 0; k < s->nst; k++)
			put_stream(j, m, &s->st[k]);
		json_end_array(j);
	}
	json_end_object(j);
}

/* The receiver's fairness (m->have_fair). */
static void
put_fairness(struct json *j, const struct run_model *m)
{
	int i = model_recv_side(m);
	char tag[2] = { i < 0 ? '?' : m->side[i].tag, '\0' };

	json_key(j, "fairness");
	json_begin_object(j);
	json_kv_double(j, "jain", m->fair);
	if (m->have_fair_steady)
		json_kv_double(j, "jain_steady", m->fair_steady);
	else
		json_kv_null(j, "jain_steady");
	json_kv_string(j, "side", tag);
	json_end_object(j);
}

/* --rtt under --link: what the path's RTT allows (pathlim.h); a figure
 * that was not asked for is null. */
static void
put_path(struct json *j, const struct plim *p)
{
	json_kv_double(j, "rtt_ms", p->rtt_s * 1e3);
	json_kv_double(j, "bdp_bytes", p->bdp_bytes);
	if (p->have_window) {
		json_kv_u64(j, "window_bytes", p->window);
		json_kv_double(j, "window_mbit", p->window_bps / 1e6);
		json_kv_bool(j, "window_limited", p->window_limited != 0);
	} else {
		json_kv_null(j, "window_bytes");
		json_kv_null(j, "window_mbit");
		json_kv_null(j, "window_limited");
	}
	if (p->have_mathis) {
		json_kv_double(j, "loss", p->loss);
		json_kv_u64(j, "mss", p->mss);
		json_kv_double(j, "mathis_mbit", p->mathis_bps / 1e6);
		json_kv_bool(j, "loss_limited", p->loss_limited != 0);
	} else {
		json_kv_null(j, "loss");
		json_kv_null(j, "mss");
		json_kv_null(j, "mathis_mbit");
		json_kv_null(j, "loss_limited");
	}
	json_kv_double(j, "bound_mbit", p->bound_bps / 1e6);
}

/* The run's verdict (verdict.h); null for a run without a receiver's
 * result, a failed or an interrupted one. */
static void
put_explain(struct json *j, const struct run_model *m)
{
	int r = model_recv_side(m);
	struct verdict v;

	json_key(j, "explain");
	if (r < 0 || !m->side[r].have_result || m->error != NULL ||
	    m->interrupted) {
		json_null(j);
		return;
	}
	verdict_run(m, &v);
	report_verdict_json(j, &v);
}

void
report_json_put_run(struct json *j, const struct run_model *m, const char *type,
                    size_t run)
{
	size_t i;

	json_begin_object(j);
	if (type != NULL)
		json_kv_string(j, "type", type);
	if (run > 0)
		json_kv_u64(j, "run", run);
	json_kv_string(j, "version", REPORT_JSON_VERSION_PREFIX GPUT_VERSION);
	report_json_put_params(j, m);
	if (m->streams > 1)             /* absent: one stream, as before -P */
		json_kv_u64(j, "streams", m->streams);
	json_key(j, "sides");
	json_begin_array(j);
	for (i = 0; i < 2; i++)
		put_side(j, m, &m->side[i]);
	json_end_array(j);
	if (m->have_fair)
		put_fairness(j, m);
	if (m->link_bps > 0) {
		json_key(j, "link");
		json_begin_object(j);
		json_kv_double(j, "rate_bit_s", m->link_bps);
		json_kv_double(j, "eta", m->link_eta);
		json_kv_double(j, "expected_mbit", m->link_expected_mbit);
		if (m->link_high.ok) {          /* a short run's own bias */
			json_kv_double(j, "frames", m->link_frames);
			json_kv_double(j, "ratio_may_read_high", m->link_high.v);
		}
		if (m->have_path)
			put_path(j, &m->path);
		json_end_object(j);
	}
	report_lat_json(j, &m->lat);
	put_explain(j, m);
	json_kv_bool(j, "interrupted", m->interrupted != 0);
	json_kv_string(j, "error", m->error);
	json_end_object(j);
}

void
report_json(FILE *f, const struct run_model *m)
{
	struct json j;

	json_init(&j, f, 1);
	report_json_put_run(&j, m, NULL, 0);
	fputc('\n', f);
}

void
report_json_summary_line(FILE *f, const struct run_model *m)
{
	struct json j;

	json_init(&j, f, 0);
	report_json_put_run(&j, m, "summary", 0);
	fputc('\n', f);
}

void
report_json_ival(FILE *f, const struct run_model *m, int side_index,
                 const struct ival *iv)
{
	if (side_index < 0 || side_index > 1)
		return;
	report_json_stream_ival(f, m, &m->side[side_index], iv);
}

void
report_json_stream_ival(FILE *f, const struct run_model *m, const struct side *s,
                        const struct ival *iv)
{
	char tag[2] = { s->tag, '\0' };
	struct json j;

	json_init(&j, f, 0);
	json_begin_object(&j);
	json_kv_string(&j, "type", "interval");
	json_kv_string(&j, "side", tag);
	if (m->streams > 1)
		json_kv_u64(&j, "stream", s->stream);
	put_ival_keys(&j, s, iv);
	json_end_object(&j);
	fputc('\n', f);
}
