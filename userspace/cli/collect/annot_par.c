// SPDX-License-Identifier: GPL-2.0
/*
 * The collector as a consumer of the parallel reader (input/par.h): every
 * worker collects into a struct annot of its own whose resolver replicates
 * the master's address spaces (resolver_init_replica()), the master
 * resolves the mmaps (its registry makes the DSOs, in input order), and
 * the workers' annots are merged into it (annot_merge()).
 */
#include "collect/annot.h"

#include <stdlib.h>
#include <string.h>

static int prepare(void *master, const struct ev_mmap *m, void *res,
		   bool *barrier, char *err, size_t errsz)
{
	struct resolver_mmap_res *sr = res;
	int r = resolver_mmap_prepare(&((struct annot *)master)->s, m, sr, err,
				     errsz);

	/* the kernel's _text changes a DSO the workers may be loading */
	*barrier = !r && !sr->skip && sr->as.kernel_text;
	return r;
}

static int build_id(void *master, const struct ev_build_id *b, char *err,
		    size_t errsz)
{
	return resolver_build_id(&((struct annot *)master)->s, b, err, errsz);
}

/* The kernel DSO, made by the master, for every replica. */
static int start(void *master, void *const *workers, unsigned n)
{
	struct annot *a = master;
	unsigned i;

	if (resolver_start(&a->s))
		return BR_ESYS;
	for (i = 0; i < n; i++)
		as_set_kernel_dso(((struct annot *)workers[i])->s.as,
				  as_kernel_dso(a->s.as));
	return BR_OK;
}

static void *worker_new(void *master)
{
	struct annot *a = master, *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->cfg = a->cfg;
	if (resolver_init_replica(&w->s, &a->s)) {
		annot_free(w);
		free(w);
		return NULL;
	}
	return w;
}

static void worker_free(void *w)
{
	annot_free(w);
	free(w);
}

static int apply(void *w, const struct ev_mmap *m, const void *res, char *err,
		 size_t errsz)
{
	return resolver_mmap_apply(&((struct annot *)w)->s, m, res, err, errsz);
}

static int comm(void *w, const struct ev_comm *c, char *err, size_t errsz)
{
	return resolver_comm(&((struct annot *)w)->s, c, err, errsz);
}

static int task(void *w, const struct ev_task *t, char *err, size_t errsz)
{
	return resolver_task(&((struct annot *)w)->s, t, err, errsz);
}

static bool has_event(const void *w)
{
	return ((const struct annot *)w)->s.event != NULL;
}

static int merge(void *master, void *w)
{
	return annot_merge(master, w);
}

/* The master as annot_init() made it. */
static int reset(void *master, char *err, size_t errsz)
{
	struct annot *a = master;
	struct resolver_opts so = a->s.o;
	struct annot_cfg cfg = a->cfg;
	const char *name = a->s.name;

	annot_free(a);
	return annot_init(a, name, &so, &cfg, err, errsz);
}

static void sink(void *master, struct ev_sink *s)
{
	annot_sink(master, s);
}

void annot_par_consumer(struct annot *a, struct par_consumer *c)
{
	memset(c, 0, sizeof(*c));
	c->master = a;
	c->mmap_res_size = sizeof(struct resolver_mmap_res);
	c->mmap_prepare = prepare;
	c->build_id = build_id;
	c->start = start;
	c->worker_new = worker_new;
	c->worker_free = worker_free;
	c->sample = annot_sample;
	c->mmap_apply = apply;
	c->comm = comm;
	c->task = task;
	c->has_event = has_event;
	c->merge = merge;
	c->reset = reset;
	c->sink = sink;
}
