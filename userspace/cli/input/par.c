// SPDX-License-Identifier: GPL-2.0
/* One input, several threads.  See par.h. */
#define _GNU_SOURCE

#include "input/par.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/pages.h"
#include "base/status.h"
#include "format/perf_file.h"
#include "input/input.h"
#include "input/perfdata.h"
#include "input/perfscript.h"

enum item_kind {
	IT_UNIT,
	IT_MMAP,
	IT_COMM,
	IT_TASK,
};

enum unit_kind {
	U_TEXT,		/* a piece of a text file, in its buffer */
	U_RECS,		/* samples: raw perf.data records or decoded ones */
};

/* A unit's record entries, 8-byte aligned. */
enum rec_kind {
	R_RAW = 1,	/* struct rec_hdr, then the record */
	R_DEC,		/* struct rec_hdr, struct ev_sample, entries, event */
	R_REF,		/* struct rec_hdr, the address of a record that stays
			 * in the reader's mapping (ev_sink.keep_raw) */
};

struct rec_hdr {
	uint32_t kind;
	uint32_t size;		/* bytes after the header */
	uint64_t off;
};

struct unit {
	uint64_t seq;
	enum unit_kind kind;
	/* U_TEXT: its text, in buf */
	const char *text;
	size_t len;
	bool at_end;
	unsigned char *res;		/* what its mmap lines map, in order
					 * (mmap_res_size bytes each) */
	size_t nr_res, cap_res;
	/* U_RECS (buf and cap: U_TEXT's too) */
	const struct pd_decoder *dec;
	uint8_t *buf;
	size_t used, cap;
	size_t in_bytes;		/* of the input (R_REF: elsewhere) */
	const uint8_t *lo;		/* R_REF: the lowest record */
	unsigned long lines;		/* U_TEXT: lines it holds (once read) */
	/* ordered output */
	struct par_buf out;
	bool done;
	struct unit *next;		/* free list, output list */
};

struct unit_lines {
	uint64_t seq;
	unsigned long lines;
};

struct item {
	enum item_kind kind;
	uint64_t seq;
	int refs;			/* workers that still have it */
	int skip;			/* the worker that applied it in place */
	struct unit *u;
	struct ev_mmap mmap;
	struct ev_comm comm;
	struct ev_task task;
	char *str;
	unsigned char res[];		/* IT_MMAP: mmap_prepare()'s */
};

struct queue {
	struct item **v;
	size_t head, len, cap;
	unsigned units;			/* units among them */
	bool busy;			/* handling an item */
	pthread_cond_t cond;
};

struct worker {
	struct par *p;
	unsigned idx;
	pthread_t tid;
	bool started;
	void *arg;			/* the consumer's state */
	struct queue q;
	struct input_stats st;		/* text: what this worker parsed */
	struct pd_sample_room *room;	/* a sample's entries, call stack */
	/* the unit being handled (text: its in-place mmaps) */
	struct unit *cur;
	size_t next_res;
	const uint8_t *lo;		/* a unit being handled: R_REF's lo */
	/* first failure */
	bool failed;
	uint64_t err_seq;
	int err_ret;
	char err[BR_ERR_MAX];
	char *err_text;			/* U_TEXT failed: the unit's text */
	size_t err_len;
	bool err_at_end;
	/* the earliest unit after which its resolver had an event */
	uint64_t event_seq;
};

struct par {
	const char *name;
	const struct input_opts *opts;
	const struct par_consumer *c;
	bool collect;			/* a consumer of every event (not
					 * script, which takes samples only) */
	/* script: the worker's buffer for the unit being handled */
	void (*set_out)(void *w, struct par_buf *out);
	unsigned n;
	struct worker *w;
	size_t unit_bytes;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* reader: room, idle, output */
	uint64_t seq;			/* next item number */
	bool closing;
	bool stop;			/* a worker failed: read no further */
	uint64_t fail_seq;		/* the earliest failure so far */
	struct unit_lines *lines;	/* text: lines of every unit read */
	size_t nr_lines, cap_lines;
	struct unit *free_units;
	unsigned nr_units;		/* allocated */
	struct unit *cur;		/* U_RECS being filled */
	/* records read in place: the pages below @dropped have left */
	const uint8_t *dropped;
	const uint8_t *ref_hi;		/* the end of the highest record */
	void **wargs;			/* every worker's state */
	bool started;
	/* ordered output (script) */
	FILE *out;
	struct unit *pending;		/* done, waiting for earlier ones */
	uint64_t next_out;
	bool out_failed;
	/* script --stats: the events */
	int (*attr)(void *arg, const struct ev_attr *a, char *err,
		    size_t errsz);
	void *attr_arg;
	/* progress */
	const struct par_progress *progress;
	uint64_t total_bytes;		/* 0: unknown */
	uint64_t bytes;			/* read so far */
	uint64_t samples;
	unsigned tick;
};

/* ---- progress --------------------------------------------------------- */

static void progress_end(struct par *p)
{
	if (p->progress)
		p->progress->show(p->progress->arg, p->bytes, p->total_bytes,
				  p->samples, true);
}

static void progress(struct par *p, uint64_t bytes, uint64_t samples)
{
	if (!p->progress)
		return;
	if (bytes > p->bytes)
		p->bytes = bytes;
	p->samples += samples;
	if (++p->tick % 256)
		return;
	p->progress->show(p->progress->arg, p->bytes, p->total_bytes,
			  p->samples, false);
}

/* ---- units and queues ------------------------------------------------- */

char *par_buf_room(struct par_buf *b, size_t n)
{
	if (br_grow_from((void **)&b->p, &b->cap, b->len + n, 1, 4096))
		return NULL;
	return b->p + b->len;
}

static void unit_free(struct unit *u)
{
	free(u->res);
	free(u->buf);
	free(u->out.p);
	free(u);
}

/* A unit to fill (the caller holds the lock). */
static struct unit *unit_get(struct par *p)
{
	struct unit *u = p->free_units;

	if (u) {
		p->free_units = u->next;
	} else {
		u = calloc(1, sizeof(*u));
		if (!u)
			return NULL;
		p->nr_units++;
	}
	u->seq = 0;
	u->text = NULL;
	u->len = 0;
	u->at_end = false;
	u->nr_res = 0;
	u->used = 0;
	u->in_bytes = 0;
	u->lo = NULL;
	u->dec = NULL;
	u->out.len = 0;
	u->done = false;
	u->next = NULL;
	return u;
}

static void unit_put(struct par *p, struct unit *u)
{
	u->next = p->free_units;
	p->free_units = u;
}

static int push(struct par *p, struct worker *w, struct item *it)
{
	struct queue *q = &w->q;

	if (q->len == q->cap) {
		size_t c = q->cap ? 2 * q->cap : 64, i;
		struct item **v = malloc(c * sizeof(*v));

		if (!v)
			return BR_ESYS;
		for (i = 0; i < q->len; i++)
			v[i] = q->v[(q->head + i) % q->cap];
		free(q->v);
		q->v = v;
		q->head = 0;
		q->cap = c;
	}
	q->v[(q->head + q->len++) % q->cap] = it;
	if (it->kind == IT_UNIT)
		q->units++;
	pthread_cond_signal(&q->cond);
	(void)p;
	return 0;
}

/* Wait (lock held) until every worker has handled everything it has. */
static void wait_idle(struct par *p)
{
	unsigned i;

	for (;;) {
		bool idle = true;

		for (i = 0; i < p->n; i++)
			if (p->w[i].q.len || p->w[i].q.busy)
				idle = false;
		if (idle)
			return;
		pthread_cond_wait(&p->cond, &p->lock);
	}
}

