/* pcapflow.c: frames to flows: per-direction sums, TCP retransmissions from
 * the sequence space, gput UDP duplicates from the datagrams' sequence
 * numbers, IP fragments attributed to their flow by IP id. */
#include "pcapflow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overhead.h"

#define MAX_HOLES 1024  /* sequence holes kept per direction */

/* FNV-1a over the whole key. */
static uint32_t
key_hash(const struct pflow_key *key)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < sizeof(key->k); i++)
		h = (h ^ key->k[i]) * 16777619u;
	return h;
}

/* Open addressing over an array of entries that start with their key:
 * returns the entry index, or -1 with *pos at the empty slot. */
static long
lookup(const uint32_t *slot, size_t nslots, const void *base, size_t stride,
       const struct pflow_key *key, size_t *pos)
{
	size_t i = key_hash(key) & (nslots - 1);

	while (slot[i] != 0) {
		const void *e = (const char *)base + (slot[i] - 1) * stride;

		if (memcmp(e, key, sizeof(*key)) == 0) {
			*pos = i;
			return (long)slot[i] - 1;
		}
		i = (i + 1) & (nslots - 1);
	}
	*pos = i;
	return -1;
}

/* Keep the slot array at most half full. Returns 0 or -1 (out of memory). */
static int
grow_slots(uint32_t **slot, size_t *nslots, const void *base, size_t stride,
           size_t n)
{
	size_t cap = *nslots ? *nslots * 2 : 64, i, pos;
	uint32_t *s;

	if ((n + 1) * 2 <= *nslots)
		return 0;
	if ((s = calloc(cap, sizeof(*s))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		const struct pflow_key *k = (const void *)((const char *)base +
		                                           i * stride);
		(void)lookup(s, cap, base, stride, k, &pos);
		s[pos] = (uint32_t)i + 1;
	}
	free(*slot);
	*slot = s;
	*nslots = cap;
	return 0;
}

/* Make room for one more entry of size stride in *arr. */
static int
grow_array(void **arr, size_t *cap, size_t n, size_t stride)
{
	void *p;
	size_t c = *cap ? *cap * 2 : 64;

	if (n < *cap)
		return 0;
	if ((p = realloc(*arr, c * stride)) == NULL)
		return -1;
	*arr = p;
	*cap = c;
	return 0;
}

/* Make room for one more hole: the array doubles from 8 up to MAX_HOLES,
 * so that many flows with few holes take little memory. Returns 0, or -1
 * when it holds MAX_HOLES already or memory runs out. */
static int
hole_room(struct pflow_dir *d)
{
	struct pflow_hole *h;
	size_t cap;

	if (d->nholes < d->capholes)
		return 0;
	if (d->capholes >= MAX_HOLES)
		return -1;
	cap = d->capholes ? d->capholes * 2 : 8;
	if (cap > MAX_HOLES)
		cap = MAX_HOLES;
	if ((h = realloc(d->holes, cap * sizeof(*h))) == NULL)
		return -1;
	d->holes = h;
	d->capholes = cap;
	return 0;
}

/* Remove [s, e) from the holes; returns the bytes that filled a hole. */
static uint64_t
fill_holes(struct pflow_dir *d, uint64_t s, uint64_t e)
{
	uint64_t filled = 0;
	size_t i = 0;

	while (i < d->nholes) {
		struct pflow_hole *h = &d->holes[i];
		uint64_t lo = s > h->from ? s : h->from, hi = e < h->to ? e : h->to;

		if (lo >= hi) {
			i++;
			continue;
		}
		filled += hi - lo;
		if (lo == h->from && hi == h->to) {
			memmove(h, h + 1, (d->nholes - i - 1) * sizeof(*h));
			d->nholes--;
			continue;
		}
		if (lo == h->from) {
			h->from = hi;
		} else if (hi == h->to) {
			h->to = lo;
		} else if (hole_room(d) == -1) {
			/* no room to split it: the part above is forgotten */
			d->holes_dropped += h->to - hi;
			h->to = lo;
		} else {  /* a segment inside a hole splits it in two */
			h = &d->holes[i];  /* hole_room() may have moved it */
			memmove(h + 2, h + 1, (d->nholes - i - 1) * sizeof(*h));
			h[1].from = hi;
			h[1].to = h->to;
			h->to = lo;
			d->nholes++;
			i++;
		}
		i++;
	}
	return filled;
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

/* Remember [from, to) as not seen. Holes beyond MAX_HOLES are forgotten:
 * their bytes would later count as retransmitted. Returns 0 or -1 (out of
 * memory). */
static int
add_hole(struct pflow_dir *d, uint64_t from, uint64_t to)
{
	if (d->nholes == MAX_HOLES) {
		d->holes_dropped += d->holes[0].to - d->holes[0].from;
		memmove(d->holes, d->holes + 1,
		        (MAX_HOLES - 1) * sizeof(*d->holes));
		d->nholes--;
	}
	if (hole_room(d) == -1)
		return -1;
	d->holes[d->nholes].from = from;
	d->holes[d->nholes].to = to;
	d->nholes++;
	return 0;
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
		d->holes_dropped += pflow_missing(d) - d->holes_dropped;
		d->nholes = 0;
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
tcp_new_bytes(struct pflow_dir *d, const struct pdec_frame *fr, uint64_t *out)
{
	int syn = (fr->tcp_flags & PDEC_TCP_SYN) != 0;
	uint64_t pos, s, e, old;

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
	if (s > old && add_hole(d, old, s) == -1)
		return -1;
	if (e > old) {
		*out = e - (s > old ? s : old);
		d->seq_max = e;
	}
	if (s < old)
		*out += fill_holes(d, s, e < old ? e : old);
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
static int
gput_get(struct pflow_dir *d, char *err, size_t errlen)
{
	struct pflow_gput *g;

	if (d->gput != NULL)
		return 0;
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
udp_datagram(struct pflow_dir *d, const struct pdec_frame *fr, int64_t ts,
             int *dup, char *err, size_t errlen)
{
	struct pflow_gput *g;
	uint64_t before;

	*dup = 0;
	if (fr->marker && !fr->end_marker)
		return 0;  /* the proof: control, nothing to count */
	d->datagrams += !fr->marker;
	if (!fr->end_marker && fr->gpud == PDEC_GPUD_NONE)
		return 0;
	if (gput_get(d, err, errlen) == -1)
		return -1;
	g = d->gput;
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
	before = g->acct.duplicates;
	udpacct_add(&g->acct, fr->gpud_seq, fr->gpud_send_ns, (uint64_t)ts);
	*dup = g->acct.duplicates != before;
	return 0;
}

/* Flows are keyed by the unordered pair of endpoints. */
static void
flow_key(const struct pdec_frame *fr, struct pflow_key *key)
{
	uint8_t x[18], y[18];

	memcpy(x, fr->src, 16);
	x[16] = (uint8_t)(fr->sport >> 8), x[17] = (uint8_t)fr->sport;
	memcpy(y, fr->dst, 16);
	y[16] = (uint8_t)(fr->dport >> 8), y[17] = (uint8_t)fr->dport;
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

/* The flow of a frame, created on first sight; -1 when out of memory. */
static long
find_flow(struct pflow_table *t, const struct pdec_frame *fr)
{
	struct pflow_key key;
	struct pflow *f;
	size_t pos;
	long i;

	flow_key(fr, &key);
	if (t->fslots > 0 &&
	    (i = lookup(t->fslot, t->fslots, t->flows, sizeof(*f), &key, &pos)) >= 0)
		return i;
	if (grow_slots(&t->fslot, &t->fslots, t->flows, sizeof(*f), t->nflows) ||
	    grow_array((void **)&t->flows, &t->capflows, t->nflows, sizeof(*f)))
		return -1;
	(void)lookup(t->fslot, t->fslots, t->flows, sizeof(*f), &key, &pos);
	f = &t->flows[t->nflows];
	memset(f, 0, sizeof(*f));
	f->key = key;
	f->proto = fr->proto;
	f->ipv = fr->ipv;
	memcpy(f->a, fr->src, 16);
	memcpy(f->b, fr->dst, 16);
	f->aport = fr->sport;
	f->bport = fr->dport;
	t->fslot[pos] = (uint32_t)t->nflows + 1;
	return (long)t->nflows++;
}

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
	if (t->gslots > 0 &&
	    (i = lookup(t->gslot, t->gslots, t->frags, sizeof(*g), &key, &pos)) >= 0)
		return &t->frags[i];
	if (grow_slots(&t->gslot, &t->gslots, t->frags, sizeof(*g), t->nfrags) ||
	    grow_array((void **)&t->frags, &t->capfrags, t->nfrags, sizeof(*g)))
		return NULL;
	(void)lookup(t->gslot, t->gslots, t->frags, sizeof(*g), &key, &pos);
	g = &t->frags[t->nfrags];
	memset(g, 0, sizeof(*g));
	g->key = key;
	t->gslot[pos] = (uint32_t)t->nfrags++ + 1;
	return g;
}

/* Empty g for the next datagram with its identification; what it held goes
 * to the flow (complete) or to the lost fragments. */
static void
frag_reset(struct pflow_frag *g)
{
	memset(&g->pending, 0, sizeof(g->pending));
	g->has_first = 0;
	g->have = g->total = 0;
}

static void
frag_give_up(struct pflow_table *t, struct pflow_frag *g)
{
	merge(&t->lost, &g->pending, 0);
	frag_reset(g);
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
	int dup = 0;

	if ((g = find_frag(t, fr)) == NULL)
		goto nomem;
	if ((fr->frag == 1 && g->has_first) || (!fr->frag_more && g->total))
		frag_give_up(t, g);
	account(&g->pending, fr, ts, fr->payload);
	g->have += fr->frag_len;
	if (fr->frag == 1) {
		g->first = *fr;
		g->has_first = 1;
	}
	if (!fr->frag_more)
		g->total = fr->frag_off + fr->frag_len;
	if (g->total != 0 && g->have > g->total)
		frag_give_up(t, g);
	if (!g->has_first || g->total == 0 || g->have < g->total)
		return 0;
	if ((i = find_flow(t, &g->first)) < 0)
		goto nomem;
	f = &t->flows[i];
	d = &f->dir[!(memcmp(g->first.src, f->a, 16) == 0 &&
	              g->first.sport == f->aport)];
	if (g->first.proto == 17 &&
	    udp_datagram(d, &g->first, ts, &dup, err, errlen) == -1)
		return -1;
	merge(d, &g->pending, dup);
	frag_reset(g);
	return 0;
nomem:
	snprintf(err, errlen, "out of memory after %zu flows", t->nflows);
	return -1;
}

int
pflow_add(struct pflow_table *t, const struct pdec_frame *fr, int64_t ts_ns,
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
	if (fr->proto == 6 && tcp_new_bytes(&f->dir[d], fr, &newb) == -1)
		goto nomem;
	if (fr->proto == 17) {
		if (udp_datagram(&f->dir[d], fr, ts_ns, &dup, err, errlen) == -1)
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
	free(t->flows);
	free(t->fslot);
	free(t->frags);
	free(t->gslot);
	memset(t, 0, sizeof(*t));
}
