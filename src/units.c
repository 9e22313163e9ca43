/* SPDX-License-Identifier: BSD-2-Clause */
/* units.c: the one place where numbers typed by users are parsed. */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Parse leading decimal digits of s into *v; returns pointer past them or NULL. */
static const char *
parse_digits(const char *s, uint64_t *v, char *err, size_t errlen)
{
	uint64_t acc = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p)) {
		snprintf(err, errlen, "'%s' is not a number", s);
		return NULL;
	}
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (acc > (UINT64_MAX - d) / 10) {
			snprintf(err, errlen, "'%s' is too large", s);
			return NULL;
		}
		acc = acc * 10 + d;
	}
	*v = acc;
	return p;
}

static int
check_range(const char *s, uint64_t v, uint64_t min, uint64_t max, char *err,
            size_t errlen)
{
	if (v < min || v > max) {
		snprintf(err, errlen, "'%s' is out of range (%llu to %llu)", s,
		         (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	return 0;
}

int
units_parse_int(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                char *err, size_t errlen)
{
	uint64_t v;
	const char *end = parse_digits(s, &v, err, errlen);

	if (end == NULL)
		return -1;
	if (*end != '\0') {
		snprintf(err, errlen, "'%s' is not a whole number", s);
		return -1;
	}
	if (check_range(s, v, min, max, err, errlen) == -1)
		return -1;
	*out = v;
	return 0;
}

int
units_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                 char *err, size_t errlen)
{
	uint64_t v, mult = 1;
	const char *end = parse_digits(s, &v, err, errlen);

	if (end == NULL)
		return -1;
	switch (*end) {
	case '\0': break;
	case 'B': end++; break;             /* bytes: -w 7200B */
	case 'k': case 'K': mult = 1ULL << 10; end++; break;
	case 'm': case 'M': mult = 1ULL << 20; end++; break;
	case 'g': case 'G': mult = 1ULL << 30; end++; break;
	default: end = NULL; break;
	}
	if (end == NULL || *end != '\0') {
		snprintf(err, errlen, "'%s' is not a size (use a number with an "
		         "optional B, K, M or G suffix)", s);
		return -1;
	}
	if (v > UINT64_MAX / mult) {
		snprintf(err, errlen, "'%s' is too large", s);
		return -1;
	}
	v *= mult;
	if (check_range(s, v, min, max, err, errlen) == -1)
		return -1;
	*out = v;
	return 0;
}

int
units_parse_kbytes(const char *s, uint64_t min_kb, uint64_t max_kb,
                   uint64_t *out, char *err, size_t errlen)
{
	size_t n = strlen(s);
	uint64_t v;

	if (n > 0 && isdigit((unsigned char)s[n - 1])) {      /* nttcp: KB */
		if (units_parse_int(s, min_kb, max_kb, &v, err, errlen) == -1)
			return -1;
		*out = v * 1024u;
		return 0;
	}
	if (units_parse_size(s, min_kb * 1024u, max_kb * 1024u, &v, err,
	    errlen) == -1)
		return -1;
	*out = v;
	return 0;
}

/* The plain decimal number at the start of s: digits with at most one
 * point (strtod alone would also take hex, exponents, signs and inf).
 * Returns the end of the number, or NULL. */
static const char *
parse_plain(const char *s, double *v)
{
	size_t digits = strspn(s, "0123456789."), dots = 0, i;
	char *end;

	for (i = 0; i < digits; i++)
		dots += s[i] == '.';
	errno = 0;
	*v = strtod(s, &end);
	if (digits == dots || dots > 1 || end != s + digits || errno != 0 ||
	    !isfinite(*v))
		return NULL;
	return end;
}

int
units_parse_decimal(const char *s, double min, double max, double *out,
                    char *err, size_t errlen)
{
	const char *end = parse_plain(s, out);

	if (end == NULL || *end != '\0') {
		snprintf(err, errlen, "'%s' is not a number", s);
		return -1;
	}
	if (!(*out >= min && *out <= max)) {
		snprintf(err, errlen, "'%s' is out of range (%g to %g)", s, min, max);
		return -1;
	}
	return 0;
}

int
units_parse_rate(const char *s, double min, double max, double *out,
                 char *err, size_t errlen)
{
	double v, mult = 1;
	const char *end = parse_plain(s, &v);

	if (end == NULL)
		goto bad;
	switch (*end) {
	case 'k': case 'K': mult = 1e3; end++; break;
	case 'm': case 'M': mult = 1e6; end++; break;
	case 'g': case 'G': mult = 1e9; end++; break;
	default: break;
	}
	if (*end != '\0' && strcasecmp(end, "bit") != 0 &&
	    strcasecmp(end, "bps") != 0 && strcasecmp(end, "b/s") != 0)
		goto bad;
	v *= mult;
	if (!(v >= min && v <= max)) {
		snprintf(err, errlen, "'%s' is out of range (%.0f to %.0f bit/s)",
		         s, min, max);
		return -1;
	}
	*out = v;
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not a rate (use e.g. 10M, 1G, 100k)", s);
	return -1;
}
