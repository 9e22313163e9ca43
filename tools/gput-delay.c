/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gput-delay: one direction of an emulated wire's propagation delay, for
 * tools/gput-testbed on kernels without netem.
 *
 *   gput-delay -i IN -o OUT [-d NS] [-j NS [-R]] [-r BITS -q BYTES [-e BYTES]]
 *              [-n SLOTS] [-m BYTES] [-s FILE] [-S NS] [-P PRIO] [-L NS] [-C]
 *
 * Every frame that arrives on interface IN (an AF_PACKET socket, so the
 * frame as it was on the wire: Ethernet header on) leaves on interface OUT
 * at its departure time, arrival + delay, on CLOCK_MONOTONIC in ns. The
 * arrival time is the kernel's receive timestamp (the packet ring's, or
 * SO_TIMESTAMPNS), so the time this program takes to notice a frame counts
 * against it as error.
 *
 * Two paths: packet rings (tools/gput-delay-ring.c: frames wait in a
 * memory-mapped receive ring and leave through a transmit ring, a system
 * call per batch and none per frame), and the copy path (recvmmsg and
 * sendmmsg, a copy each way), which runs with -C or when the kernel refuses
 * a ring (said once on stderr). The statistics name the path that runs.
 *
 *   -d NS      one-way delay added to every frame (ns)
 *   -j NS      jitter: each frame's delay is uniform in [d-j, d+j] (never
 *              below 0). Frames keep their order (a frame never leaves
 *              before the one ahead of it) unless -R allows reordering.
 *   -r BITS    the delay line is also the bottleneck: it serialises frames
 *              at BITS bit/s, charging each max(len + 24, 84) bytes (the
 *              wire cost of an Ethernet frame, as the testbed's tbf does),
 *              from a FIFO queue of -q BYTES (frame bytes, the one being
 *              sent included); a frame that would overfill it is dropped.
 *   -e BYTES   with -r: a frame arriving when the queue holds more than
 *              BYTES is marked CE if it is ECN-capable (IPv4 or IPv6,
 *              ECT(0) or ECT(1)); step marking as DCTCP expects. Frames
 *              that are not ECN-capable are queued as usual.
 *   -n SLOTS   frames the delay line can hold (default: enough for the
 *              delay at 120 k frames/s, plus with -r a full queue of 60-byte
 *              frames; at least 4096; at most 256 MiB)
 *   -m BYTES   largest frame (default 9018: MTU 9000 + header + VLAN tag)
 *   -s FILE    statistics file, rewritten on SIGUSR1 and at exit
 *   -S NS      the copy path: how long before a departure it stops
 *              sleeping and spins (default 50000); the ring path: the most
 *              it wakes early to spin, a margin it learns from its timer's
 *              lateness (default 200000; 0: timer wake-ups only). See
 *              tools/gput-delay-ring.c and the testbed's manual.
 *   -L NS      the error budget: a frame that leaves more than NS after its
 *              departure time counts as late (default 100000)
 *   -C         the copy path, not the packet rings
 *   -P PRIO    run SCHED_FIFO at PRIO (1..99; 0: an ordinary process).
 *              On a loaded host an ordinary process is woken milliseconds
 *              late now and then (p99 error 3.4 ms at 100 Mbit/s with
 *              TCP and a load of 2.4 on 2 cores; 20-31 us at FIFO 10).
 *              The kernel's RT throttling leaves 5% of each CPU to others.
 *
 * Nothing is allocated per frame: slots, the heap that orders departures
 * and the batch vectors are made at start. One process per direction; the
 * testbed runs two. Frames it cannot hold are dropped and counted.
 * SIGTERM/SIGINT end it after writing the statistics.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "gput-delay.h"

#define BATCH     DL_BATCH
#define HIST_US   DL_HIST_US
#define MEM_CAP   DL_MEM_CAP

volatile sig_atomic_t dl_stop_flag, dl_dump_flag;

static void on_stop(int sig) { (void)sig; dl_stop_flag = 1; }
static void on_dump(int sig) { (void)sig; dl_dump_flag = 1; }

mono_ns dl_now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (mono_ns)ts.tv_sec * 1000000000u + (mono_ns)ts.tv_nsec;
}

