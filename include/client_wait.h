/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_WAIT_H
#define GPUT_CLIENT_WAIT_H

/* How long the client waits for its partner (ms): for the partner's
 * results after its own side is done (the partner may still be draining
 * what the network holds), and for a control message. */
#define CLIENT_RESULT_TIMEOUT_MS 60000
#define CLIENT_CTL_TIMEOUT_MS    10000

#endif
