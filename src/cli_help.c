/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_help.c: gput -h, the synopsis and every option in one line, in
 * groups, from the option table (cli_opts.c). gput(1) holds the whole
 * story; tests/unit_hints.c checks that -h, the parser's options and the
 * man page's name the same ones, tests/live_docs.sh the man page against
 * the table. */
#include "cli_help.h"

#include "cli.h"
#include "cli_opts.h"

static const char *const titles[CLI_G_N] = {
	"The test", "Output", "Pacing and UDP", "Streams and partners",
	"Repeated runs", "The partner (gput -i)", "Link prediction",
	"Latency under load",
};

/* Row r's first column: its names as typed, with its value's name. */
static const char *
help_column(const struct cli_opt *r, char *buf, size_t len)
{
	if (r->name == NULL)
		snprintf(buf, len, "%s", r->arg);
	else if (r->code < 256)
		snprintf(buf, len, "-%c, --%s%s%s", r->code, r->name,
		         r->arg ? " " : "", r->arg ? r->arg : "");
	else
		snprintf(buf, len, "--%s%s%s", r->name, r->arg ? " " : "",
		         r->arg ? r->arg : "");
	return buf;
}

void
cli_help(FILE *f)
{
	const struct cli_opt *r;
	char col[64];
	int g;

	cli_usage(f);
	for (g = 0; g < CLI_G_N; g++) {
		fprintf(f, "\n%s:\n", titles[g]);
		for (r = cli_opts; r->help != NULL; r++)
			if (r->group == (enum cli_group)g)
				fprintf(f, "  %-24s %s\n", help_column(r, col,
				        sizeof col), r->help);
	}
	fputs("\nSizes take B, K, M or G (1, 2^10, 2^20, 2^30 bytes), rates k, M or G\n"
	      "(10^3, 10^6, 10^9 bit/s). Options after a partner's name apply to\n"
	      "that partner alone. See gput(1).\n", f);
}