void dl_die(const char *what)
{
	fprintf(stderr, "gput-delay: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t num(const char *s, const char *name, uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "gput-delay: bad %s '%s' (%" PRIu64 "..%" PRIu64 ")\n",
		    name, s, min, max);
		exit(2);
	}
	return v;
}

/* xorshift64*: a frame's jitter; quality is ample, speed matters */
static uint64_t rnd(struct line *l)
{
	l->rng ^= l->rng >> 12;
	l->rng ^= l->rng << 25;
	l->rng ^= l->rng >> 27;
	return l->rng * 2685821657736338717ULL;
}

static int before(const struct line *l, uint32_t a, uint32_t b)
{
	const struct slot *x = &l->slot[a], *y = &l->slot[b];

	return x->due < y->due || (x->due == y->due && x->seq < y->seq);
}

void dl_heap_push(struct line *l, uint32_t s)
{
	uint32_t i = l->nheap++;

	while (i > 0) {
		uint32_t p = (i - 1) / 2;

		if (!before(l, s, l->heap[p]))
			break;
		l->heap[i] = l->heap[p];
		i = p;
	}
	l->heap[i] = s;
}

void dl_heap_pop(struct line *l)
{
	uint32_t s = l->heap[--l->nheap], i = 0, n = l->nheap;

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && before(l, l->heap[c + 1], l->heap[c]))
			c++;
		if (!before(l, l->heap[c], s))
			break;
		l->heap[i] = l->heap[c];
		i = c;
	}
	if (n)
		l->heap[i] = s;
}

/* open_dev: an AF_PACKET socket for DEV, not yet bound (protocol 0: it
 * takes no frame until bind_dev names the device) */
static int open_dev(int rx, int ring)
{
	int fd, one = 1, buf = 8 << 20;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, 0);
	if (fd < 0)
		dl_die("socket(AF_PACKET)");
	if (rx) {
		/* the frames this host sends on IN are not arrivals */
		if (setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)) < 0)
			dl_die("PACKET_IGNORE_OUTGOING");
		if (ring)           /* the ring's frames carry their time */
			return fd;
		if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) < 0)
			dl_die("SO_TIMESTAMPNS");
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)) < 0)
			dl_die("SO_RCVBUFFORCE");
	} else {
		if (setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)) < 0)
			dl_die("PACKET_QDISC_BYPASS");
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof(buf)) < 0)
			dl_die("SO_SNDBUFFORCE");
	}
	return fd;
}

static void bind_dev(int fd, const char *dev, int rx)
{
	struct sockaddr_ll sa;

	memset(&sa, 0, sizeof(sa));
	sa.sll_family = AF_PACKET;
	sa.sll_protocol = htons(rx ? ETH_P_ALL : 0);
	sa.sll_ifindex = (int)if_nametoindex(dev);
	if (sa.sll_ifindex == 0)
		dl_die(dev);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		dl_die("bind");
}

void *dl_alloc(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		dl_die("mmap");
	memset(p, 0, n);            /* every page touched now, not per frame */
	return p;
}

/* open_lines: the ring path's sockets, or (-C, or rings refused) the copy
 * path's, said once on stderr */
static void open_lines(struct line *l)
{
	const char *why = "";

	l->rx = open_dev(1, !l->c.copy);
	l->tx = open_dev(0, !l->c.copy);
	if (l->c.copy)
		return;
	if (dl_ring_open(l, &why) == 0) {
		l->ring = 1;
		return;
	}
	fprintf(stderr, "gput-delay: packet rings unavailable (%s: %s): "
	    "copying frames with recvmmsg/sendmmsg instead\n", why, strerror(errno));
	close(l->rx);
	close(l->tx);
	l->c.copy = 1;
	l->rx = open_dev(1, 0);
	l->tx = open_dev(0, 0);
}

