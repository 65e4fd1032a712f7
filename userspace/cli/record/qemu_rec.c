// SPDX-License-Identifier: GPL-2.0
/*
 * `blockrange record --engine=qemu`: the whole (qemu_run.c launches the
 * program, input/qrec.c reads its recording directory), and the outputs
 * of a recording: perf.data or perf-script text (sampled), a .brprof
 * (exact), the summary line.  See qemu_rec.h and docs/record.md.
 */
#define _GNU_SOURCE

#include "record/qemu_rec.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "format/qrec_wire.h"

#include "base/status.h"
#include "input/qrec.h"
#include "resolve/dso.h"
#include "collect/annot.h"
#include "output/brprof_write.h"
#include "output/perfdata_write.h"
#include "output/pswrite.h"
#include "record/qemu_run.h"
#include "record/recout.h"

/* An executable segment of a mapping, as the kernel would have mapped it. */
struct qseg {
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
};

/* A mapping narrowed to its file's executable segments (at least one). */
struct qnarrow {
	bool done;
	unsigned nsegs;
	struct qseg segs[4];
};

struct qrec {
	const struct qrec_opts *o;
	char *err;
	size_t errsz;
	struct qemu_run run;	/* its dir is the recording's */
	struct qrec_recording rec;
	/* the mappings narrowed: image i's mapping k at narrow[base[i] + k] */
	struct qnarrow *narrow;
	size_t *base;
	uint64_t traces;	/* exact: traces read */
	uint64_t edges;		/* exact: distinct taken edges counted */
	/* sampled output */
	struct recout out;
	struct dso_registry *reg;	/* the mapped files' build-ids */
	uint64_t last_time;
	uint64_t cut_stacks;	/* samples whose call stack lost frames */
};

static int oom(struct qrec *r)
{
	snprintf(r->err, r->errsz, "out of memory");
	return BR_ESYS;
}

/* ---- the mappings, as the kernel would have mapped them ------------------ */

/*
 * The executable PT_LOAD segments of @m's file inside the mapping, as the
 * dynamic loader (or the kernel) maps them: QEMU maps a guest's code
 * readable only, so the host mapping may span several segments.  A file
 * that is gone, changed or no ELF keeps the whole mapping.
 */
static void refine(struct qnarrow *n, const struct qrec_mapping *q)
{
	const struct qrec_map *m = &q->m;
	GElf_Ehdr eh;
	struct stat st;
	size_t i, nr;
	Elf *e = NULL;
	int fd = -1;

	n->nsegs = 0;
	if (q->path[0] == '/' && elf_version(EV_CURRENT) != EV_NONE)
		fd = open(q->path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && !fstat(fd, &st) && st.st_ino == m->ino)
		e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && gelf_getehdr(e, &eh) && !elf_getphdrnum(e, &nr)) {
		for (i = 0; i < nr && n->nsegs < 4; i++) {
			GElf_Phdr ph;
			uint64_t lo, hi, vlo, vhi;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    !(ph.p_flags & PF_X) || !ph.p_filesz)
				continue;
			lo = ph.p_offset & ~(uint64_t)4095;
			hi = (ph.p_offset + ph.p_filesz + 4095) & ~(uint64_t)4095;
			vlo = lo > m->pgoff ? lo : m->pgoff;
			vhi = m->pgoff + (m->end - m->start);
			if (hi < vhi)
				vhi = hi;
			if (vlo >= vhi)
				continue;
			n->segs[n->nsegs].start = m->start + (vlo - m->pgoff);
			n->segs[n->nsegs].len = vhi - vlo;
			n->segs[n->nsegs].pgoff = vlo;
			n->nsegs++;
		}
	}
	elf_end(e);
	if (fd >= 0)
		close(fd);
	if (!n->nsegs) {
		n->segs[0] = (struct qseg){ m->start, m->end - m->start, m->pgoff };
		n->nsegs = 1;
	}
	n->done = true;
}

/* Room for every mapping's segments, narrowed when first written. */
static int narrow_init(struct qrec *r)
{
	size_t i, n = 0;

	r->base = calloc(r->rec.nr_images, sizeof(*r->base));
	if (!r->base)
		return oom(r);
	for (i = 0; i < r->rec.nr_images; i++) {
		r->base[i] = n;
		n += r->rec.images[i].nr_maps;
	}
	r->narrow = calloc(n + 1, sizeof(*r->narrow));
	return r->narrow ? 0 : oom(r);
}

