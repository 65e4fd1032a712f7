// SPDX-License-Identifier: GPL-2.0
/*
 * pdreloc IN OUT NAME: copy a perf.data written by `blockrange record`,
 * moving every executable mapping of the DSO whose basename is NAME to
 * the address its file offset has in the ELF file (runtime address = ELF
 * address), and every sample IP and branch address inside those mappings
 * with it.  Everything else is copied as it is.
 *
 * Why: perf 6.1's `perf annotate` keys its basic blocks by runtime address
 * but looks them up by ELF address, so it shows branch comments only for
 * code that runs at its ELF addresses (a non-PIE executable).  Moving one
 * DSO at a time there makes perf the oracle for every DSO.
 */
#define _GNU_SOURCE

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve/elfbin.h"
#include "input/input.h"
#include "output/perfdata_write.h"

struct moved {
	uint64_t start;
	uint64_t end;
	int64_t delta;
};

struct reloc {
	const char *name;
	struct pdw *w;
	bool opened;
	struct ev_attr attr;
	char attr_name[256];
	struct moved mv[64];
	size_t nr_mv;
	uint64_t time;
	struct perf_branch_entry *br;
	size_t cap;
	/* build-ids arrive before the events; written at the end */
	struct {
		char path[4096];
		uint8_t id[20];
		uint8_t size;
		int32_t pid;
	} ids[64];
	size_t nr_ids;
};

static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static int werr(struct reloc *r, char *err, size_t errsz)
{
	snprintf(err, errsz, "%s", pdw_error(r->w));
	return -2;
}

static int on_attr(void *arg, const struct ev_attr *a, char *err,
		   size_t errsz)
{
	struct reloc *r = arg;
	struct perf_event_attr pa;

	if (a->idx) {
		snprintf(err, errsz, "pdreloc: one event expected");
		return -2;
	}
	memset(&pa, 0, sizeof(pa));
	pa.type = a->type;
	pa.config = a->config;
	pa.sample_period = 1;
	pa.sample_type = a->sample_type;
	pa.branch_sample_type = a->branch_sample_type;
	pa.exclude_kernel = 1;
	pa.exclude_hv = 1;
	pa.sample_id_all = 1;
	pa.mmap = 1;
	pa.mmap2 = 1;
	pa.comm = 1;
	pa.comm_exec = 1;
	pa.task = 1;
	if (pdw_add_event(r->w, &pa, a->name) < 0)
		return werr(r, err, errsz);
	return 0;
}

static uint64_t move(const struct reloc *r, uint64_t a)
{
	size_t i;

	for (i = 0; i < r->nr_mv; i++)
		if (a >= r->mv[i].start && a < r->mv[i].end)
			return (uint64_t)((int64_t)a + r->mv[i].delta);
	return a;
}

static int on_mmap(void *arg, const struct ev_mmap *m, char *err,
		   size_t errsz)
{
	struct reloc *r = arg;
	struct pdw_mmap o;

	memset(&o, 0, sizeof(o));
	o.pid = m->pid;
	o.tid = m->tid;
	o.start = m->start;
	o.len = m->len;
	o.pgoff = m->pgoff;
	o.prot = m->prot;
	o.flags = m->flags;
	o.maj = m->maj;
	o.min = m->min;
	o.ino = m->ino;
	o.ino_generation = m->ino_generation;
	o.build_id_size = m->build_id_size;
	memcpy(o.build_id, m->build_id, sizeof(o.build_id));
	o.path = m->path;
	o.cpumode = PERF_RECORD_MISC_USER;
	o.time = m->time;
	if (m->exec && !strcmp(base_of(m->path), r->name)) {
		struct eb_binary b;
		uint64_t v;

		if (eb_open(m->path, &b, err, errsz))
			return -2;
		if (!eb_off_to_vaddr(&b, m->pgoff, &v) ||
		    r->nr_mv == sizeof(r->mv) / sizeof(r->mv[0])) {
			eb_close(&b);
			snprintf(err, errsz, "pdreloc: cannot move %s", m->path);
			return -2;
		}
		eb_close(&b);
		r->mv[r->nr_mv].start = m->start;
		r->mv[r->nr_mv].end = m->start + m->len;
		r->mv[r->nr_mv].delta = (int64_t)(v - m->start);
		r->nr_mv++;
		o.start = v;
	}
	if (m->has_time)
		r->time = m->time;
	if (pdw_mmap2(r->w, &o))
		return werr(r, err, errsz);
	return 0;
}