static void setup(struct line *l)
{
	uint32_t i;

	l->stride = (l->c.maxframe + 63) & ~(size_t)63;
	if (l->c.slots == 0) {
		uint64_t n = (l->c.delay + l->c.jitter) / 1000 * 120 / 1000 + 1;

		/* with -r, also a full queue of the smallest frames */
		if (l->c.rate)
			n += l->c.qlimit / 60;

		l->c.slots = (uint32_t)(n < 4096 ? 4096 : n > 1u << 20 ? 1u << 20 : n);
	}
	open_lines(l);              /* the ring path sets c.slots to its frames */
	if (!l->ring && (uint64_t)l->c.slots * l->stride > MEM_CAP)
		l->c.slots = (uint32_t)(MEM_CAP / l->stride);
	if (!l->ring) {
		l->buf = dl_alloc((size_t)l->c.slots * l->stride);
		l->freel = dl_alloc((size_t)l->c.slots * sizeof(*l->freel));
		for (i = 0; i < l->c.slots; i++)
			l->freel[i] = l->c.slots - 1 - i;
		l->nfree = l->c.slots;
	}
	l->slot = dl_alloc((size_t)l->c.slots * sizeof(*l->slot));
	l->heap = dl_alloc((size_t)l->c.slots * sizeof(*l->heap));
	l->q_end = dl_alloc((size_t)l->c.slots * sizeof(*l->q_end));
	l->q_len = dl_alloc((size_t)l->c.slots * sizeof(*l->q_len));
	l->rng = dl_now(CLOCK_MONOTONIC) | 1;
	bind_dev(l->rx, l->c.in, 1);
	bind_dev(l->tx, l->c.out, 0);
}

/* mark_ce: set CE in an ECN-capable IPv4 or IPv6 packet (RFC 3168 5),
 * fixing the IPv4 header checksum incrementally (RFC 1624). Returns 1 when
 * marked, 0 when the frame is not ECN-capable IP. */
static int mark_ce(uint8_t *f, uint32_t len)
{
	uint16_t type;

	if (len < 14 + 40)
		return 0;
	type = (uint16_t)(f[12] << 8 | f[13]);
	if (type == ETHERTYPE_IP && (f[14] >> 4) == 4) {
		uint8_t tos = f[15];
		uint32_t sum;
		uint16_t old, new;

		if ((tos & 3) == 0 || (tos & 3) == 3)
			return 0;
		old = (uint16_t)(f[14] << 8 | tos);
		new = (uint16_t)(f[14] << 8 | (tos | 3));
		f[15] = (uint8_t)(tos | 3);
		sum = (uint16_t)~(f[24] << 8 | f[25]);
		sum += (uint16_t)~old;
		sum += new;
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (uint16_t)~sum;
		f[24] = (uint8_t)(sum >> 8);
		f[25] = (uint8_t)sum;
		return 1;
	}
	if (type == ETHERTYPE_IPV6 && (f[14] >> 4) == 6) {
		/* traffic class: low nibble of byte 0, high nibble of byte 1 */
		uint8_t ecn = (uint8_t)((f[15] >> 4) & 3);

		if (ecn == 0 || ecn == 3)
			return 0;
		f[15] |= 0x30;
		return 1;
	}
	return 0;
}

/* bottleneck: with -r, put a frame arriving at ARR through the queue; 0 and
 * *due set when it is kept, -1 when dropped. */
int dl_bottleneck(struct line *l, uint8_t *f, uint32_t len, mono_ns arr, mono_ns *due)
{
	uint32_t wire = len + 24 < 84 ? 84 : len + 24;
	mono_ns start, slot;

	while (l->q_n && l->q_end[l->q_head] <= arr) {
		l->q_bytes -= l->q_len[l->q_head];
		l->q_head = (l->q_head + 1) % l->c.slots;
		l->q_n--;
	}
	if (l->q_bytes + len > l->c.qlimit) {
		l->st.queue_drops++;
		return -1;
	}
	if (l->c.ecn_k && l->q_bytes > l->c.ecn_k && mark_ce(f, len))
		l->st.marked++;
	start = l->busy_until > arr ? l->busy_until : arr;
	l->busy_until = start + (mono_ns)wire * 8000000000ULL / l->c.rate;
	slot = (l->q_head + l->q_n) % l->c.slots;
	l->q_end[slot] = l->busy_until;
	l->q_len[slot] = len;
	l->q_n++;
	l->q_bytes += len;
	*due = l->busy_until;
	return 0;
}

/* depart: the departure time of a frame that arrived at ARR */
mono_ns dl_depart(struct line *l, mono_ns base)
{
	mono_ns d = base + l->c.delay;

	if (l->c.jitter) {
		int64_t off = (int64_t)l->c.delay - (int64_t)l->c.jitter +
		    (int64_t)(rnd(l) % (2 * l->c.jitter + 1));

		d = base + (mono_ns)(off > 0 ? off : 0);
	}
	if (!l->c.reorder) {
		if (d < l->last_due)
			d = l->last_due;
		l->last_due = d;
	}
	return d;
}

