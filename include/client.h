/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_H
#define GPUT_CLIENT_H

#include "client_hooks.h"
#include "config.h"
#include "client_wait.h"

/* gput partner: run one test and print both sides' lines on stdout.
 * Returns the exit status: 0, or 1 after a one-line error on stderr. */
int run_client(const struct config *c);

/* run_client for one run of a --repeat: the same test, but when the run
 * got as far as results (the exit status may still be 1 or 130) its model
 * is moved into *keep (zeroed before; the caller frees it with
 * model_free()), and only the table (c->out == OUT_TABLE) is printed here:
 * the caller renders the JSON and CSV of the run set. */
struct run_model;
int client_run(const struct config *c, struct run_model *keep);

/* run_client with hooks (client_hooks.h): several partners. */
int run_client_hooked(const struct config *c, const struct client_hooks *h);

#endif
