// SPDX-License-Identifier: GPL-2.0
/*
 * The reader of a QEMU recording directory.  See qrec.h; the files are
 * described in format/qrec_wire.h.
 */
#define _GNU_SOURCE

#include "input/qrec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/status.h"

/* What a read needs besides the recording. */
struct qrd {
	struct qrec_recording *rec;
	const struct qrec_read_opts *o;
	const char *dir;
	char *err;
	size_t errsz;
};

static int fail(struct qrd *r, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct qrd *r, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, r->errsz, fmt, ap);
	va_end(ap);
	return ret;
}

static int bad(struct qrd *r, const struct qrec_file *f, size_t off,
	       const char *what)
{
	return fail(r, BR_EINPUT, "%s: offset %zu: expected %s", f->name, off,
		    what);
}

static int oom(struct qrd *r)
{
	return fail(r, BR_ESYS, "out of memory");
}

const struct qrec_mapping *qrec_mapping_of(const struct qrec_image *im,
					   uint32_t id)
{
	uint64_t k = pairmap_get(&im->index, id, 0);

	return k ? &im->maps[k - 1] : NULL;
}

static int add_map(struct qrd *r, const struct qrec_file *f, size_t off,
		   const struct qrec_map *m, const char *path)
{
	struct qrec_image *im = &r->rec->images[f->img];
	const struct qrec_mapping *old;
	struct qrec_mapping *q;
	uint64_t *k;

	if (!m->id || m->id > 1u << 24 || m->start >= m->end)
		return bad(r, f, off, "a mapping with an id and a range");
	old = qrec_mapping_of(im, m->id);
	if (old) {
		/* a forked child restates what it inherited: the same */
		if (old->m.start != m->start || old->m.end != m->end)
			return bad(r, f, off, "a mapping id described once");
		return 0;
	}
	if (br_grow((void **)&im->maps, &im->cap_maps, im->nr_maps + 1,
		    sizeof(*im->maps)))
		return oom(r);
	k = pairmap_ref(&im->index, m->id, 0);
	if (!k)
		return oom(r);
	q = &im->maps[im->nr_maps++];
	*k = im->nr_maps;
	q->m = *m;
	q->path = m->path_len ? strndup(path, m->path_len) : strdup("//anon");
	if (!q->path)
		return oom(r);
	r->rec->maps++;
	return 0;
}

/* The image of @f (made from its header if it is the first file of it). */
static int image_of(struct qrd *r, struct qrec_file *f)
{
	struct qrec_recording *rec = r->rec;
	struct qrec_image *v;
	size_t i;

	for (i = 0; i < rec->nr_images; i++)
		if (rec->images[i].pid == f->pid &&
		    rec->images[i].image == f->image) {
			f->img = i;
			return 0;
		}
	v = realloc(rec->images, (rec->nr_images + 1) * sizeof(*v));
	if (!v)
		return oom(r);
	rec->images = v;
	f->img = rec->nr_images++;
	memset(&v[f->img], 0, sizeof(v[f->img]));
	v[f->img].pid = f->pid;
	v[f->img].image = f->image;
	return 0;
}

/* The header page of a records file. */
static int scan_header(struct qrd *r, struct qrec_file *f)
{
	struct qrec_counts *c = &r->rec->counts;
	struct qrec_image *im;

	if (f->len < QREC_HEADER_SIZE)
		return bad(r, f, 0, "a header page of 4096 bytes (the file is cut short)");
	memcpy(&f->h, f->buf, sizeof(f->h));
	if (memcmp(f->h.magic, QREC_MAGIC, sizeof(f->h.magic)) ||
	    f->h.version < QREC_VERSION_MIN || f->h.version > QREC_VERSION ||
	    f->h.size != QREC_HEADER_SIZE)
		return bad(r, f, 0, "the recorder's header, version 1 or 2");
	if (f->h.pid != f->pid || f->h.image != f->image)
		return bad(r, f, 0, "the pid and image number of the file's name");
	if (f->h.mode != r->o->mode)
		return bad(r, f, 0, r->o->mode == QREC_EXACT ?
			   "an exact recording" : "a sampled recording");
	if (image_of(r, f))
		return BR_ESYS;
	im = &r->rec->images[f->img];
	if (!f->seq || !im->t0) {
		im->ppid = f->h.ppid;
		im->flags = f->h.flags;
		im->t0 = f->h.time;
	}
	f->running = f->h.state != QREC_FINISHED;
	c->insns += f->h.counts.insns;
	c->taken += f->h.counts.taken;
	c->samples += f->h.counts.samples;
	c->signals += f->h.counts.signals;
	c->breaks += f->h.counts.breaks;
	return 0;
}

