/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLI_PARAMS_H
#define GPUT_CLI_PARAMS_H

#include <stdint.h>

#include "config.h"
#include "xfer_params.h"

/* What a parsed config means for one test: the drivers' view of it. */

/* The two halves of the test: this side's and the partner's parameters. */
void cli_params(const struct config *c, struct xfer_params *local,
                struct xfer_params *remote);

/* The local side's role in the test with partner p (--bidir reverses the
 * second). */
uint8_t cli_role(const struct config *c, const struct partner *p);

#endif