static const struct qnarrow *narrow_of(struct qrec *r, size_t img,
				       const struct qrec_mapping *m)
{
	size_t k = (size_t)(m - r->rec.images[img].maps);
	struct qnarrow *n = &r->narrow[r->base[img] + k];

	if (!n->done)
		refine(n, m);
	return n;
}

/* Segment @i of the mapping @m of image @img, as an mmap event. */
static void seg_event(struct qrec *r, size_t img,
		      const struct qrec_mapping *m, unsigned i,
		      struct ev_mmap *ev)
{
	const struct qseg *s = &narrow_of(r, img, m)->segs[i];

	memset(ev, 0, sizeof(*ev));
	ev->pid = r->rec.images[img].pid;
	ev->tid = ev->pid;
	ev->cpumode = EV_CPU_USER;
	ev->start = s->start;
	ev->len = s->len;
	ev->pgoff = s->pgoff;
	ev->path = m->path;
	ev->exec = ev->has_prot = ev->has_dev = true;
	ev->prot = PROT_READ | PROT_EXEC;
	ev->flags = MAP_PRIVATE;
	ev->maj = m->m.maj;
	ev->min = m->m.min;
	ev->ino = m->m.ino;
	ev->pos.name = r->run.dir;
}

/* ---- sampled: perf.data and text ------------------------------------------------ */

/* A record's time: ns since the recording began, strictly increasing. */
static uint64_t out_time(struct qrec *r, uint64_t t)
{
	t = t >= r->rec.t0 ? t - r->rec.t0 + 1 : 1;
	if (t <= r->last_time)
		t = r->last_time + 1;
	r->last_time = t;
	return t;
}

/* The build-id of the file @path, as the registry reads it. */
static int out_build_id(struct qrec *r, const char *path)
{
	/* the files as they are: no build-id caches, no debuginfod */
	const struct dso_opts reg_opts = { .debuginfod = false };
	struct dso *d;

	if (path[0] != '/')
		return 0;
	if (!r->reg)
		r->reg = dso_registry_new(&reg_opts);
	d = r->reg ? dso_get(r->reg, path, NULL, 0, false) : NULL;
	if (!d || dso_load(r->reg, d) == DSO_NO_MEMORY)
		return oom(r);
	if (d->state != DSO_READY)
		return 0;
	return recout_build_id(&r->out, path, d->bin.build_id,
			       d->bin.build_id_size);
}

/* The MMAP2 records of the mapping @id of image @img, then its build-id. */
static int out_map(struct qrec *r, size_t img, uint32_t id, uint64_t time)
{
	const struct qrec_mapping *m = qrec_mapping_of(&r->rec.images[img], id);
	unsigned i, n = narrow_of(r, img, m)->nsegs;

	for (i = 0; i < n; i++) {
		struct pdw_mmap mm;
		struct ev_mmap e;

		seg_event(r, img, m, i, &e);
		mm = (struct pdw_mmap){ .pid = e.pid, .tid = e.tid,
			.start = e.start, .len = e.len, .pgoff = e.pgoff,
			.prot = e.prot, .flags = e.flags, .maj = e.maj, .min = e.min,
			.ino = e.ino, .path = e.path, .cpumode = PERF_RECORD_MISC_USER };
		mm.time = out_time(r, time);
		if (recout_mmap(&r->out, &mm))
			return BR_ESYS;
	}
	return out_build_id(r, m->path);
}

/*
 * The call chain of the sample @it into @ps, as perf writes a user call
 * chain: PERF_CONTEXT_USER, the sample's IP, the return addresses
 * innermost first.  The IP is the newest branch's target (where the
 * thread is when the stack is taken), not its source.
 */
static void out_chain(struct qrec *r, const struct qrec_item *it,
		      struct pdw_sample *ps)
{
	static uint64_t chain[QREC_STACK_MAX + 2];
	uint32_t n = QREC_STACK_FRAMES(it->u.sample.stack), i;

	if (ps->nr)
		ps->ip = ps->br[0].to;
	chain[0] = PERF_CONTEXT_USER;
	chain[1] = ps->ip;
	for (i = 0; i < n; i++)
		chain[i + 2] = qrec_item_frame(it, i);
	ps->chain = chain;
	ps->nr_chain = n + 2;
	if (it->u.sample.stack & QREC_STACK_CUT)
		r->cut_stacks++;
}

