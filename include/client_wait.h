/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_WAIT_H
#define GPUT_CLIENT_WAIT_H

#include "ctl.h"
#include "net.h"

/* How long the client waits for its partner (ms): for the partner's
 * results after its own side is done (the partner may still be draining
 * what the network holds), and for a control message. */
#define CLIENT_RESULT_TIMEOUT_MS 60000
#define CLIENT_CTL_TIMEOUT_MS    10000
/* --peer-timeout (config c's): the dead-peer deadline, s, which each of
 * those waits, and the data connections' idle timeouts, grow with beyond
 * the default NET_PEER_TIMEOUT_S (net.h): a lossy path may hold a control
 * message or a SYN that long in TCP's backed-off retransmissions. */
#define CLIENT_PEER_S(c) ((c)->peer_timeout_s > NET_PEER_TIMEOUT_S ? \
	(int)(c)->peer_timeout_s : NET_PEER_TIMEOUT_S)
#define CLIENT_MORE_MS(c) NET_PEER_EXTRA_MS((c)->peer_timeout_s)
#define CLIENT_CTL_MS(c)    (CLIENT_CTL_TIMEOUT_MS + CLIENT_MORE_MS(c))
#define CLIENT_RESULT_MS(c) (CLIENT_RESULT_TIMEOUT_MS + CLIENT_MORE_MS(c))
#define CLIENT_IDLE_MS(c)   (DATA_IDLE_TIMEOUT_MS + CLIENT_MORE_MS(c))

#endif
