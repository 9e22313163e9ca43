/* SPDX-License-Identifier: BSD-2-Clause */
/* pcap_flow.c: frames to flows: per-direction sums, TCP retransmissions from
 * the sequence space, gput UDP duplicates from the datagrams' sequence
 * numbers, IP fragments attributed to their flow by IP id. */
#include "pcap_flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "overhead.h"

/* Memory the table may take: a, b and the bound; -1 (mem_full set) when
 * growing from a to b bytes would pass it. */
static int
mem_grow(struct pflow_table *t, size_t a, size_t b)
{
	if (b > a && t->mem_max != 0 && t->mem + (b - a) > t->mem_max) {
		t->mem_full = 1;
		return -1;
	}
	t->mem = t->mem + b - a;
	if (t->mem > t->mem_peak)
		t->mem_peak = t->mem;
	return 0;
}

/* The table's hash key, random per run: a capture crafted to collide in
 * the slots of one run does not collide in another's. */
static void
seed(struct pflow_table *t)
{
	FILE *f;

	if (t->seeded)
		return;
	t->seeded = 1;
	f = fopen("/dev/urandom", "rb");
	if (f == NULL || fread(t->seed, sizeof(t->seed), 1, f) != 1) {
		/* no randomness: still a key, if a guessable one */
		t->seed[0] = (uint64_t)(uintptr_t)t ^ 0x736f6d6570736575ULL;
		t->seed[1] = (uint64_t)t->now ^ 0x646f72616e646f6dULL;
	}
	if (f != NULL)
		fclose(f);
}

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND do { \
	v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32); \
	v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2; \
	v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0; \
	v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32); } while (0)

/* SipHash-1-3 (Aumasson and Bernstein) of the key under the table's seed:
 * a keyed hash, so the slot of a key cannot be chosen from outside. */
static uint32_t
key_hash(const uint64_t *k2, const struct pflow_key *key)
{
	uint64_t v0 = k2[0] ^ 0x736f6d6570736575ULL;
	uint64_t v1 = k2[1] ^ 0x646f72616e646f6dULL;
	uint64_t v2 = k2[0] ^ 0x6c7967656e657261ULL;
	uint64_t v3 = k2[1] ^ 0x7465646279746573ULL;
	uint64_t m;
	size_t i, j;

	for (i = 0; i < sizeof(key->k); i += 8) {  /* 40 bytes: 5 words */
		for (m = 0, j = 0; j < 8; j++)
			m |= (uint64_t)key->k[i + j] << (8 * j);
		v3 ^= m;
		SIPROUND;
		v0 ^= m;
	}
	m = (uint64_t)sizeof(key->k) << 56;
	v3 ^= m;
	SIPROUND;
	v0 ^= m;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return (uint32_t)((v0 ^ v1 ^ v2 ^ v3) >> 32);
}

/* Open addressing over an array of entries that start with their key:
 * returns the entry index, or -1 with *pos at the empty slot. */
static long
lookup(struct pflow_table *t, const uint32_t *slot, size_t nslots,
       const void *base, size_t stride, const struct pflow_key *key,
       size_t *pos)
{
	size_t i = key_hash(t->seed, key) & (nslots - 1);

	t->lookups++;
	while (slot[i] != 0) {
		const void *e = (const char *)base + (slot[i] - 1) * stride;

		t->probes++;

		if (memcmp(e, key, sizeof(*key)) == 0) {
			*pos = i;
			return (long)slot[i] - 1;
		}
		i = (i + 1) & (nslots - 1);
	}
	*pos = i;
	return -1;
}

/* Keep the slot array at most half full; live says which of the n entries
 * are in it (NULL: all). Returns 0 or -1 (out of memory). */
static int
grow_slots(struct pflow_table *t, uint32_t **slot, size_t *nslots,
           const void *base, size_t stride, size_t n,
           int (*live)(const void *))
{
	size_t cap = *nslots ? *nslots * 2 : 64, i, pos;
	uint32_t *s;

	if ((n + 1) * 2 <= *nslots)
		return 0;
	if (mem_grow(t, *nslots * sizeof(*s), cap * sizeof(*s)) == -1)
		return -1;
	if ((s = calloc(cap, sizeof(*s))) == NULL) {
		(void)mem_grow(t, cap * sizeof(*s), *nslots * sizeof(*s));
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct pflow_key *k = (const void *)((const char *)base +
		                                           i * stride);

		if (live != NULL && !live(k))
			continue;
		(void)lookup(t, s, cap, base, stride, k, &pos);
		s[pos] = (uint32_t)i + 1;
	}
	free(*slot);
	*slot = s;
	*nslots = cap;
	return 0;
}

/* Empty slot pos, moving later entries of its run back where their probe
 * would find them (linear probing's deletion without tombstones). */
