/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_partner.c: the options of gput -i alone into the config. */
#include "cli_partner.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli_value.h"
#include "partner_acl.h"
#include "units.h"
#include "xfer_params.h"

/* --source-prefix V4,V6: the prefix lengths that make one source. */
static int
source_prefix(struct cli_state *ps, int o, const char *arg,
              struct partner_limits *l)
{
	char why[160], v4[16];
	const char *comma = strchr(arg, ',');
	uint64_t a, b;

	if (comma == NULL || (size_t)(comma - arg) >= sizeof v4)
		return cli_bad_value(ps, o, "want two prefix lengths, IPv4,IPv6, "
		                     "such as 32,64");
	memcpy(v4, arg, (size_t)(comma - arg));
	v4[comma - arg] = '\0';
	if (units_parse_int(v4, 1, 32, &a, why, sizeof why) == -1 ||
	    units_parse_int(comma + 1, 1, 128, &b, why, sizeof why) == -1)
		return cli_bad_value(ps, o, why);
	l->src_prefix4 = (unsigned)a;
	l->src_prefix6 = (unsigned)b;
	return 0;
}

int
cli_partner_opt(struct cli_state *ps, int o, const char *arg)
{
	struct config *c = ps->c;
	struct partner_limits *l = &c->lim;
	char why[160];

	switch (o) {
	case OPT_USER:
		if (*arg == '\0')
			return cli_bad_value(ps, o, "empty user name");
		c->user = arg;
		return 0;
	case OPT_ALLOW:
		if (acl_add(&c->allow, arg, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		return 0;
	case OPT_ALLOW_CC:              /* each one this host offers */
		if (cli_value_cc(arg, why, sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		c->allow_cc = arg;
		return 0;
	case OPT_SOURCE_PREFIX:
		return source_prefix(ps, o, arg, l);
	case OPT_MAX_RATE:
		if (strcmp(arg, "0") == 0) {
			l->max_rate = 0;
			return 0;
		}
		if (units_parse_rate(arg, 1e3, 1e13, &l->max_rate, why,
		    sizeof why) == -1)
			return cli_bad_value(ps, o, why);
		return 0;
	}
	return cli_bad_value(ps, o, "unknown option");
}
