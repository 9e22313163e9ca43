/* SPDX-License-Identifier: BSD-2-Clause */
/* stream.c: a stream's data path from a table, and streams in threads. */
#include "stream.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "xfer_batch.h"
#include "xfer_tcp.h"
#include "xfer_udp.h"

/* The data paths, by protocol, role and kind: plain (one datagram or one
 * buffer per call), or batched (UDP --batch, --gso: many datagrams per
 * call). TCP has no batched kind: cli_check.c and wire_ctl.c refuse it. */
enum { PATH_PLAIN = 0, PATH_BATCH = 1 };
static int (*const data_path[2][2][2])(struct stream *) = {
	[PROTO_TCP] = {
		[ROLE_SEND] = { xfer_tcp_send, xfer_tcp_send },
		[ROLE_RECV] = { xfer_tcp_recv, xfer_tcp_recv },
	},
	[PROTO_UDP] = {
		[ROLE_SEND] = { xfer_udp_send, xfer_udp_send_batch },
		[ROLE_RECV] = { xfer_udp_recv, xfer_udp_recv_batch },
	},
};

/* The kind of p's data path. */
static int
path_kind(const struct xfer_params *p)
{
	return p->proto == PROTO_UDP && (p->batch > 1 || p->gso) ? PATH_BATCH :
	    PATH_PLAIN;
}

/* Small stacks: a data path keeps its buffers on the heap. */
#define STREAM_STACK (256u << 10)

struct stream *
stream_alloc(uint32_t n)
{
	struct stream *st;
	uint32_t i;

	if (n == 0 || n > STREAM_MAX)
		return NULL;
	st = aligned_alloc(_Alignof(struct stream), n * sizeof *st);
	if (st == NULL)
		return NULL;
	memset(st, 0, n * sizeof *st);
	for (i = 0; i < n; i++)
		st[i].fd = st[i].log_fd = -1;
	return st;
}

void
stream_run(struct stream *s)
{
	memset(&s->r, 0, sizeof s->r);
	s->err[0] = '\0';
	s->peer_ended = 0;
	s->start = 0;
	s->rc = data_path[s->p.proto & 1][s->p.role & 1][path_kind(&s->p)](s);
	s->end = mono_now();
	atomic_store_explicit(&s->done, 1, memory_order_release);
}

/* One of several: a stream that fails on its own (no stop was requested)
 * ends the run, and the first to fail names why. */
static void *
stream_thread(void *arg)
{
	struct stream *s = arg;
	int cpu = s->p.cpus ? affinity_cpu(s->p.cpus, s->id - 1) : -1;

	if (cpu >= 0 && affinity_pin(cpu, s->err, sizeof s->err) == -1) {
		s->rc = -1;
		s->end = mono_now();
		atomic_store_explicit(&s->done, 1, memory_order_release);
	} else {
		stream_run(s);
	}
	if (s->rc == -1 && !stop_requested(s->stop)) {
		unsigned none = 0;

		atomic_compare_exchange_strong(&s->stop->failed, &none, s->id);
		stop_request(s->stop);
	}
	return NULL;
}

/* A single stream in the calling thread, on its --affinity CPU for the
 * run's length (the thread's own CPUs come back after it). */
static int
run_one(struct stream *s, char *err, size_t errlen)
{
	int cpu = s->p.cpus ? affinity_cpu(s->p.cpus, 0) : -1;
	cpu_set_t old;

	if (cpu >= 0 && pthread_getaffinity_np(pthread_self(), sizeof old,
	    &old) != 0) {
		snprintf(err, errlen, "--affinity: cannot read this thread's CPUs");
		stop_request(s->stop);
		return -1;
	}
	if (cpu >= 0 && affinity_pin(cpu, err, errlen) == -1) {
		stop_request(s->stop);
		return -1;
	}
	stream_run(s);
	if (cpu >= 0)
		(void)pthread_setaffinity_np(pthread_self(), sizeof old, &old);
	return 0;
}

int
stream_run_all(struct stream *st, uint32_t n, char *err, size_t errlen)
{
	pthread_attr_t at;
	sigset_t all, old;
	pthread_t th[STREAM_MAX];
	uint32_t i, started = 0;
	int e = 0;

	for (i = 0; i < n; i++)
		atomic_store(&st[i].done, 0);
	if (n == 1)
		return run_one(st, err, errlen);
	if (n > STREAM_MAX) {
		snprintf(err, errlen, "%u streams: at most %u", n, STREAM_MAX);
		return -1;
	}
	/* signals stay with the calling thread: ^C reaches it, and it stops
	 * the streams through their stop request */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, STREAM_STACK);
	for (i = 0; i < n; i++) {
		if ((e = pthread_create(&th[i], &at, stream_thread, &st[i])) != 0)
			break;
		started++;
	}
	pthread_attr_destroy(&at);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (started < n) {
		snprintf(err, errlen, "cannot start stream %u of %u: %s", started + 1, n,
		         strerror(e));
		stop_request(st[0].stop);
	}
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	return started < n ? -1 : 0;
}

const struct stream *
stream_failed(const struct stream *st, uint32_t n)
{
	unsigned id = atomic_load(&st[0].stop->failed);

	return id >= 1 && id <= n ? &st[id - 1] : NULL;
}

void
stream_failure(const struct stream *st, uint32_t n, char *buf, size_t len)
{
	const struct stream *f = stream_failed(st, n);

	if (f == NULL)
		f = &st[0];
	if (n > 1)
		snprintf(buf, len, "stream %u: %s", f->id, f->err);
	else
		snprintf(buf, len, "%s", f->err);
}

void
stream_sum(const struct stream *st, uint32_t n, mono_ns t0, uint64_t cpu_ns,
           struct side *sd)
{
	uint32_t i;

	for (i = 0; i < n && i < sd->nst; i++) {
		struct side *ss = &sd->st[i];

		ss->have_result = 1;
		ss->r = st[i].r;
		ss->end_ns = st[i].end > t0 ? st[i].end - t0 : 0;
		ss->start_ns = st[i].start > t0 ? st[i].start - t0 :
		    st[i].start ? 0 : ss->end_ns;
	}
	model_sum(sd);
	sd->r.cpu_ns = cpu_ns;
	sd->have_result = 1;
	if (n == 1 && sd->nst == 1)
		sd->r = sd->st[0].r;
}
