/* SPDX-License-Identifier: BSD-2-Clause */
/* client_prober.c: the client's latency probes, in a thread of their own. */
#include "client_prober.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "net.h"
#include "wire_udp.h"

#define DRAIN_MIN_NS  200000000ull
#define DRAIN_MAX_NS 3000000000ull

int
prober_open(struct prober *p, const struct sockaddr_storage *local,
            const struct sockaddr_storage *peer, uint16_t port, char *err,
            size_t errlen)
{
	struct sockaddr_storage to = *peer;

	memset(p, 0, sizeof *p);
	p->wake[0] = p->wake[1] = -1;
	p->fd = net_bind_like(local, SOCK_DGRAM, err, errlen);
	if (p->fd == -1)
		return -1;
	net_set_port(&to, port);
	/* only the partner's echo port may reach this socket */
	if (connect(p->fd, (struct sockaddr *)&to, sizeof to) == -1) {
		snprintf(err, errlen, "connect UDP: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* An echo b[0..n) that arrived at now: into its probe's slot. */
static void
on_echo(struct prober *p, const uint8_t *b, size_t n, mono_ns now)
{
	struct probe e;
	struct probe_slot *s;
	uint64_t k;

	if (probe_decode(b, n, &e) == -1 || e.kind != PROBE_ECHO ||
	    memcmp(e.nonce, p->nonce, PROBE_NONCE_LEN) != 0 || e.seq >= p->nsent ||
	    e.t_send_ns != (uint64_t)((int64_t)p->slot[e.seq].sent + p->off0)) {
		p->bad_echo++;
		return;
	}
	s = &p->slot[e.seq];
	if (s->rcvd != 0) {
		p->dup_echo++;
		return;
	}
	s->rcvd = now;
	s->echo_real = e.t_echo_ns;
	if (now - s->sent > p->max_rtt)
		p->max_rtt = now - s->sent;
	k = atomic_load_explicit(&p->narr, memory_order_relaxed);
	p->arr[k] = (uint32_t)e.seq;
	atomic_store_explicit(&p->narr, k + 1, memory_order_release);
}

/* b[0..n) is the echo's cookie (GPUC): send its echo (GPUK) back, from
 * this socket, which validates the return path (partner_echo.h). */
static int
answer_cookie(struct prober *p, const uint8_t *b, size_t n)
{
	struct wire_cookie k;
	uint8_t out[CECHO_BASE_LEN];

	if (wire_gpuc_decode(b, n, n, &k) != WIRE_OK)
		return 0;
	wire_gpuk_encode(out, sizeof out, &k);
	(void)send(p->fd, out, sizeof out, MSG_NOSIGNAL | MSG_DONTWAIT);
	return 1;
}

static void
receive_all(struct prober *p)
{
	uint8_t b[PROBE_LEN + 1];
	ssize_t n;

	while ((n = recv(p->fd, b, sizeof b, MSG_DONTWAIT | MSG_TRUNC)) >= 0)
		if (!answer_cookie(p, b, (size_t)n))
			on_echo(p, b, (size_t)n, mono_now());
}

/* Before the first probe: a request of no probe's number (seq 2^64-1)
 * every PROBER_HELLO_MS until the partner's echo answers it with its
 * cookie (echoed: the return path is valid, and the probes that follow are
 * echoed from the first) or with an echo (a partner that does not
 * validate), at most PROBER_HELLO_WAIT_MS (then the probes go anyway:
 * the cookie they get is answered). */
#define PROBER_HELLO_MS      200u
#define PROBER_HELLO_WAIT_MS 1000u
static void
validate_path(struct prober *p)
{
	struct probe q = { .kind = PROBE_REQ, .seq = UINT64_MAX };
	uint8_t b[PROBE_LEN], in[PROBE_LEN + 1];
	mono_ns now = mono_now(), end = now + PROBER_HELLO_WAIT_MS * 1000000ull,
	    next = now;

	memcpy(q.nonce, p->nonce, PROBE_NONCE_LEN);
	probe_encode(&q, b);
	while ((now = mono_now()) < end) {
		struct pollfd pf = { .fd = p->fd, .events = POLLIN };
		mono_ns until = next < end ? next : end;
		ssize_t n;

		if (now >= next) {
			(void)send(p->fd, b, sizeof b, MSG_NOSIGNAL | MSG_DONTWAIT);
			next = now + PROBER_HELLO_MS * 1000000ull;
			continue;
		}
		if (poll(&pf, 1, (int)((until - now + 999999u) / 1000000u)) <= 0)
			continue;
		n = recv(p->fd, in, sizeof in, MSG_DONTWAIT | MSG_TRUNC);
		if (n >= 0) {
			(void)answer_cookie(p, in, (size_t)n);
			return;                 /* the cookie answered, or an echo */
		}
	}
}

/* Send probe number p->nsent now. */
static void
send_probe(struct prober *p)
{
	struct probe q = { .kind = PROBE_REQ, .seq = p->nsent };
	uint8_t b[PROBE_LEN];
	mono_ns now;

	if (p->nsent >= p->cap) {
		p->unsent++;
		return;
	}
	memcpy(q.nonce, p->nonce, PROBE_NONCE_LEN);
	now = mono_now();
	q.t_send_ns = (uint64_t)((int64_t)now + p->off0);
	probe_encode(&q, b);
	if (send(p->fd, b, sizeof b, MSG_NOSIGNAL) != (ssize_t)sizeof b) {
		p->unsent++;            /* ECONNREFUSED, ENOBUFS: not sent */
		return;
	}
	p->slot[p->nsent++].sent = now;
}

/* The phase the caller asked for, entered; *base, *k: the schedule. */
static int
enter(struct prober *p, int phase, int want, mono_ns *base, uint64_t *k,
      mono_ns *drain_until)
{
	uint64_t d = 2 * p->max_rtt;

	if (phase == PR_IDLE) {
		p->idle_end = p->nsent;
		p->unsent_idle = p->unsent;
	}
	if (want == PR_LOAD) {
		*base = p->t_load;
		*k = 0;
		p->load_from = p->nsent;
	}
	if (want == PR_DRAIN || want == PR_DONE) {
		if (phase == PR_LOAD)
			p->load_end = p->nsent;
		else if (phase == PR_IDLE || phase == PR_PAUSE)
			p->load_from = p->load_end = p->nsent;
		*drain_until = mono_now() + (d < DRAIN_MIN_NS ? DRAIN_MIN_NS :
		    d > DRAIN_MAX_NS ? DRAIN_MAX_NS : d);
	}
	return want;
}

static void *
prober_main(void *arg)
{
	struct prober *p = arg;
	mono_ns base = p->t_start, drain_until = 0, idle_until = p->t_start +
	    p->idle_ns;
	uint64_t k = 0;
	int phase = PR_IDLE;

	for (;;) {
		struct pollfd pf[2] = { { .fd = p->fd, .events = POLLIN },
		                        { .fd = p->wake[0], .events = POLLIN } };
		int want = atomic_load(&p->state);
		mono_ns now = mono_now(), until = 0, due;
		struct timespec ts, *tp = NULL;
		char c;

		if (want != phase && !(phase == PR_PAUSE && want == PR_IDLE))
			phase = enter(p, phase, want, &base, &k, &drain_until);
		if (phase == PR_DONE || (phase == PR_DRAIN && (now >= drain_until ||
		    atomic_load(&p->narr) == p->nsent)))
			break;                  /* every echo in, or time is up */
		due = base + k * p->interval_ns;
		if (phase == PR_IDLE && due >= idle_until) {
			p->idle_end = p->nsent; /* the idle phase is over */
			p->unsent_idle = p->unsent;
			phase = PR_PAUSE;
		}
		if ((phase == PR_IDLE || phase == PR_LOAD) && due <= now) {
			send_probe(p);
			k++;
			/* late by more than an interval: skip, never burst (the
			 * idle phase's skipped are those due before its end) */
			while (base + k * p->interval_ns <= now &&
			    !(phase == PR_IDLE && base + k * p->interval_ns >=
			    idle_until)) {
				k++;
				p->unsent++;
			}
			continue;
		}
		if (phase == PR_IDLE || phase == PR_LOAD)
			until = due;
		else if (phase == PR_DRAIN)
			until = drain_until;
		if (until) {
			ts.tv_sec = (time_t)((until - now) / 1000000000u);
			ts.tv_nsec = (long)((until - now) % 1000000000u);
			tp = &ts;
		}
		if (ppoll(pf, 2, tp, NULL) == -1 && errno != EINTR) {
			snprintf(p->err, sizeof p->err, "probes: poll: %s",
			         strerror(errno));
			break;
		}
		if (pf[0].revents)
			receive_all(p);
		if (pf[1].revents)
			while (read(p->wake[0], &c, 1) == 1)
				;
	}
	return NULL;
}

int
prober_start(struct prober *p, const uint8_t *nonce, uint32_t interval_us,
             uint32_t idle_ms, uint64_t cap, char *err, size_t errlen)
{
	memcpy(p->nonce, nonce, PROBE_NONCE_LEN);
	p->interval_ns = (uint64_t)interval_us * 1000u;
	p->idle_ns = (uint64_t)idle_ms * 1000000u;
	p->cap = cap;
	p->slot = calloc(cap ? cap : 1, sizeof *p->slot);
	p->arr = calloc(cap ? cap : 1, sizeof *p->arr);
	p->scratch = calloc(cap ? cap : 1, sizeof *p->scratch);
	if (p->slot == NULL || p->arr == NULL || p->scratch == NULL) {
		snprintf(err, errlen, "no memory for %llu latency probes",
		         (unsigned long long)cap);
		return -1;
	}
	if (pipe2(p->wake, O_CLOEXEC | O_NONBLOCK) == -1) {
		snprintf(err, errlen, "probes: pipe: %s", strerror(errno));
		p->wake[0] = p->wake[1] = -1;
		return -1;
	}
	validate_path(p);
	p->off0 = meter_real_offset();
	p->t_start = mono_now();
	atomic_store(&p->state, PR_IDLE);
	if ((errno = pthread_create(&p->th, NULL, prober_main, p)) != 0) {
		snprintf(err, errlen, "probes: thread: %s", strerror(errno));
		return -1;
	}
	p->running = 1;
	return 0;
}

mono_ns
prober_idle_until(const struct prober *p)
{
	return p->t_start + p->idle_ns;
}

static void
set_state(struct prober *p, int s)
{
	atomic_store(&p->state, s);
	if (p->wake[1] != -1)
		(void)!write(p->wake[1], "x", 1);
}

void
prober_load(struct prober *p, mono_ns t0)
{
	if (!p->running)
		return;
	p->t_load = t0;         /* before the state: the thread reads it after */
	set_state(p, PR_LOAD);
}

void
prober_unload(struct prober *p)
{
	if (!p->running || p->t_unload != 0)
		return;
	p->t_unload = mono_now();
	set_state(p, PR_DRAIN);
}

void
prober_finish(struct prober *p)
{
	if (!p->running)
		return;
	prober_unload(p);
	pthread_join(p->th, NULL);
	p->running = 0;
}

void
prober_free(struct prober *p)
{
	if (p->running) {
		set_state(p, PR_DONE);
		pthread_join(p->th, NULL);
		p->running = 0;
	}
	if (p->wake[0] != -1) {
		close(p->wake[0]);
		close(p->wake[1]);
		p->wake[0] = p->wake[1] = -1;
	}
	if (p->fd > 0)
		close(p->fd);
	p->fd = -1;
	free(p->slot);
	free(p->arr);
	free(p->scratch);
	p->slot = NULL;
	p->arr = NULL;
	p->scratch = NULL;
}

uint64_t
prober_ival_p50(struct prober *p, mono_ns from, mono_ns to, uint64_t *n)
{
	uint64_t end = atomic_load_explicit(&p->narr, memory_order_acquire), i;

	*n = 0;
	if (p->slot == NULL)
		return 0;
	for (i = p->arr_cursor; i < end; i++) {
		const struct probe_slot *s = &p->slot[p->arr[i]];

		if (s->rcvd >= to)
			break;
		if (s->rcvd >= from)
			p->scratch[(*n)++] = s->rcvd - s->sent;
	}
	p->arr_cursor = i;
	latstat_sort(p->scratch, *n);
	return latstat_pctl(p->scratch, *n, 50);
}

uint64_t
prober_answered_before(const struct prober *p, mono_ns t)
{
	uint64_t end, i;

	if (p->slot == NULL)
		return 0;
	end = atomic_load_explicit(&p->narr, memory_order_acquire);
	for (i = 0; i < end && p->slot[p->arr[i]].rcvd < t; i++)
		;                       /* arrivals in order of arrival */
	return i;
}

/* Monotonic t on the real-time clock, as the probes carry it (unsigned:
 * a stamp is any 64 bits the partner sent). */
static uint64_t
real_at(const struct prober *p, mono_ns t)
{
	return t + (uint64_t)p->off0;
}

int
prober_stamps_check(const struct prober *p, char *err, size_t errlen)
{
	uint64_t i, bad = 0, first = 0;

	for (i = 0; p->slot != NULL && i < p->nsent; i++) {
		const struct probe_slot *s = &p->slot[i];

		if (s->rcvd == 0 || (s->echo_real >= real_at(p, s->sent) &&
		    s->echo_real <= real_at(p, s->rcvd)))
			continue;
		if (bad++ == 0)
			first = i;
	}
	if (bad == 0)
		return 0;
	snprintf(err, errlen, "the partner's echo stamp %llu of probe %llu is "
	         "outside its round trip here [%llu, %llu] on one clock "
	         "(--same-clock; %llu of %llu echoed probes)",
	         (unsigned long long)p->slot[first].echo_real,
	         (unsigned long long)first,
	         (unsigned long long)real_at(p, p->slot[first].sent),
	         (unsigned long long)real_at(p, p->slot[first].rcvd),
	         (unsigned long long)bad, (unsigned long long)
	         atomic_load_explicit(&p->narr, memory_order_acquire));
	return -1;
}

/* One phase: probes [from, to). */
static int
phase(const struct prober *p, uint64_t from, uint64_t to, int same_clock,
      struct lat_phase *ph)
{
	size_t n = 0, cap = to > from ? to - from : 0;
	uint64_t *rtt = calloc(cap ? cap : 1, sizeof *rtt), i;
	int64_t *up = calloc(cap ? cap : 1, sizeof *up);
	int64_t *down = calloc(cap ? cap : 1, sizeof *down);
	int rc = -1;

	if (rtt != NULL && up != NULL && down != NULL) {
		for (i = from; i < to; i++) {
			const struct probe_slot *s = &p->slot[i];

			if (s->rcvd == 0)
				continue;
			rtt[n] = s->rcvd - s->sent;
			if (same_clock) {       /* in [0, rtt] once checked */
				up[n] = (int64_t)(s->echo_real - real_at(p, s->sent));
				down[n] = (int64_t)(real_at(p, s->rcvd) - s->echo_real);
			}
			n++;
		}
		latstat_phase(ph, cap, rtt, same_clock ? up : NULL,
		    same_clock ? down : NULL, n);
		rc = 0;
	}
	free(rtt);
	free(up);
	free(down);
	return rc;
}

int
prober_phases(const struct prober *p, int same_clock, struct lat_phase *idle,
              struct lat_phase *loaded)
{
	if (p->slot == NULL)
		return -1;
	if (phase(p, 0, p->idle_end, same_clock, idle) == -1 ||
	    phase(p, p->load_from, p->load_end, same_clock, loaded) == -1)
		return -1;
	idle->unsent = p->unsent_idle;
	loaded->unsent = p->unsent - p->unsent_idle;
	return 0;
}
