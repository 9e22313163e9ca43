/* SPDX-License-Identifier: BSD-2-Clause */
/* report_repeat.c: a run set (--repeat) as summary lines, JSON and CSV. */
#include "report_repeat.h"

#include <math.h>

#include "json.h"
#include "report_json.h"
#include "verdict.h"
#include "version.h"

static const char *const stat_names[] = {
	"n", "mean", "stdev", "min", "median", "max", "ci_low", "ci_high",
};
#define NSTAT (sizeof stat_names / sizeof stat_names[0])

/* Statistic k of s (stat_names' order); 0 when it has no value (a CI or
 * stdev of one run). */
static int
stat_value(const struct stats_sum *s, size_t k, double *v)
{
	switch (k) {
	case 0: *v = (double)s->n; return 1;
	case 1: *v = s->mean; return 1;
	case 2: *v = s->stdev; return s->n > 1;
	case 3: *v = s->min; return 1;
	case 4: *v = s->median; return 1;
	case 5: *v = s->max; return 1;
	case 6: *v = s->ci_low; return s->have_ci;
	case 7: *v = s->ci_high; return s->have_ci;
	}
	return 0;
}

void
report_repeat_run_title(FILE *f, size_t k)
{
	fprintf(f, "run %zu:\n", k);
}

void
report_repeat_run_line(FILE *f, const struct run_model *m, size_t k)
{
	struct json j;

	json_init(&j, f, 0);
	report_json_put_run(&j, m, "run", k);
	fputc('\n', f);
	fflush(f);
}

/* ---- the table ---- */

/* Decimals in the table per figure (runset_fig's order): the table's own
 * for MBit/s and calls, microseconds for times, then fct (last). */
static const int fig_decimals[RS_NFIG + 1] = { 4, 4, 6, 6, 2, 4, 3, 4, 4, 3, 3,
    0, 6 };

static void
table_stat(FILE *f, const char *who, const char *label, int dec,
           const struct runset_stat *st)
{
	const struct stats_sum *s = &st->s;

	if (s->have_ci)
		fprintf(f, "%-4s %-12s %12.*f +- %-10.*f min %.*f max %.*f n %zu\n",
		        who, label, dec, s->mean, dec, s->half, dec, s->min, dec,
		        s->max, s->n);
	else
		fprintf(f, "%-4s %-12s %12.*f +- %-10s min %.*f max %.*f n %zu\n",
		        who, label, dec, s->mean, "-", dec, s->min, dec, s->max, s->n);
}

/* How many of the complete runs share each verdict (gput(1), WHY A RUN
 * FELL SHORT), the most common first; and whether --ci's target was met. */
static void
table_limits(FILE *f, const struct runset *rs)
{
	size_t counts[VL_COUNT], done = 0, best;
	int l, pick;

	if (rs->ncomplete == 0)
		return;
	verdict_count(rs->run, rs->ncomplete, counts);
	fputs("limits:", f);
	while (done < rs->ncomplete) {
		for (pick = -1, best = 0, l = 0; l < VL_COUNT; l++)
			if (counts[l] > best) {
				best = counts[l];
				pick = l;
			}
		if (pick < 0)
			break;
		fprintf(f, "%s %s in %zu of %zu run%s", done ? "," : "",
		        verdict_name((enum verdict_limit)pick), best, rs->ncomplete,
		        rs->ncomplete == 1 ? "" : "s");
		done += best;
		counts[pick] = 0;
	}
	if (rs->target_pct > 0 && !rs->met)
		fprintf(f, "; warning: the --ci target of %g%% was not met",
		        rs->target_pct);
	fputc('\n', f);
}

static void
table_summary(FILE *f, const struct runset *rs, int rc)
{
	char who[16];
	int i, fig;
	uint32_t k;

	fprintf(f, "summary of %zu run%s: mean +- half-width of the %g%% "
	        "confidence interval (Student's t), min, max, n\n", rs->ncomplete,
	        rs->ncomplete == 1 ? "" : "s", rs->level);
	for (i = 0; i < 2 && rs->ncomplete > 0; i++) {
		const struct runset_side *sd = &rs->side[i];

		snprintf(who, sizeof who, "%c", sd->tag);
		for (fig = 0; fig < RS_NFIG; fig++)
			if (sd->fig[fig].have)
				table_stat(f, who, runset_fig_label(fig),
				    fig_decimals[fig], &sd->fig[fig]);
		for (k = 0; k < sd->nst; k++) {
			snprintf(who, sizeof who, "%c.%u", sd->tag, k + 1);
			if (sd->st[k][RS_ST_REAL_MBIT].have)
				table_stat(f, who, "Real-MBit/s", fig_decimals[RS_REAL_MBIT],
				    &sd->st[k][RS_ST_REAL_MBIT]);
			if (sd->st[k][RS_ST_FCT].have)
				table_stat(f, who, "fct s", fig_decimals[RS_NFIG],
				    &sd->st[k][RS_ST_FCT]);
		}
	}
	if (rs->have_width)
		fprintf(f, "the receiver's Real-MBit/s: %g%% CI %.2f%% of the mean "
		        "wide%s%s%s\n", rs->level, rs->width_pct,
		        rs->target_pct > 0 ? " (target " : "",
		        rs->target_pct > 0 ? (rs->met ? "met" : "not met") : "",
		        rs->target_pct > 0 ? ")" : "");
	table_limits(f, rs);
	if (rc == 130)
		fprintf(f, "interrupted: the summary covers the %zu complete run%s\n",
		        rs->ncomplete, rs->ncomplete == 1 ? "" : "s");
}

