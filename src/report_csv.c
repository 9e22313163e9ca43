/* report_csv.c: the result model as CSV. */
#include "report_csv.h"

#include "json.h"
#include "xfer.h"

#define CSV_HEADER "side,role,bytes,calls,real_s,cpu_s,real_mbit,cpu_mbit," \
                   "real_calls_s,cpu_calls_s\n"

/* ",v" with v a double in the C locale; just "," when ok is 0. */
static void
field(FILE *f, double v, int ok)
{
	char buf[JSON_DOUBLE_LEN];

	fputc(',', f);
	if (ok && json_fmt_double(buf, sizeof buf, v) == 0)
		fputs(buf, f);
}

/* Calls per second over ns (*ok = 0 when ns is 0). */
static double
per_s(uint64_t n, uint64_t ns, int *ok)
{
	*ok = ns != 0;
	return ns == 0 ? 0 : (double)n * 1e9 / (double)ns;
}

static void
row(FILE *f, const struct side *s)
{
	const struct gput_result *r = &s->r;
	int ok;
	double v;

	fprintf(f, "%c,%s,%llu,%llu", s->tag, s->role == ROLE_RECV ? "recv" : "send",
	        (unsigned long long)r->bytes, (unsigned long long)r->calls);
	field(f, (double)r->real_ns / 1e9, 1);
	field(f, (double)r->cpu_ns / 1e9, 1);
	v = model_mbit(r->bytes, r->real_ns, &ok);
	field(f, v, ok);
	v = model_mbit(r->bytes, r->cpu_ns, &ok);
	field(f, v, ok);
	v = per_s(r->calls, r->real_ns, &ok);
	field(f, v, ok);
	v = per_s(r->calls, r->cpu_ns, &ok);
	field(f, v, ok);
	fputc('\n', f);
}

void
report_csv(FILE *f, const struct run_model *m)
{
	size_t i;

	fputs(CSV_HEADER, f);
	for (i = 0; i < 2; i++)
		if (m->side[i].have_result)
			row(f, &m->side[i]);
}