static void
slot_delete(const struct pflow_table *t, uint32_t *slot, size_t nslots,
            const void *base, size_t stride, size_t pos)
{
	size_t i = pos, j = pos, mask = nslots - 1;

	for (;;) {
		const struct pflow_key *k;
		size_t h;

		j = (j + 1) & mask;
		if (slot[j] == 0)
			break;
		k = (const void *)((const char *)base + (slot[j] - 1) * stride);
		h = key_hash(t->seed, k) & mask;
		/* j's entry may move to i when its home h is not cyclically
		 * within (i, j] */
		if ((i <= j) ? (h <= i || h > j) : (h <= i && h > j)) {
			slot[i] = slot[j];
			i = j;
		}
	}
	slot[i] = 0;
}

/* Make room for one more entry of size stride in *arr. */
static int
grow_array(struct pflow_table *t, void **arr, size_t *cap, size_t n,
           size_t stride)
{
	void *p;
	size_t c = *cap ? *cap * 2 : 64;

	if (n < *cap)
		return 0;
	if (mem_grow(t, *cap * stride, c * stride) == -1)
		return -1;
	if ((p = realloc(*arr, c * stride)) == NULL) {
		(void)mem_grow(t, c * stride, *cap * stride);
		return -1;
	}
	*arr = p;
	*cap = c;
	return 0;
}

/* Make room for one more hole: the array doubles from 8, so that many
 * flows with few holes take little memory. Returns 0, or -1 when memory
 * runs out (or --max-memory). */
static int
hole_room(struct pflow_table *t, struct pflow_dir *d)
{
	struct pflow_hole *h;
	size_t cap;

	if (d->nholes < d->capholes)
		return 0;
	cap = d->capholes ? d->capholes * 2 : 8;
	if (mem_grow(t, d->capholes * sizeof(*h), cap * sizeof(*h)) == -1)
		return -1;
	if ((h = realloc(d->holes, cap * sizeof(*h))) == NULL) {
		(void)mem_grow(t, cap * sizeof(*h), d->capholes * sizeof(*h));
		return -1;
	}
	d->holes = h;
	d->capholes = cap;
	return 0;
}

/* The first hole that ends after s (holes end in increasing order, empty
 * ones included). */
static size_t
hole_first(const struct pflow_dir *d, uint64_t s)
{
	size_t lo = 0, hi = d->nholes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->holes[mid].to > s)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Drop the empty holes once they are half the array (each is dropped once:
 * amortized O(1) a fill). */
static void
holes_compact(struct pflow_dir *d)
{
	size_t i, n = 0;

	if (d->holes_empty < 64 || d->holes_empty * 2 < d->nholes)
		return;
	for (i = 0; i < d->nholes; i++)
		if (d->holes[i].from != d->holes[i].to)
			d->holes[n++] = d->holes[i];
	d->nholes = n;
	d->holes_empty = 0;
}

/* Split hole i at [lo, hi): i keeps [from, lo), a hole after it takes
 * [hi, to). Returns 0 or -1 (memory). */
static int
hole_split(struct pflow_table *t, struct pflow_dir *d, size_t i, uint64_t lo,
           uint64_t hi)
{
	struct pflow_hole *h;

	if (i + 1 < d->nholes && d->holes[i + 1].from == d->holes[i + 1].to) {
		h = d->holes;          /* an empty one right after: reuse it */
		d->holes_empty--;
	} else {
		if (hole_room(t, d) == -1)
			return -1;
		h = d->holes;
		memmove(&h[i + 2], &h[i + 1], (d->nholes - i - 1) * sizeof(*h));
		d->nholes++;
	}
	h[i + 1].from = hi;
	h[i + 1].to = h[i].to;
	h[i].to = lo;
	return 0;
}

/* Remove [s, e) from the holes into *filled (the bytes that filled a
 * hole). Returns 0 or -1 (memory, to split a hole). */
static int
fill_holes(struct pflow_table *t, struct pflow_dir *d, uint64_t s,
           uint64_t e, uint64_t *filled)
{
	size_t i;

	*filled = 0;
	for (i = hole_first(d, s); i < d->nholes && d->holes[i].from < e; i++) {
		struct pflow_hole *h = &d->holes[i];
		uint64_t lo = s > h->from ? s : h->from, hi = e < h->to ? e : h->to;

		if (lo >= hi)
			continue;      /* an empty one */
		*filled += hi - lo;
		if (lo == h->from && hi == h->to) {
			h->from = h->to;   /* empty, in place */
			d->holes_empty++;
		} else if (lo == h->from) {
			h->from = hi;
		} else if (hi == h->to) {
			h->to = lo;
		} else {
			if (hole_split(t, d, i, lo, hi) == -1)
				return -1;
			i++;
		}
	}
	holes_compact(d);
	return 0;
}

