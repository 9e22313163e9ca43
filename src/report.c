/* SPDX-License-Identifier: BSD-2-Clause */
/* report.c: the table, the -f format and the lines under the table. */
#include "report.h"

#include <ctype.h>
#include <string.h>

#include "wire_udp.h"

/* The -f tags, their column names and what they print. */
enum tag_kind { T_BYTES, T_LEN, T_COUNT, T_CALLS, T_RT, T_CT, T_RBR, T_CBR,
	T_RCR, T_CCR };

static const struct tag {
	const char *name;       /* as written after % and the width */
	const char *title;      /* -T column name */
	enum tag_kind kind;
} tags[] = {                    /* longest names first: %rbr before %rt */
	{ "rbr", "Real-MBit/s", T_RBR },
	{ "cbr", "CPU-MBit/s",  T_CBR },
	{ "rcr", "Real-C/s",    T_RCR },
	{ "ccr", "CPU-C/s",     T_CCR },
	{ "rt",  "Real s",      T_RT },
	{ "ct",  "CPU s",       T_CT },
	{ "b",   "Bytes",       T_BYTES },
	{ "l",   "Length",      T_LEN },
	{ "n",   "Count",       T_COUNT },
	{ "c",   "Calls",       T_CALLS },
};

#define MAX_WIDTH 64
#define MAX_PREC  12

/* One parsed "%W.Ptag". */
struct spec {
	int width, prec;        /* prec -1: not given */
	const struct tag *tag;  /* NULL for "%%" */
	size_t len;             /* characters consumed, '%' included */
};

/* Parse the directive at fmt (which points at '%'). Returns 0 or -1. */
static int
parse_spec(const char *fmt, struct spec *sp, char *err, size_t errlen)
{
	const char *p = fmt + 1;
	size_t i;

	sp->width = 0;
	sp->prec = -1;
	sp->tag = NULL;
	if (*p == '%') {
		sp->len = 2;
		return 0;
	}
	while (isdigit((unsigned char)*p) && sp->width <= MAX_WIDTH)
		sp->width = sp->width * 10 + (*p++ - '0');
	if (*p == '.') {
		p++;
		sp->prec = 0;
		while (isdigit((unsigned char)*p) && sp->prec <= MAX_PREC)
			sp->prec = sp->prec * 10 + (*p++ - '0');
	}
	if (sp->width > MAX_WIDTH || sp->prec > MAX_PREC || isdigit((unsigned char)*p)) {
		snprintf(err, errlen, "width at most %d, precision at most %d",
		         MAX_WIDTH, MAX_PREC);
		return -1;
	}
	for (i = 0; i < sizeof tags / sizeof tags[0]; i++) {
		size_t n = strlen(tags[i].name);
		if (strncmp(p, tags[i].name, n) == 0) {
			sp->tag = &tags[i];
			sp->len = (size_t)(p - fmt) + n;
			return 0;
		}
	}
	snprintf(err, errlen, "unknown tag in '%.*s' (tags: %%b %%l %%n %%c %%rt "
	         "%%ct %%rbr %%cbr %%rcr %%ccr)", (int)(p - fmt + 1), fmt);
	return -1;
}

int
report_check_format(const char *fmt, char *err, size_t errlen)
{
	struct spec sp;

	if (*fmt == '\0') {
		snprintf(err, errlen, "empty format");
		return -1;
	}
	for (; *fmt != '\0'; fmt++) {
		if ((unsigned char)*fmt < 0x20 && *fmt != '\t') {
			snprintf(err, errlen, "control character in format");
			return -1;
		}
		if (*fmt != '%')
			continue;
		if (parse_spec(fmt, &sp, err, errlen) == -1)
			return -1;
		fmt += sp.len - 1;
	}
	return 0;
}

/* Render one value into buf (without padding when the width is 0); a rate
 * over zero time is "-". Returns its length, as snprintf does. */
