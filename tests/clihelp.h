/* SPDX-License-Identifier: BSD-2-Clause */
/* clihelp.h: a command line of words split on spaces, parsed as gput
 * would (include after cli.h). The words live in a static buffer, since
 * cli_parse keeps pointers into them (the host, -f, --cc ...). */
#ifndef GPUT_TESTS_CLIHELP_H
#define GPUT_TESTS_CLIHELP_H

#include <stdio.h>
#include <string.h>

static struct {
	char  buf[1024];
	char *v[64];
	int   c;
} cli_words;

/* cli_parse of "gput LINE" into a zeroed c. */
static inline int
cli_parse_line(const char *line, struct config *c, char *err, size_t errlen)
{
	char *tok, *save = NULL;

	snprintf(cli_words.buf, sizeof cli_words.buf, "gput %s", line);
	cli_words.c = 0;
	for (tok = strtok_r(cli_words.buf, " ", &save); tok != NULL &&
	    cli_words.c < 63; tok = strtok_r(NULL, " ", &save))
		cli_words.v[cli_words.c++] = tok;
	cli_words.v[cli_words.c] = NULL;
	memset(c, 0, sizeof *c);
	return cli_parse(cli_words.c, cli_words.v, NULL, NULL, c, err, errlen);
}

#endif