/* ---- ordered output ----------------------------------------------------- */

/* Write the done units in order (lock held). */
static void write_out(struct par *p)
{
	for (;;) {
		struct unit **pp, *u = NULL;

		for (pp = &p->pending; *pp; pp = &(*pp)->next) {
			if ((*pp)->seq == p->next_out) {
				u = *pp;
				*pp = u->next;
				break;
			}
		}
		if (!u)
			return;
		if (!p->out_failed && u->out.len &&
		    !(p->stop && u->seq > p->fail_seq) &&
		    fwrite(u->out.p, 1, u->out.len, p->out) != u->out.len)
			p->out_failed = true;
		p->next_out = u->seq + 1;
		unit_put(p, u);
	}
}

/* ---- workers ------------------------------------------------------------ */

static void fail(struct worker *w, struct item *it, int ret, const char *msg)
{
	struct par *p = w->p;

	pthread_mutex_lock(&p->lock);
	if (!w->failed || it->seq < w->err_seq) {
		w->failed = true;
		w->err_seq = it->seq;
		w->err_ret = ret ? ret : BR_ESYS;
		snprintf(w->err, sizeof(w->err), "%s", msg);
		free(w->err_text);
		w->err_text = NULL;
		if (it->kind == IT_UNIT && it->u->kind == U_TEXT) {
			/* the unit's buffer is read into again: a copy */
			w->err_text = malloc(it->u->len ? it->u->len : 1);
			if (w->err_text)
				memcpy(w->err_text, it->u->text, it->u->len);
			w->err_len = it->u->len;
			w->err_at_end = it->u->at_end;
		}
	}
	if (!p->stop || it->seq < p->fail_seq)
		p->fail_seq = it->seq;
	p->stop = true;
	pthread_mutex_unlock(&p->lock);
}

/* Note a text unit's line count (lock held); BR_ESYS out of memory. */
static int note_lines(struct par *p, const struct unit *u)
{
	if (br_grow_from((void **)&p->lines, &p->cap_lines, p->nr_lines + 1,
			 sizeof(*p->lines), 256))
		return BR_ESYS;
	p->lines[p->nr_lines].seq = u->seq;
	p->lines[p->nr_lines++].lines = u->lines;
	return 0;
}

/* The text adapter's mmap: the reader resolved it, in the same order. */
static int w_text_mmap(void *arg, const struct ev_mmap *m, char *err,
		       size_t errsz)
{
	struct worker *w = arg;
	struct unit *u = w->cur;

	if (!w->p->collect)
		return 0;	/* script: the mmap lines do not matter */
	if (w->next_res >= u->nr_res) {
		snprintf(err, errsz, "%s: the mmap lines of a unit changed",
			 w->p->name);
		return BR_ESYS;
	}
	return w->p->c->mmap_apply(w->arg, m,
				   u->res + w->next_res++ * w->p->c->mmap_res_size,
				   err, errsz);
}

static int w_sample(void *arg, const struct ev_sample *s, char *err,
		    size_t errsz)
{
	struct worker *w = arg;

	return w->p->c->sample(w->arg, s, err, errsz);
}

static int do_recs(struct worker *w, struct unit *u, char *err, size_t errsz)
{
	size_t at = 0;
	int r;

	while (at < u->used) {
		const struct rec_hdr *h = (const void *)(u->buf + at);
		const uint8_t *body = u->buf + at + sizeof(*h);
		size_t len = h->size;
		struct ev_sample s;

		if (h->kind == R_REF) {
			memcpy(&body, body, sizeof(body));
			len = sizeof(body);
		}
		if (h->kind != R_DEC) {
			r = pd_decode_sample(u->dec, body, h->size, h->off,
					     w->p->name, w->room, &s, err, errsz);
			if (r)
				return r;
		} else {
			const uint8_t *p = body + sizeof(s);

			memcpy(&s, body, sizeof(s));
			s.br = (const struct ev_branch *)p;
			p += s.nr * sizeof(*s.br);
			s.callchain = s.callchain_nr ? (const uint64_t *)p : NULL;
			p += s.callchain_nr * sizeof(*s.callchain);
			s.event = (const char *)p;
			s.pos.name = w->p->name;
		}
		r = w->p->c->sample(w->arg, &s, err, errsz);
		if (r)
			return r;
		at += sizeof(*h) + ((len + 7) & ~(size_t)7);
	}
	return 0;
}

static int do_text(struct worker *w, struct unit *u, char *err, size_t errsz)
{
	struct ev_sink sink = { 0 };
	int r;

	unsigned long lines = w->st.ps.lines;

	sink.sample = w_sample;
	sink.mmap = w_text_mmap;
	sink.arg = w;
	w->next_res = 0;
	/* line numbers are relative; see text_error() */
	r = input_read_text_mem(u->text, u->len, w->p->name, 0, u->at_end,
				w->p->opts, &sink, &w->st, err, errsz);
	u->lines = w->st.ps.lines - lines;
	if (r == BR_EPARTIAL)
		snprintf(err, errsz, "%s: a unit ended inside a sample",
			 w->p->name);
	return r;
}

static int handle(struct worker *w, struct item *it, char *err, size_t errsz)
{
	const struct par_consumer *c = w->p->c;

	switch (it->kind) {
	case IT_UNIT:
		w->cur = it->u;
		if (w->p->set_out)
			w->p->set_out(w->arg, &it->u->out);
		return it->u->kind == U_TEXT ? do_text(w, it->u, err, errsz) :
					       do_recs(w, it->u, err, errsz);
	case IT_MMAP:
		if (it->skip == (int)w->idx)
			return 0;
		return c->mmap_apply(w->arg, &it->mmap, it->res, err, errsz);
	case IT_COMM:
		return c->comm(w->arg, &it->comm, err, errsz);
	case IT_TASK:
		return c->task(w->arg, &it->task, err, errsz);
	}
	return 0;
}