uint64_t
pflow_missing(const struct pflow_dir *d)
{
	uint64_t sum = d->holes_dropped;
	size_t i;

	for (i = 0; i < d->nholes; i++)
		sum += d->holes[i].to - d->holes[i].from;
	return sum;
}

/* Remember [from, to) as not seen, above every hole. Returns 0 or -1 (out
 * of memory). */
static int
add_hole(struct pflow_table *t, struct pflow_dir *d, uint64_t from,
         uint64_t to)
{
	if (hole_room(t, d) == -1)
		return -1;
	d->holes[d->nholes].from = from;
	d->holes[d->nholes].to = to;
	d->nholes++;
	return 0;
}

/* Forget d's holes (their bytes stay missing) and give their memory back. */
static void
holes_drop(struct pflow_table *t, struct pflow_dir *d)
{
	d->holes_dropped = pflow_missing(d);
	(void)mem_grow(t, d->capholes * sizeof(*d->holes), 0);
	free(d->holes);
	d->holes = NULL;
	d->nholes = d->capholes = d->holes_empty = 0;
}

/* A SYN whose sequence number differs from the SYN seen before begins a
 * new connection on the same ports, with a new initial sequence number
 * (RFC 9293 3.4): its bytes are not retransmissions of the old one's, nor
 * is the distance between the two ISNs missing data. The old connection's
 * holes stay counted as missing; positions start again. */
static void
tcp_syn(struct pflow_dir *d, uint32_t seq)
{
	if (d->syn_seen && seq == d->syn_seq)
		return;  /* the same SYN again */
	/* segments without a SYN before this one: a connection whose SYN
	 * came before the capture */
	d->connections += 1 + (d->seq_init && !d->syn_seen);
	if (d->seq_init) {
		d->holes_dropped = pflow_missing(d);
		d->nholes = d->holes_empty = 0;
		d->seq_init = 0;
	}
	d->syn_seen = 1;
	d->syn_seq = seq;
}

/* New payload bytes of a TCP segment: those not seen before in this
 * direction. Positions are 64-bit, extended from the 32-bit sequence number
 * relative to the highest byte seen; a SYN takes one sequence number before
 * the data (RFC 9293 3.4). Returns 0 or -1 (out of memory). */
static int
tcp_new_bytes(struct pflow_table *t, struct pflow_dir *d,
              const struct pdec_frame *fr, uint64_t *out)
{
	int syn = (fr->tcp_flags & PDEC_TCP_SYN) != 0;
	uint64_t pos, s, e, old, filled;

	if (syn)
		tcp_syn(d, fr->seq);
	if (!d->seq_init) {
		d->seq_init = 1;
		d->seq_max = ((uint64_t)1 << 32) + fr->seq + syn;
	}
	pos = d->seq_max + (uint64_t)(int64_t)(int32_t)(fr->seq -
	                                                 (uint32_t)d->seq_max);
	s = pos + syn;
	e = s + fr->payload;
	old = d->seq_max;
	*out = 0;
	if (fr->payload == 0)
		return 0;
	if (s > old && add_hole(t, d, old, s) == -1)
		return -1;
	if (e > old) {
		*out = e - (s > old ? s : old);
		d->seq_max = e;
	}
	if (s < old) {
		if (fill_holes(t, d, s, e < old ? e : old, &filled) == -1)
			return -1;
		*out += filled;
	}
	return 0;
}

/* Add one frame carrying newb new payload bytes to a direction. A gput end
 * marker carries none (newb 0): its payload goes to marker_bytes. */
static void
account(struct pflow_dir *d, const struct pdec_frame *fr, int64_t ts,
        uint64_t newb)
{
	uint64_t pad, wire = ovh_eth_wire(fr->l2_hdr + fr->ip_len, &pad);
	/* bytes of the IP packet past the UDP length count as L4 overhead */
	uint64_t rest = fr->ip_len - fr->l3_hdr - fr->payload;
	uint64_t payload = fr->payload;

	d->packets++;
	d->fragments += fr->frag != 0;
	if (fr->marker) {
		d->markers++;
		d->marker_bytes += payload;
		payload = 0;
	}
	d->l4 += rest;
	d->l3 += fr->l3_hdr;
	d->l2 += fr->l2_hdr + OVH_ETH_FCS;
	d->pad += pad;
	d->l1 += OVH_ETH_L1;
	d->wire += wire;
	d->payload += newb;
	d->retrans += payload - newb;
	d->retrans_packets += payload > newb;
	if (newb == 0)
		return;
	if (d->data_packets == 0 || ts < d->first_ns) {
		d->first_ns = ts;
		d->first_payload = newb;
	}
	if (d->data_packets == 0 || ts > d->last_ns)
		d->last_ns = ts;
	d->data_packets++;
	d->data_wire += wire;
}

