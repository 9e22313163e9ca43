/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLI_HELP_H
#define GPUT_CLI_HELP_H

#include <stdio.h>

/* gput -h: the synopsis (cli_usage, cli.h: its synopses' words are the
 * option table's, cli_table.c), then every option with a line of
 * description, in groups: the test, output, pacing and UDP, streams and
 * partners, the partner, link prediction. */
void cli_help(FILE *f);

#endif