static bool has_event(const struct par *p, const struct worker *w)
{
	return p->c->has_event && p->c->has_event(w->arg);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct par *p = w->p;
	char err[BR_ERR_MAX];

	for (;;) {
		struct item *it;
		bool skip;
		int r = 0;

		pthread_mutex_lock(&p->lock);
		while (!w->q.len && !p->closing)
			pthread_cond_wait(&w->q.cond, &p->lock);
		if (!w->q.len) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		it = w->q.v[w->q.head];
		w->q.head = (w->q.head + 1) % w->q.cap;
		w->q.len--;
		w->q.busy = true;
		w->lo = it->kind == IT_UNIT ? it->u->lo : NULL;
		/* after the earliest failure nothing counts */
		skip = w->failed || (p->stop && it->seq > p->fail_seq);
		pthread_mutex_unlock(&p->lock);

		if (!skip) {
			err[0] = '\0';
			r = handle(w, it, err, sizeof(err));
			if (r)
				fail(w, it, r, err);
			else if (it->kind == IT_UNIT && !w->event_seq &&
				 has_event(p, w))
				w->event_seq = it->seq + 1;
		}

		pthread_mutex_lock(&p->lock);
		w->q.busy = false;
		w->lo = NULL;
		if (it->kind == IT_UNIT && it->u->kind == U_TEXT && !skip &&
		    note_lines(p, it->u) && !p->stop) {
			p->stop = true;
			p->fail_seq = 0;
			w->failed = true;
			w->err_ret = BR_ESYS;
			snprintf(w->err, sizeof(w->err), "%s: out of memory",
				 p->name);
		}
		if (it->kind == IT_UNIT) {
			w->q.units--;
			if (p->out) {
				it->u->next = p->pending;
				p->pending = it->u;
				write_out(p);
			} else {
				unit_put(p, it->u);
			}
			free(it);
		} else if (!--it->refs) {
			free(it->str);
			free(it);
		}
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* ---- the reader --------------------------------------------------------- */

/* Give @u to the worker with the fewest units (waiting for room). */
static int dispatch(struct par *p, struct unit *u, int *to)
{
	struct item *it = calloc(1, sizeof(*it));
	struct worker *best = NULL;
	unsigned i;

	if (!it)
		return BR_ESYS;
	it->kind = IT_UNIT;
	it->u = u;
	it->refs = 1;
	it->skip = -1;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		best = NULL;
		for (i = 0; i < p->n; i++)
			if (p->w[i].q.units < PAR_DEPTH &&
			    (!best || p->w[i].q.units < best->q.units))
				best = &p->w[i];
		if (best || p->stop)
			break;
		pthread_cond_wait(&p->cond, &p->lock);
	}
	if (!best) {
		/* a worker failed: what follows is not needed */
		unit_put(p, u);
		pthread_mutex_unlock(&p->lock);
		free(it);
		return 1;
	}
	u->seq = it->seq = p->seq++;
	if (push(p, best, it)) {
		pthread_mutex_unlock(&p->lock);
		free(it);
		return BR_ESYS;
	}
	if (to)
		*to = (int)best->idx;
	pthread_mutex_unlock(&p->lock);
	return 0;
}

/* A side-band event for every worker (but @skip); takes @it. */
static int broadcast(struct par *p, struct item *it, int skip)
{
	unsigned i;
	int r = 0;

	it->skip = skip;
	pthread_mutex_lock(&p->lock);
	it->seq = p->seq++;
	it->refs = (int)p->n;
	for (i = 0; i < p->n && !r; i++)
		r = push(p, &p->w[i], it);
	if (r) {
		/* the workers that got it will free it */
		it->refs -= (int)(p->n - i + 1);
		if (it->refs <= 0) {
			free(it->str);
			free(it);
		}
	}
	pthread_mutex_unlock(&p->lock);
	return r;
}

/* Bytes of the mapped input dropped at a time (drop_done()). */
#define PAR_DROP_STEP ((size_t)16 << 20)

/*
 * Records read in place: the pages below every unit not handled yet leave
 * the process (constant memory), PAR_DROP_STEP bytes or more at a time and
 * from the reader, so that the input costs as few madvise() calls, each a
 * TLB flush on every core running a thread of ours, as one thread makes.
 * A record below that point delivered later is read from the page cache
 * again.
 */
static void drop_done(struct par *p)
{
	const uint8_t *lo = p->ref_hi;
	unsigned i;
	size_t k;

	pthread_mutex_lock(&p->lock);
	for (i = 0; i < p->n; i++) {
		const struct worker *w = &p->w[i];

		if (w->lo && w->lo < lo)
			lo = w->lo;
		for (k = 0; k < w->q.len; k++) {
			const struct item *it = w->q.v[(w->q.head + k) % w->q.cap];

			if (it->kind == IT_UNIT && it->u->lo && it->u->lo < lo)
				lo = it->u->lo;
		}
	}
	pthread_mutex_unlock(&p->lock);
	lo = (const uint8_t *)((uintptr_t)lo & ~(uintptr_t)4095);
	if (lo >= p->dropped + PAR_DROP_STEP) {
		br_drop_pages(p->dropped, lo);
		p->dropped = lo;
	}
}

static int flush_cur(struct par *p)
{
	struct unit *u = p->cur;
	bool ref;
	int r;

	if (!u)
		return 0;
	p->cur = NULL;
	if (!u->used) {
		pthread_mutex_lock(&p->lock);
		unit_put(p, u);
		pthread_mutex_unlock(&p->lock);
		return 0;
	}
	ref = u->lo != NULL;
	r = dispatch(p, u, NULL);
	if (!r && ref)
		drop_done(p);
	return r < 0 ? BR_ESYS : 0;
}

/* Every worker has handled everything it got. */
static void barrier(struct par *p)
{
	pthread_mutex_lock(&p->lock);
	wait_idle(p);
	pthread_mutex_unlock(&p->lock);
}

/* Before the first sample: the kernel DSO, made here, for every replica. */
static int start(struct par *p)
{
	if (p->started || !p->collect)
		return 0;
	p->started = true;
	if (flush_cur(p))
		return BR_ESYS;
	barrier(p);
	return p->c->start ? p->c->start(p->c->master, p->wargs, p->n) : 0;
}

#define STOPPED 3	/* a callback's status: a worker failed */

/*
 * A unit of samples read in place covers this many times PAR_UNIT_BYTES of
 * input: its entries are small (and every unit wakes its worker).
 */
#define PAR_REF_UNITS 4

static int oom(struct par *p, char *err, size_t errsz)
{
	snprintf(err, errsz, "%s: out of memory", p->name);
	return BR_ESYS;
}

/*
 * Room for @n bytes in the current unit, which takes @in bytes of the
 * input (@ref: read in place), flushing a full one first.
 */
static uint8_t *cur_room(struct par *p, size_t n, size_t in, bool ref)
{
	struct unit *u = p->cur;
	size_t max_in = p->unit_bytes * (ref ? PAR_REF_UNITS : 1);

	if (u && u->used && (u->used + n > p->unit_bytes ||
			     u->in_bytes + in > max_in)) {
		if (flush_cur(p))
			return NULL;
		u = NULL;
	}
	if (!u) {
		pthread_mutex_lock(&p->lock);
		u = unit_get(p);
		pthread_mutex_unlock(&p->lock);
		if (!u)
			return NULL;
		u->kind = U_RECS;
		p->cur = u;
	}
	if (br_grow_from((void **)&u->buf, &u->cap, u->used + n, 1,
			 p->unit_bytes + 4096))
		return NULL;
	return u->buf + u->used;
}

/*
 * A record of @kind for the current unit: its header (@size, @off) written
 * in room for @n bytes (cur_room(): @in, @ref), the workers started first.
 * Where its @size bytes go, or NULL with *@r the handler's status (STOPPED,
 * or out of memory).
 */
static uint8_t *new_record(struct par *p, size_t n, size_t in, bool ref,
			   uint32_t kind, size_t size, uint64_t off, int *r,
			   char *err, size_t errsz)
{
	struct rec_hdr *h;
	uint8_t *at;

	if (p->stop) {
		*r = STOPPED;
		return NULL;
	}
	at = p->started || !start(p) ? cur_room(p, n, in, ref) : NULL;
	if (!at) {
		*r = oom(p, err, errsz);
		return NULL;
	}
	h = (struct rec_hdr *)at;
	h->kind = kind;
	h->size = (uint32_t)size;
	h->off = off;
	return at + sizeof(*h);
}

/* A kept record goes by its address (and its span), others as a copy. */
static int r_raw(void *arg, const struct pd_decoder *dec, const uint8_t *rec,
		 size_t size, uint64_t off, bool kept, char *err, size_t errsz)
{
	struct par *p = arg;
	size_t body = kept ? sizeof(rec) : size;
	size_t n = sizeof(struct rec_hdr) + ((body + 7) & ~(size_t)7);
	struct unit *u;
	uint8_t *at;
	int r;

	at = new_record(p, n, size, kept, kept ? R_REF : R_RAW, size, off, &r,
			err, errsz);
	if (!at)
		return r;
	u = p->cur;
	if (u->dec && u->dec != dec)
		return oom(p, err, errsz);
	u->dec = dec;
	if (kept) {
		memcpy(at, &rec, sizeof(rec));
		if (!u->lo || rec < u->lo)
			u->lo = rec;
		if (!p->dropped)
			p->dropped = (const uint8_t *)((uintptr_t)rec &
						       ~(uintptr_t)4095);
		if (rec + size > p->ref_hi)
			p->ref_hi = rec + size;
	} else {
		memcpy(at, rec, size);
	}
	u->used += n;
	u->in_bytes += size;
	progress(p, off + size, 1);
	return 0;
}

/* A sample decoded by the reader (text from a pipe, read values). */
static int r_sample(void *arg, const struct ev_sample *s, char *err,
		    size_t errsz)
{
	struct par *p = arg;
	size_t ev = strlen(s->event) + 1;
	size_t cc = s->callchain_nr * sizeof(*s->callchain);
	size_t body = sizeof(*s) + s->nr * sizeof(*s->br) + cc + ev;
	size_t n = sizeof(struct rec_hdr) + ((body + 7) & ~(size_t)7);
	uint8_t *at;
	int r;

	at = new_record(p, n, body, false, R_DEC, body, s->pos.offset, &r, err,
			errsz);
	if (!at)
		return r;
	p->cur->in_bytes += body;
	memcpy(at, s, sizeof(*s));
	/* the sample, its entries, its call stack, its event's name */
	if (s->nr)
		memcpy(at + sizeof(*s), s->br, s->nr * sizeof(*s->br));
	if (cc)
		memcpy(at + sizeof(*s) + s->nr * sizeof(*s->br), s->callchain,
		       cc);
	memcpy(at + sizeof(*s) + s->nr * sizeof(*s->br) + cc, s->event, ev);
	p->cur->used += n;
	progress(p, s->pos.offset, 1);
	return 0;
}

/*
 * A new item of @kind for the workers, the current unit flushed first (so
 * that the item comes after the samples read before it): NULL with *@r the
 * handler's status (STOPPED, or out of memory) when there is none.
 */
static struct item *new_item(struct par *p, enum item_kind kind, int *r,
			     char *err, size_t errsz)
{
	struct item *it;

	if (p->stop) {
		*r = STOPPED;
		return NULL;
	}
	it = flush_cur(p) ? NULL : calloc(1, sizeof(*it) +
					       p->c->mmap_res_size);
	if (!it) {
		*r = oom(p, err, errsz);
		return NULL;
	}
	it->kind = kind;
	return it;
}

/* @it to every worker: 0, or out of memory. */
static int send_item(struct par *p, struct item *it, char *err, size_t errsz)
{
	return broadcast(p, it, -1) ? oom(p, err, errsz) : 0;
}

/* @it owns a copy of @str (*@copy), or is freed: false out of memory. */
static bool own_str(struct item *it, const char *str, const char **copy)
{
	it->str = strdup(str);
	if (!it->str) {
		free(it);
		return false;
	}
	*copy = it->str;
	return true;
}

static int r_mmap(void *arg, const struct ev_mmap *m, char *err, size_t errsz)
{
	struct par *p = arg;
	bool bar = false;
	int r;
	struct item *it = new_item(p, IT_MMAP, &r, err, errsz);

	if (!it)
		return r;
	it->mmap = *m;
	r = p->c->mmap_prepare(p->c->master, m, it->res, &bar, err, errsz);
	if (!r && bar)
		barrier(p);	/* e.g. a DSO the workers may be loading */
	if (r) {
		free(it);
		return r;
	}
	if (!own_str(it, m->path, &it->mmap.path))
		return oom(p, err, errsz);
	return send_item(p, it, err, errsz);
}

static int r_comm(void *arg, const struct ev_comm *c, char *err, size_t errsz)
{
	struct par *p = arg;
	int r;
	struct item *it = new_item(p, IT_COMM, &r, err, errsz);

	if (!it)
		return r;
	it->comm = *c;
	if (!own_str(it, c->comm, &it->comm.comm))
		return oom(p, err, errsz);
	return send_item(p, it, err, errsz);
}

static int r_task(void *arg, const struct ev_task *t, char *err, size_t errsz)
{
	struct par *p = arg;
	int r;
	struct item *it = new_item(p, IT_TASK, &r, err, errsz);

	if (!it)
		return r;
	it->task = *t;
	return send_item(p, it, err, errsz);
}

static int r_build_id(void *arg, const struct ev_build_id *b, char *err,
		      size_t errsz)
{
	struct par *p = arg;

	return p->c->build_id ? p->c->build_id(p->c->master, b, err, errsz) : 0;
}

static int r_sync(void *arg, char *err, size_t errsz)
{
	struct par *p = arg;

	if (flush_cur(p))
		return oom(p, err, errsz);
	barrier(p);
	return p->stop ? STOPPED : 0;
}

/* ---- perf script text in a regular file ----------------------------------- */

/* Is the line ending at @e (exclusive) a sample line with its IP? */
static bool clean_before(const char *text, size_t e, struct ps_line *pl)
{
	const char *l = text + e, *s;
	char msg[PS_ERR_MAX];

	s = l;
	while (s > text && s[-1] != '\n')
		s--;
	if (ps_parse_line(s, (size_t)(l - s), pl, msg, sizeof(msg)))
		return false;
	return pl->kind == PS_SAMPLE && pl->ip_present;
}

/*
 * Perf script text in a regular file is read into the units' own buffers
 * (read(), as one thread reads it): the reader only looks for the cut and
 * the mmap lines in what it has just read, and no page of the file is
 * mapped, faulted in or dropped by any thread.
 */
struct text_in {
	int fd;
	bool eof;
	uint64_t off;			/* of the next unit in the file */
	char *carry;			/* read past the last cut */
	size_t carry_len, carry_cap;
	/* the cut being looked for in the unit being filled */
	size_t at;
	unsigned tries;
};

/* Bytes read past the wanted size, in which the cut is looked for first. */
#define TEXT_MARGIN ((size_t)64 << 10)

/* Room for @n bytes in *@b (capacity *@cap); false out of memory. */
static bool text_room(char **b, size_t *cap, size_t n)
{
	return !br_grow_from((void **)b, cap, n, 1, 4096);
}

/* Read into @u until it holds @n bytes or the input ends. */
static int text_fill(struct par *p, struct text_in *in, struct unit *u,
		     size_t n, char *err, size_t errsz)
{
	char *b = (char *)u->buf;

	if (!text_room(&b, &u->cap, n))
		return oom(p, err, errsz);
	u->buf = (uint8_t *)b;
	while (u->len < n && !in->eof) {
		ssize_t got = read(in->fd, b + u->len, n - u->len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(err, errsz, "%s: offset %" PRIu64 ": read error: %s",
				 p->name, in->off + u->len, strerror(errno));
			return BR_ESYS;
		}
		if (!got)
			in->eof = true;
		u->len += (size_t)got;
	}
	u->text = b;
	return 0;
}

/*
 * Where unit @u should end: after the first clean line ending at in->at or
 * later (256 lines without one: one unit further).  0 when that is beyond
 * what @u holds.
 */
static size_t cut_in(struct text_in *in, const struct unit *u, size_t want,
		     struct ps_line *pl)
{
	const char *text = u->text;

	while (in->at < u->len) {
		const char *nl = memchr(text + in->at, '\n', u->len - in->at);
		size_t at;

		if (!nl)
			return 0;
		at = (size_t)(nl - text);
		if (clean_before(text, at, pl))
			return at + 1;
		in->at = at + 1;
		if (++in->tries == 256) {
			/* no sample line here: try one unit further */
			in->at += want;
			in->tries = 0;
		}
	}
	return 0;
}

/*
 * Fill unit @u: what was read past the last cut, then the file, up to a
 * cut near p->unit_bytes (or the end of the input).  An empty @u: the
 * input has ended.
 */
static int text_next_unit(struct par *p, struct text_in *in, struct unit *u,
			  struct ps_line *pl, char *err, size_t errsz)
{
	size_t want = p->unit_bytes, end = 0;
	char *b = (char *)u->buf;
	int r;

	if (!text_room(&b, &u->cap, (in->carry_len > want ? in->carry_len :
				     want) + TEXT_MARGIN))
		return oom(p, err, errsz);
	u->buf = (uint8_t *)b;
	if (in->carry_len)
		memcpy(b, in->carry, in->carry_len);
	u->len = in->carry_len;
	u->text = b;
	in->at = want;
	in->tries = 0;
	for (;;) {
		size_t n;

		end = cut_in(in, u, want, pl);
		if (end || in->eof)
			break;
		/* TEXT_MARGIN more than what has been looked at */
		n = (in->at > u->len ? in->at : u->len) + TEXT_MARGIN;
		if (n < want + TEXT_MARGIN)
			n = want + TEXT_MARGIN;
		r = text_fill(p, in, u, n, err, errsz);
		if (r)
			return r;
	}
	if (!end)
		end = u->len;
	in->carry_len = u->len - end;
	if (!text_room(&in->carry, &in->carry_cap, in->carry_len))
		return oom(p, err, errsz);
	if (in->carry_len)
		memcpy(in->carry, u->text + end, in->carry_len);
	u->len = end;
	u->at_end = in->eof && !in->carry_len;
	in->off += end;
	return 0;
}

/*
 * The next "PERF_RECORD_MMAP" in [p, e), or NULL.  By its '_' (rare in
 * perf script text, unlike the 'P' of the prediction flags): much faster
 * than memmem() on this text.
 */
static const char *find_mmap_key(const char *p, const char *e)
{
	static const char key[] = "PERF_RECORD_MMAP";
	const char *s = p;

	while (e - s >= 12 && (s = memchr(s, '_', (size_t)(e - s) - 11))) {
		if (s - p >= 4 && !memcmp(s - 4, key, sizeof(key) - 1))
			return s - 4;
		s++;
	}
	return NULL;
}

/* Free the mmap items a unit did not get to broadcast (not the array). */
static void free_ops(struct item **ops, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(ops[i]->str);
		free(ops[i]);
	}
}