/* Fold the fragments of a datagram (or those given up) into d: every count
 * and every term of the wire sum. dup: the datagram is a gput UDP
 * duplicate, so its new payload is payload seen before, and its frames are
 * not data frames. */
static void
merge(struct pflow_dir *d, const struct pflow_dir *p, int dup)
{
	uint64_t moved = dup ? p->payload : 0;
	uint64_t movedp = dup ? p->data_packets : 0;

	if (p->data_packets > 0 && !dup) {
		if (d->data_packets == 0 || p->first_ns < d->first_ns) {
			d->first_ns = p->first_ns;
			d->first_payload = p->first_payload;
		}
		if (d->data_packets == 0 || p->last_ns > d->last_ns)
			d->last_ns = p->last_ns;
	}
	d->packets += p->packets;
	d->data_packets += p->data_packets - movedp;
	d->retrans_packets += p->retrans_packets + movedp;
	d->fragments += p->fragments;
	d->markers += p->markers;
	d->payload += p->payload - moved;
	d->retrans += p->retrans + moved;
	d->marker_bytes += p->marker_bytes;
	d->l4 += p->l4;
	d->l3 += p->l3;
	d->l2 += p->l2;
	d->pad += p->pad;
	d->l1 += p->l1;
	d->wire += p->wire;
	d->data_wire += dup ? 0 : p->data_wire;
	d->datagrams += p->datagrams;
}

/* The gput state of a direction, created on first need. Returns 0, or -1
 * when memory runs out. */
#define GPUT_BYTES (sizeof(struct pflow_gput) + UDPACCT_WINDOW / 8)

static int
gput_get(struct pflow_table *t, struct pflow_dir *d, char *err, size_t errlen)
{
	struct pflow_gput *g;

	if (d->gput != NULL)
		return 0;
	if (mem_grow(t, 0, GPUT_BYTES) == -1)
		return -1;
	if ((g = calloc(1, sizeof(*g))) == NULL) {
		snprintf(err, errlen, "out of memory for gput UDP accounting");
		return -1;
	}
	if (udpacct_init(&g->acct, err, errlen) == -1) {
		free(g);
		return -1;
	}
	d->gput = g;
	return 0;
}

/* A whole UDP datagram (or a gput end marker) of a flow direction, seen at
 * ts; fr is the frame, or the first fragment, that holds its UDP header.
 * Sets *dup when its gput header names a sequence number seen before: its
 * payload is then not new. Returns 0, or -1 with err filled. */
static int
udp_datagram(struct pflow_table *t, struct pflow_dir *d,
             const struct pdec_frame *fr, int64_t ts, int *dup, char *err,
             size_t errlen)
{
	struct pflow_gput *g;
	uint64_t before;

	*dup = 0;
	if (fr->marker && !fr->end_marker)
		return 0;  /* a proof, cookie or echo: control, nothing to count */
	d->datagrams += !fr->marker;
	if (!fr->end_marker && fr->gpud == PDEC_GPUD_NONE)
		return 0;
	if (gput_get(t, d, err, errlen) == -1)
		return -1;
	g = d->gput;
	if (g->acct.bits == NULL)
		return 0;  /* closed: its window is gone */
	if (fr->end_marker) {
		/* every marker gives the same count; the largest is kept
		 * in case one is not gput's */
		udpacct_marker(&g->acct);
		if (fr->end_has_count && (!g->sent_known ||
		    fr->end_dgrams > g->sent)) {
			g->sent = fr->end_dgrams;
			g->sent_known = 1;
		}
		return 0;
	}
	if (fr->gpud == PDEC_GPUD_CUT) {
		g->cut++;
		return 0;
	}
	g->timed += fr->gpud_send_ns != 0;
	before = g->acct.n.duplicates;
	udpacct_add(&g->acct, fr->gpud_seq, fr->gpud_send_ns, (uint64_t)ts);
	*dup = g->acct.n.duplicates != before;
	return 0;
}

/* Flows are keyed by the unordered pair of endpoints. */
static void
flow_key(const struct pdec_frame *fr, struct pflow_key *key)
{
	uint8_t x[18], y[18];
	struct bytes bx = bytes_writer(x, sizeof x), by = bytes_writer(y, sizeof y);

	bytes_put(&bx, 0, fr->src, 16);
	bytes_put_be16(&bx, 16, fr->sport);
	bytes_put(&by, 0, fr->dst, 16);
	bytes_put_be16(&by, 16, fr->dport);
	memset(key, 0, sizeof(*key));
	key->k[0] = fr->proto;
	key->k[1] = (uint8_t)fr->ipv;
	memcpy(key->k + 2, memcmp(x, y, 18) < 0 ? x : y, 18);
	memcpy(key->k + 20, memcmp(x, y, 18) < 0 ? y : x, 18);
}

