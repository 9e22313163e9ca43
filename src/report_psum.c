/* SPDX-License-Identifier: BSD-2-Clause */
/* report_psum.c: several partners' sums (model_psum.h) as the table's sum
 * and fairness lines, CSV rows and JSON. */
#include "report_psum.h"

#include "json.h"
#include "report.h"

static const char *const role_word[2] = { "senders", "receivers" };
static const char *const role_key[2] = { "send", "recv" };

void
report_psum_table(FILE *f, const struct psum *s, const char *fmt)
{
	unsigned r, i;
	char note[48];

	for (r = 0; r < 2; r++) {
		const struct psum_role *u = &s->role[r];
		struct report_row row = { r ? 'r' : 't', u->len, u->count, &u->r,
		    &u->fig };

		if (u->n < 2)
			continue;
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
report_psum_csv(FILE *f, const struct psum *s, unsigned columns)
{
	unsigned r, k;

	for (r = 0; r < 2; r++) {
		const struct psum_role *u = &s->role[r];
		const struct figures *fig = &u->fig;

		if (u->n < 2)
			continue;
		fprintf(f, "sum,%c,%s,%llu,%llu", r ? 'r' : 't', r ? "recv" : "send",
		        (unsigned long long)u->r.bytes, (unsigned long long)u->r.calls);
		csv_field(f, (double)u->r.real_ns / 1e9, 1);
		csv_field(f, (double)u->r.cpu_ns / 1e9, 1);
		csv_field(f, fig->real_mbit.v, fig->real_mbit.ok);
		csv_field(f, fig->cpu_mbit.v, fig->cpu_mbit.ok);
		csv_field(f, fig->real_cps.v, fig->real_cps.ok);
		csv_field(f, fig->cpu_cps.v, fig->cpu_cps.ok);
		for (k = 11; k < columns; k++)  /* the header's further columns */
			fputc(',', f);
		fputc('\n', f);
	}
}

static void
json_role(struct json *j, const struct psum_role *u)
{
	const struct figures *fig = &u->fig;

	json_begin_object(j);
	json_kv_u64(j, "lines", u->n);
	json_kv_u64(j, "bytes", u->r.bytes);
	json_kv_u64(j, "calls", u->r.calls);
	json_kv_double(j, "real_s", (double)u->r.real_ns / 1e9);
	json_kv_double(j, "cpu_s", (double)u->r.cpu_ns / 1e9);
	if (fig->real_mbit.ok)
		json_kv_double(j, "real_mbit", fig->real_mbit.v);
	else
		json_kv_null(j, "real_mbit");
	json_end_object(j);
}

void
report_psum_json(FILE *f, const struct psum *s, int lines)
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