/* A sample: its branches, then (version 2) its call stack, inside it. */
static int check_sample(struct qrd *r, struct qrec_file *f, size_t off,
			const uint8_t *p, size_t body)
{
	struct qrec_sample s;
	size_t room;

	if (body < sizeof(s))
		return bad(r, f, off, "a whole sample record");
	memcpy(&s, p, sizeof(s));
	if (s.nr > (body - sizeof(s)) / sizeof(struct qrec_branch) ||
	    s.nr > r->o->max_branches)
		return bad(r, f, off, "the sample's branches inside the record");
	if (f->h.version < 2 && s.stack)
		return bad(r, f, off, "a sample without a call stack (version 1)");
	if (s.stack & ~(QREC_STACK_CUT | 0xffffu) ||
	    QREC_STACK_FRAMES(s.stack) > QREC_STACK_MAX)
		return bad(r, f, off, "a sample's call stack of at most 1024 frames (its other bits zero)");
	room = body - sizeof(s) - (size_t)s.nr * sizeof(struct qrec_branch);
	if (QREC_STACK_FRAMES(s.stack) > room / sizeof(uint64_t))
		return bad(r, f, off, "the sample's call stack inside the record");
	return 0;
}

/* Is the payload @p of @body bytes of a record of type @type whole? */
static int check_payload(struct qrd *r, struct qrec_file *f, size_t off,
			 uint32_t type, const uint8_t *p, size_t body)
{
	switch (type) {
	case QREC_MAP: {
		struct qrec_map m;

		if (body < sizeof(m))
			return bad(r, f, off, "a whole mapping record");
		memcpy(&m, p, sizeof(m));
		if (m.path_len > body - sizeof(m))
			return bad(r, f, off, "a path inside the record");
		return add_map(r, f, off, &m, (const char *)p + sizeof(m));
	}
	case QREC_COMM:
	case QREC_FORK:
	case QREC_EXIT:
		if (body < (type == QREC_COMM ? sizeof(struct qrec_comm) :
			    sizeof(struct qrec_task)))
			return bad(r, f, off, "a whole task record");
		return 0;
	case QREC_SAMPLE:
		return check_sample(r, f, off, p, body);
	case QREC_TRACES: {
		struct qrec_traces t;

		if (body < sizeof(t))
			return bad(r, f, off, "a whole traces record");
		memcpy(&t, p, sizeof(t));
		if (t.nr != (body - sizeof(t)) / sizeof(struct qrec_trace))
			return bad(r, f, off, "the traces filling the record");
		return 0;
	}
	case QREC_PAD:
		return 0;
	case QREC_EXEC:
		if (body < sizeof(struct qrec_exec))
			return bad(r, f, off, "a whole exec record");
		return 0;
	default:
		return bad(r, f, off, "a record type of 1..9");
	}
}

/* The end record at @off: one per image. */
static int note_end(struct qrd *r, struct qrec_file *f, size_t off,
		    const uint8_t *p, size_t body)
{
	struct qrec_image *im = &r->rec->images[f->img];
	struct qrec_end e;

	if (body < sizeof(e))
		return bad(r, f, off, "a whole end record");
	if (im->ended)
		return bad(r, f, off, "one end record per image");
	memcpy(&e, p, sizeof(e));
	im->ended = true;
	im->how = e.how;
	im->status = e.status;
	r->rec->decode_misses += e.decode_misses;
	return 0;
}