static uint64_t ts_of(struct msghdr *h)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR(h, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec ts;

			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		}
	}
	return 0;
}

static uint8_t scratch[65536];

/* receive: take every frame waiting at IN (batches of BATCH) into free
 * slots. Returns the number taken or dropped. */
static int receive(struct line *l)
{
	static struct mmsghdr m[BATCH];
	static struct iovec iov[BATCH];
	static uint8_t ctl[BATCH][CMSG_SPACE(sizeof(struct timespec)) + 64];
	uint32_t idx[BATCH];
	int n, i, k, total = 0;

	do {
		mono_ns mono = dl_now(CLOCK_MONOTONIC);
		mono_ns off = dl_now(CLOCK_REALTIME) - mono;   /* realtime - mono */

		for (k = 0; k < BATCH; k++) {
			if (l->nfree > (uint32_t)k) {
				idx[k] = l->freel[l->nfree - 1 - k];
				iov[k].iov_base = l->buf + (size_t)idx[k] * l->stride;
				iov[k].iov_len = l->c.maxframe;
			} else {
				idx[k] = UINT32_MAX;     /* no slot: drained and counted */
				iov[k].iov_base = scratch;
				iov[k].iov_len = sizeof(scratch);
			}
			memset(&m[k].msg_hdr, 0, sizeof(m[k].msg_hdr));
			m[k].msg_hdr.msg_iov = &iov[k];
			m[k].msg_hdr.msg_iovlen = 1;
			m[k].msg_hdr.msg_control = ctl[k];
			m[k].msg_hdr.msg_controllen = sizeof(ctl[k]);
		}
		n = recvmmsg(l->rx, m, BATCH, MSG_DONTWAIT | MSG_TRUNC, NULL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			dl_die("recvmmsg");
		}
		for (i = 0; i < n; i++) {
			uint32_t len = m[i].msg_len, s = idx[i];
			uint64_t ts = ts_of(&m[i].msg_hdr);
			mono_ns arr = ts > off ? ts - off : mono, base = arr;

			l->st.received++;
			if (arr > mono)     /* the two clocks read apart: never future */
				arr = base = mono;
			if (s == UINT32_MAX) {
				l->st.ring_drops++;
				continue;
			}
			if (len > l->c.maxframe || (m[i].msg_hdr.msg_flags & MSG_TRUNC)) {
				l->st.oversize++;
				continue;
			}
			if (l->c.rate && dl_bottleneck(l, l->buf + (size_t)s * l->stride, len, arr, &base) < 0)
				continue;
			l->slot[s].len = len;
			l->slot[s].data = l->buf + (size_t)s * l->stride;
			l->slot[s].seq = l->seq++;
			l->slot[s].due = dl_depart(l, base);
			/* take slot s off the free list (it is among the top n) */
			for (k = (int)l->nfree - 1; k >= 0 && l->freel[k] != s; k--)
				;
			l->freel[k] = l->freel[--l->nfree];
			dl_heap_push(l, s);
		}
		total += n;
	} while (n == BATCH);
	return total;
}

void dl_record(struct line *l, mono_ns late)
{
	uint64_t us = late / 1000;

	l->st.hist[us > HIST_US ? HIST_US : us]++;
	if (late > l->c.budget)
		l->st.late++;
	if (late > l->st.err_max)
		l->st.err_max = late;
}

/* transmit: send every frame due by NOW. Returns the number sent. */
static int transmit(struct line *l, mono_ns now)
{
	static struct mmsghdr m[BATCH];
	static struct iovec iov[BATCH];
	uint32_t idx[BATCH];
	int n = 0, i, sent, total = 0;

	for (;;) {
		n = 0;
		while (n < BATCH && l->nheap && l->slot[l->heap[0]].due <= now) {
			uint32_t s = l->heap[0];

			dl_heap_pop(l);
			idx[n] = s;
			iov[n].iov_base = l->buf + (size_t)s * l->stride;
			iov[n].iov_len = l->slot[s].len;
			memset(&m[n].msg_hdr, 0, sizeof(m[n].msg_hdr));
			m[n].msg_hdr.msg_iov = &iov[n];
			m[n].msg_hdr.msg_iovlen = 1;
			dl_record(l, now - l->slot[s].due);
			n++;
		}
		if (n == 0)
			break;
		sent = 0;
		while (sent < n) {
			int r = sendmmsg(l->tx, m + sent, (unsigned)(n - sent), 0);

			if (r < 0) {
				if (errno == EINTR)
					continue;
				/* ENOBUFS and the like: this frame is lost, counted */
				l->st.send_errors++;
				r = 1;
			} else {
				l->st.forwarded += (uint64_t)r;
			}
			sent += r;
		}
		for (i = 0; i < n; i++)
			l->freel[l->nfree++] = idx[i];
		total += n;
	}
	return total;
}