/*
 * The mmap line [ls, le) of unit @u: resolved here (its DSO made in input
 * order), into @u's list and a broadcast item.  0; 1 the line is not an
 * mmap (nothing to do) or holds an error (the worker reports it); BR_ESYS out
 * of memory.
 */
static int text_mmap_line(struct par *p, struct unit *u, const char *ls,
			  const char *le, struct ps_line *pl,
			  struct item ***ops, size_t *nops)
{
	size_t rs = p->c->mmap_res_size;
	char err[BR_ERR_MAX];
	struct item *it, **x;
	bool bar = false;

	if (ps_parse_line(ls, (size_t)(le - ls), pl, err, sizeof(err)))
		return 2;
	if (pl->kind != PS_MMAP)
		return 1;
	if (br_grow((void **)&u->res, &u->cap_res, u->nr_res + 1,
		    rs ? rs : 1))
		return BR_ESYS;
	x = realloc(*ops, (*nops + 1) * sizeof(*x));
	if (!x)
		return BR_ESYS;
	*ops = x;
	it = calloc(1, sizeof(*it) + rs);
	if (!it)
		return BR_ESYS;
	it->kind = IT_MMAP;
	input_text_mmap(&pl->mmap, p->name, &it->mmap);
	if (p->c->mmap_prepare(p->c->master, &it->mmap, it->res, &bar, err,
			       sizeof(err))) {
		free(it);
		return 2;
	}
	if (bar)
		barrier(p);
	it->str = strdup(pl->mmap.path);
	if (!it->str) {
		free(it);
		return BR_ESYS;
	}
	it->mmap.path = it->str;
	memcpy(u->res + u->nr_res++ * rs, it->res, rs);
	(*ops)[(*nops)++] = it;
	return 0;
}

