/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gput-delay-ring.c: gput-delay's packet-ring path. Frames arrive in a
 * TPACKET_V2 receive ring on IN and wait there (no copy) until they are
 * due; then one copy puts each into a TPACKET_V2 transmit ring on OUT, and
 * one send() per batch hands the batch to the kernel (PACKET_QDISC_BYPASS,
 * as the copy path). No system call per frame while frames flow.
 *
 * Why TPACKET_V2 and not V3 for receiving: V3 hands frames over a block at
 * a time, when the block is full or its retire timer (whole milliseconds,
 * at least 1 ms) fires; at the rate of a TCP flow's ACKs a 4 KiB block
 * fills in about a millisecond, far beyond a 100 us error budget for a
 * 0.5 ms delay. V2 hands over every frame as it lands.
 *
 * Why the transmit ring carries a virtio-net header: without one the
 * kernel sends a ring frame's bytes by reference (page fragments of the
 * ring), and the ring frame is handed back when the packet's owner lets go
 * of it (a TCP receiver does so when it queues the data, before the
 * application reads it): rewriting the frame then could change data a
 * receiver still holds. The header's hdr_len set to the whole frame makes
 * the kernel copy the frame into the packet, as sendmsg does: the ring
 * frame is free once send() has taken it. A header with no flags asks for
 * nothing else (no checksum, no GSO).
 *
 * An idle line sleeps in epoll until a frame arrives (edge-triggered: the
 * socket's readiness stays on while the line holds frames in the ring, but
 * every new frame wakes it once). A line holding frames sleeps on a timer
 * alone, to its next departure: a frame arriving meanwhile leaves after
 * that one (unless -R with jitter lets it overtake: then arrivals wake it
 * too), so it waits in the ring and costs no wake-up of its own.
 *
 * A timer wakes a process late, by how long depends on the host (on the
 * 2-core virtual machine this was measured on: median 56 us, 6% of them
 * past 100 us). So the line wakes early by a margin and spins the rest:
 * the 99th percentile of its recent wake-ups' lateness less half the
 * error budget, at most -S ns, learnt as it runs. Spinning is bounded: at
 * most 1/DL_SPIN_SHARE of each DL_SPIN_WINDOW; past that the window's
 * wake-ups are the timer's alone, and so are a whole window's after one
 * where the margin times the sleeps exceeded that share (spin_margin).
 */
#include <endian.h>
#include <errno.h>
#include <linux/virtio_net.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "gput-delay.h"

#define RING_BLOCK (64u << 10)      /* ring block: frames never span one */
#define VNET       sizeof(struct virtio_net_hdr)
#define DL_SPIN_WINDOW 100000000u  /* 100 ms */
#define DL_SPIN_SHARE  4u           /* spin at most a quarter of it */

static uint32_t align16(uint32_t n) { return (n + 15u) & ~15u; }

static struct tpacket2_hdr *rx_frame(const struct ring *r, uint32_t i)
{
	return (struct tpacket2_hdr *)(r->rx_map + (size_t)(i / r->rx_fpb) * r->rx_bsize +
	    (size_t)(i % r->rx_fpb) * r->rx_fsize);
}

static struct tpacket2_hdr *tx_frame(const struct ring *r, uint64_t n)
{
	uint32_t i = (uint32_t)(n % r->tx_n);

	return (struct tpacket2_hdr *)(r->tx_map + (size_t)(i / r->tx_fpb) * r->tx_bsize +
	    (size_t)(i % r->tx_fpb) * r->tx_fsize);
}

/* ring_geometry: a request for FRAMES frames of FSIZE bytes, in blocks of
 * RING_BLOCK (or one frame, when larger), at most DL_MEM_CAP bytes */
static void ring_geometry(struct tpacket_req *q, uint32_t fsize, uint32_t frames)
{
	uint32_t bs = fsize > RING_BLOCK ? (fsize + 4095u) & ~4095u : RING_BLOCK;
	uint32_t fpb = bs / fsize;
	uint64_t nb = ((uint64_t)frames + fpb - 1) / fpb;

	if (nb * bs > DL_MEM_CAP)
		nb = DL_MEM_CAP / bs;
	q->tp_block_size = bs;
	q->tp_frame_size = fsize;
	q->tp_block_nr = (uint32_t)nb;
	q->tp_frame_nr = (uint32_t)nb * fpb;
}

