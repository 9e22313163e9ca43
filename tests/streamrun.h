/* SPDX-License-Identifier: BSD-2-Clause */
/* streamrun.h: the tests' way into a data path: one stream on fd, with the
 * process's stop request, as the partner and client set one up. */
#ifndef GPUT_TESTS_STREAMRUN_H
#define GPUT_TESTS_STREAMRUN_H

#include <stdio.h>
#include <string.h>

#include "model.h"
#include "stream.h"
#include "xfer_tcp.h"
#include "xfer_udp.h"

/* Where a UDP receiver run through t_run puts its accounting and records. */
static struct udp_stats *t_stats;
static int t_log_fd = -1;

static inline void
t_set_out(struct udp_stats *st, int log_fd)
{
	t_stats = st;
	t_log_fd = log_fd;
}

/* Run path (a data path, or xfer_send_loop) on fd with p; r and err as
 * the stream left them. Returns the path's status. */
static inline int
t_run(int (*path)(struct stream *), int fd, const struct xfer_params *p,
      struct gput_result *r, char *err, size_t errlen)
{
	struct stream s;
	int rc;

	memset(&s, 0, sizeof s);
	s.id = 1;
	s.fd = fd;
	s.p = *p;
	s.stop = stop_process();
	s.stats = t_stats;
	s.log_fd = t_log_fd;
	rc = path(&s);
	*r = s.r;
	snprintf(err, errlen, "%s", s.err);
	return rc;
}

/* xfer_io_error on a stream of the process's stop request. */
static inline void
t_io_error(int e, const char *what, char *err, size_t errlen)
{
	struct stream s;

	memset(&s, 0, sizeof s);
	s.stop = stop_process();
	xfer_io_error(&s, e, what);
	snprintf(err, errlen, "%s", s.err);
}

#endif