/* The fragments of one datagram share source, destination, protocol and
 * identification over IPv4 (RFC 791 3.2), source, destination and
 * identification over IPv6 (RFC 8200 4.5), where a later fragment's Next
 * Header need not be the first fragment's upper-layer protocol. */
static void
frag_key(const struct pdec_frame *fr, struct pflow_key *key)
{
	memset(key, 0, sizeof(*key));
	key->k[0] = fr->ipv == 6 ? 0 : fr->proto;
	key->k[1] = (uint8_t)fr->ipv;
	memcpy(key->k + 2, fr->src, 16);
	memcpy(key->k + 18, fr->dst, 16);
	memcpy(key->k + 34, &fr->frag_id, sizeof(fr->frag_id));
}

/* ---- flows: created on first sight, closed when done ---- */

static int
flow_live(const void *e)
{
	return !((const struct pflow *)e)->closed;
}

/* The list f belongs on: ended flows wait PFLOW_END_NS, others
 * PFLOW_IDLE_NS; each list is in order of last packet. */
static uint32_t *
list_of(struct pflow_table *t, const struct pflow *f, uint32_t **tail)
{
	*tail = f->ended ? &t->end_tail : &t->open_tail;
	return f->ended ? &t->end_head : &t->open_head;
}

static void
list_unlink(struct pflow_table *t, struct pflow *f)
{
	uint32_t *tail, *head = list_of(t, f, &tail);

	if (f->prev)
		t->flows[f->prev - 1].next = f->next;
	else
		*head = f->next;
	if (f->next)
		t->flows[f->next - 1].prev = f->prev;
	else
		*tail = f->prev;
	f->prev = f->next = 0;
}

static void
list_append(struct pflow_table *t, struct pflow *f, uint32_t id)
{
	uint32_t *tail, *head = list_of(t, f, &tail);

	f->prev = *tail;
	f->next = 0;
	if (*tail)
		t->flows[*tail - 1].next = id;
	else
		*head = id;
	*tail = id;
}

/* Close flow id (index + 1): out of the table and its list, its holes
 * and gput window freed; its counts stay for the report. */
static void
flow_close(struct pflow_table *t, uint32_t id)
{
	struct pflow *f = &t->flows[id - 1];
	size_t pos;
	int d;

	list_unlink(t, f);
	if (lookup(t, t->fslot, t->fslots, t->flows, sizeof(*f), &f->key,
	    &pos) == (long)id - 1)
		slot_delete(t, t->fslot, t->fslots, t->flows, sizeof(*f), pos);
	for (d = 0; d < 2; d++) {
		holes_drop(t, &f->dir[d]);
		if (f->dir[d].gput != NULL && f->dir[d].gput->acct.bits != NULL) {
			udpacct_free(&f->dir[d].gput->acct);
			(void)mem_grow(t, UDPACCT_WINDOW / 8, 0);
		}
	}
	f->closed = 1;
	t->flows_closed++;
}

/* Close the flows whose time has come at t->now. */
static void
flows_expire(struct pflow_table *t)
{
	while (t->end_head &&
	       t->now - t->flows[t->end_head - 1].last_ts > PFLOW_END_NS)
		flow_close(t, t->end_head);
	while (t->open_head &&
	       t->now - t->flows[t->open_head - 1].last_ts > PFLOW_IDLE_NS)
		flow_close(t, t->open_head);
}

/* A packet of flow i: last at the end of its list; a RST, or a FIN each
 * way, ends it. */
static void
flow_touch(struct pflow_table *t, long i, const struct pdec_frame *fr,
           int dir)
{
	struct pflow *f = &t->flows[i];
	int ended = f->ended;

	f->last_ts = t->now;
	if (fr->proto == 6 && fr->frag == 0) {
		f->dir[dir].fin |= (fr->tcp_flags & PDEC_TCP_FIN) != 0;
		ended |= (fr->tcp_flags & PDEC_TCP_RST) != 0 ||
		    (f->dir[0].fin && f->dir[1].fin);
	}
	if (ended == f->ended && f->next == 0)
		return;                 /* the last of its list already */
	list_unlink(t, f);          /* from the list it is on */
	f->ended = ended;
	list_append(t, f, (uint32_t)i + 1);
}