/*
 * Until @limit: is the first sample line there?  Then the kernel DSO is
 * made now, before the mmap lines after it.  -1 out of memory.
 */
static int text_first_sample(struct par *p, const char *text, size_t size,
			     size_t *scan, size_t limit, struct ps_line *pl)
{
	char err[BR_ERR_MAX];

	while (!p->started && *scan < limit) {
		const char *nl = memchr(text + *scan, '\n', size - *scan);
		size_t le = nl ? (size_t)(nl - text) : size;

		if (!ps_parse_line(text + *scan, le - *scan, pl, err,
				   sizeof(err)) && pl->kind == PS_SAMPLE &&
		    start(p))
			return BR_ESYS;
		*scan = nl ? le + 1 : size;
	}
	return 0;
}

/*
 * The mmap lines of unit @u, resolved here in input order into its list and
 * *@ops (the kernel DSO made at the first sample line, before the mmap
 * lines after it).  0; 1 a line holds an error (the worker reports it);
 * BR_ESYS out of memory.
 */
static int text_scan_unit(struct par *p, struct unit *u, struct ps_line *pl,
			  struct item ***ops, size_t *nops)
{
	const char *text = u->text, *end = u->text + u->len;
	size_t at = 0, scan = 0;

	while (p->collect) {
		const char *hit = find_mmap_key(text + at, end);
		const char *ls, *le;
		int x;

		if (text_first_sample(p, text, u->len, &scan,
				      hit ? (size_t)(hit - text) : u->len, pl))
			return BR_ESYS;
		if (!hit)
			break;
		ls = hit;
		while (ls > text && ls[-1] != '\n')
			ls--;
		le = memchr(hit, '\n', (size_t)(end - hit));
		if (!le)
			le = end;
		at = le < end ? (size_t)(le - text) + 1 : u->len;
		x = text_mmap_line(p, u, ls, le, pl, ops, nops);
		if (x < 0)
			return BR_ESYS;
		if (x == 2)
			return 1;	/* the worker finds it too */
	}
	return 0;
}

/*
 * Unit @u (filled) with its mmap lines: to a worker, the mmap items to every
 * other one after it.  0; 1 the reader saw an error in it; STOPPED; BR_ESYS
 * out of memory.
 */
static int text_send_unit(struct par *p, struct unit *u, struct ps_line *pl)
{
	struct item **ops = NULL;
	size_t nops = 0, i;
	int to = -1, bad, r;

	bad = text_scan_unit(p, u, pl, &ops, &nops);
	if (bad < 0) {
		free_ops(ops, nops);
		free(ops);
		pthread_mutex_lock(&p->lock);
		unit_put(p, u);
		pthread_mutex_unlock(&p->lock);
		return BR_ESYS;
	}
	r = dispatch(p, u, &to);
	if (r) {
		free_ops(ops, nops);
		free(ops);
		return r < 0 ? BR_ESYS : STOPPED;
	}
	for (i = 0; i < nops && !r; i++)
		if (broadcast(p, ops[i], to))
			r = BR_ESYS;
	if (r)
		free_ops(ops + i, nops - i);
	free(ops);
	return r ? r : bad;
}

