/* SPDX-License-Identifier: BSD-2-Clause */
/* json.c: a small streaming JSON writer (RFC 8259). */
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a level has seen: the state json.first[] holds. */
enum { LV_EMPTY = 1, LV_MORE = 0, LV_KEY = 2 };

void
json_init(struct json *j, FILE *f, int pretty)
{
	memset(j, 0, sizeof *j);
	j->f = f;
	j->pretty = pretty == JSON_LAID ? JSON_LAID : pretty != 0;
	j->brk = -1;
}

void
json_break(struct json *j, int indent)
{
	j->brk = indent;
}

/* JSON_LAID: the line break asked for, if any. Returns 1 when written. */
static int
laid_break(struct json *j)
{
	int i;

	if (j->brk < 0)
		return 0;
	fputc('\n', j->f);
	for (i = 0; i < j->brk; i++)
		fputc(' ', j->f);
	j->brk = -1;
	return 1;
}

static int *
level(struct json *j)
{
	if (j->depth <= 0 || j->depth > JSON_MAX_DEPTH)
		return NULL;
	return &j->first[j->depth - 1];
}

static void
newline(struct json *j)
{
	int i;

	if (j->pretty != JSON_PRETTY)
		return;
	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Before any value or key: the comma and the line break it needs. A value
 * right after its key needs neither. */
static void
sep(struct json *j)
{
	int *lv = level(j);

	if (lv == NULL)
		return;
	if (*lv == LV_KEY) {
		*lv = LV_MORE;
		return;
	}
	if (*lv == LV_MORE)
		fputc(',', j->f);
	if (j->pretty == JSON_LAID && !laid_break(j) && *lv == LV_MORE)
		fputc(' ', j->f);
	*lv = LV_MORE;
	newline(j);
}

static void
open_c(struct json *j, char c)
{
	sep(j);
	fputc(c, j->f);
	j->depth++;
	if (level(j) != NULL)
		*level(j) = LV_EMPTY;
}

static void
close_c(struct json *j, char c)
{
	int *lv = level(j);
	int empty = lv != NULL && *lv == LV_EMPTY;

	if (j->depth > 0)
		j->depth--;
	if (j->pretty == JSON_LAID)
		laid_break(j);
	else if (!empty)
		newline(j);
	fputc(c, j->f);
}

void json_begin_object(struct json *j) { open_c(j, '{'); }
void json_end_object(struct json *j)   { close_c(j, '}'); }
void json_begin_array(struct json *j)  { open_c(j, '['); }
void json_end_array(struct json *j)    { close_c(j, ']'); }

/*
 * Length of the well-formed UTF-8 sequence at s (n bytes available, s[0] >=
 * 0x80), or -(length of its maximal ill-formed subpart) (at least 1). The
 * table is RFC 3629's (Unicode Table 3-7): the second byte's range depends on
 * the first, which rules out overlongs, surrogates and > U+10FFFF.
 */
static int
utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t need, i;

	if (c >= 0xc2 && c <= 0xdf)
		need = 2;
	else if (c >= 0xe0 && c <= 0xef)
		need = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 4;
	else
		return -1;              /* 80-c1, f5-ff never start a sequence */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	for (i = 1; i < need; i++) {
		if (i >= n || s[i] < lo || s[i] > hi)
			return -(int)i;
		lo = 0x80;
		hi = 0xbf;
	}
	return (int)need;
}

/* Write s (n bytes, stopping early at a NUL) as a quoted JSON string;
 * bytewise: as struct json says. */
static void
put_str(FILE *f, const char *str, size_t n, int bytewise)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	int k;

	fputc('"', f);
	while (i < n && s[i] != '\0') {
		unsigned char c = s[i];

		if (c >= 0x80) {
			k = utf8_seq(s + i, strnlen((const char *)s + i, n - i));
			if (k > 0)
				fwrite(s + i, 1, (size_t)k, f);
			else
				fputs("\\ufffd", f);
			i += k > 0 ? (size_t)k : bytewise ? 1 : (size_t)-k;
			continue;
		}
		if (bytewise && c < 0x20) {     /* \u00xx, even \n */
			fprintf(f, "\\u%04x", c);
			i++;
			continue;
		}
		switch (c) {
		case '"':  fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (c < 0x20 || (c == 0x7f && !bytewise))
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
		}
		i++;
	}
	fputc('"', f);
}

void
json_key(struct json *j, const char *key)
{
	int *lv;

	sep(j);
	put_str(j->f, key, strlen(key), j->bytewise);
	fputs(j->pretty != JSON_COMPACT ? ": " : ":", j->f);
	lv = level(j);
	if (lv != NULL)
		*lv = LV_KEY;
}

void
json_string_n(struct json *j, const char *s, size_t n)
{
	if (s == NULL) {
		json_null(j);
		return;
	}
	sep(j);
	put_str(j->f, s, n, j->bytewise);
}

void
json_string(struct json *j, const char *s)
{
	json_string_n(j, s, s == NULL ? 0 : strlen(s));
}

void
json_u64(struct json *j, uint64_t v)
{
	sep(j);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

/* Rewrite a printf'd number into JSON's form: whatever the locale's decimal
 * point is (one byte or several), it becomes '.'. */
static void
c_number(char *buf)
{
	char *w = buf, *r = buf;

	while (*r != '\0') {
		if (strchr("0123456789+-eE", *r) != NULL) {
			*w++ = *r++;
			continue;
		}
		*w++ = '.';
		while (*r != '\0' && strchr("0123456789+-eE", *r) == NULL)
			r++;
	}
	*w = '\0';
}

int
json_fmt_double(char *buf, size_t len, double v)
{
	int prec;

	if (len > 0)
		buf[0] = '\0';
	if (!isfinite(v) || len < JSON_DOUBLE_LEN)
		return -1;
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, len, "%.17g", v);
	c_number(buf);
	return 0;
}

void
json_double(struct json *j, double v)
{
	char buf[JSON_DOUBLE_LEN];

	if (json_fmt_double(buf, sizeof buf, v) == -1) {
		json_null(j);
		return;
	}
	sep(j);
	fputs(buf, j->f);
}

void
json_fixed(struct json *j, double v, int prec)
{
	char buf[400];                  /* DBL_MAX has 309 digits */

	if (!isfinite(v) || prec < 0 || prec > 17) {
		json_null(j);
		return;
	}
	snprintf(buf, sizeof buf, "%.*f", prec, v);
	c_number(buf);
	sep(j);
	fputs(buf, j->f);
}

void
json_bool(struct json *j, int b)
{
	sep(j);
	fputs(b ? "true" : "false", j->f);
}

void
json_null(struct json *j)
{
	sep(j);
	fputs("null", j->f);
}

/* The shorthands: a key, then its value. */
void
json_kv_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void
json_kv_u64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

void
json_kv_double(struct json *j, const char *key, double v)
{
	json_key(j, key);
	json_double(j, v);
}

void
json_kv_fixed(struct json *j, const char *key, double v, int prec)
{
	json_key(j, key);
	json_fixed(j, v, prec);
}

void
json_kv_bool(struct json *j, const char *key, int b)
{
	json_key(j, key);
	json_bool(j, b);
}

void
json_kv_null(struct json *j, const char *key)
{
	json_key(j, key);
	json_null(j);
}
