/* SPDX-License-Identifier: BSD-2-Clause */
/* client_multi_sum.c: several partners' sums per role and Jain's index over their
 * receivers. Each partner's process hands its two sides' totals to the
 * parent as one fixed record on a pipe of its own; the parent adds them
 * up and renders the sums under the partners' lines. */
#include "client_multi_sum.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "report.h"
#include "xfer_params.h"

#define MSUM_MAGIC 0x6d73756du      /* "msum" */

/* The record's side fields from a side of the model; t0: START, on this
 * host's monotonic clock (a partner's times count from when START reached
 * it). */
static void
side_rec(struct msum_side *o, const struct side *s, uint64_t t0)
{
	memset(o, 0, sizeof *o);
	if (!s->have_result)
		return;
	o->have = 1;
	o->role = s->role;
	o->len = s->len;
	o->count = s->count;
	o->r = s->r;
	o->start_ns = t0 + s->start_ns;
}

int
msum_put(int fd, const struct run_model *m, uint64_t t0)
{
	struct msum_rec rec;
	ssize_t n;

	memset(&rec, 0, sizeof rec);
	rec.magic = MSUM_MAGIC;
	rec.proto = m->proto;
	rec.interrupted = (uint8_t)m->interrupted;
	side_rec(&rec.side[0], &m->side[0], t0);
	side_rec(&rec.side[1], &m->side[1], t0);
	/* one write of less than PIPE_BUF: whole or not at all */
	do
		n = write(fd, &rec, sizeof rec);
	while (n == -1 && errno == EINTR);
	return n == (ssize_t)sizeof rec ? 0 : -1;
}

int
msum_take(struct msum_rec *rec, const void *buf, size_t len)
{
	if (len != sizeof *rec)
		return -1;
	memcpy(rec, buf, sizeof *rec);
	return rec->magic == MSUM_MAGIC ? 0 : -1;
}

/* Add side s of partner k to sum u. */
static void
add_side(struct msum_role *u, const struct msum_side *s, unsigned k)
{
	uint64_t end = s->start_ns + s->r.real_ns;
	int ok;

	if (u->n == 0 || s->start_ns < u->first)
		u->first = s->start_ns;
	if (u->n == 0 || end > u->last)
		u->last = end;
	u->r.bytes += s->r.bytes;
	u->r.calls += s->r.calls;
	u->r.cpu_ns += s->r.cpu_ns;
	u->r.dgrams += s->r.dgrams;
	u->count += s->count;
	if (u->n == 0)
		u->len = s->len;
	u->tag[u->n] = (char)('1' + k);
	u->goodput[u->n] = model_mbit(s->r.bytes, s->r.real_ns, &ok);
	u->n++;
}

void
msum_compute(struct msum *out, const struct msum_rec *recs, const int *have,
             unsigned n)
{
	unsigned k, i, r;
	double sum = 0;

	memset(out, 0, sizeof *out);
	for (k = 0; k < n; k++) {
		if (!have[k])
			continue;
		out->partners++;
		for (i = 0; i < 2; i++) {
			const struct msum_side *s = &recs[k].side[i];

			if (s->have && s->role <= ROLE_RECV)
				add_side(&out->role[s->role == ROLE_RECV], s, k);
		}
	}
	for (r = 0; r < 2; r++)
		out->role[r].r.real_ns = out->role[r].n ?
		    out->role[r].last - out->role[r].first : 0;
	for (i = 0; i < out->role[1].n; i++)
		sum += out->role[1].goodput[i];
	for (i = 0; i < out->role[1].n; i++)
		out->share[i] = sum > 0 ? out->role[1].goodput[i] / sum : 0;
	out->jain = model_jain(out->role[1].goodput, out->role[1].n);
}

static const char *const role_word[2] = { "senders", "receivers" };
static const char *const role_key[2] = { "send", "recv" };

