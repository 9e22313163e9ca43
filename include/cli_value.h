/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLI_VALUE_H
#define GPUT_CLI_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "cli_opts.h"

/* Each option's value, checked, into the config of a parse pass (ps->c) or
 * its side (ps->s). Each returns 0, or -1 with ps->err filled. */

/* -p: a control port, before the partners (theirs by default) or after one
 * (its own). */
int cli_value_port(struct cli_state *ps, const char *arg, uint16_t *port);

/* -P: parallel streams, before the partners (everyone's) or after one
 * (its own). */
int cli_value_streams(struct cli_state *ps, const char *arg,
                      uint16_t *streams);

/* The options of one side that are more than a flag or a number (-n, -w,
 * -f, -S, --affinity) into ps->s. */
int cli_value_side(struct cli_state *ps, int o, const char *arg);

/* The options of the whole run that are more than a flag or a number
 * (-p, -P, --time, --rate, -m, ...) into ps->c; -p and -P after a
 * partner's name into its ps->rport, ps->rstreams. The partner's own ones
 * are cli_partner.h's; the trivial ones the option table
 * (cli_table.c) keeps. */
int cli_value_global(struct cli_state *ps, int o, const char *arg);

/* --cc, --allow-cc: one name, or a comma list the streams take in turn;
 * every name one this host offers. Returns 0, or -1 with why filled. */
int cli_value_cc(const char *list, char *why, size_t len);

#endif