static int
fmt_value(char *buf, size_t len, const struct spec *sp, const struct report_row *row)
{
	const struct gput_result *r = row->r;
	int w = sp->width, prec = sp->prec >= 0 ? sp->prec : 6;
	const struct fig *v;

	switch (sp->tag->kind) {
	case T_BYTES: return snprintf(buf, len, "%*llu", w, (unsigned long long)r->bytes);
	case T_LEN:   return snprintf(buf, len, "%*u", w, row->len);
	case T_COUNT: return snprintf(buf, len, "%*llu", w, (unsigned long long)row->count);
	case T_CALLS: return snprintf(buf, len, "%*llu", w, (unsigned long long)r->calls);
	case T_RT:    return snprintf(buf, len, "%*.*f", w, prec, (double)r->real_ns / 1e9);
	case T_CT:    return snprintf(buf, len, "%*.*f", w, prec, (double)r->cpu_ns / 1e9);
	case T_RBR: v = &row->fig->real_mbit; break;
	case T_CBR: v = &row->fig->cpu_mbit; break;
	case T_RCR: v = &row->fig->real_cps; break;
	case T_CCR: v = &row->fig->cpu_cps; break;
	default: buf[0] = '\0'; return 0;
	}
	if (v->ok)
		return snprintf(buf, len, "%*.*f", w, prec, v->v);
	return snprintf(buf, len, "%*s", w, "-");
}

/*
 * Walk fmt; print each tag's value, or its title when row is NULL. after is
 * the character already written before fmt (the side tag, or the space over
 * it). nttcp's columns touch when a value fills its width ("l1448000000"):
 * a value or title that fills or overflows a width > 0 and would follow
 * another value or the side tag directly gets one space first, so a line
 * always splits on white space; a value right after the side tag gets it
 * whatever its width ("%b": "1 1448000", not "11448000"). Literal text in
 * fmt is the user's separator and is left alone, as are zero-width tags
 * after a value ("%b|%l", "%b%c").
 */
static void
render(FILE *f, const char *fmt, const struct report_row *row, char after)
{
	char err[160], val[400];        /* %.12f of any double fits */
	struct spec sp;
	int n, touch = after != ' ';    /* the last character written is ours */
	int at_tag = touch;             /* ... and it is the side tag */

	for (; *fmt != '\0'; fmt++) {
		if (*fmt != '%') {
			fputc(*fmt, f);
			touch = at_tag = 0;
			continue;
		}
		if (parse_spec(fmt, &sp, err, sizeof err) == -1)
			return;                 /* cli_value.c checked the format */
		fmt += sp.len - 1;
		if (sp.tag == NULL) {
			fputc('%', f);
			touch = at_tag = 0;
			continue;
		}
		if (row == NULL)
			n = snprintf(val, sizeof val, "%*s", sp.width, sp.tag->title);
		else
			n = fmt_value(val, sizeof val, &sp, row);
		if (n <= 0)
			continue;
		if (touch && (sp.width > 0 || at_tag) && val[0] != ' ')
			fputc(' ', f);          /* no padding: it fills its width */
		fputs(val, f);
		touch = 1;
		at_tag = 0;
	}
}

void
report_title(FILE *f, const char *fmt)
{
	fputc(' ', f);                          /* over the side tag */
	render(f, fmt, NULL, ' ');
	fputc('\n', f);
}

void
report_line(FILE *f, const char *fmt, const struct report_row *row)
{
	report_line_note(f, fmt, row, "");
}

void
report_line_note(FILE *f, const char *fmt, const struct report_row *row,
                 const char *note)
{
	fputc(row->tag, f);
	render(f, fmt, row, row->tag);
	fputs(note, f);
	fputc('\n', f);
}

/* The arrival line's tail with the receiver's exact accounting, and a
 * line of its timing when the sender was paced. */
