/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_OUTPUT_H
#define GPUT_CLIENT_OUTPUT_H

#include "client_state.h"

/* A run that got its results: the model filled from them (the figures
 * too), then what the user asked to see (the table, CSV, JSON, JSON lines
 * or Prometheus; several partners' processes hand the model over instead).
 * Returns the exit status. */
int client_output(struct run *r);

/* The end of a run with exit status rc: --log's text, the error line on
 * stderr, a failed run's JSON or Prometheus text. Returns the exit status
 * (1 when --log's text could not be written). */
int client_output_end(struct run *r, int rc);

#endif