/* Check every record of the records file @f, note its mappings and end. */
static int scan_records(struct qrd *r, struct qrec_file *f)
{
	size_t off = QREC_HEADER_SIZE;

	while (off + sizeof(struct qrec_rec) <= f->len) {
		struct qrec_rec rec;
		const uint8_t *p = f->buf + off + sizeof(rec);
		size_t body;
		int e;

		memcpy(&rec, f->buf + off, sizeof(rec));
		if (!rec.type)
			break;		/* room the thread did not use */
		if (rec.size < sizeof(rec) || rec.size % 8 ||
		    rec.size > f->len - off)
			return bad(r, f, off, "a record size that is a multiple of 8, inside the file");
		body = rec.size - sizeof(rec);
		e = rec.type == QREC_END ? note_end(r, f, off, p, body) :
		    check_payload(r, f, off, rec.type, p, body);
		if (e)
			return e;
		off += rec.size;
	}
	f->end = off;
	return 0;
}

/* A table file: its header (its slots are read by qrec_image_traces()). */
static int scan_table(struct qrd *r, struct qrec_file *f)
{
	struct qrec_table t;

	if (f->len < sizeof(t))
		return bad(r, f, 0, "a table header of 64 bytes");
	memcpy(&t, f->buf, sizeof(t));
	if (memcmp(t.magic, QREC_TABLE_MAGIC, sizeof(t.magic)) ||
	    t.cap > (f->len - sizeof(t)) / sizeof(struct qrec_trace))
		return bad(r, f, 0, "a trace table whose slots fill the file");
	return image_of(r, f);
}

static int file_cmp(const void *a, const void *b)
{
	const struct qrec_file *x = a, *y = b;

	if (x->table != y->table)
		return x->table ? 1 : -1;	/* records files first */
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return strcmp(x->name, y->name);	/* "077.0.0.qrec", "77.0.0.qrec" */
}

static int image_cmp(const void *a, const void *b)
{
	const struct qrec_image *x = a, *y = b;

	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->image < y->image ? -1 : x->image > y->image;
}

static int map_file(struct qrd *r, struct qrec_file *f)
{
	struct stat st;
	int fd = open(f->name, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return fail(r, BR_ESYS, "%s: %s", f->name, strerror(e));
	}
	f->len = (size_t)st.st_size;
	f->buf = f->len ? mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, fd, 0) :
			  NULL;
	close(fd);
	if (f->buf == MAP_FAILED) {
		f->buf = NULL;
		return fail(r, BR_ESYS, "%s: %s", f->name, strerror(errno));
	}
	return 0;
}

/* The file of the directory entry @name, if it is one of the recording. */
static int add_file(struct qrd *r, const char *name)
{
	struct qrec_recording *rec = r->rec;
	struct qrec_file *f, *v;
	int pid, n = 0;
	unsigned image, seq;
	char ext[8];

	if (sscanf(name, "%d.%u.%u.%4[a-z]%n", &pid, &image, &seq, ext,
		   &n) != 4 || (size_t)n != strlen(name) ||
	    (strcmp(ext, "qrec") && strcmp(ext, "qtab")))
		return 0;
	v = realloc(rec->files, (rec->nr_files + 1) * sizeof(*v));
	if (!v)
		return oom(r);
	rec->files = v;
	f = &rec->files[rec->nr_files];
	memset(f, 0, sizeof(*f));
	if (asprintf(&f->name, "%s/%s", r->dir, name) < 0) {
		f->name = NULL;
		return oom(r);
	}
	rec->nr_files++;
	f->pid = pid;
	f->image = image;
	f->seq = seq;
	f->table = !strcmp(ext, "qtab");
	return map_file(r, f);
}

static int read_dir(struct qrd *r)
{
	DIR *d = opendir(r->dir);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return fail(r, BR_ESYS, "%s: %s", r->dir, strerror(errno));
	while (!ret && (e = readdir(d)))
		ret = add_file(r, e->d_name);
	closedir(d);
	return ret;
}

