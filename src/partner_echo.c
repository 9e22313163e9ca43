/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_echo.c: the partner's latency probe echo, bounded (see partner_echo.h). */
#include "partner_echo.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "net.h"
#include "stop.h"
#include "wire_udp.h"
#include "xfer_path.h"

int
echo_open(struct echo *e, const struct sockaddr_storage *local,
          const struct sockaddr_storage *peer, char *err, size_t errlen)
{
	memset(e, 0, sizeof *e);
	e->wake[0] = e->wake[1] = -1;
	e->peer = *peer;
	e->fd = net_bind_like(local, SOCK_DGRAM, err, errlen);
	if (e->fd == -1)
		return -1;
	e->port = net_local_port(e->fd);
	return 0;
}

/* CLOCK_REALTIME in ns: the clock the probes' stamps are on. */
static uint64_t
real_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int
same_port(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	return net_same_addr(a, b) && net_port(a) == net_port(b);
}

static void
count(struct echo *e, int why)
{
	pthread_mutex_lock(&e->lock);
	e->st.received++;
	e->st.strangers += why == 1;
	e->st.malformed += why == 2;
	pthread_mutex_unlock(&e->lock);
}

/* Before the return path is validated (echo_start's validate): a request
 * of the client's gets the cookie, at most one per PATH_RESEND_MS, no
 * echo; the cookie's echo (GPUK) from the port it went to validates the
 * port. As the data path's (xfer_path.h): a forged request buys one
 * cookie, 44 bytes, smaller than itself, and no echo. */
static void
validate(struct echo *e, const uint8_t *b, size_t n,
         const struct sockaddr_storage *from, socklen_t fl)
{
	struct wire_cookie k;
	struct probe q;
	uint8_t c[COOKIE_BASE_LEN];
	mono_ns now = mono_now();

	if (e->have_cand && same_port(from, &e->cand) &&
	    wire_gpuk_decode(b, n, n, &k) == WIRE_OK &&
	    memcmp(k.cookie, e->cookie, WIRE_COOKIE_LEN) == 0) {
		memcpy(&e->proven, from, fl);
		e->have_proven = 1;             /* the path is valid */
		return;
	}
	if (!net_same_addr(from, &e->peer) || net_port(from) < ECHO_MIN_PORT) {
		count(e, 1);
		return;
	}
	if (probe_decode(b, n, &q) == -1 || q.kind != PROBE_REQ ||
	    memcmp(q.nonce, e->nonce, PROBE_NONCE_LEN) != 0) {
		count(e, 2);
		return;
	}
	/* not among the probes received (ECHOSTATS adds those up): apart */
	atomic_store(&e->last_ns, now);
	e->unvalidated++;
	if (e->have_cand && now - e->last_cookie < (mono_ns)PATH_RESEND_MS * 1000000u)
		return;
	k.stream = 1;
	memcpy(k.cookie, e->cookie, WIRE_COOKIE_LEN);
	wire_gpuc_encode(c, sizeof c, &k);
	memcpy(&e->cand, from, fl);
	e->have_cand = 1;
	e->last_cookie = now;
	if (sendto(e->fd, c, sizeof c, MSG_DONTWAIT | MSG_NOSIGNAL,
	    (const struct sockaddr *)from, fl) == (ssize_t)sizeof c)
		e->cookies++;
}

/* One datagram b[0..n) from from: echo it, or count why not. */
static void
on_datagram(struct echo *e, uint8_t *b, size_t n,
            const struct sockaddr_storage *from, socklen_t fl)
{
	uint64_t t = real_now();
	int ok = 0, why = 0;    /* 1 stranger, 2 malformed, 3 over the rate */

	if (e->validate && !e->have_proven) {
		validate(e, b, n, from, fl);
		return;
	}
	/* the first request fixes the port (partner_echo.h): never a
	 * privileged one, where the client's host keeps its services */
	if (e->have_proven ? !same_port(from, &e->proven) :
	    !net_same_addr(from, &e->peer) || net_port(from) < ECHO_MIN_PORT)
		why = 1;
	else if (probe_make_echo(b, n, e->nonce, t) == -1)
		why = 2;
	else if (!probe_bucket_take(&e->bucket, mono_now()))
		why = 3;
	if (why == 0 || why == 3)               /* the client's probe arrived */
		atomic_store(&e->last_ns, mono_now());
	if (why == 0 && !e->have_proven) {      /* the first proof: its sender */
		memcpy(&e->proven, from, fl);
		e->have_proven = 1;
	}
	/* PROBE_LEN bytes, as many as arrived, to the proven sender only */
	if (why == 0 && sendto(e->fd, b, n, MSG_DONTWAIT | MSG_NOSIGNAL,
	    (const struct sockaddr *)&e->proven, fl) == (ssize_t)n)
		ok = 1;
	pthread_mutex_lock(&e->lock);
	e->st.received++;
	e->st.echoed += ok;
	e->st.strangers += why == 1;
	e->st.malformed += why == 2;
	e->st.over_rate += why == 3;
	e->st.failed += why == 0 && !ok;
	pthread_mutex_unlock(&e->lock);
}