static int out_sample(struct qrec *r, const struct qrec_item *it)
{
	static struct perf_branch_entry br[PDW_MAX_BRANCHES];
	const struct qrec_sample *s = &it->u.sample;
	struct pdw_sample ps;
	uint32_t i;

	memset(&ps, 0, sizeof(ps));
	for (i = 0; i < s->nr; i++) {
		struct qrec_branch b;

		qrec_item_branch(it, i, &b);
		memset(&br[i], 0, sizeof(br[i]));
		br[i].from = b.from;
		br[i].to = b.to;
	}
	ps.cpumode = PERF_RECORD_MISC_USER;
	ps.ip = s->nr ? br[0].from : 0;
	ps.pid = s->pid;
	ps.tid = s->tid;
	ps.time = out_time(r, s->time);
	ps.period = r->o->period;
	ps.hw_idx = UINT64_MAX;
	ps.br = br;
	ps.nr = s->nr;
	if (r->o->call_graph)
		out_chain(r, it, &ps);
	return recout_sample(&r->out, &ps);
}

static int emit_ref(struct qrec *r, const struct qrec_ref *q)
{
	struct qrec_item it;

	qrec_item_at(&r->rec, q, &it);
	switch (it.type) {
	case QREC_MAP:
		return out_map(r, it.img, it.u.map.id, it.u.map.time);
	case QREC_COMM: {
		char comm[QREC_COMM_LEN + 1];
		uint64_t t;

		memcpy(comm, it.u.comm.comm, QREC_COMM_LEN);
		comm[QREC_COMM_LEN] = '\0';
		t = out_time(r, it.u.comm.time);
		return recout_comm(&r->out, it.u.comm.pid, it.u.comm.tid, comm,
				   it.u.comm.exec, t);
	}
	case QREC_FORK:
	case QREC_EXIT: {
		const struct qrec_task *tk = &it.u.task;
		uint64_t t = out_time(r, tk->time);

		return recout_task(&r->out, it.type == QREC_EXIT, tk->pid,
				   tk->ppid, tk->tid, tk->ptid, t);
	}
	default:
		return out_sample(r, &it);
	}
}

static int write_sampled(struct qrec *r)
{
	const struct qrec_opts *o = r->o;
	char version[96];
	struct recout_opts ro = {
		.output = o->output, .format = o->format,
		.script_copy = o->script_copy, .fields = o->fields,
		.task_events = o->task_events, .period = o->period,
		.callchain = o->call_graph, .version = version, .cmd_argc = o->cmd_argc,
		.cmd_argv = o->cmd_argv,
	};
	struct qrec_ref *refs = NULL;
	size_t nr = 0, i;
	int ret;

	snprintf(version, sizeof(version), "blockrange record (qemu, cpu %s)",
		 qemu_run_cpu(o));
	if (qrec_order(&r->rec, &refs, &nr, r->err, r->errsz))
		return BR_ESYS;
	ret = recout_open(&r->out, &ro, r->err, r->errsz);
	for (i = 0; !ret && i < nr; i++)
		ret = emit_ref(r, &refs[i]);
	free(refs);
	ret = recout_close(&r->out, ret);
	dso_registry_free(r->reg);
	r->reg = NULL;
	return ret;
}

/* ---- exact: a .brprof ------------------------------------------------------------ */

/* The mapping @id of image @img as the collector's mmap event(s). */
static int feed_map(struct qrec *r, struct annot *an, size_t img, uint32_t id)
{
	const struct qrec_image *im = &r->rec.images[img];
	const struct qrec_mapping *m = qrec_mapping_of(im, id);
	unsigned i, n;

	if (!m) {
		snprintf(r->err, r->errsz,
			 "%s: process %d: a trace names mapping %u, which no record described",
			 r->run.dir, (int)im->pid, id);
		return BR_EINPUT;
	}
	n = narrow_of(r, img, m)->nsegs;
	for (i = 0; i < n; i++) {
		struct ev_mmap ev;
		int ret;

		seg_event(r, img, m, i, &ev);
		ret = resolver_mmap(&an->s, &ev, r->err, r->errsz);
		if (ret)
			return ret;
	}
	return 0;
}

static int trace_cmp(const void *a, const void *b)
{
	const struct qrec_trace *x = a, *y = b;

	if (x->map != y->map)
		return x->map < y->map ? -1 : 1;
	if (x->from_map != y->from_map)
		return x->from_map < y->from_map ? -1 : 1;
	return 0;
}