/*
 * The text reader: read units, resolve the mmap lines of each, dispatch,
 * broadcast them after.  Returns 0, BR_ESYS (out of memory, a read error:
 * the message in @err), STOPPED (a worker failed), or 1 when the reader saw
 * an error in a unit (the worker reports it).
 */
static int read_text_units(struct par *p, int fd, char *err, size_t errsz)
{
	struct text_in in = { .fd = fd };
	struct ps_line pl = { 0 };
	int r = 0;

	while (!r) {
		struct unit *u;

		if (p->stop) {
			r = STOPPED;
			break;
		}
		pthread_mutex_lock(&p->lock);
		u = unit_get(p);
		pthread_mutex_unlock(&p->lock);
		if (!u) {
			r = oom(p, err, errsz);
			break;
		}
		u->kind = U_TEXT;
		r = text_next_unit(p, &in, u, &pl, err, errsz);
		if (r || !u->len) {
			pthread_mutex_lock(&p->lock);
			unit_put(p, u);
			pthread_mutex_unlock(&p->lock);
			break;
		}
		progress(p, in.off, 0);
		r = text_send_unit(p, u, &pl);
		if (r == BR_ESYS)
			oom(p, err, errsz);
	}
	ps_line_free(&pl);
	free(in.carry);
	return r;
}

/*
 * The message of a failed text unit, as one thread gives it: the unit
 * read again with its real line numbers (the lines of the units before
 * it), without a sink.  Only for errors of the text itself (script).
 */
static void text_error(struct par *p, const struct worker *w, char *err,
		       size_t errsz)
{
	struct ps_stats st = { 0 };
	unsigned long base = 0;
	size_t i;

	for (i = 0; i < p->nr_lines; i++)
		if (p->lines[i].seq < w->err_seq)
			base += p->lines[i].lines;
	int r = ps_read_mem(w->err_text, w->err_len, p->name, base,
			    w->err_at_end, p->opts && p->opts->skip_bad, NULL,
			    &st, err, errsz);

	if (!r || r == BR_EPARTIAL)
		snprintf(err, errsz, "%s", w->err);
}

/* ---- set-up --------------------------------------------------------------- */

unsigned par_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

static size_t unit_bytes(void)
{
	const char *e = getenv("BLOCKRANGE_PAR_UNIT");
	char *end;
	unsigned long long v;

	if (!e || !*e)
		return PAR_UNIT_BYTES;
	v = strtoull(e, &end, 10);
	if (*end || v < 64 || v > ((size_t)1 << 30))
		return PAR_UNIT_BYTES;
	return (size_t)v;
}

static int par_init(struct par *p, const char *name,
		    const struct input_opts *opts, const struct par_consumer *c,
		    unsigned n)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->opts = opts;
	p->c = c;
	p->n = n;
	p->unit_bytes = unit_bytes();
	p->w = calloc(n, sizeof(*p->w));
	if (!p->w)
		return BR_ESYS;
	if (pthread_mutex_init(&p->lock, NULL)) {
		free(p->w);
		return BR_ESYS;
	}
	if (pthread_cond_init(&p->cond, NULL)) {
		pthread_mutex_destroy(&p->lock);
		free(p->w);
		return BR_ESYS;
	}
	return 0;
}

static int par_start(struct par *p)
{
	unsigned i;

	for (i = 0; i < p->n; i++) {
		struct worker *w = &p->w[i];

		w->p = p;
		w->idx = i;
		w->room = malloc(sizeof(*w->room));
		if (!w->room || pthread_cond_init(&w->q.cond, NULL))
			return BR_ESYS;
		if (pthread_create(&w->tid, NULL, worker_main, w)) {
			pthread_cond_destroy(&w->q.cond);
			return BR_ESYS;
		}
		w->started = true;
	}
	return 0;
}

/* Close the queues, join the workers, free what is left. */
static void par_end(struct par *p)
{
	unsigned i;

	if (p->cur) {
		unit_free(p->cur);
		p->cur = NULL;
	}
	pthread_mutex_lock(&p->lock);
	p->closing = true;
	for (i = 0; i < p->n; i++)
		if (p->w[i].started)
			pthread_cond_signal(&p->w[i].q.cond);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->n; i++) {
		struct worker *w = &p->w[i];

		if (w->started) {
			pthread_join(w->tid, NULL);
			pthread_cond_destroy(&w->q.cond);
		}
		free(w->q.v);
		free(w->room);
	}
	while (p->pending) {
		struct unit *u = p->pending;

		p->pending = u->next;
		unit_free(u);
	}
	while (p->free_units) {
		struct unit *u = p->free_units;

		p->free_units = u->next;
		unit_free(u);
	}
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
}

/* What is left once the outcome is known: the workers, the line counts. */
static void par_free(struct par *p)
{
	unsigned i;

	for (i = 0; i < p->n; i++)
		free(p->w[i].err_text);
	free(p->lines);
	free(p->w);
}

/* The earliest failure of any worker, or NULL. */
static struct worker *first_failure(struct par *p)
{
	struct worker *best = NULL;
	unsigned i;

	for (i = 0; i < p->n; i++)
		if (p->w[i].failed &&
		    (!best || p->w[i].err_seq < best->err_seq))
			best = &p->w[i];
	return best;
}

struct source {
	int fd;
	struct stat sb;
	bool split;		/* worth reading with several threads */
	bool text;		/* perf script text in a regular file */
};

/*
 * Open @path and tell what it is: perf script text in a regular file is
 * read in units (unless it is too small for two); perf.data
 * from a file or a pipe, and text from a pipe, are read by the reader;
 * anything else (a .brprof, what cannot be opened: input_read() says what
 * is wrong with it) is read by one thread.
 */
static void open_source(const char *path, struct source *src)
{
	uint8_t head[8];
	ssize_t n;

	memset(src, 0, sizeof(*src));
	src->fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) :
				      dup(STDIN_FILENO);
	if (src->fd < 0 || fstat(src->fd, &src->sb)) {
		if (src->fd >= 0)
			close(src->fd);
		src->fd = -1;
		return;
	}
	src->split = true;
	if (!S_ISREG(src->sb.st_mode))
		return;
	n = pread(src->fd, head, sizeof(head), 0);
	switch (input_sniff(head, n > 0 ? (size_t)n : 0)) {
	case INPUT_PERFSCRIPT:
		break;
	case INPUT_BRPROF:
		src->split = false;
		return;
	default:
		return;
	}
	if ((uint64_t)src->sb.st_size < 2 * (uint64_t)unit_bytes()) {
		src->split = false;
		return;
	}
	src->text = true;
}

static void close_source(struct source *src)
{
	if (src->fd >= 0)
		close(src->fd);
}

/*
 * @path opened as @src for @jobs threads: false (nothing open) when one
 * thread reads it, for @jobs < 2 or an input that cannot be cut.
 */
static bool split_source(const char *path, unsigned jobs, struct source *src)
{
	if (jobs < 2)
		return false;
	open_source(path, src);
	if (src->split)
		return true;
	close_source(src);
	return false;
}

static void sum_text_stats(struct par *p, struct input_stats *st)
{
	unsigned i;

	st->format = INPUT_PERFSCRIPT;
	for (i = 0; i < p->n; i++) {
		const struct input_stats *w = &p->w[i].st;

		st->samples += w->samples;
		st->samples_brstack += w->samples_brstack;
		st->branch_entries += w->branch_entries;
		st->mmaps += w->mmaps;
		st->ps.lines += w->ps.lines;
		st->ps.samples += w->ps.samples;
		st->ps.mmaps += w->ps.mmaps;
		st->ps.bad_lines += w->ps.bad_lines;
		st->ps.bytes += w->ps.bytes;
	}
}

