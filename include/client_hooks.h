/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_HOOKS_H
#define GPUT_CLIENT_HOOKS_H

#include <stdio.h>

struct run_model;

/* Several partners (client_multi.c): a partner's process runs its test
 * with these. on_model gets the run's model (a failed run's too, with its
 * error set; its start_mono_ns is START on this host's monotonic clock),
 * and --csv, --json and --json-lines print nothing here: the parent
 * renders the model (the table is printed as ever). The live interval
 * lines go to ival_out. */
struct client_hooks {
	void  (*on_model)(const struct run_model *m, void *arg);
	void   *arg;
	FILE   *ival_out;
};

#endif