void
msum_table(FILE *f, const struct msum *s, const char *fmt)
{
	unsigned r, i;
	char note[48];

	for (r = 0; r < 2; r++) {
		const struct msum_role *u = &s->role[r];
		struct figures fig;
		struct report_row row = { r ? 'r' : 't', u->len, u->count, &u->r,
		    &fig };

		if (u->n < 2)
			continue;
		model_rates(&u->r, &fig);
		snprintf(note, sizeof note, "  sum of %u %s", u->n, role_word[r]);
		fputs("+ ", f);
		report_line_note(f, fmt, &row, note);
	}
	if (s->role[1].n < 2)
		return;
	fprintf(f, "+ r: fairness of %u receivers: Jain's index %.4f, shares",
	        s->role[1].n, s->jain);
	for (i = 0; i < s->role[1].n; i++)
		fprintf(f, " %c %.1f%%", s->role[1].tag[i], s->share[i] * 100);
	fputc('\n', f);
}

/* ",v" in the C locale, as the partners' rows have it; "," when !ok (a
 * rate over zero time). */
static void
csv_field(FILE *f, double v, int ok)
{
	char buf[JSON_DOUBLE_LEN];

	fputc(',', f);
	if (ok && json_fmt_double(buf, sizeof buf, v) == 0)
		fputs(buf, f);
}

void
msum_csv(FILE *f, const struct msum *s, unsigned columns)
{
	unsigned r, k;
	struct figures fig;

	for (r = 0; r < 2; r++) {
		const struct msum_role *u = &s->role[r];

		if (u->n < 2)
			continue;
		model_rates(&u->r, &fig);
		fprintf(f, "sum,%c,%s,%llu,%llu", r ? 'r' : 't', r ? "recv" : "send",
		        (unsigned long long)u->r.bytes, (unsigned long long)u->r.calls);
		csv_field(f, (double)u->r.real_ns / 1e9, 1);
		csv_field(f, (double)u->r.cpu_ns / 1e9, 1);
		csv_field(f, fig.real_mbit.v, fig.real_mbit.ok);
		csv_field(f, fig.cpu_mbit.v, fig.cpu_mbit.ok);
		csv_field(f, fig.real_cps.v, fig.real_cps.ok);
		csv_field(f, fig.cpu_cps.v, fig.cpu_cps.ok);
		for (k = 11; k < columns; k++)  /* the header's further columns */
			fputc(',', f);
		fputc('\n', f);
	}
}

static void
json_role(struct json *j, const struct msum_role *u)
{
	struct figures fig;

	model_rates(&u->r, &fig);
	json_begin_object(j);
	json_kv_u64(j, "lines", u->n);
	json_kv_u64(j, "bytes", u->r.bytes);
	json_kv_u64(j, "calls", u->r.calls);
	json_kv_double(j, "real_s", (double)u->r.real_ns / 1e9);
	json_kv_double(j, "cpu_s", (double)u->r.cpu_ns / 1e9);
	if (fig.real_mbit.ok)
		json_kv_double(j, "real_mbit", fig.real_mbit.v);
	else
		json_kv_null(j, "real_mbit");
	json_end_object(j);
}

void
msum_json(FILE *f, const struct msum *s, int lines)
{
	struct json j;
	unsigned r, i;

	json_init(&j, f, !lines);
	json_begin_object(&j);
	if (lines)
		json_kv_string(&j, "type", "partners_sum");
	json_kv_u64(&j, "partners", s->partners);
	for (r = 0; r < 2; r++) {
		json_key(&j, role_key[r]);
		if (s->role[r].n == 0)
			json_null(&j);
		else
			json_role(&j, &s->role[r]);
	}
	if (s->role[1].n >= 2) {
		json_kv_double(&j, "jain", s->jain);
		json_key(&j, "shares");
		json_begin_array(&j);
		for (i = 0; i < s->role[1].n; i++)
			json_double(&j, s->share[i]);
		json_end_array(&j);
	} else {
		json_kv_null(&j, "jain");
	}
	json_end_object(&j);
}
