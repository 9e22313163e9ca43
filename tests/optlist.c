/* SPDX-License-Identifier: BSD-2-Clause */
/* optlist.c: the option table (src/cli_table.c) as tests read it, one
 * spelling a line ("-l", "--length"), for tests/live_docs.sh and
 * tests/live_completion.sh; "optlist -v" a line per option with its value's
 * name and scope ("-l --length length side", "--bidir - global"). Not installed: gput has no such option. */
#include <stdio.h>
#include <string.h>

#include "cli_opts.h"

int
main(int argc, char **argv)
{
	int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
	const struct cli_opt *r;

	for (r = cli_opts; r->help != NULL; r++) {
		if (r->name == NULL || (r->scope & CLI_HELP_ONLY))
			continue;
		if (!verbose) {
			if (r->code < 256)
				printf("-%c\n", r->code);
			printf("--%s\n", r->name);
			continue;
		}
		if (r->code < 256)
			printf("-%c ", r->code);
		printf("--%s %s %s\n", r->name, r->arg ? r->arg : "-",
		       r->scope & CLI_PARTNER ? "partner" : r->scope & CLI_SIDE ?
		       "side" : "global");
	}
	return ferror(stdout) ? 1 : 0;
}
