/* report_streams.c: the table's lines of parallel streams and fairness. */
#include "report_streams.h"

#include "report.h"
#include "report_ival.h"
#include "xfer.h"

/* A side's or a stream's row of the table. */
static struct report_row
row_of(const struct side *s)
{
	struct report_row row = { s->tag, s->len, s->count, &s->r };

	return row;
}

/* Stream t's line: its columns, then what tells it from the others. */
static void
stream_line(FILE *f, const char *fmt, const struct side *t)
{
	struct report_row row = row_of(t);
	char note[96], cc[sizeof t->tcp.cc];
	int n;

	if (!t->have_result) {
		fprintf(f, "%c  stream %u: no result\n", t->tag, t->stream);
		return;
	}
	n = snprintf(note, sizeof note, "  stream %u", t->stream);
	if (t->proto == PROTO_TCP && t->tcp.valid) {
		report_cc_name(cc, &t->tcp);
		n += snprintf(note + n, sizeof note - (size_t)n, "  cc %s", cc);
	}
	snprintf(note + n, sizeof note - (size_t)n, "  fct %.3f s",
	         (double)t->end_ns / 1e9);
	report_line_note(f, fmt, &row, note);
}

static void
side_lines(FILE *f, const struct run_model *m, const struct side *s,
           const char *fmt)
{
	struct report_row row = row_of(s);
	char note[48];
	uint32_t k;

	if (m->streams <= 1 || s->nst == 0) {
		report_line(f, fmt, &row);
		return;
	}
	for (k = 0; k < s->nst; k++)
		stream_line(f, fmt, &s->st[k]);
	snprintf(note, sizeof note, "  sum of %u streams", s->nst);
	report_line_note(f, fmt, &row, note);
}

void
report_streams_table(FILE *f, const struct run_model *m, const char *loc_fmt,
                     const char *rem_fmt)
{
	if (m->side[0].have_result)
		side_lines(f, m, &m->side[0], loc_fmt);
	if (m->side[1].have_result)
		side_lines(f, m, &m->side[1], rem_fmt);
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
