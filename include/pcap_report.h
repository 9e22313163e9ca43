/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PCAP_REPORT_H
#define GPUT_PCAP_REPORT_H

#include <stdio.h>

#include "pcap_scan.h"

/* Renderers of a finished scan of the capture named file; link_bps > 0 adds
 * the expected goodput eta * C and the ratio measured / expected. Each
 * writes to f only; the formats are described in gput-pcap(1), OUTPUT. */
void preport_table(FILE *f, const struct pscan *s, const char *file,
                   double link_bps);
void preport_csv(FILE *f, const struct pscan *s, double link_bps);
void preport_json(FILE *f, const struct pscan *s, const char *file,
                  double link_bps);

/* The scan's warnings, one "gput-pcap: warning: ..." line each. */
void preport_warnings(FILE *f, const struct pscan *s);

#endif