static uint64_t pct(const struct stats *st, uint64_t total, double p)
{
	uint64_t want = (uint64_t)(p * (double)total + 0.999999), acc = 0;
	uint32_t i;

	if (total == 0)
		return 0;
	for (i = 0; i <= HIST_US; i++) {
		acc += st->hist[i];
		if (acc >= want)
			return i;
	}
	return HIST_US;
}

/* write_stats: the counters and the error's percentiles, to FILE.tmp and
 * renamed, so a reader never sees half a file. */
void dl_write_stats(struct line *l)
{
	char tmp[PATH_MAX];
	struct tpacket_stats ks;
	socklen_t kl = sizeof(ks);
	static uint64_t dumps;
	uint64_t total = 0;
	uint32_t i;
	FILE *f;

	if (getsockopt(l->rx, SOL_PACKET, PACKET_STATISTICS, &ks, &kl) == 0)
		l->kst.tp_drops += ks.tp_drops;    /* reading resets the kernel's */
	if (!l->c.stats)
		return;
	for (i = 0; i <= HIST_US; i++)
		total += l->st.hist[i];
	snprintf(tmp, sizeof(tmp), "%s.tmp", l->c.stats);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "dumps %" PRIu64 "\n", ++dumps);
	fprintf(f, "pid %ld\nreceived %" PRIu64 "\nforwarded %" PRIu64 "\n"
	    "dropped %" PRIu64 "\nring-drop %" PRIu64 "\nqueue-drop %" PRIu64 "\n"
	    "socket-drop %u\nsend-error %" PRIu64 "\noversize %" PRIu64 "\n"
	    "marked %" PRIu64 "\nqueued %u\npath %s\nlate %" PRIu64 "\n"
	    "late-budget-us %" PRIu64 "\n",
	    (long)getpid(), l->st.received, l->st.forwarded,
	    l->st.ring_drops + l->st.queue_drops + l->kst.tp_drops + l->st.send_errors +
	    l->st.oversize, l->st.ring_drops, l->st.queue_drops, l->kst.tp_drops,
	    l->st.send_errors, l->st.oversize, l->st.marked, l->nheap,
	    l->ring ? "ring" : "copy", l->st.late, l->c.budget / 1000);
	if (l->ring)
		fprintf(f, "wakes %" PRIu64 "\nwake-p99-us %" PRIu64 "\nwake-margin-us %" PRIu64 "\n"
		    "spin-us %" PRIu64 "\nspin-capped %" PRIu64 "\n", l->w.timed, l->w.p99 / 1000,
		    l->w.margin / 1000, l->w.spin_total / 1000, l->w.quota_hit);
	fprintf(f, "err-frames %" PRIu64 "\nerr-p50-us %" PRIu64 "\nerr-p99-us %" PRIu64 "\n"
	    "err-max-us %.1f\n", total, pct(&l->st, total, 0.50), pct(&l->st, total, 0.99),
	    (double)l->st.err_max / 1000.0);
	if (fclose(f) == 0)
		rename(tmp, l->c.stats);
}

/* run: the one loop. Sends what is due, takes what arrived, then sleeps
 * until shortly before the next departure (or an arrival), and spins the
 * last c.spin ns so that a frame leaves within microseconds of its time. */
