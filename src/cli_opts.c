/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_opts.c: what is made of the option table (cli_table.c): getopt's
 * short string and long array, rows by code, names for messages, and the
 * trivial values applied. */
#include "cli_opts.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

/* An option's row: one that getopt knows. */
static int
is_opt(const struct cli_opt *r)
{
	return r->name != NULL && !(r->scope & CLI_HELP_ONLY);
}

const struct cli_opt *
cli_opt_find(int o)
{
	const struct cli_opt *r;

	for (r = cli_opts; r->help != NULL; r++)
		if (is_opt(r) && r->code == o)
			return r;
	return NULL;
}

unsigned
cli_opt_scope(int o)
{
	const struct cli_opt *r = cli_opt_find(o);

	return r != NULL ? r->scope : 0;
}

static struct option longs[OPT_MAX - 256 + 64];
static char shorts[3 + 2 * 64];

/* getopt's arrays from the table, once. */
static void
make_getopt(void)
{
	const struct cli_opt *r;
	size_t n = 0, k;

	if (longs[0].name != NULL)
		return;
	k = (size_t)snprintf(shorts, sizeof shorts, "+:");
	for (r = cli_opts; r->help != NULL; r++) {
		if (!is_opt(r))
			continue;
		if (n + 1 >= sizeof longs / sizeof longs[0] ||
		    k + 3 >= sizeof shorts)
			abort();                /* the arrays below are too small */
		longs[n].name = r->name;
		longs[n].has_arg = r->arg != NULL ? required_argument : no_argument;
		longs[n].flag = NULL;
		longs[n++].val = r->code;
		if (r->code < 256) {
			shorts[k++] = (char)r->code;
			if (r->arg != NULL)
				shorts[k++] = ':';
		}
	}
	shorts[k] = '\0';
	longs[n].name = NULL;
}

const char *
cli_shortopts(void)
{
	make_getopt();
	return shorts;
}

const struct option *
cli_opts_long(void)
{
	make_getopt();
	return longs;
}

/* v into the field of width w at p. */
static void
store(void *p, unsigned w, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (w) {
	case 1: memcpy(p, &u8, 1); break;
	case 2: memcpy(p, &u16, 2); break;
	case 4: memcpy(p, &u32, 4); break;
	default: memcpy(p, &v, 8); break;
	}
}

int
cli_opt_apply(struct cli_state *ps, const struct cli_opt *r, const char *arg)
{
	char *base = (r->to == CLI_SET_SIDE || r->to == CLI_INT_SIDE ||
	    r->to == CLI_SIZE_SIDE) ? (char *)ps->s : (char *)ps->c;
	char why[160];
	uint64_t v = r->max;

	switch (r->to) {
	case CLI_FN:
		return r->fn(ps, r->code, arg);
	case CLI_INT_SIDE:
	case CLI_INT_CONF:
		if (units_parse_int(arg, r->min, r->max, &v, why, sizeof why) == -1)
			return cli_bad_value(ps, r->code, why);
		break;
	case CLI_SIZE_SIDE:
	case CLI_SIZE_CONF:
		if (units_parse_size(arg, r->min, r->max, &v, why, sizeof why) == -1)
			return cli_bad_value(ps, r->code, why);
		break;
	default:                                /* CLI_SET_*: v is max */
		break;
	}
	store(base + r->off, r->width, v);
	return 0;
}

/* The name of option code o as a user typed it, for messages. */
const char *
cli_opt_name(int o, char *buf, size_t len)
{
	const struct cli_opt *r;

	if (o < 256) {
		snprintf(buf, len, "-%c", o);
		return buf;
	}
	r = cli_opt_find(o);
	snprintf(buf, len, "--%s", r != NULL ? r->name : "?");
	return buf;
}

/* Prefix a value error with the option's name. */
int
cli_bad_value(struct cli_state *ps, int o, const char *why)
{
	char nm[32];

	snprintf(ps->err, ps->errlen, "%s: %s", cli_opt_name(o, nm, sizeof nm),
	         why);
	return -1;
}