static void
udp_accounting(FILE *f, char rtag, const struct udp_stats *u, int same_clock)
{
	if (!(u->flags & UDPS_SEQ)) {
		fprintf(f, "; datagrams under %u bytes carry no sequence numbers, so "
		        "copies and order are not told", WIRE_GPUD_LEN);
		return;
	}
	if (u->duplicates)
		fprintf(f, "; %llu duplicate%s", (unsigned long long)u->duplicates,
		        u->duplicates == 1 ? "" : "s");
	if (u->reordered)
		fprintf(f, "; %llu reordered (displaced by up to %llu)",
		        (unsigned long long)u->reordered,
		        (unsigned long long)u->max_displacement);
	if (u->late)
		fprintf(f, "; %llu late (after the end marker)",
		        (unsigned long long)u->late);
	if (u->too_old)
		fprintf(f, "; %llu too old to tell from duplicates",
		        (unsigned long long)u->too_old);
	if (!(u->flags & UDPS_TIMED))
		return;
	fprintf(f, "\n%c: jitter %.3f ms (RFC 3550), delay variation %.3f ms mean, "
	        "%.3f ms max", rtag, u->jitter_ns / 1e6, u->delay_var_ns / 1e6,
	        u->delay_var_max_ns / 1e6);
	if (same_clock)
		fprintf(f, "; one-way delay %.3f ms min, %.3f ms mean",
		        u->owd_min_ns / 1e6, u->owd_mean_ns / 1e6);
}

void
report_udp_arrivals(FILE *f, char rtag, const struct gput_result *recv,
                    const struct figures *fig, int idle_ms,
                    const struct udp_stats *u, int same_clock)
{
	fprintf(f, "%c: received %llu of %llu datagrams, %llu lost (%.2f%%)", rtag,
	        (unsigned long long)recv->dgrams,
	        (unsigned long long)fig->udp_sent,
	        (unsigned long long)fig->udp_lost, fig->loss_pct.v);
	if ((recv->flags & RES_DROPS) && recv->sock_drops > 0)
		fprintf(f, "; the receiving socket dropped %llu (its buffer was full:"
		        " see -w, -g)", (unsigned long long)recv->sock_drops);
	if (recv->flags & RES_IDLE)
		fprintf(f, "; no end marker arrived, receiver stopped after %.1f s idle",
		        idle_ms / 1000.0);
	if (recv->flags & RES_STEPPED)
		fprintf(f, "; the system clock was stepped, so the receiver's Real s"
		        " is from when it read the datagrams");
	if (u != NULL)
		udp_accounting(f, rtag, u, same_clock);
	fputc('\n', f);
}

void
report_verify(FILE *f, char tag, const struct gput_result *r)
{
	if (!(r->flags & RES_VERIFIED))
		return;
	if (r->verify_bad == 0)
		fprintf(f, "%c: verified %llu bytes, all match the pattern\n", tag,
		        (unsigned long long)r->bytes);
	else
		fprintf(f, "%c: verify FAILED: %llu of %llu bytes differ from the "
		        "pattern, the first at offset %llu\n", tag,
		        (unsigned long long)r->verify_bad, (unsigned long long)r->bytes,
		        (unsigned long long)r->verify_first);
}

void
report_tcp_queue(FILE *f, char tag, const struct gput_result *r)
{
	if (!(r->flags & RES_QUEUE))
		return;
	fprintf(f, "%c: when the last write returned, %llu bytes were not yet sent "
	        "and %llu not yet acknowledged\n", tag,
	        (unsigned long long)r->unsent, (unsigned long long)r->unacked);
}

void
report_service_demand(FILE *f, char tag, const struct gput_result *r)
{
	int ok;
	double v = model_service_demand(r, &ok);

	if (ok)
		fprintf(f, "%c: service demand %.3f us of CPU per MB moved\n", tag, v);
}

void
report_udp_batch(FILE *f, char tag, const struct gput_result *r,
                 const struct figures *fig, uint8_t batch, uint8_t gso)
{
	if ((batch < 2 && !gso) || !fig->dgrams_per_call.ok)
		return;
	fprintf(f, "%c: %llu datagrams in %llu calls, %.2f per call, %.0f bytes "
	        "per call (", tag, (unsigned long long)r->dgrams,
	        (unsigned long long)r->calls, fig->dgrams_per_call.v,
	        fig->bytes_per_call.v);
	if (batch > 1)
		fprintf(f, "--batch %u%s", batch, gso ? " " : "");
	fprintf(f, "%s)\n", gso ? "--gso" : "");
}
