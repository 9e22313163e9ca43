#ifndef GPUT_LINKPRED_H
#define GPUT_LINKPRED_H

#include <stdio.h>

#include "cli.h"
#include "overhead.h"
#include "report.h"

/* Describe the live data connection fd (address family, path MTU, and for TCP
 * the MSS and whether timestamps are on, from TCP_INFO) for the overhead
 * model. Returns 0, or -1 with err filled. */
int linkpred_from_socket(int fd, const struct xfer_params *p,
                         struct ovh_conf *oc, char *err, size_t errlen);

/* The same from --predict's options. */
void linkpred_from_config(const struct config *c, struct ovh_conf *oc);

/* After a run with --link: the expected goodput for the connection as it
 * was, and each side's measured Real-MBit/s against it. Returns 0 or -1. */
int linkpred_report(FILE *f, const struct ovh_conf *oc, uint64_t msg,
                    double link_bps, const struct report_row *rows, int nrows,
                    char *err, size_t errlen);

/* gput --predict: the breakdown for one message, no transfer. Exit status. */
int run_predict(const struct config *c);

#endif
