/* SPDX-License-Identifier: BSD-2-Clause */
/* cli_help.c: gput -h, the synopsis and every option in one line, in
 * groups, from the option table (cli_table.c). gput(1) holds the whole
 * story; tests/unit_hints.c checks that -h, the parser's options and the
 * man page's name the same ones, tests/live_docs.sh the man page against
 * the table. */
#include "cli_help.h"

#include <stdlib.h>
#include <string.h>

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

/* The row of option nm (a letter or a long name); a name not in the table
 * is a defect of cli_synopses that every test printing usage() meets. */
static const struct cli_opt *
usage_opt(const char *nm, size_t len)
{
	const struct cli_opt *r;

	for (r = cli_opts; r->help != NULL; r++) {
		if (r->name == NULL || (r->scope & CLI_HELP_ONLY))
			continue;
		if (len == 1 ? r->code == nm[0] : strlen(r->name) == len &&
		    strncmp(r->name, nm, len) == 0)
			return r;
	}
	fprintf(stderr, "cli_help.c: '%.*s' is no option\n", (int)len, nm);
	abort();
}

/* One option of a synopsis: "-l length", "--rate rate". */
static void
usage_one(FILE *f, const char *nm, size_t len)
{
	const struct cli_opt *r = usage_opt(nm, len);

	if (r->code < 256)
		fprintf(f, "-%c", r->code);
	else
		fprintf(f, "--%s", r->name);
	if (r->arg != NULL)
		fprintf(f, " %s", r->arg);
}

/* One word of a synopsis (see cli_synopses, cli_opts.h). */
static void
usage_word(FILE *f, const char *w, size_t len)
{
	int bare = w[0] == '!';
	size_t n;

	if (w[0] == '@') {
		fprintf(f, "%.*s", (int)len - 1, w + 1);
		return;
	}
	if (w[0] == '-') {                      /* a cluster of flags */
		for (n = 1; n < len; n++)
			(void)usage_opt(w + n, 1);
		fprintf(f, "[%.*s]", (int)len, w);
		return;
	}
	w += bare;
	len -= (size_t)bare;
	fputs(bare ? "" : "[", f);
	for (;;) {
		n = strcspn(w, "| ");
		n = n < len ? n : len;
		usage_one(f, w, n);
		if (n == len || w[n] != '|')
			break;
		fputs(" | ", f);
		w += n + 1;
		len -= n + 1;
	}
	fputs(bare ? "" : "]", f);
}

void
cli_usage(FILE *f)
{
	const char *const *syn;
	const char *w;
	size_t n;

	for (syn = cli_synopses; *syn != NULL; syn++) {
		fputs(syn == cli_synopses ? "usage: gput" : "       gput", f);
		for (w = *syn; *w != '\0'; w += n + (w[n] == ' ')) {
			n = strcspn(w, " ");
			if (n == 1 && w[0] == '/')
				fputs("\n           ", f);
			else {
				fputc(' ', f);
				usage_word(f, w, n);
			}
		}
		fputc('\n', f);
	}
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
