/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_TRANSFER_H
#define GPUT_CLIENT_TRANSFER_H

#include "client_state.h"

/* Run the local streams under a watcher, then collect the partner's
 * results. Returns 0, or -1 with r->err filled (r->interrupted: print what
 * there is). */
int client_transfer(struct run *r);

/* Do the partner's results fit the test and what arrived or was sent
 * here, stream by stream, and do its side's totals add up? 0, or -1 with
 * r->e.text saying what does not. */
int client_partner_check(struct run *r);

#endif