/* ---- JSON ---- */

static void
json_stat(struct json *j, const char *key, const struct runset_stat *st)
{
	double v = 0;
	size_t k;

	json_key(j, key);
	if (!st->have) {
		json_null(j);
		return;
	}
	json_begin_object(j);
	json_kv_u64(j, "n", st->s.n);
	for (k = 1; k < NSTAT; k++) {
		if (stat_value(&st->s, k, &v))
			json_kv_double(j, stat_names[k], v);
		else
			json_kv_null(j, stat_names[k]);
	}
	json_end_object(j);
}

static void
json_summary_side(struct json *j, const struct runset_side *sd)
{
	char tag[2] = { sd->tag, '\0' };
	uint32_t k;
	int fig;

	json_begin_object(j);
	json_kv_string(j, "side", tag);
	json_kv_string(j, "role", sd->role == ROLE_RECV ? "recv" : "send");
	for (fig = 0; fig < RS_NFIG; fig++)
		json_stat(j, runset_fig_key(fig), &sd->fig[fig]);
	if (sd->nst > 0) {
		json_key(j, "streams");
		json_begin_array(j);
		for (k = 0; k < sd->nst; k++) {
			json_begin_object(j);
			json_kv_u64(j, "stream", k + 1);
			json_stat(j, "real_mbit", &sd->st[k][RS_ST_REAL_MBIT]);
			json_stat(j, "fct_s", &sd->st[k][RS_ST_FCT]);
			json_end_object(j);
		}
		json_end_array(j);
	}
	json_end_object(j);
}

static void
json_repeat(struct json *j, const struct report_repeat_opts *o,
            const struct runset *rs)
{
	json_key(j, "repeat");
	json_begin_object(j);
	json_kv_u64(j, "n", rs->ncomplete);
	json_kv_u64(j, "min", o->min);
	json_kv_u64(j, "max", o->max);
	json_kv_double(j, "pause_s", o->pause_ms / 1e3);
	json_kv_double(j, "level", rs->level);
	if (rs->have_width)
		json_kv_double(j, "width_pct", rs->width_pct);
	else
		json_kv_null(j, "width_pct");
	if (rs->target_pct > 0) {
		json_kv_double(j, "target_width_pct", rs->target_pct);
		json_kv_bool(j, "met", rs->met);
	} else {
		json_kv_null(j, "target_width_pct");
		json_kv_null(j, "met");
	}
	json_end_object(j);
}

/* "limits": how many complete runs share each verdict, by its name. */
static void
json_limits(struct json *j, const struct runset *rs)
{
	size_t counts[VL_COUNT];
	int l;

	verdict_count(rs->run, rs->ncomplete, counts);
	json_key(j, "limits");
	json_begin_object(j);
	for (l = 0; l < VL_COUNT; l++)
		if (counts[l] > 0)
			json_kv_u64(j, verdict_name((enum verdict_limit)l), counts[l]);
	json_end_object(j);
}

static void
json_doc(FILE *f, const struct report_repeat_opts *o, const struct runset *rs,
         int rc, int pretty)
{
	struct json j;
	size_t r;
	int i;

	json_init(&j, f, pretty);
	json_begin_object(&j);
	if (!pretty)
		json_kv_string(&j, "type", "repeat");
	json_kv_string(&j, "version", REPORT_JSON_VERSION_PREFIX GPUT_VERSION);
	if (rs->n > 0)
		report_json_put_params(&j, &rs->run[0]);
	else
		json_kv_null(&j, "params");
	if (pretty) {                   /* JSON lines: each run had its line */
		json_key(&j, "runs");
		json_begin_array(&j);
		for (r = 0; r < rs->n; r++)
			report_json_put_run(&j, &rs->run[r], NULL, r + 1);
		json_end_array(&j);
	}
	json_key(&j, "summary");
	json_begin_object(&j);
	json_key(&j, "sides");
	json_begin_array(&j);
	for (i = 0; i < 2 && rs->ncomplete > 0; i++)
		json_summary_side(&j, &rs->side[i]);
	json_end_array(&j);
	json_end_object(&j);
	json_limits(&j, rs);
	json_repeat(&j, o, rs);
	json_kv_bool(&j, "interrupted", rc == 130);
	json_kv_string(&j, "error", rc == 1 ? "a run failed (see standard "
	               "error); the summary covers the runs before it" : NULL);
	json_end_object(&j);
	fputc('\n', f);
}