/* The trace @t of image @img as an exact range into the collector. */
static int feed_trace(struct qrec *r, struct annot *an, size_t img,
		      const struct qrec_trace *t)
{
	struct ev_branch br[2];
	struct ev_sample s;

	memset(br, 0, sizeof(br));
	memset(&s, 0, sizeof(s));
	/* newest first: the range's end (no branch known from it) */
	br[0].from = t->end;
	br[1].from = t->from;
	br[1].to = t->start;
	s.pid = r->rec.images[img].pid;
	s.tid = s.pid;
	s.cpumode = EV_CPU_USER;
	s.cpu = UINT32_MAX;
	s.period = 1;
	s.event = QREC_EXACT_EVENT;
	s.repeat = t->count;
	s.has_brstack = true;
	s.br = br;
	s.nr = 2;
	s.exact_range = true;
	s.pos.name = r->run.dir;
	return annot_sample(an, &s, r->err, r->errsz);
}

/* Every trace of image @img, grouped by its mappings, into the collector. */
static int feed_image(struct qrec *r, struct annot *an, size_t img,
		      struct qrec_tracev *tv)
{
	const struct qrec_image *im = &r->rec.images[img];
	/* the image's address space starts empty */
	struct ev_comm c = { .pid = im->pid, .tid = im->pid, .comm = "",
			     .exec = true, .pos = { r->run.dir, 0, 0 } };
	uint32_t cur_map = 0, cur_from = UINT32_MAX;
	size_t i;
	int ret = qrec_image_traces(&r->rec, img, tv, r->err, r->errsz);

	if (ret)
		return ret;
	r->traces += tv->n;
	if (tv->n)
		qsort(tv->v, tv->n, sizeof(*tv->v), trace_cmp);
	ret = resolver_comm(&an->s, &c, r->err, r->errsz);
	for (i = 0; !ret && i < tv->n; i++) {
		const struct qrec_trace *t = &tv->v[i];

		if (t->map != cur_map || t->from_map != cur_from) {
			if (t->from_map && t->from_map != t->map)
				ret = feed_map(r, an, img, t->from_map);
			if (!ret)
				ret = feed_map(r, an, img, t->map);
			if (ret)
				return ret;
			cur_map = t->map;
			cur_from = t->from_map;
		}
		ret = feed_trace(r, an, img, t);
	}
	return ret;
}

static int write_exact(struct qrec *r)
{
	struct resolver_opts so;
	struct annot_cfg cfg;
	struct annot an;
	struct qrec_tracev tv = { 0 };
	size_t bytes = 0, i;
	int ret = 0;

	memset(&so, 0, sizeof(so));
	memset(&cfg, 0, sizeof(cfg));
	cfg.parts = ANNOT_BLOCKS | ANNOT_PROFGEN | ANNOT_BOLT;
	cfg.engine = ANNOT_ENGINE_BATCH;
	ret = annot_init(&an, r->o->output, &so, &cfg, r->err, r->errsz);
	if (ret)
		return ret;
	an.s.exact = true;
	for (i = 0; i < r->rec.nr_images && !ret; i++)
		ret = feed_image(r, &an, i, &tv);
	free(tv.v);
	for (i = 0; !ret && i < an.nr_per; i++)
		if (an.per[i])
			r->edges += an.per[i]->edges.nr;
	if (!ret)
		ret = brprof_write(&an, r->o->output, &bytes, r->err, r->errsz);
	annot_free(&an);
	return ret;
}

/* ---- the whole -------------------------------------------------------------------- */

/* " (N with the outermost frames of their stack cut)", or "". */
static const char *cut_note(const struct qrec *r, char *buf, size_t size)
{
	if (!r->cut_stacks)
		return "";
	snprintf(buf, size, " (%" PRIu64 " with stacks cut to their innermost %u frames)",
		 r->cut_stacks, QREC_STACK_MAX);
	return buf;
}