static void progress_begin(struct par *p, const struct par_progress *pr,
			   const struct source *src)
{
	p->progress = pr;
	if (S_ISREG(src->sb.st_mode))
		p->total_bytes = (uint64_t)src->sb.st_size;
}

/* One thread, with progress when asked. */
struct seq_progress {
	struct par p;
	const struct ev_sink *inner;
	const struct input_stats *st;
};

static int seq_sample(void *arg, const struct ev_sample *s, char *err,
		      size_t errsz)
{
	struct seq_progress *sp = arg;

	progress(&sp->p, s->pos.line ? sp->st->ps.bytes : s->pos.offset, 1);
	return sp->inner->sample(sp->inner->arg, s, err, errsz);
}

#define FWD(name, type) \
static int seq_##name(void *arg, const type *e, char *err, size_t errsz) \
{ \
	struct seq_progress *sp = arg; \
	return sp->inner->name ? sp->inner->name(sp->inner->arg, e, err, errsz) : 0; \
}
FWD(mmap, struct ev_mmap)
FWD(comm, struct ev_comm)
FWD(task, struct ev_task)
FWD(build_id, struct ev_build_id)
FWD(lost, struct ev_lost)
FWD(attr, struct ev_attr)
FWD(profile, struct ev_profile)
FWD(profile_dso, struct ev_profile_dso)
#undef FWD

/* What read_one() reads through: the sink's callbacks, with the progress. */
static const struct ev_sink seq_sink = {
	.sample = seq_sample,
	.mmap = seq_mmap,
	.comm = seq_comm,
	.task = seq_task,
	.build_id = seq_build_id,
	.lost = seq_lost,
	.attr = seq_attr,
	.profile = seq_profile,
};

static int read_one(const char *path, const struct input_opts *opts,
		    const struct par_progress *pr, const struct ev_sink *sink,
		    struct input_stats *st, char *err, size_t errsz)
{
	struct seq_progress sp;
	struct ev_sink wrap;
	struct source src = { .fd = -1 };
	int r;

	if (!pr)
		return input_read(path, opts, sink, st, err, errsz);
	memset(&sp, 0, sizeof(sp));
	sp.inner = sink;
	sp.st = st;
	if (!strcmp(path, "-")) {
		if (fstat(STDIN_FILENO, &src.sb))
			memset(&src.sb, 0, sizeof(src.sb));
	} else if (stat(path, &src.sb)) {
		memset(&src.sb, 0, sizeof(src.sb));
	}
	progress_begin(&sp.p, pr, &src);
	wrap = seq_sink;
	/* input_read() takes a .brprof for a sink that takes profiles */
	wrap.profile_dso = sink->profile_dso ? seq_profile_dso : NULL;
	wrap.arg = &sp;
	r = input_read(path, opts, &wrap, st, err, errsz);
	if (st->format != INPUT_BRPROF)
		progress_end(&sp.p);	/* a profile has no samples to count */
	return r;
}

/* Everything again with one thread, for the message it gives. */
static int read_again(const char *path, const struct input_opts *opts,
		      const struct par_consumer *c, struct input_stats *st,
		      char *err, size_t errsz)
{
	struct ev_sink sink;
	int r = c->reset(c->master, err, errsz);

	if (r)
		return r;
	c->sink(c->master, &sink);
	return input_read(path, opts, &sink, st, err, errsz);
}

static int worker_states(struct par *p)
{
	unsigned i;

	p->wargs = calloc(p->n, sizeof(*p->wargs));
	if (!p->wargs)
		return BR_ESYS;
	for (i = 0; i < p->n; i++) {
		p->w[i].arg = p->wargs[i] = p->c->worker_new(p->c->master);
		if (!p->w[i].arg)
			return BR_ESYS;
	}
	return 0;
}

static void free_worker_states(struct par *p)
{
	unsigned i;

	for (i = 0; i < p->n; i++)
		if (p->w[i].arg)
			p->c->worker_free(p->w[i].arg);
	free(p->wargs);
}

/* Merge the workers into the master, the one with the earliest event first. */
static int merge_workers(struct par *p, char *err, size_t errsz)
{
	bool *done = calloc(p->n, sizeof(*done));
	unsigned k, i;
	int r = 0;

	if (!done)
		return oom(p, err, errsz);
	for (k = 0; k < p->n && !r; k++) {
		struct worker *best = NULL;

		for (i = 0; i < p->n; i++) {
			struct worker *w = &p->w[i];

			if (done[i])
				continue;
			if (!best || (w->event_seq &&
				      (!best->event_seq ||
				       w->event_seq < best->event_seq)))
				best = w;
		}
		done[best->idx] = true;
		r = p->c->merge(p->c->master, best->arg);
	}
	free(done);
	if (r == BR_ESYS)
		return oom(p, err, errsz);
	return r;
}

#define READ_AGAIN 4	/* par_collect(): read with one thread for the message */

/*
 * perf.data (file or pipe mode) read by the reader through @sink, whose
 * samples go into units: the sink is completed with the reader's sync, the
 * records kept in place, and @p as its argument; the last unit is handed
 * over at the end.
 */
static int read_units(struct par *p, const char *path, struct ev_sink *sink,
		      struct input_stats *st, char *err, size_t errsz)
{
	int r;

	sink->sync = r_sync;
	sink->keep_raw = true;
	sink->arg = p;
	r = input_read(path, p->opts, sink, st, err, errsz);
	if ((!r || r == STOPPED) && flush_cur(p))
		r = oom(p, err, errsz);
	return r;
}

/* perf.data (file or pipe mode) read by the reader into units. */
static int read_records(struct par *p, const char *path,
			struct input_stats *st, char *err, size_t errsz)
{
	struct ev_sink sink = {
		.sample = r_sample,
		.sample_raw = r_raw,
		.mmap = r_mmap,
		.comm = r_comm,
		.task = r_task,
		.build_id = r_build_id,
	};

	return read_units(p, path, &sink, st, err, errsz);
}

/*
 * The outcome of a read whose workers are done (@r: the reader's): the
 * earliest error in input order, else the workers merged into the master.
 * READ_AGAIN when only one thread can say what is wrong.
 */
static int collect_outcome(struct par *p, const struct source *src, int r,
			   struct input_stats *st, char *err, size_t errsz)
{
	struct worker *bad = first_failure(p);

	if (src->text) {
		sum_text_stats(p, st);
		if (r == 1 || r == STOPPED || bad)
			return READ_AGAIN;
	} else if (bad && (r == 0 || r == STOPPED || r == BR_EINPUT ||
			   r == BR_ESYS)) {
		/* the reader's own error is later than every unit */
		snprintf(err, errsz, "%s", bad->err);
		return bad->err_ret;
	}
	if (r)
		return r;
	r = merge_workers(p, err, errsz);
	if (r == BR_EINPUT && src->text)
		return READ_AGAIN;	/* a sum passed 2^64 - 1: which line? */
	if (r == BR_EINPUT)
		snprintf(err, errsz,
			 "%s: expected repeat counts whose sums fit in 64 bits, got counts whose sum overflows (-j 1 names the line)",
			 p->name);
	if (!r && src->text && !st->ps.samples) {
		input_text_no_samples(p->name, p->opts, st, err, errsz);
		r = BR_EINPUT;
	}
	return r;
}