/* Put the images in the order they began; files point at them by index. */
static int sort_images(struct qrd *r)
{
	struct qrec_recording *rec = r->rec;
	struct qrec_image *old = rec->images;
	size_t *where = calloc(rec->nr_images, sizeof(*where));
	struct qrec_image *sorted = malloc(rec->nr_images * sizeof(*sorted));
	size_t i, k;

	if (!where || !sorted) {
		free(where);
		free(sorted);
		return oom(r);
	}
	memcpy(sorted, old, rec->nr_images * sizeof(*sorted));
	qsort(sorted, rec->nr_images, sizeof(*sorted), image_cmp);
	for (i = 0; i < rec->nr_images; i++)
		for (k = 0; k < rec->nr_images; k++)
			if (sorted[k].pid == old[i].pid &&
			    sorted[k].image == old[i].image)
				where[i] = k;
	for (i = 0; i < rec->nr_files; i++)
		rec->files[i].img = where[rec->files[i].img];
	free(old);
	free(where);
	rec->images = sorted;
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Distinct processes (pids) and threads (pid, tid) of the recording. */
static int count_tasks(struct qrd *r)
{
	struct qrec_recording *rec = r->rec;
	uint64_t *ids = malloc((rec->nr_files + 1) * sizeof(*ids));
	size_t n = 0, i;

	if (!ids)
		return oom(r);
	for (i = 0; i < rec->nr_files; i++)
		if (!rec->files[i].table)
			ids[n++] = (uint64_t)(uint32_t)rec->files[i].h.pid << 32 |
				   (uint32_t)rec->files[i].h.tid;
	qsort(ids, n, sizeof(*ids), u64_cmp);
	for (i = 0; i < n; i++) {
		rec->threads += !i || ids[i] != ids[i - 1];
		rec->processes += !i || ids[i] >> 32 != ids[i - 1] >> 32;
	}
	free(ids);
	return 0;
}

/* Check every file of the directory, then describe the recording. */
static int check_all(struct qrd *r)
{
	struct qrec_recording *rec = r->rec;
	size_t i;
	int e;

	qsort(rec->files, rec->nr_files, sizeof(*rec->files), file_cmp);
	for (i = 0; i < rec->nr_files; i++) {
		struct qrec_file *f = &rec->files[i];

		e = f->table ? scan_table(r, f) : scan_header(r, f);
		if (!e && !f->table)
			e = scan_records(r, f);
		if (e)
			return e;
	}
	e = sort_images(r);
	if (e)
		return e;
	for (i = 0; i < rec->nr_images; i++)
		if (!rec->images[i].t0)
			return fail(r, BR_EINPUT, "%s: a table of process %d without its records",
				    r->dir, (int)rec->images[i].pid);
	rec->t0 = rec->images[0].t0;
	return count_tasks(r);
}

int qrec_read(struct qrec_recording *rec, const char *dir,
	      const struct qrec_read_opts *o, char *err, size_t errsz)
{
	struct qrd r = { rec, o, dir, err, errsz };
	int ret;

	memset(rec, 0, sizeof(*rec));
	ret = read_dir(&r);
	if (!ret && rec->nr_files)
		ret = check_all(&r);
	if (ret)
		qrec_recording_free(rec);
	return ret;
}

void qrec_recording_free(struct qrec_recording *rec)
{
	size_t i, k;

	for (i = 0; i < rec->nr_files; i++) {
		struct qrec_file *f = &rec->files[i];

		if (f->buf)
			munmap((void *)f->buf, f->len);
		free(f->name);
	}
	free(rec->files);
	for (i = 0; i < rec->nr_images; i++) {
		struct qrec_image *im = &rec->images[i];

		for (k = 0; k < im->nr_maps; k++)
			free(im->maps[k].path);
		free(im->maps);
		pairmap_free(&im->index);
	}
	free(rec->images);
	memset(rec, 0, sizeof(*rec));
}

/* ---- the records in time order ------------------------------------------ */

static int ref_cmp(const void *a, const void *b)
{
	const struct qrec_ref *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static bool ordered(uint32_t type)
{
	return type == QREC_MAP || type == QREC_COMM || type == QREC_FORK ||
	       type == QREC_EXIT || type == QREC_SAMPLE;
}

int qrec_order(const struct qrec_recording *rec, struct qrec_ref **refs,
	       size_t *nr, char *err, size_t errsz)
{
	struct qrec_ref *v = NULL;
	size_t n = 0, cap = 0, i;

	for (i = 0; i < rec->nr_files; i++) {
		const struct qrec_file *f = &rec->files[i];
		size_t off = QREC_HEADER_SIZE;

		while (!f->table && off < f->end) {
			struct qrec_rec r;

			memcpy(&r, f->buf + off, sizeof(r));
			if (ordered(r.type)) {
				if (br_grow_from((void **)&v, &cap, n + 1,
						 sizeof(*v), 4096)) {
					free(v);
					snprintf(err, errsz, "out of memory");
					return BR_ESYS;
				}
				/* every payload starts with its time */
				memcpy(&v[n].time, f->buf + off + sizeof(r),
				       sizeof(v[n].time));
				v[n].file = (uint32_t)i;
				v[n].type = r.type;
				v[n].off = off + sizeof(r);
				n++;
			}
			off += r.size;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), ref_cmp);
	*refs = v;
	*nr = n;
	return 0;
}

void qrec_item_at(const struct qrec_recording *rec,
		  const struct qrec_ref *ref, struct qrec_item *it)
{
	const struct qrec_file *f = &rec->files[ref->file];
	const uint8_t *p = f->buf + ref->off;

	memset(it, 0, sizeof(*it));
	it->type = ref->type;
	it->img = f->img;
	switch (ref->type) {
	case QREC_MAP:
		memcpy(&it->u.map, p, sizeof(it->u.map));
		break;
	case QREC_COMM:
		memcpy(&it->u.comm, p, sizeof(it->u.comm));
		break;
	case QREC_FORK:
	case QREC_EXIT:
		memcpy(&it->u.task, p, sizeof(it->u.task));
		break;
	default:
		memcpy(&it->u.sample, p, sizeof(it->u.sample));
		it->branches = p + sizeof(it->u.sample);
		it->frames = it->branches +
			     (size_t)it->u.sample.nr * sizeof(struct qrec_branch);
		break;
	}
}

void qrec_item_branch(const struct qrec_item *it, uint32_t i,
		      struct qrec_branch *b)
{
	memcpy(b, it->branches + (size_t)i * sizeof(*b), sizeof(*b));
}

uint64_t qrec_item_frame(const struct qrec_item *it, uint32_t i)
{
	uint64_t a;

	memcpy(&a, it->frames + (size_t)i * sizeof(a), sizeof(a));
	return a;
}

/* ---- traces --------------------------------------------------------------- */

static int tvec_add(struct qrec_tracev *t, const void *e, size_t n)
{
	if (!n)
		return 0;	/* a TRACES record of none: no room, no copy */
	if (br_grow_from((void **)&t->v, &t->cap, t->n + n, sizeof(*t->v),
			 4096))
		return BR_ESYS;
	memcpy(t->v + t->n, e, n * sizeof(*t->v));
	t->n += n;
	return 0;
}

/* The counted slots of the table file @f, if it is valid. */
static int table_traces(const struct qrec_file *f, struct qrec_tracev *t)
{
	struct qrec_table h;
	size_t k;

	memcpy(&h, f->buf, sizeof(h));
	if (!h.valid)
		return 0;
	for (k = 0; k < h.cap; k++) {
		struct qrec_trace e;

		memcpy(&e, f->buf + sizeof(h) + k * sizeof(e), sizeof(e));
		if (e.count && tvec_add(t, &e, 1))
			return BR_ESYS;
	}
	return 0;
}

/* The TRACES records of the records file @f. */
static int record_traces(const struct qrec_file *f, struct qrec_tracev *t)
{
	size_t off;

	for (off = QREC_HEADER_SIZE; off < f->end;) {
		struct qrec_rec rec;

		memcpy(&rec, f->buf + off, sizeof(rec));
		if (rec.type == QREC_TRACES) {
			struct qrec_traces h;

			memcpy(&h, f->buf + off + sizeof(rec), sizeof(h));
			if (tvec_add(t, f->buf + off + sizeof(rec) + sizeof(h),
				     h.nr))
				return BR_ESYS;
		}
		off += rec.size;
	}
	return 0;
}

int qrec_image_traces(const struct qrec_recording *rec, size_t img,
		      struct qrec_tracev *t, char *err, size_t errsz)
{
	size_t i;

	t->n = 0;
	for (i = 0; i < rec->nr_files; i++) {
		const struct qrec_file *f = &rec->files[i];

		if (f->img == img &&
		    (f->table ? table_traces(f, t) : record_traces(f, t))) {
			snprintf(err, errsz, "out of memory");
			return BR_ESYS;
		}
	}
	return 0;
}

int32_t qrec_cut_pid(const struct qrec_recording *rec)
{
	size_t i;

	for (i = 0; i < rec->nr_files; i++)
		if (!rec->files[i].table && rec->files[i].running &&
		    !rec->images[rec->files[i].img].ended)
			return rec->files[i].pid;
	return -1;
}
