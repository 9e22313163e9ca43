/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLI_CHECK_H
#define GPUT_CLI_CHECK_H

#include <stddef.h>

#include "config.h"

/*
 * The checks of options together, once every pass has parsed (seen: the
 * options given, by code, cli_opts.h): what the mode takes, the options
 * that exclude or need each other, each partner's two sides. Sets what
 * follows from the rest (--pppoe's MTU for --predict, --repeat's default
 * width). Returns 0, or -1 with a one-line reason in err (a usage error).
 */
int cli_check(struct config *c, const unsigned char *seen, char *err,
              size_t errlen);

#endif
