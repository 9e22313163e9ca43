/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLI_H
#define GPUT_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_params.h"
#include "config.h"
#include "version.h"

/*
 * Parse the command line, with GPUT_LOC_OPT (loc_env) before the local
 * options and GPUT_REM_OPT (rem_env) before the remote ones; either may be
 * NULL. Returns 0, or -1 with a one-line reason in err (a usage error).
 */
int  cli_parse(int argc, char **argv, const char *loc_env, const char *rem_env,
               struct config *c, char *err, size_t errlen);

/* Free what cli_parse kept for the environment options. */
void cli_free(struct config *c);

void cli_usage(FILE *f);

/* The parser's long options (getopt_long's table, ending in a NULL name),
 * for the help's test. */
struct option;
const struct option *cli_longopts(void);

/* Flush standard output and check that everything written to it arrived
 * (a full disk, a closed pipe). Returns 0, or -1 after one line on standard
 * error naming prog and the reason. Call it last, before exiting. */
int  cli_stdout_done(const char *prog);

#endif