/* The flow of a frame, created on first sight; -1 when out of memory. */
static long
find_flow(struct pflow_table *t, const struct pdec_frame *fr)
{
	struct pflow_key key;
	struct pflow *f;
	size_t pos;
	long i;

	flow_key(fr, &key);
	/* most frames belong to the flow of the frame before */
	if (t->last_flow != 0 && !t->flows[t->last_flow - 1].closed &&
	    memcmp(&t->flows[t->last_flow - 1].key, &key, sizeof(key)) == 0)
		return (long)t->last_flow - 1;
	if (t->fslots > 0 && (i = lookup(t, t->fslot, t->fslots, t->flows,
	    sizeof(*f), &key, &pos)) >= 0) {
		t->last_flow = (uint32_t)i + 1;
		return i;
	}
	if (t->nflows >= UINT32_MAX - 1 ||
	    grow_slots(t, &t->fslot, &t->fslots, t->flows, sizeof(*f), t->nflows,
	    flow_live) ||
	    grow_array(t, (void **)&t->flows, &t->capflows, t->nflows,
	    sizeof(*f)) || mem_grow(t, 0, t->row_bytes) == -1)
		return -1;
	(void)lookup(t, t->fslot, t->fslots, t->flows, sizeof(*f), &key, &pos);
	f = &t->flows[t->nflows];
	memset(f, 0, sizeof(*f));
	f->key = key;
	f->proto = fr->proto;
	f->ipv = fr->ipv;
	memcpy(f->a, fr->src, 16);
	memcpy(f->b, fr->dst, 16);
	f->aport = fr->sport;
	f->bport = fr->dport;
	f->last_ts = t->now;
	t->fslot[pos] = (uint32_t)t->nflows + 1;
	list_append(t, f, (uint32_t)t->nflows + 1);
	t->last_flow = (uint32_t)t->nflows + 1;
	return (long)t->nflows++;
}

/* ---- fragments: a pending datagram per identification ---- */

/* The fragment entry of a frame, created on first sight; NULL when out of
 * memory. */
static struct pflow_frag *
find_frag(struct pflow_table *t, const struct pdec_frame *fr)
{
	struct pflow_key key;
	struct pflow_frag *g;
	size_t pos;
	long i;

	frag_key(fr, &key);
	if (t->gslots > 0 && (i = lookup(t, t->gslot, t->gslots, t->frags,
	    sizeof(*g), &key, &pos)) >= 0)
		return &t->frags[i];
	if (t->nfrags >= UINT32_MAX - 1 ||
	    grow_slots(t, &t->gslot, &t->gslots, t->frags, sizeof(*g), t->nfrags,
	    NULL) ||
	    grow_array(t, (void **)&t->frags, &t->capfrags, t->nfrags, sizeof(*g)))
		return NULL;
	(void)lookup(t, t->gslot, t->gslots, t->frags, sizeof(*g), &key, &pos);
	g = &t->frags[t->nfrags];
	memset(g, 0, sizeof(*g));
	g->key = key;
	g->born = t->now;
	t->gslot[pos] = (uint32_t)t->nfrags++ + 1;
	return g;
}

/* Empty g for the next datagram with its identification; what it held goes
 * to the flow (complete) or to the lost fragments. */
static void
frag_reset(struct pflow_table *t, struct pflow_frag *g)
{
	memset(&g->pending, 0, sizeof(g->pending));
	g->has_first = 0;
	g->have = g->total = 0;
	g->ncov = 0;
	g->born = t->now;
}

/* Free what g holds besides itself. */
static void
frag_free(struct pflow_table *t, struct pflow_frag *g)
{
	(void)mem_grow(t, g->capcov * sizeof(*g->cov), 0);
	free(g->cov);
	g->cov = NULL;
	g->ncov = g->capcov = 0;
}

/* Add [from, to) to what g's fragments cover. Returns 0, 1 when it
 * overlaps a range already covered (a duplicated or overlapping fragment:
 * nothing added), or -1 (memory). */
static int
frag_cover(struct pflow_table *t, struct pflow_frag *g, uint64_t from,
           uint64_t to)
{
	struct pflow_hole *c;
	size_t lo = 0, hi = g->ncov, cap;

	if (from >= to)
		return 0;
	while (lo < hi) {          /* the first range that ends after from */
		size_t mid = lo + (hi - lo) / 2;

		if (g->cov[mid].to > from)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo < g->ncov && g->cov[lo].from < to)
		return 1;
	if (lo > 0 && g->cov[lo - 1].to == from) {   /* joins the one before */
		g->cov[lo - 1].to = to;
		if (lo < g->ncov && g->cov[lo].from == to) {
			g->cov[lo - 1].to = g->cov[lo].to;
			memmove(&g->cov[lo], &g->cov[lo + 1],
			        (g->ncov - lo - 1) * sizeof(*c));
			g->ncov--;
		}
		return 0;
	}
	if (lo < g->ncov && g->cov[lo].from == to) { /* joins the one after */
		g->cov[lo].from = from;
		return 0;
	}
	if (g->ncov == g->capcov) {
		cap = g->capcov ? g->capcov * 2 : 4;
		if (mem_grow(t, g->capcov * sizeof(*c), cap * sizeof(*c)) == -1)
			return -1;
		if ((c = realloc(g->cov, cap * sizeof(*c))) == NULL) {
			(void)mem_grow(t, cap * sizeof(*c), g->capcov * sizeof(*c));
			return -1;
		}
		g->cov = c;
		g->capcov = cap;
	}
	memmove(&g->cov[lo + 1], &g->cov[lo], (g->ncov - lo) * sizeof(*c));
	g->cov[lo].from = from;
	g->cov[lo].to = to;
	g->ncov++;
	return 0;
}

