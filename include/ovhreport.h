#ifndef GPUT_OVHREPORT_H
#define GPUT_OVHREPORT_H

#include <stdint.h>
#include <stdio.h>

#include "overhead.h"

/*
 * Print the per-layer breakdown of one message (as computed by ovh_message()
 * for c and msg_bytes) and eta; with link_bps > 0 also the expected goodput
 * eta*C. Output goes to f. The last lines are machine-readable:
 *     eta 0.9415
 *     expected 9.4148 MBit/s        (only with link_bps > 0)
 * Used by `gput --predict`.
 */
void ovh_print_breakdown(FILE *f, const struct ovh_conf *c, uint64_t msg_bytes,
                         const struct ovh_msg *m, double link_bps);

#endif
