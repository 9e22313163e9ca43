/* xfer.c: what the TCP and UDP data paths share. */
#include "xfer.h"

#include <errno.h>
#include <string.h>
#include <time.h>

volatile int xfer_stop;

void
xfer_sleep_until(mono_ns t)
{
	struct timespec ts = { (time_t)(t / 1000000000u), (long)(t % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR &&
	    !xfer_stop)
		;
}

int
xfer_run(int fd, const struct xfer_params *p, struct gput_result *r, char *err,
         size_t errlen)
{
	memset(r, 0, sizeof *r);
	if (p->proto == PROTO_UDP)
		return p->role == ROLE_SEND ? xfer_udp_send(fd, p, r, err, errlen)
		    : xfer_udp_recv(fd, p, r, err, errlen);
	return p->role == ROLE_SEND ? xfer_tcp_send(fd, p, r, err, errlen)
	    : xfer_tcp_recv(fd, p, r, err, errlen);
}
