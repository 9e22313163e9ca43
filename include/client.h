#ifndef GPUT_CLIENT_H
#define GPUT_CLIENT_H

#include "cli.h"

/* Seconds the client waits for the partner's results after its own side is
 * done: the partner may still be draining what the network holds. */
#define CLIENT_RESULT_TIMEOUT_MS 60000
#define CLIENT_CTL_TIMEOUT_MS    10000

/* gput partner: run one test and print both sides' lines on stdout.
 * Returns the exit status: 0, or 1 after a one-line error on stderr. */
int run_client(const struct config *c);

#endif