static void
frag_give_up(struct pflow_table *t, struct pflow_frag *g)
{
	merge(&t->lost, &g->pending, 0);
	frag_reset(t, g);
}

/* Remove fragment entry i from the table: the last entry takes its place. */
static void
frag_delete(struct pflow_table *t, size_t i)
{
	struct pflow_frag *g = t->frags;
	size_t pos, last = t->nfrags - 1;

	frag_free(t, &g[i]);
	if (lookup(t, t->gslot, t->gslots, g, sizeof(*g), &g[i].key, &pos) ==
	    (long)i)
		slot_delete(t, t->gslot, t->gslots, g, sizeof(*g), pos);
	if (i != last) {
		if (lookup(t, t->gslot, t->gslots, g, sizeof(*g), &g[last].key,
		    &pos) == (long)last)
			t->gslot[pos] = (uint32_t)i + 1;
		g[i] = g[last];
	}
	t->nfrags--;
}

/* Give up the datagrams pending longer than the reassembly timeout, once
 * a second of capture time at most. */
static void
frags_expire(struct pflow_table *t)
{
	size_t i;

	if (t->now < t->frag_sweep)
		return;
	t->frag_sweep = t->now + 1000000000;
	for (i = t->nfrags; i-- > 0;) {
		struct pflow_frag *g = &t->frags[i];

		if (t->now - g->born <= PFLOW_FRAG_TIMEOUT_NS)
			continue;
		if (g->pending.packets > 0) {
			merge(&t->lost, &g->pending, 0);
			t->frags_expired++;
		}
		frag_delete(t, i);
	}
}

/* Account one fragment; when its datagram is complete, move the datagram
 * to its flow: it reaches the receiver when its last piece does, so a gput
 * header (in the first fragment) is accounted at ts of the fragment that
 * completes it. A second first (or last) fragment means the identification
 * was used again before the earlier datagram was complete, and more bytes
 * than the datagram holds mean overlapping or duplicated fragments: the
 * earlier datagram, or this one, is given up. Returns 0, or -1 with err
 * filled (out of memory). */
static int
add_fragment(struct pflow_table *t, const struct pdec_frame *fr, int64_t ts,
             char *err, size_t errlen)
{
	struct pflow_frag *g;
	struct pflow_dir *d;
	struct pflow *f;
	long i;
	int dup = 0, over;

	if ((g = find_frag(t, fr)) == NULL)
		goto nomem;
	if ((fr->frag == 1 && g->has_first) || (!fr->frag_more && g->total))
		frag_give_up(t, g);
	account(&g->pending, fr, ts, fr->payload);
	if ((over = frag_cover(t, g, fr->frag_off, (uint64_t)fr->frag_off +
	    fr->frag_len)) == -1)
		goto nomem;
	g->have += fr->frag_len;
	if (fr->frag == 1) {
		g->first = *fr;
		g->has_first = 1;
	}
	if (!fr->frag_more)
		g->total = fr->frag_off + fr->frag_len;
	/* complete when one range covers [0, total): judged by coverage, so
	 * a duplicate cannot stand in for a missing fragment */
	if (over || (g->total != 0 && g->ncov > 0 &&
	    g->cov[g->ncov - 1].to > g->total))
		frag_give_up(t, g);
	if (!g->has_first || g->total == 0 || g->ncov != 1 ||
	    g->cov[0].from != 0 || g->cov[0].to != g->total)
		return 0;
	if ((i = find_flow(t, &g->first)) < 0)
		goto nomem;
	f = &t->flows[i];
	d = &f->dir[!(memcmp(g->first.src, f->a, 16) == 0 &&
	              g->first.sport == f->aport)];
	flow_touch(t, i, &g->first, d != &f->dir[0]);
	if (g->first.proto == 17 &&
	    udp_datagram(t, d, &g->first, ts, &dup, err, errlen) == -1)
		return -1;
	merge(d, &g->pending, dup);
	frag_delete(t, (size_t)(g - t->frags));
	return 0;
nomem:
	snprintf(err, errlen, "out of memory after %zu flows", t->nflows);
	return -1;
}