static void run(struct line *l)
{
	struct pollfd pfd = { .fd = l->rx, .events = POLLIN };
	sigset_t none;

	struct timespec zero = { 0, 0 };
	unsigned spins = 0;

	if (l->ring) {
		dl_ring_run(l);
		dl_write_stats(l);
		return;
	}
	sigemptyset(&none);
	while (!dl_stop_flag) {
		mono_ns now = dl_now(CLOCK_MONOTONIC), next;
		int busy;

		/* signals are blocked but while in ppoll: a line that is never
		 * idle still looks at them every 1024 turns */
		if (++spins % 1024 == 0)
			ppoll(NULL, 0, &zero, &none);
		if (dl_dump_flag) {
			dl_dump_flag = 0;
			dl_write_stats(l);
		}
		busy = transmit(l, now);
		busy += receive(l);
		if (busy)
			continue;
		next = l->nheap ? l->slot[l->heap[0]].due : UINT64_MAX;
		if (next > now + l->c.spin) {
			struct timespec ts, *tp = NULL;

			if (next != UINT64_MAX) {
				mono_ns wait = next - now - l->c.spin;

				ts.tv_sec = (time_t)(wait / 1000000000u);
				ts.tv_nsec = (long)(wait % 1000000000u);
				tp = &ts;
			}
			/* signals are blocked outside ppoll: no wake-up lost */
			if (ppoll(&pfd, 1, tp, &none) < 0 && errno != EINTR)
				dl_die("ppoll");
		}
	}
	dl_write_stats(l);
}

/* close_fds: close every descriptor above stderr */
static void close_fds(void)
{
	long fd, max = sysconf(_SC_OPEN_MAX);

	if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
		return;
	for (fd = 3; fd < (max > 0 ? max : 1024); fd++)
		close((int)fd);
}

static void usage(void)
{
	fprintf(stderr, "usage: gput-delay -i IN -o OUT [-d NS] [-j NS [-R]] "
	    "[-r BITS -q BYTES [-e BYTES]] [-n SLOTS] [-m BYTES] [-s FILE] [-S NS] [-P PRIO] [-L NS] [-C]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static struct line l;
	struct sigaction sa;
	sigset_t block;
	int o;

	/* a long-lived process must not keep its starter's descriptors: a
	 * testbed brought up under flock(1) would hold the lock for as long as
	 * the delay line runs */
	close_fds();
	l.c.maxframe = 9018;
	l.c.spin = 50000;
	l.c.budget = 100000;
	while ((o = getopt(argc, argv, "i:o:d:j:Rr:q:e:n:m:s:S:P:CL:")) != -1) {
		switch (o) {
		case 'i': l.c.in = optarg; break;
		case 'o': l.c.out = optarg; break;
		case 'd': l.c.delay = num(optarg, "delay", 0, 10000000000ULL); break;
		case 'j': l.c.jitter = num(optarg, "jitter", 0, 10000000000ULL); break;
		case 'R': l.c.reorder = 1; break;
		case 'r': l.c.rate = num(optarg, "rate", 10000, 100000000000ULL); break;
		case 'q': l.c.qlimit = num(optarg, "queue", 84, 1ULL << 32); break;
		case 'e': l.c.ecn_k = num(optarg, "ecn threshold", 1, 1ULL << 32); break;
		case 'n': l.c.slots = (uint32_t)num(optarg, "slots", 16, 1u << 22); break;
		case 'm': l.c.maxframe = (uint32_t)num(optarg, "frame size", 64, 65535); break;
		case 's': l.c.stats = optarg; break;
		case 'S': l.c.spin = num(optarg, "spin", 0, 10000000); l.c.spin_set = 1; break;
		case 'C': l.c.copy = 1; break;
		case 'L': l.c.budget = num(optarg, "late budget", 1000, 1000000000); break;
		case 'P': l.c.prio = (int)num(optarg, "priority", 0, 99); break;
		default: usage();
		}
	}
	if (optind != argc || !l.c.in || !l.c.out || (l.c.rate && !l.c.qlimit) ||
	    (l.c.ecn_k && !l.c.rate))
		usage();
	if (l.c.jitter > l.c.delay + 10000000000ULL)
		usage();
	/* timer wake-ups as exact as the kernel can make them */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_dump;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	setup(&l);
	if (l.ring && !l.c.spin_set)
		l.c.spin = 200000;  /* the ring path: the most it wakes early */
	if (l.c.prio) {
		struct sched_param sp = { .sched_priority = l.c.prio };

		if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
			fprintf(stderr, "gput-delay: SCHED_FIFO %d: %s (running as an ordinary process)\n",
			    l.c.prio, strerror(errno));
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0)
		fprintf(stderr, "gput-delay: mlockall: %s\n", strerror(errno));
	dl_write_stats(&l);
	run(&l);
	return 0;
}