static int on_comm(void *arg, const struct ev_comm *c, char *err,
		   size_t errsz)
{
	struct reloc *r = arg;

	if (pdw_comm(r->w, c->pid, c->tid, c->comm, c->exec, r->time))
		return werr(r, err, errsz);
	return 0;
}

static int on_task(void *arg, const struct ev_task *t, char *err,
		   size_t errsz)
{
	struct reloc *r = arg;
	int k;

	r->time = t->time;
	k = t->exit ? pdw_exit(r->w, t->pid, t->ppid, t->tid, t->ptid, t->time) :
		      pdw_fork(r->w, t->pid, t->ppid, t->tid, t->ptid, t->time);
	return k ? werr(r, err, errsz) : 0;
}

static int on_build_id(void *arg, const struct ev_build_id *b, char *err,
		       size_t errsz)
{
	struct reloc *r = arg;

	if (r->nr_ids == sizeof(r->ids) / sizeof(r->ids[0]) ||
	    strlen(b->path) >= sizeof(r->ids[0].path)) {
		snprintf(err, errsz, "pdreloc: too many build-ids");
		return -2;
	}
	snprintf(r->ids[r->nr_ids].path, sizeof(r->ids[0].path), "%s",
		 b->path);
	memcpy(r->ids[r->nr_ids].id, b->id, b->size);
	r->ids[r->nr_ids].size = b->size;
	r->ids[r->nr_ids].pid = b->pid;
	r->nr_ids++;
	return 0;
}

static int on_sample(void *arg, const struct ev_sample *s, char *err,
		     size_t errsz)
{
	struct reloc *r = arg;
	struct pdw_sample o;
	size_t i;

	if (s->nr > r->cap) {
		struct perf_branch_entry *b = realloc(r->br, s->nr * sizeof(*b));

		if (!b) {
			snprintf(err, errsz, "pdreloc: out of memory");
			return -2;
		}
		r->br = b;
		r->cap = s->nr;
	}
	for (i = 0; i < s->nr; i++) {
		memset(&r->br[i], 0, sizeof(r->br[i]));
		r->br[i].from = move(r, s->br[i].from);
		r->br[i].to = move(r, s->br[i].to);
		r->br[i].predicted = s->br[i].predicted;
		r->br[i].mispred = s->br[i].mispredicted;
		r->br[i].in_tx = s->br[i].in_tx;
		r->br[i].abort = s->br[i].abort;
		r->br[i].cycles = s->br[i].cycles;
	}
	memset(&o, 0, sizeof(o));
	o.cpumode = PERF_RECORD_MISC_USER;
	o.ip = move(r, s->ip);
	o.pid = s->pid;
	o.tid = s->tid;
	o.time = s->time;
	o.cpu = s->cpu;
	o.period = s->period;
	o.hw_idx = s->has_hw_idx ? s->hw_idx : (uint64_t)-1;
	o.br = r->br;
	o.nr = s->nr;
	r->time = s->time;
	if (pdw_sample(r->w, &o))
		return werr(r, err, errsz);
	return 0;
}

int main(int argc, char **argv)
{
	static struct reloc r;
	struct input_opts io = { 0 };
	struct input_stats st;
	struct ev_sink sink = { 0 };
	char err[4096];
	int rc;

	if (argc != 4) {
		fprintf(stderr, "usage: pdreloc IN OUT NAME\n");
		return 1;
	}
	r.name = argv[3];
	if (pdw_open(&r.w, argv[2], err, sizeof(err))) {
		fprintf(stderr, "pdreloc: %s\n", err);
		return 1;
	}
	sink.attr = on_attr;
	sink.mmap = on_mmap;
	sink.comm = on_comm;
	sink.task = on_task;
	sink.build_id = on_build_id;
	sink.sample = on_sample;
	sink.arg = &r;
	rc = input_read(argv[1], &io, &sink, &st, err, sizeof(err));
	free(r.br);
	if (rc) {
		fprintf(stderr, "pdreloc: %s\n", err);
		pdw_close(r.w, err, sizeof(err));
		return 1;
	}
	for (size_t i = 0; i < r.nr_ids; i++)
		if (pdw_build_id(r.w, r.ids[i].pid, PERF_RECORD_MISC_USER,
				 r.ids[i].path, r.ids[i].id, r.ids[i].size))
			break;
	if (pdw_close(r.w, err, sizeof(err))) {
		fprintf(stderr, "pdreloc: %s\n", err);
		return 1;
	}
	if (!r.nr_mv) {
		fprintf(stderr, "pdreloc: no executable mapping of %s\n", r.name);
		return 1;
	}
	return 0;
}