static uint8_t *ring_map(int fd, int opt, const struct tpacket_req *q, const char **why)
{
	int v = TPACKET_V2;
	void *m;

	if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)) < 0) {
		*why = "PACKET_VERSION";
		return NULL;
	}
	if (setsockopt(fd, SOL_PACKET, opt, q, sizeof(*q)) < 0) {
		*why = opt == PACKET_RX_RING ? "PACKET_RX_RING" : "PACKET_TX_RING";
		return NULL;
	}
	m = mmap(NULL, (size_t)q->tp_block_size * q->tp_block_nr, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_LOCKED, fd, 0);
	if (m == MAP_FAILED) {
		*why = "mmap(ring)";
		return NULL;
	}
	return m;
}

int dl_ring_open(struct line *l, const char **why)
{
	struct ring *r = &l->r;
	struct tpacket_req q;
	int one = 1;

	/* the kernel puts the frame at TPACKET_ALIGN(hdr + 16) - 14 */
	ring_geometry(&q, align16(TPACKET2_HDRLEN + 16 + l->c.maxframe + 16), l->c.slots);
	if (!(r->rx_map = ring_map(l->rx, PACKET_RX_RING, &q, why)))
		return -1;
	r->rx_fsize = q.tp_frame_size;
	r->rx_bsize = q.tp_block_size;
	r->rx_fpb = q.tp_block_size / q.tp_frame_size;
	l->c.slots = q.tp_frame_nr;
	if (setsockopt(l->tx, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)) < 0) {
		*why = "PACKET_VNET_HDR";
		return -1;
	}
	/* a malformed frame is skipped, not left to block the ring */
	if (setsockopt(l->tx, SOL_PACKET, PACKET_LOSS, &one, sizeof(one)) < 0) {
		*why = "PACKET_LOSS";
		return -1;
	}
	ring_geometry(&q, align16(TPACKET2_HDRLEN + (uint32_t)VNET + l->c.maxframe), 4096);
	if (!(r->tx_map = ring_map(l->tx, PACKET_TX_RING, &q, why)))
		return -1;
	r->tx_fsize = q.tp_frame_size;
	r->tx_bsize = q.tp_block_size;
	r->tx_fpb = q.tp_block_size / q.tp_frame_size;
	r->tx_n = q.tp_frame_nr;
	return 0;
}