int par_collect(const char *path, const struct input_opts *opts,
		unsigned jobs, const struct par_progress *pr,
		const struct par_consumer *c, struct input_stats *st,
		char *err, size_t errsz)
{
	const char *name = input_name(path);
	struct input_stats dummy;
	struct source src;
	struct ev_sink sink;
	struct par p;
	int r;

	if (!st)
		st = &dummy;
	if (!split_source(path, jobs, &src)) {
		c->sink(c->master, &sink);
		return read_one(path, opts, pr, &sink, st, err, errsz);
	}
	if (par_init(&p, name, opts, c, jobs)) {
		close_source(&src);
		return oom(&p, err, errsz);
	}
	p.collect = true;
	progress_begin(&p, pr, &src);
	if (worker_states(&p) || par_start(&p)) {
		par_end(&p);
		free_worker_states(&p);
		free(p.w);
		close_source(&src);
		snprintf(err, errsz, "%s: out of memory (threads)", name);
		return BR_ESYS;
	}
	memset(st, 0, sizeof(*st));
	if (src.text)
		r = read_text_units(&p, src.fd, err, errsz);
	else
		r = read_records(&p, path, st, err, errsz);
	/* a failure of the reader comes after every unit it dispatched */
	par_end(&p);
	progress_end(&p);
	r = collect_outcome(&p, &src, r, st, err, errsz);
	free_worker_states(&p);
	par_free(&p);
	close_source(&src);
	if (r != READ_AGAIN)
		return r;
	memset(st, 0, sizeof(*st));
	return read_again(path, opts, c, st, err, errsz);
}

/* ---- script ----------------------------------------------------------------- */

struct script_worker {
	par_format_fn format;
	void *arg;
	struct par_buf *out;
};

static int s_sample(void *w, const struct ev_sample *s, char *err,
		    size_t errsz)
{
	struct script_worker *sw = w;

	return sw->format(sw->arg, s, sw->out, err, errsz);
}

static void s_set_out(void *w, struct par_buf *out)
{
	((struct script_worker *)w)->out = out;
}

/* Script takes samples only: the workers get no side-band events. */
static const struct par_consumer scripter = {
	.sample = s_sample,
};

/* One thread: format into one buffer, written after each sample. */
struct seq_script {
	par_format_fn format;
	void *arg;
	FILE *out;
	struct par_buf buf;
	int (*attr)(void *arg, const struct ev_attr *a, char *err,
		    size_t errsz);
	void *attr_arg;
};

static int seq_script_attr(void *arg, const struct ev_attr *a, char *err,
			   size_t errsz)
{
	struct seq_script *ss = arg;

	return ss->attr(ss->attr_arg, a, err, errsz);
}

static int seq_script_sample(void *arg, const struct ev_sample *s, char *err,
			     size_t errsz)
{
	struct seq_script *ss = arg;
	int r;

	ss->buf.len = 0;
	r = ss->format(ss->arg, s, &ss->buf, err, errsz);
	if (r)
		return r;
	if (fwrite(ss->buf.p, 1, ss->buf.len, ss->out) != ss->buf.len) {
		snprintf(err, errsz, "cannot write the output");
		return BR_ESYS;
	}
	return 0;
}

static int s_attr(void *arg, const struct ev_attr *a, char *err,
		  size_t errsz)
{
	struct par *p = arg;

	return p->attr(p->attr_arg, a, err, errsz);
}

static int s_raw(void *arg, const struct pd_decoder *dec, const uint8_t *rec,
		 size_t size, uint64_t off, bool kept, char *err, size_t errsz)
{
	struct par *p = arg;

	p->started = true;
	return r_raw(arg, dec, rec, size, off, kept, err, errsz);
}

static int s_dec(void *arg, const struct ev_sample *s, char *err,
		 size_t errsz)
{
	struct par *p = arg;

	p->started = true;
	return r_sample(arg, s, err, errsz);
}

/* One thread: each sample formatted and written at once. */
static int script_one(const char *path, const struct input_opts *opts,
		      const struct par_progress *pr, par_format_fn format,
		      void *arg, int (*attr)(void *arg, const struct ev_attr *a,
					     char *err, size_t errsz),
		      void *attr_arg, FILE *out, struct input_stats *st,
		      char *err, size_t errsz)
{
	struct seq_script ss = { format, arg, out, { 0 }, attr, attr_arg };
	struct ev_sink sink = { 0 };
	int r;

	sink.sample = seq_script_sample;
	sink.attr = attr ? seq_script_attr : NULL;
	sink.arg = &ss;
	r = read_one(path, opts, pr, &sink, st, err, errsz);
	free(ss.buf.p);
	return r;
}

/* The read of @path by the reader, whatever the format. */
static int script_read(struct par *p, const struct source *src,
		       const char *path, struct input_stats *st, char *err,
		       size_t errsz)
{
	struct ev_sink sink = { 0 };
	int r;

	if (src->text) {
		r = read_text_units(p, src->fd, err, errsz);
		return r == BR_ESYS ? r : 0;
	}
	sink.sample = s_dec;
	sink.sample_raw = s_raw;
	sink.attr = p->attr ? s_attr : NULL;
	return read_units(p, path, &sink, st, err, errsz);
}

/* The outcome of a read whose workers are done (@r: the reader's). */
static int script_outcome(struct par *p, const struct source *src, int r,
			  struct input_stats *st, char *err, size_t errsz)
{
	struct worker *bad = first_failure(p);

	if (src->text)
		sum_text_stats(p, st);
	if (bad && (r == 0 || r == STOPPED || r == BR_EINPUT || r == BR_ESYS)) {
		if (bad->err_text)
			text_error(p, bad, err, errsz);
		else
			snprintf(err, errsz, "%s", bad->err);
		return bad->err_ret;
	}
	if (!r && p->out_failed) {
		snprintf(err, errsz, "cannot write the output");
		return BR_ESYS;
	}
	if (!r && src->text && !st->ps.samples) {
		input_text_no_samples(p->name, p->opts, st, err, errsz);
		return BR_EINPUT;
	}
	return r;
}

int par_script(const char *path, const struct input_opts *opts,
	       unsigned jobs, const struct par_progress *pr,
	       par_format_fn format, void *arg,
	       int (*attr)(void *arg, const struct ev_attr *a, char *err,
			   size_t errsz), void *attr_arg,
	       FILE *out, struct input_stats *st, char *err, size_t errsz)
{
	struct script_worker *sw = NULL;
	struct input_stats dummy;
	struct source src;
	struct par p;
	const char *name = input_name(path);
	unsigned i;
	int r;

	if (!st)
		st = &dummy;
	if (!split_source(path, jobs, &src)) {
		return script_one(path, opts, pr, format, arg, attr, attr_arg,
				  out, st, err, errsz);
	}
	if (par_init(&p, name, opts, &scripter, jobs)) {
		close_source(&src);
		return oom(&p, err, errsz);
	}
	p.out = out;
	p.started = true;
	p.set_out = s_set_out;
	p.attr = attr;
	p.attr_arg = attr_arg;
	progress_begin(&p, pr, &src);
	sw = calloc(jobs, sizeof(*sw));
	for (i = 0; sw && i < jobs; i++) {
		sw[i].format = format;
		sw[i].arg = arg;
		p.w[i].arg = &sw[i];
	}
	if (!sw || par_start(&p)) {
		par_end(&p);
		free(p.w);
		free(sw);
		close_source(&src);
		return oom(&p, err, errsz);
	}
	memset(st, 0, sizeof(*st));
	r = script_read(&p, &src, path, st, err, errsz);
	par_end(&p);
	progress_end(&p);
	r = script_outcome(&p, &src, r, st, err, errsz);
	par_free(&p);
	free(sw);
	close_source(&src);
	return r;
}
