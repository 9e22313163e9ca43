#ifndef GPUT_LINKPRED_H
#define GPUT_LINKPRED_H

#include <stdio.h>

#include "cli.h"
#include "overhead.h"
#include "report.h"

/* A data connection as it really was, for --link. */
struct link_conn {
	struct ovh_conf oc;   /* address family, path MTU, MSS, TCP options,
	                         and the framing given by --vlan/--pppoe */
	uint64_t tcp_bytes;   /* TCP: payload bytes this socket sent (or
	                         received) in tcp_segs data segments, from
	                         TCP_INFO; tcp_segs = 0 when the kernel does not
	                         say, and the model's segments are used */
	uint64_t tcp_segs;
};

/* Describe the live data connection fd of the side that ran p, once the
 * transfer is over: address family, path MTU, and for TCP the MSS, the
 * timestamp option and the data segments really sent or received (TCP_INFO).
 * Returns 0, or -1 with err filled. */
int linkpred_from_socket(int fd, const struct xfer_params *p,
                         const struct config *c, struct link_conn *lc,
                         char *err, size_t errlen);

/* What a TCP socket has sent so far (bytes, data segments), from TCP_INFO;
 * 0 when the kernel does not say. The client reads it after the data
 * connection's nonce, which is not part of the measured stream. */
void linkpred_tcp_sent(int fd, uint64_t *bytes, uint64_t *segs);

/* The model's configuration from --predict's options. */
void linkpred_from_config(const struct config *c, struct ovh_conf *oc);

/* After a run with --link: the expected goodput for the connection as it
 * was (msg: the sender's write length), and each side's measured
 * Real-MBit/s against it. Returns 0 or -1 with err filled. */
int linkpred_report(FILE *f, const struct link_conn *lc, uint64_t msg,
                    double link_bps, const struct report_row *rows, int nrows,
                    char *err, size_t errlen);

/* The same model's efficiency and expected MBit/s, for JSON. Returns 0 or
 * -1 with err filled. */
int linkpred_expected(const struct link_conn *lc, uint64_t msg, double link_bps,
                      double *eta, double *mbit, char *err, size_t errlen);

/* gput --predict: the breakdown for one message, no transfer. Exit status. */
int run_predict(const struct config *c);

#endif