static void summary(struct qrec *r)
{
	const struct qrec_opts *o = r->o;
	const struct qrec_recording *rec = &r->rec;
	char how[128], what[320], cut[160] = "", cutmsg[96];
	int st = r->run.root_status;
	int32_t pid = qrec_cut_pid(rec);

	if (WIFEXITED(st))
		snprintf(how, sizeof(how), "exited with status %d",
			 WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(how, sizeof(how), "was killed by signal %d (%s)",
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(how, sizeof(how), "ended");
	if (pid >= 0)
		snprintf(cut, sizeof(cut),
			 " (process %d was killed: what it ran since its threads' last samples or ranges is missing)",
			 (int)pid);
	if (o->exact)
		snprintf(what, sizeof(what),
			 "%" PRIu64 " ranges and %" PRIu64 " distinct taken edges counted exactly",
			 r->traces, r->edges);
	else
		snprintf(what, sizeof(what),
			 "%" PRIu64 " samples of %u branches%s every %" PRIu64 "%s taken branches%s",
			 rec->counts.samples, o->depth,
			 o->call_graph ? " and the call stack" : "", o->period,
			 o->jitter ? " (+-jitter)" : "", cut_note(r, cutmsg,
							 sizeof(cutmsg)));
	fprintf(stderr,
		"blockrange record: %s %s%s; qemu, cpu %s: %" PRIu64 " instructions, %" PRIu64 " taken branches, %" PRIu64 " thread%s in %" PRIu64 " process%s, %" PRIu64 " mapping%s; %s written to %s\n",
		o->argv[0], how, cut, qemu_run_cpu(o), rec->counts.insns,
		rec->counts.taken, rec->threads, rec->threads == 1 ? "" : "s",
		rec->processes, rec->processes == 1 ? "" : "es",
		rec->maps, rec->maps == 1 ? "" : "s", what,
		strcmp(o->output, "-") ? o->output : "stdout");
}

/* Read the directory and write the output; 0 or -1 with a message. */
static int convert(struct qrec *r)
{
	const struct qrec_read_opts ro = {
		.mode = r->o->exact ? QREC_EXACT : QREC_SAMPLED,
		.max_branches = PDW_MAX_BRANCHES,
	};
	int st = r->run.root_status;
	int ret = qrec_read(&r->rec, r->run.dir, &ro, r->err, r->errsz);

	if (!ret && !r->rec.nr_files) {
		snprintf(r->err, r->errsz, "%s did not record anything (it could not load the plugin %s: see the message above)",
			 r->run.qemu, r->run.plugin);
		return BR_ESYS;
	}
	/*
	 * Did any guest code run?  QEMU can stop before, after the plugin:
	 * then the plugin still ends the image (at QEMU's exit), with no
	 * instruction counted, as when QEMU cannot load an ELF file that
	 * claims to be x86-64.
	 */
	if (!ret && st != -1 && !r->rec.counts.insns) {
		snprintf(r->err, r->errsz, "%s stopped before %s ran (status %d): see its message above",
			 r->run.qemu, r->o->argv[0],
			 WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		return BR_ESYS;
	}
	if (!ret)
		ret = narrow_init(r);
	if (!ret)
		ret = r->o->exact ? write_exact(r) : write_sampled(r);
	return ret;
}

static void qrec_free(struct qrec *r)
{
	qrec_recording_free(&r->rec);
	free(r->narrow);
	free(r->base);
}

static void qrec_init(struct qrec *r, const struct qrec_opts *o, char *err,
		      size_t errsz)
{
	memset(r, 0, sizeof(*r));
	r->o = o;
	r->err = err;
	r->errsz = errsz;
}

int qrec_record(const struct qrec_opts *o, int *status, char *err,
		size_t errsz)
{
	struct qrec r;
	int ret;

	qrec_init(&r, o, err, errsz);
	ret = qemu_run_prepare(&r.run, o, err, errsz);
	if (!ret)
		ret = qemu_run_program(&r.run, o, err, errsz);
	if (!ret && r.run.root_status == -1) {
		snprintf(err, errsz, "%s could not be started", r.run.qemu);
		ret = BR_ESYS;
	}
	if (!ret)
		ret = convert(&r);
	if (!ret) {
		if (!o->quiet)
			summary(&r);
		*status = WIFEXITED(r.run.root_status) ?
			  WEXITSTATUS(r.run.root_status) :
			  128 + WTERMSIG(r.run.root_status);
	}
	qrec_free(&r);
	qemu_run_end(&r.run);
	return ret;
}

int qrec_convert(const struct qrec_opts *o, const char *dir, char *err,
		 size_t errsz)
{
	struct qrec r;
	int ret;

	qrec_init(&r, o, err, errsz);
	snprintf(r.run.qemu, sizeof(r.run.qemu), "qemu-x86_64");
	snprintf(r.run.plugin, sizeof(r.run.plugin), "the recorder plugin");
	if (snprintf(r.run.dir, sizeof(r.run.dir), "%s", dir) >=
	    (int)sizeof(r.run.dir)) {
		snprintf(err, errsz, "%s: path too long", dir);
		return BR_ESYS;
	}
	ret = convert(&r);
	qrec_free(&r);
	return ret;
}
