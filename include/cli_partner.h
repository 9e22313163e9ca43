/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLI_PARTNER_H
#define GPUT_CLI_PARTNER_H

#include "cli_opts.h"

/* The partner's own options (gput -i: --max-*, --allow, --allow-cc,
 * --user, --once, --inetd, --no-multicast) into ps->c. Returns 0, or -1
 * with ps->err filled (an option that is none of them: "unknown option"). */
int cli_partner_opt(struct cli_state *ps, int o, const char *arg);

#endif