/* ---- CSV ---- */

static void
csv_num(FILE *f, int have, double v)
{
	char b[JSON_DOUBLE_LEN];

	fputc(',', f);
	if (have && json_fmt_double(b, sizeof b, v) == 0)
		fputs(b, f);
}

/* A stream row's figures: its Real-MBit/s in the real_mbit column, its
 * fct_s last, the side's other figures empty. */
static void
csv_stream_cells(FILE *f, int have_mbit, double mbit, int have_fct, double fct)
{
	int fig;

	csv_num(f, have_mbit, mbit);
	for (fig = 1; fig < RS_NFIG; fig++)
		fputc(',', f);
	csv_num(f, have_fct, fct);
	fputc('\n', f);
}

static void
csv_run_rows(FILE *f, const struct run_model *m, size_t run)
{
	double v = 0;
	uint32_t k;
	int i, fig;

	for (i = 0; i < 2; i++) {
		const struct side *s = &m->side[i];

		if (!s->have_result)
			continue;
		fprintf(f, "%zu,%c,%s,%llu,%llu", run, s->tag, s->role == ROLE_RECV ?
		        "recv" : "send", (unsigned long long)s->r.bytes,
		        (unsigned long long)s->r.calls);
		for (fig = 0; fig < RS_NFIG; fig++) {
			int have = runset_value(m, i, fig, &v);

			csv_num(f, have, v);
		}
		fputs(",\n", f);
		for (k = 0; m->streams > 1 && k < s->nst; k++) {
			double fct = 0;
			int hm, hf;

			if (!s->st[k].have_result)
				continue;
			fprintf(f, "%zu,%c.%u,%s,%llu,%llu", run, s->tag, k + 1,
			        s->role == ROLE_RECV ? "recv" : "send",
			        (unsigned long long)s->st[k].r.bytes,
			        (unsigned long long)s->st[k].r.calls);
			hm = runset_stream_value(m, i, k, RS_ST_REAL_MBIT, &v);
			hf = runset_stream_value(m, i, k, RS_ST_FCT, &fct);
			csv_stream_cells(f, hm, v, hf, fct);
		}
	}
}

static void
csv_summary_rows(FILE *f, const struct runset *rs, size_t st)
{
	double v = 0;
	uint32_t k;
	int i, fig;

	for (i = 0; i < 2 && rs->ncomplete > 0; i++) {
		const struct runset_side *sd = &rs->side[i];
		const char *role = sd->role == ROLE_RECV ? "recv" : "send";

		fprintf(f, "%s,%c,%s,,", stat_names[st], sd->tag, role);
		for (fig = 0; fig < RS_NFIG; fig++) {
			int have = sd->fig[fig].have && stat_value(&sd->fig[fig].s,
			    st, &v);

			csv_num(f, have, v);
		}
		fputs(",\n", f);
		for (k = 0; k < sd->nst; k++) {
			const struct runset_stat *t = sd->st[k];
			double fct = 0;
			int hm, hf;

			fprintf(f, "%s,%c.%u,%s,,", stat_names[st], sd->tag, k + 1, role);
			hm = t[RS_ST_REAL_MBIT].have &&
			    stat_value(&t[RS_ST_REAL_MBIT].s, st, &v);
			hf = t[RS_ST_FCT].have && stat_value(&t[RS_ST_FCT].s, st, &fct);
			csv_stream_cells(f, hm, v, hf, fct);
		}
	}
}

static void
csv_doc(FILE *f, const struct runset *rs)
{
	size_t r, k;
	int fig;

	fputs("run,side,role,bytes,calls", f);
	for (fig = 0; fig < RS_NFIG; fig++)
		fprintf(f, ",%s", runset_fig_key(fig));
	fputs(",fct_s\n", f);
	for (r = 0; r < rs->n; r++)
		csv_run_rows(f, &rs->run[r], r + 1);
	for (k = 0; k < NSTAT; k++)
		csv_summary_rows(f, rs, k);
}

void
report_repeat(FILE *f, const struct report_repeat_opts *o,
              const struct runset *rs, int rc)
{
	switch (o->out) {
	case OUT_TABLE: table_summary(f, rs, rc); break;
	case OUT_JSON: json_doc(f, o, rs, rc, 1); break;
	case OUT_JSON_LINES: json_doc(f, o, rs, rc, 0); break;
	case OUT_CSV: csv_doc(f, rs); break;
	case OUT_PROM: break;           /* not with --repeat (cli_check.c) */
	}
}

void
report_repeat_unmet(FILE *f, const struct runset *rs)
{
	fprintf(f, "gput: --repeat: after %zu runs (the most asked) the %g%% "
	        "confidence interval of the receiver's Real-MBit/s is %.2f%% of "
	        "its mean, wider than the %g%% asked\n", rs->ncomplete, rs->level,
	        rs->width_pct, rs->target_pct);
}
