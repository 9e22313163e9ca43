#ifndef GPUT_OVHREPORT_H
#define GPUT_OVHREPORT_H

#include <stdint.h>
#include <stdio.h>

#include "overhead.h"
#include "pathlim.h"

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

/*
 * The lines of a path's RTT (pathlim.h), under the breakdown of --predict
 * or the link line of --link, each only when its figures are known:
 *     rtt 40 ms: bandwidth-delay product 47074 bytes (eta*C x RTT)
 *     window 65536 bytes / rtt 40 ms = 13.1072 MBit/s: window-limited, 0.1392 of expected
 *     window 65536 bytes / rtt 40 ms = 13.1072 MBit/s: not window-limited, 1.3923 x expected
 *     Mathis bound MSS 1448, rtt 20 ms, loss 1%: 7.0937 MBit/s: loss-limited, 0.7535 of expected
 *     bound 7.0937 MBit/s (the least of eta*C, window/RTT and the Mathis bound)
 * Without a link (expected_bps 0) the comparisons are left out.
 */
void ovh_print_path(FILE *f, const struct plim *p);

#endif
