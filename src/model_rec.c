/* SPDX-License-Identifier: BSD-2-Clause */
/* model_rec.c: a run's model as one record of bytes (model_rec.h). */
#include "model_rec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "growbuf.h"

#define REC_MAGIC "mrec"
#define REC_ORDER 0x01020304u          /* the byte-order mark, host order */
#define REC_HEAD  16                   /* magic, mark, total */

static void
put_str(struct growbuf *w, const char *s)
{
	uint8_t b[4];
	struct bytes c = bytes_writer(b, sizeof b);
	uint32_t n = 0;

	if (s != NULL) {
		size_t l = strlen(s) + 1;

		n = l > UINT32_MAX ? UINT32_MAX : (uint32_t)l;
	}
	bytes_put_le32(&c, 0, n);
	growbuf_add(w, b, sizeof b);
	growbuf_add(w, s, n);                   /* cut at 4 GiB: take finds no NUL */
}

static void
put_ivals(struct growbuf *w, const struct side *s, int ivals)
{
	if (ivals && s->niv > 0)
		growbuf_add(w, s->iv, s->niv * sizeof *s->iv);
}

/* A stream's side as in memory, its interval count 0 without them. */
static void
put_stream(struct growbuf *w, const struct side *s, int ivals)
{
	struct side t = *s;

	if (!ivals)
		t.niv = 0;
	growbuf_add(w, &t, sizeof t);
	put_ivals(w, s, ivals);
}

int
model_rec_put(const struct run_model *m, int ivals, uint8_t **buf,
              size_t *len)
{
	struct growbuf w = { NULL, 0, 0, 0 };
	uint32_t order = REC_ORDER;
	uint8_t total[8] = { 0 };
	struct run_model h = *m;
	struct bytes c;
	uint32_t k;
	int i;

	for (i = 0; i < 2 && !ivals; i++)
		h.side[i].niv = 0;
	growbuf_add(&w, REC_MAGIC, 4);
	growbuf_add(&w, &order, sizeof order);  /* the structures' order */
	growbuf_add(&w, total, sizeof total);   /* filled in below */
	growbuf_add(&w, &h, sizeof h);
	put_str(&w, m->host);
	put_str(&w, m->error);
	for (i = 0; i < 2; i++) {
		put_ivals(&w, &m->side[i], ivals);
		for (k = 0; k < m->side[i].nst; k++)
			put_stream(&w, &m->side[i].st[k], ivals);
	}
	if (w.nomem) {
		free(w.p);
		return -1;
	}
	c = bytes_writer(w.p, w.len);
	bytes_put_le64(&c, 8, w.len);
	*buf = (uint8_t *)w.p;
	*len = w.len;
	return 0;
}

/* The record being read: what is left of it. */
struct rbuf {
	const uint8_t *p;
	size_t left;
};

static int
take(struct rbuf *r, void *d, size_t n)
{
	if (n > r->left)
		return -1;
	memcpy(d, r->p, n);
	r->p += n;
	r->left -= n;
	return 0;
}

static int
take_str(struct rbuf *r, const char **s)
{
	uint8_t b[4];
	struct bytes c;
	uint32_t n;

	*s = NULL;
	if (take(r, b, sizeof b) == -1)
		return -1;
	c = bytes_reader(b, sizeof b);
	if ((n = bytes_le32(&c, 0)) > r->left)
		return -1;
	if (n == 0)
		return 0;
	if (r->p[n - 1] != '\0')
		return -1;
	*s = (const char *)r->p;
	r->p += n;
	r->left -= n;
	return 0;
}

/* s's intervals (s->niv of them, as the record says) into an array of
 * their own. */
static int
take_ivals(struct rbuf *r, struct side *s)
{
	size_t n = s->niv;

	s->iv = NULL;
	s->cap = 0;
	if (n == 0)
		return 0;
	if (n > r->left / sizeof *s->iv)
		return -1;
	if ((s->iv = malloc(n * sizeof *s->iv)) == NULL)
		return -1;
	s->cap = n;
	return take(r, s->iv, n * sizeof *s->iv);
}

/* Side s's intervals and streams. */
static int
take_side(struct rbuf *r, struct side *s)
{
	uint32_t n = s->nst, k;

	s->st = NULL;
	s->nst = 0;
	if (take_ivals(r, s) == -1)
		return -1;
	if (n == 0)
		return 0;
	if (n > r->left / sizeof *s->st ||
	    (s->st = calloc(n, sizeof *s->st)) == NULL)
		return -1;
	for (k = 0; k < n; k++) {
		struct side *t = &s->st[k];

		if (take(r, t, sizeof *t) == -1) {
			memset(t, 0, sizeof *t);
			return -1;
		}
		s->nst = k + 1;         /* freed with the side from here on */
		t->st = NULL;           /* a stream has no streams */
		t->nst = 0;
		if (take_ivals(r, t) == -1)
			return -1;
	}
	return 0;
}

int
model_rec_take(const uint8_t *buf, size_t len, size_t *used,
               struct run_model *out, char *err, size_t errlen)
{
	struct rbuf r = { buf, len };
	struct bytes c = bytes_reader(buf, len);
	uint64_t total = bytes_le64(&c, 8);     /* short of 16: bad */
	uint32_t order;
	size_t niv[2];
	uint32_t nst[2];
	int i;

	memset(out, 0, sizeof *out);
	if (bytes_bad(&c) || memcmp(buf, REC_MAGIC, 4) != 0 || total < REC_HEAD ||
	    total > len) {
		snprintf(err, errlen, "not a whole model record");
		return -1;
	}
	memcpy(&order, buf + 4, sizeof order);  /* the writer's byte order */
	if (order != REC_ORDER) {
		snprintf(err, errlen, "a model record of another byte order");
		return -1;
	}
	r.p += REC_HEAD;
	r.left = (size_t)total - REC_HEAD;      /* the rest is the next one's */
	if (take(&r, out, sizeof *out) == -1) {
		memset(out, 0, sizeof *out);
		goto bad;
	}
	out->host = out->error = NULL;
	for (i = 0; i < 2; i++) {               /* nothing of the sender's */
		niv[i] = out->side[i].niv;
		nst[i] = out->side[i].nst;
		out->side[i].iv = NULL;
		out->side[i].st = NULL;
		out->side[i].niv = out->side[i].cap = 0;
		out->side[i].nst = 0;
	}
	if (take_str(&r, &out->host) == -1 || take_str(&r, &out->error) == -1)
		goto bad;
	for (i = 0; i < 2; i++) {
		out->side[i].niv = niv[i];
		out->side[i].nst = nst[i];
		if (take_side(&r, &out->side[i]) == -1)
			goto bad;
	}
	if (r.left != 0)
		goto bad;
	model_figures(out);             /* from the counts, not the sender's */
	*used = (size_t)total;
	return 0;
bad:
	model_free(out);
	memset(out, 0, sizeof *out);
	snprintf(err, errlen, "a model record that does not add up");
	return -1;
}