/* The error when --max-memory stopped the scan. */
static void
mem_error(const struct pflow_table *t, char *err, size_t errlen)
{
	snprintf(err, errlen, "--max-memory %llu bytes (%.0f MiB) reached with "
	         "%zu flows (%llu closed) and %zu fragmented datagrams pending: "
	         "raise it, or filter the capture",
	         (unsigned long long)t->mem_max, (double)t->mem_max / 1048576,
	         t->nflows, (unsigned long long)t->flows_closed, t->nfrags);
}

/* gput's header of a TCP data connection (nonce and stream number) is not
 * payload, and its frame, sent at connect, not a data frame: a window
 * opened there would start before the data (20 ms before, on the
 * testbed). It is the direction's first bytes right after its SYN, all new,
 * of the header's length and with a stream number in range. */
static int
stream_header(const struct pflow_dir *d, const struct pdec_frame *fr,
              uint64_t newb)
{
	return fr->tcp_hello != 0 && d->syn_seen && newb == fr->payload &&
	    fr->seq == d->syn_seq + 1u && (fr->tcp_flags & PDEC_TCP_SYN) == 0;
}

static int
add_frame(struct pflow_table *t, const struct pdec_frame *fr, int64_t ts_ns,
          char *err, size_t errlen)
{
	struct pflow *f;
	uint64_t newb = fr->marker ? 0 : fr->payload;
	long i;
	int d, dup;

	/* fragmented TCP (very rare: TCP sets DF) is counted without the
	 * sequence check, as the later fragments carry no sequence number */
	if (fr->frag != 0)
		return add_fragment(t, fr, ts_ns, err, errlen);
	if ((i = find_flow(t, fr)) < 0)
		goto nomem;
	f = &t->flows[i];
	d = !(memcmp(fr->src, f->a, 16) == 0 && fr->sport == f->aport);
	flow_touch(t, i, fr, d);
	if (fr->proto == 6 && tcp_new_bytes(t, &f->dir[d], fr, &newb) == -1)
		goto nomem;
	if (fr->proto == 6 && stream_header(&f->dir[d], fr, newb)) {
		struct pdec_frame h = *fr;      /* control, as a UDP marker */

		h.marker = 1;
		account(&f->dir[d], &h, ts_ns, 0);
		return 0;
	}
	if (fr->proto == 17) {
		if (udp_datagram(t, &f->dir[d], fr, ts_ns, &dup, err, errlen) == -1)
			return -1;
		if (dup)
			newb = 0;
	}
	account(&f->dir[d], fr, ts_ns, newb);
	return 0;
nomem:
	snprintf(err, errlen, "out of memory after %zu flows", t->nflows);
	return -1;
}

int
pflow_add(struct pflow_table *t, const struct pdec_frame *fr, int64_t ts_ns,
          char *err, size_t errlen)
{
	seed(t);
	if (ts_ns > t->now)
		t->now = ts_ns;
	flows_expire(t);
	frags_expire(t);
	if (add_frame(t, fr, ts_ns, err, errlen) == 0)
		return 0;
	if (t->mem_full)
		mem_error(t, err, errlen);
	return -1;
}

static int
key_cmp(const void *a, const void *b, void *arg)
{
	const struct pflow *f = arg;
	int c = memcmp(&f[*(const uint32_t *)a].key, &f[*(const uint32_t *)b].key,
	               sizeof(f->key));

	return c != 0 ? c : *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

long
pflow_reopened(const struct pflow_table *t)
{
	uint32_t *ix;
	size_t i;
	long n = 0;

	if (t->flows_closed == 0)
		return 0;
	if ((ix = malloc(t->nflows * sizeof(*ix))) == NULL)
		return -1;
	for (i = 0; i < t->nflows; i++)
		ix[i] = (uint32_t)i;
	qsort_r(ix, t->nflows, sizeof(*ix), key_cmp, t->flows);
	for (i = 1; i < t->nflows; i++)
		n += memcmp(&t->flows[ix[i]].key, &t->flows[ix[i - 1]].key,
		            sizeof(t->flows->key)) == 0;
	free(ix);
	return n;
}

void
pflow_orphans(const struct pflow_table *t, struct pflow_dir *sum)
{
	size_t i;

	*sum = t->lost;
	for (i = 0; i < t->nfrags; i++)
		merge(sum, &t->frags[i].pending, 0);
}

void
pflow_free(struct pflow_table *t)
{
	size_t i;
	int d;

	for (i = 0; i < t->nflows; i++) {
		for (d = 0; d < 2; d++) {
			struct pflow_dir *x = &t->flows[i].dir[d];

			free(x->holes);
			if (x->gput != NULL)
				udpacct_free(&x->gput->acct);
			free(x->gput);
		}
	}
	for (i = 0; i < t->nfrags; i++)
		free(t->frags[i].cov);
	free(t->flows);
	free(t->fslot);
	free(t->frags);
	free(t->gslot);
	memset(t, 0, sizeof(*t));
}
