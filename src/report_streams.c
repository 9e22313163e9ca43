/* SPDX-License-Identifier: BSD-2-Clause */
/* report_streams.c: the table's lines of parallel streams and fairness. */
#include "report_streams.h"

#include "report.h"
#include "report_ival.h"

/* A side's or a stream's row of the table. */
static struct report_row
row_of(const struct side *s)
{
	struct report_row row = { s->tag, s->len, s->count, &s->r, &s->fig };

	return row;
}

/* Stream t's line: its columns, then what tells it from the others. snd:
 * the sending end's record of the same stream (t itself on the sending
 * side, NULL when unknown), whose congestion control governs the stream. */
static void
stream_line(FILE *f, const char *fmt, const struct side *t,
            const struct side *snd, int verbose)
{
	struct report_row row = row_of(t);
	char note[128], cc[sizeof t->tcp.cc], own[sizeof t->tcp.cc];
	int n;

	if (!t->have_result) {
		fprintf(f, "%c  stream %u: no result\n", t->tag, t->stream);
		return;
	}
	n = snprintf(note, sizeof note, "  stream %u", t->stream);
	if (t->proto == PROTO_TCP && snd != NULL && snd->tcp.valid) {
		report_cc_name(cc, &snd->tcp);
		n += snprintf(note + n, sizeof note - (size_t)n, "  cc %s", cc);
		if (verbose && snd != t && t->tcp.valid) {
			report_cc_name(own, &t->tcp);
			n += snprintf(note + n, sizeof note - (size_t)n, " (own %s)",
			              own);
		}
	}
	snprintf(note + n, sizeof note - (size_t)n, "  fct %.3f s",
	         (double)t->end_ns / 1e9);
	report_line_note(f, fmt, &row, note);
}

static void
side_lines(FILE *f, const struct run_model *m, const struct side *s,
           const char *fmt, int verbose)
{
	const struct side *o = s == &m->side[0] ? &m->side[1] : &m->side[0];
	struct report_row row = row_of(s);
	char note[48];
	uint32_t k;

	if (m->streams <= 1 || s->nst == 0) {
		report_line(f, fmt, &row);
		return;
	}
	for (k = 0; k < s->nst; k++)
		stream_line(f, fmt, &s->st[k], s->role == ROLE_SEND ? &s->st[k] :
		    k < o->nst ? &o->st[k] : NULL, verbose);
	snprintf(note, sizeof note, "  sum of %u streams", s->nst);
	report_line_note(f, fmt, &row, note);
}

void
report_streams_table(FILE *f, const struct run_model *m, const char *loc_fmt,
                     const char *rem_fmt, int verbose)
{
	if (m->side[0].have_result)
		side_lines(f, m, &m->side[0], loc_fmt, verbose);
	if (m->side[1].have_result)
		side_lines(f, m, &m->side[1], rem_fmt, verbose);
}

void
report_fairness(FILE *f, const struct run_model *m)
{
	int i = model_recv_side(m);
	const struct side *s;
	uint32_t k;

	if (!m->have_fair || i < 0)
		return;
	s = &m->side[i];
	fprintf(f, "%c: fairness of %u streams: Jain's index %.4f, shares", s->tag,
	        s->nst, m->fair);
	for (k = 0; k < s->nst; k++)
		fprintf(f, " %.1f%%", s->st[k].share * 100);
	fputc('\n', f);
	if (m->have_fair_steady)
		fprintf(f, "%c: fairness of %u streams in the steady state after "
		        "%.2f s: Jain's index %.4f\n", s->tag, s->nst,
		        m->omit_ms / 1e3, m->fair_steady);
}