/* While the place is held: ms until the gap would be too long (0: it is,
 * and the session is stopped); -1 otherwise (no deadline). */
static int
hold_wait_ms(struct echo *e)
{
	uint64_t now, due;

	if (!atomic_load(&e->holding))
		return -1;
	now = mono_now();
	due = atomic_load(&e->last_ns) + e->quiet_ns;
	if (now < due)
		return (int)((due - now + 999999u) / 1000000u);
	atomic_store(&e->holding, 0);
	atomic_store(&e->hold_expired, 1);
	stop_request(e->hold_stop);
	return -1;
}

static void *
echo_main(void *arg)
{
	struct echo *e = arg;
	struct pollfd pf[2] = { { .fd = e->fd, .events = POLLIN },
	                        { .fd = e->wake[0], .events = POLLIN } };

	for (;;) {
		uint8_t b[PROBE_LEN + 1];
		struct sockaddr_storage from;
		socklen_t fl = sizeof from;
		ssize_t n;
		int r;

		/* no deadline of its own but the hold's: the session ends it
		 * (echo_stop) */
		r = poll(pf, 2, hold_wait_ms(e));
		if (r == -1 && errno != EINTR)
			break;
		if (r == 0)
			continue;               /* the hold's deadline: checked above */
		if (pf[1].revents)
			break;                  /* the session ended */
		/* MSG_TRUNC: the length that arrived, even past the buffer */
		while ((n = recvfrom(e->fd, b, sizeof b, MSG_DONTWAIT | MSG_TRUNC,
		    (struct sockaddr *)&from, &fl)) >= 0) {
			on_datagram(e, b, (size_t)n, &from, fl);
			fl = sizeof from;
		}
	}
	return NULL;
}

void
echo_hold(struct echo *e, struct stopreq *stop, uint64_t quiet_ns)
{
	e->hold_stop = stop;
	e->quiet_ns = quiet_ns;
	atomic_store(&e->holding, stop != NULL);
}

void
echo_unhold(struct echo *e)
{
	atomic_store(&e->holding, 0);
}

int
echo_hold_expired(struct echo *e)
{
	return atomic_load(&e->hold_expired);
}

int
echo_start(struct echo *e, const uint8_t *nonce, uint32_t interval_us,
           int validate_path, char *err, size_t errlen)
{
	memcpy(e->nonce, nonce, PROBE_NONCE_LEN);
	e->validate = validate_path;
	if (validate_path && auth_random(e->cookie, sizeof e->cookie, err,
	    errlen) == -1)
		return -1;
	atomic_store(&e->last_ns, mono_now());
	probe_bucket_init(&e->bucket, (uint64_t)interval_us * 1000u, mono_now());
	if (pipe2(e->wake, O_CLOEXEC | O_NONBLOCK) == -1) {
		snprintf(err, errlen, "echo: pipe: %s", strerror(errno));
		e->wake[0] = e->wake[1] = -1;
		return -1;
	}
	pthread_mutex_init(&e->lock, NULL);
	if ((errno = pthread_create(&e->th, NULL, echo_main, e)) != 0) {
		snprintf(err, errlen, "echo: thread: %s", strerror(errno));
		pthread_mutex_destroy(&e->lock);
		return -1;
	}
	e->running = 1;
	return 0;
}

void
echo_snapshot(struct echo *e, struct echo_stats *out)
{
	if (!e->running) {
		*out = e->st;
		return;
	}
	pthread_mutex_lock(&e->lock);
	*out = e->st;
	pthread_mutex_unlock(&e->lock);
}

void
echo_stop(struct echo *e)
{
	if (e->running) {
		(void)!write(e->wake[1], "x", 1);
		pthread_join(e->th, NULL);
		pthread_mutex_destroy(&e->lock);
		e->running = 0;
	}
	if (e->wake[0] != -1) {
		close(e->wake[0]);
		close(e->wake[1]);
		e->wake[0] = e->wake[1] = -1;
	}
	if (e->fd != -1) {
		close(e->fd);
		e->fd = -1;
	}
}