/* release: hand receive-ring frame S back to the kernel */
static void release(struct line *l, uint32_t s)
{
	l->slot[s].held = 0;
	__atomic_store_n(&rx_frame(&l->r, s)->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
}

/* receive: take up to 4 batches of frames that landed in the ring */
static int receive(struct line *l)
{
	struct ring *r = &l->r;
	mono_ns mono = dl_now(CLOCK_MONOTONIC);
	mono_ns off = dl_now(CLOCK_REALTIME) - mono;     /* realtime - mono */
	int n;

	for (n = 0; n < 4 * DL_BATCH; n++) {
		uint32_t s = r->rx_head;
		struct tpacket2_hdr *h = rx_frame(r, s);
		mono_ns ts, arr, base;

		if (l->slot[s].held ||
		    !(__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER))
			break;
		r->rx_head = s + 1 == l->c.slots ? 0 : s + 1;
		l->st.received++;
		ts = (mono_ns)h->tp_sec * 1000000000u + h->tp_nsec;
		arr = ts > off ? ts - off : mono;
		if (arr > mono)     /* the two clocks read apart: never future */
			arr = mono;
		base = arr;
		if (h->tp_snaplen < h->tp_len || h->tp_len > l->c.maxframe) {
			l->st.oversize++;
			release(l, s);
			continue;
		}
		l->slot[s].data = (uint8_t *)h + h->tp_mac;
		if (l->c.rate && dl_bottleneck(l, l->slot[s].data, h->tp_len, arr, &base) < 0) {
			release(l, s);
			continue;
		}
		l->slot[s].len = h->tp_len;
		l->slot[s].seq = l->seq++;
		l->slot[s].due = dl_depart(l, base);
		l->slot[s].held = 1;
		dl_heap_push(l, s);
	}
	return n;
}

/* account: the fate of the transmit frames the kernel has looked at */
static void account(struct line *l)
{
	struct ring *r = &l->r;

	while (r->tx_done != r->tx_head) {
		uint32_t st = __atomic_load_n(&tx_frame(r, r->tx_done)->tp_status, __ATOMIC_ACQUIRE);

		if (st & TP_STATUS_SEND_REQUEST)
			break;              /* not taken yet: the next kick */
		l->st.forwarded++;
		r->tx_done++;
	}
}

/* kick: have the kernel send what waits in the transmit ring */
static void kick(struct line *l)
{
	if (send(l->tx, NULL, 0, MSG_DONTWAIT) < 0 && errno != EAGAIN && errno != ENOBUFS &&
	    errno != EINTR)
		dl_die("send(ring)");
	account(l);
}

/* tx_free: the transmit frame to fill next, or NULL when the ring is full */
static struct tpacket2_hdr *tx_free(struct line *l)
{
	struct ring *r = &l->r;
	struct tpacket2_hdr *t = tx_frame(r, r->tx_head);

	if (r->tx_head - r->tx_done < r->tx_n &&
	    __atomic_load_n(&t->tp_status, __ATOMIC_ACQUIRE) == TP_STATUS_AVAILABLE)
		return t;
	return NULL;
}

/* transmit: every frame due by NOW into the transmit ring, a kick per batch */
static int transmit(struct line *l, mono_ns now)
{
	struct ring *r = &l->r;
	int n = 0, total = 0;

	while (l->nheap && l->slot[l->heap[0]].due <= now) {
		uint32_t s = l->heap[0], len = l->slot[s].len;
		struct tpacket2_hdr *t = tx_free(l);
		struct virtio_net_hdr *v;

		if (!t) {
			kick(l);
			n = 0;
			t = tx_free(l);
		}
		dl_heap_pop(l);
		dl_record(l, now - l->slot[s].due);
		total++;
		if (!t) {           /* the kernel holds every transmit frame */
			l->st.send_errors++;
			release(l, s);
			continue;
		}
		v = (struct virtio_net_hdr *)((uint8_t *)t + TPACKET2_HDRLEN - sizeof(struct sockaddr_ll));
		memset(v, 0, VNET);
		v->hdr_len = htole16((uint16_t)len);     /* all of it copied */
		memcpy((uint8_t *)v + VNET, l->slot[s].data, len);
		t->tp_len = (uint32_t)VNET + len;
		__atomic_store_n(&t->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
		r->tx_head++;
		release(l, s);
		if (++n == DL_BATCH) {
			kick(l);
			n = 0;
		}
	}
	if (n || r->tx_done != r->tx_head)
		kick(l);
	return total;
}

/* wait_for: until an event on EP, a signal, or WAIT ns (UINT64_MAX: no
 * limit); 1 when the time ran out */
static int wait_for(int ep, mono_ns wait)
{
	struct epoll_event e;
	struct timespec ts, *tp = NULL;
	sigset_t none;
	int n;

	sigemptyset(&none);
	if (wait != UINT64_MAX) {
		ts.tv_sec = (time_t)(wait / 1000000000u);
		ts.tv_nsec = (long)(wait % 1000000000u);
		tp = &ts;
	}
	/* signals are blocked outside epoll_pwait2: no wake-up lost */
	n = epoll_pwait2(ep, &e, 1, tp, &none);
	if (n < 0 && errno != EINTR)
		dl_die("epoll_pwait2");
	return n == 0;
}

/* wake_learn: a timed wake-up came LATE ns after the time asked; every
 * DL_WAKE_EPOCH of them, the margin becomes their 99th percentile less
 * half the budget (a frame is late only when a wake-up is later than the
 * margin by more than the budget), at most c.spin, and the counts halve */
static void wake_learn(struct line *l, mono_ns late)
{
	struct wake *w = &l->w;
	uint64_t b = late / 4000, acc = 0, total = 0;
	uint32_t i;

	w->hist[b >= DL_WAKE_BUCKETS ? DL_WAKE_BUCKETS - 1 : b]++;
	w->timed++;
	if (++w->samples < DL_WAKE_EPOCH)
		return;
	w->samples = 0;
	for (i = 0; i < DL_WAKE_BUCKETS; i++)
		total += w->hist[i];
	for (i = 0; i < DL_WAKE_BUCKETS - 1; i++) {
		acc += w->hist[i];
		if (acc * 100 >= total * 99)
			break;
	}
	w->p99 = (mono_ns)(i + 1) * 4000;
	w->margin = w->p99 > l->c.budget / 2 ? w->p99 - l->c.budget / 2 : 0;
	if (w->margin > l->c.spin)
		w->margin = l->c.spin;
	for (i = 0; i < DL_WAKE_BUCKETS; i++)
		w->hist[i] /= 2;
}

/* spin_margin: how early to wake at NOW: the margin while this window's
 * spin time lasts, 0 after (a timer wake-up only). A window after one whose
 * sleeps times the margin would have spun past the share spins not at
 * all: where departures are that dense, a spin buys little accuracy (the
 * CPU, not the timer, makes frames late) and takes the CPU the endpoints
 * and the kernel's forwarding need (1G, 5 rounds: 0.59 of the path without
 * a delay line spinning a quarter of the time, 0.74 on the timer alone) */
static mono_ns spin_margin(struct line *l, mono_ns now)
{
	struct wake *w = &l->w;

	if (now - w->win_start >= DL_SPIN_WINDOW) {
		w->dense = w->win_sleeps * w->margin > DL_SPIN_WINDOW / DL_SPIN_SHARE;
		w->win_start = now;
		w->win_spin = w->dense ? UINT64_MAX : 0;
		w->win_sleeps = 0;
		w->quota_hit += w->dense;
	}
	if (w->win_spin < DL_SPIN_WINDOW / DL_SPIN_SHARE)
		return w->margin;
	if (w->win_spin != UINT64_MAX) {
		w->quota_hit++;
		w->win_spin = UINT64_MAX;   /* counted once per window */
	}
	return 0;
}

/* spin_turn: a turn with nothing to do before a departure under the margin */
static void spin_turn(struct wake *w, mono_ns now)
{
	if (w->last_spin) {
		w->spin_total += now - w->last_spin;
		if (w->win_spin != UINT64_MAX)
			w->win_spin += now - w->last_spin;
	}
	w->last_spin = now;
}

/* sleep_until: the line waits for WAKE (> NOW). With frames waiting and
 * every new arrival due after the first of them (frames keep their order,
 * or the shortest delay reaches past WAKE) it sleeps on the timer alone:
 * an arrival need not wake it, the ring holds it. Else arrivals wake it. */
static void sleep_until(struct line *l, int ep, int ep_timer, mono_ns now, mono_ns wake)
{
	mono_ns mind = l->c.delay > l->c.jitter ? l->c.delay - l->c.jitter : 0;
	int alone = l->nheap && (!l->c.reorder || now + mind >= wake);

	l->w.win_sleeps++;

	if (wait_for(alone ? ep_timer : ep, wake - now))
		wake_learn(l, dl_now(CLOCK_MONOTONIC) - wake);
}

void dl_ring_run(struct line *l)
{
	struct epoll_event e = { .events = EPOLLIN | EPOLLET };
	unsigned turns = 0;
	int ep = epoll_create1(EPOLL_CLOEXEC), ep_timer = epoll_create1(EPOLL_CLOEXEC);

	if (ep < 0 || ep_timer < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, l->rx, &e) < 0)
		dl_die("epoll");
	l->w.margin = l->c.spin;    /* until the first estimate */
	while (!dl_stop_flag) {
		mono_ns now = dl_now(CLOCK_MONOTONIC), next, margin;
		int busy;

		if (dl_dump_flag) {
			dl_dump_flag = 0;
			dl_write_stats(l);
		}
		busy = transmit(l, now);
		busy += receive(l);
		if (busy) {
			l->w.last_spin = 0;
			/* a line that is never idle still sees signals */
			if (++turns % 1024 == 0)
				wait_for(ep_timer, 0);
			continue;
		}
		next = l->nheap ? l->slot[l->heap[0]].due : UINT64_MAX;
		if (l->r.tx_done != l->r.tx_head && next > now + 50000)
			next = now + 50000;         /* frames the kernel did not take */
		if (next == UINT64_MAX) {
			l->w.last_spin = 0;
			wait_for(ep, UINT64_MAX);
			continue;
		}
		margin = spin_margin(l, now);
		if (next > now + margin) {
			l->w.last_spin = 0;
			sleep_until(l, ep, ep_timer, now, next - margin);
		} else {
			spin_turn(&l->w, now);
		}
	}
}
