// SPDX-License-Identifier: GPL-2.0
/* perf.data writer.  See perfdata_write.h. */
#define _GNU_SOURCE

#include "output/perfdata_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/status.h"

#define PDW_SUPPORTED_SAMPLE                                              \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |       \
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |             \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |                     \
	 PERF_SAMPLE_BRANCH_STACK)

/* The features a writer can carry, in bit order. */
static const enum pf_feature string_feats[] = {
	PF_FEAT_HOSTNAME, PF_FEAT_OSRELEASE, PF_FEAT_VERSION,
	PF_FEAT_ARCH, PF_FEAT_CPUDESC, PF_FEAT_CPUID,
};

#define NR_STRING_FEATS (sizeof(string_feats) / sizeof(string_feats[0]))

struct pdw_event {
	struct perf_event_attr attr;
	char *name;
	uint64_t id;
};

/* A growable byte buffer. */
struct buf {
	uint8_t *p;
	size_t len;
	size_t cap;
};

struct pdw {
	int fd;
	bool own_fd;
	bool pipe;
	bool started;		/* events and features are fixed */
	bool failed;
	char *name;
	char err[512];
	uint64_t pos;		/* bytes written to fd */
	struct buf out;		/* not yet written */
	struct buf rec;		/* the record being built */
	struct pdw_event *ev;
	size_t nr_ev;
	char *str[NR_STRING_FEATS];
	char **cmdline;
	int cmdline_argc;
	bool has_nrcpus;
	uint32_t nrcpus[2];	/* available, online */
	struct buf build_ids;	/* HEADER_BUILD_ID entries (file mode) */
	char **bid_paths;	/* paths in build_ids */
	size_t nr_bid;
	uint64_t data_offset;
	uint64_t attrs_offset;
	uint64_t first_sample_time;
	uint64_t last_sample_time;
	bool have_sample_time;
};

static int fail(struct pdw *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct pdw *w, const char *fmt, ...)
{
	va_list ap;

	if (w->failed)
		return BR_ESYS;
	va_start(ap, fmt);
	vsnprintf(w->err, sizeof(w->err), fmt, ap);
	va_end(ap);
	w->failed = true;
	return BR_ESYS;
}

const char *pdw_error(const struct pdw *w)
{
	return w->err;
}

static int buf_reserve(struct buf *b, size_t n)
{
	return br_grow_from((void **)&b->p, &b->cap, b->len + n, 1, 4096);
}

static int buf_put(struct buf *b, const void *data, size_t n)
{
	if (buf_reserve(b, n))
		return BR_ESYS;
	if (n)
		memcpy(b->p + b->len, data, n);
	b->len += n;
	return 0;
}

static int buf_zero(struct buf *b, size_t n)
{
	if (buf_reserve(b, n))
		return BR_ESYS;
	memset(b->p + b->len, 0, n);
	b->len += n;
	return 0;
}

static int buf_u32(struct buf *b, uint32_t v)
{
	return buf_put(b, &v, sizeof(v));
}

static int buf_u64(struct buf *b, uint64_t v)
{
	return buf_put(b, &v, sizeof(v));
}

/* struct perf_header_string: u32 length (NUL and padding to 8 included). */
static int buf_string(struct buf *b, const char *s)
{
	size_t n = strlen(s) + 1, len = (n + 7) & ~(size_t)7;

	if (buf_u32(b, (uint32_t)len) || buf_put(b, s, n - 1))
		return BR_ESYS;
	return buf_zero(b, len - (n - 1));
}

static int write_all(struct pdw *w, const void *p, size_t n)
{
	const uint8_t *c = p;

	while (n) {
		ssize_t r = write(w->fd, c, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return fail(w, "%s: %s", w->name,
				    r < 0 ? strerror(errno) : "short write");
		c += r;
		n -= (size_t)r;
		w->pos += (uint64_t)r;
	}
	return 0;
}

static int flush(struct pdw *w)
{
	int r = 0;

	if (w->out.len)
		r = write_all(w, w->out.p, w->out.len);
	w->out.len = 0;
	return r;
}

/* Append the finished record in w->rec to the output. */
static int emit(struct pdw *w)
{
	if (w->failed)
		return BR_ESYS;
	if (buf_put(&w->out, w->rec.p, w->rec.len))
		return fail(w, "out of memory");
	if (w->out.len >= 1 << 16)
		return flush(w);
	return 0;
}

/* Start a record: header with its size filled in by rec_end(). */
static int rec_begin(struct pdw *w, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 0 };

	w->rec.len = 0;
	return buf_put(&w->rec, &h, sizeof(h));
}

static int rec_end(struct pdw *w)
{
	struct perf_event_header *h = (struct perf_event_header *)w->rec.p;

	if (w->rec.len > 0xffff)
		return fail(w, "%s: a record of %zu bytes does not fit perf's 16-bit size",
			    w->name, w->rec.len);
	h->size = (uint16_t)w->rec.len;
	return emit(w);
}

static int nomem(struct pdw *w)
{
	return fail(w, "out of memory");
}

static int open_common(struct pdw **wp, int fd, bool own, bool pipe,
		       const char *name, char *err, size_t errsz)
{
	struct pdw *w = calloc(1, sizeof(*w));

	*wp = NULL;
	if (!w || !(w->name = strdup(name))) {
		free(w);
		if (own)
			close(fd);
		snprintf(err, errsz, "out of memory");
		return BR_ESYS;
	}
	w->fd = fd;
	w->own_fd = own;
	w->pipe = pipe;
	*wp = w;
	return 0;
}

int pdw_open(struct pdw **wp, const char *path, char *err, size_t errsz)
{
	int fd;

	if (!strcmp(path, "-"))
		return open_common(wp, STDOUT_FILENO, false, true, "<stdout>",
				   err, errsz);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		*wp = NULL;
		return BR_ESYS;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		snprintf(err, errsz, "%s: expected a seekable file for perf.data (use - for pipe mode), got %s",
			 path, strerror(errno));
		close(fd);
		*wp = NULL;
		return BR_ESYS;
	}
	return open_common(wp, fd, true, false, path, err, errsz);
}

int pdw_open_fd(struct pdw **wp, int fd, bool pipe, const char *name,
		char *err, size_t errsz)
{
	return open_common(wp, fd, false, pipe, name, err, errsz);
}

static int not_started(struct pdw *w, const char *what)
{
	if (w->failed)
		return BR_ESYS;
	if (w->started)
		return fail(w, "%s: %s after the first record", w->name, what);
	return 0;
}

int pdw_add_event(struct pdw *w, const struct perf_event_attr *attr,
		  const char *name)
{
	struct pdw_event *ev;

	if (not_started(w, "an event added"))
		return BR_ESYS;
	if (attr->sample_type & ~(uint64_t)PDW_SUPPORTED_SAMPLE)
		return fail(w, "%s: sample_type 0x%llx has fields the writer does not support",
			    w->name, (unsigned long long)attr->sample_type);
	ev = realloc(w->ev, (w->nr_ev + 1) * sizeof(*ev));
	if (!ev)
		return nomem(w);
	w->ev = ev;
	ev += w->nr_ev;
	memset(ev, 0, sizeof(*ev));
	ev->attr = *attr;
	ev->attr.size = sizeof(struct perf_event_attr);
	ev->id = w->nr_ev + 1;
	ev->name = strdup(name);
	if (!ev->name)
		return nomem(w);
	return (int)w->nr_ev++;
}

int pdw_set_string(struct pdw *w, enum pf_feature feat, const char *s)
{
	size_t i;

	if (not_started(w, "a header feature set"))
		return BR_ESYS;
	for (i = 0; i < NR_STRING_FEATS; i++) {
		if (string_feats[i] != feat)
			continue;
		free(w->str[i]);
		w->str[i] = strdup(s);
		return w->str[i] ? 0 : nomem(w);
	}
	return fail(w, "feature %d is not a string feature", (int)feat);
}

int pdw_set_cmdline(struct pdw *w, int argc, char *const argv[])
{
	int i;

	if (not_started(w, "a header feature set"))
		return BR_ESYS;
	for (i = 0; i < w->cmdline_argc; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	w->cmdline_argc = 0;
	w->cmdline = calloc((size_t)argc + 1, sizeof(char *));
	if (!w->cmdline)
		return nomem(w);
	for (i = 0; i < argc; i++) {
		w->cmdline[i] = strdup(argv[i]);
		if (!w->cmdline[i])
			return nomem(w);
		w->cmdline_argc = i + 1;
	}
	return 0;
}

int pdw_set_nrcpus(struct pdw *w, uint32_t available, uint32_t online)
{
	if (not_started(w, "a header feature set"))
		return BR_ESYS;
	w->has_nrcpus = true;
	w->nrcpus[0] = available;
	w->nrcpus[1] = online;
	return 0;
}

int pdw_set_host(struct pdw *w)
{
	struct utsname u;
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	long onln = sysconf(_SC_NPROCESSORS_ONLN);

	if (uname(&u))
		return fail(w, "uname: %s", strerror(errno));
	if (pdw_set_string(w, PF_FEAT_HOSTNAME, u.nodename) ||
	    pdw_set_string(w, PF_FEAT_OSRELEASE, u.release) ||
	    pdw_set_string(w, PF_FEAT_ARCH, u.machine))
		return BR_ESYS;
	return pdw_set_nrcpus(w, conf > 0 ? (uint32_t)conf : 1,
			      onln > 0 ? (uint32_t)onln : 1);
}

/* Feature @feat's data into @b; 1 if the writer has it, 0 if not. */
static int feature_data(struct pdw *w, int feat, struct buf *b)
{
	size_t i;
	int k;

	for (i = 0; i < NR_STRING_FEATS; i++)
		if ((int)string_feats[i] == feat) {
			if (!w->str[i])
				return 0;
			return buf_string(b, w->str[i]) ? -1 : 1;
		}
	switch (feat) {
	case PF_FEAT_BUILD_ID:
		if (w->pipe || !w->nr_bid)
			return 0;
		return buf_put(b, w->build_ids.p, w->build_ids.len) ? -1 : 1;
	case PF_FEAT_NRCPUS:
		if (!w->has_nrcpus)
			return 0;
		return buf_u32(b, w->nrcpus[0]) || buf_u32(b, w->nrcpus[1]) ?
			-1 : 1;
	case PF_FEAT_CMDLINE:
		if (!w->cmdline)
			return 0;
		if (buf_u32(b, (uint32_t)w->cmdline_argc))
			return BR_ESYS;
		for (k = 0; k < w->cmdline_argc; k++)
			if (buf_string(b, w->cmdline[k]))
				return BR_ESYS;
		return 1;
	case PF_FEAT_EVENT_DESC:
		if (!w->nr_ev)
			return 0;
		if (buf_u32(b, (uint32_t)w->nr_ev) ||
		    buf_u32(b, sizeof(struct perf_event_attr)))
			return BR_ESYS;
		for (i = 0; i < w->nr_ev; i++)
			if (buf_put(b, &w->ev[i].attr, sizeof(w->ev[i].attr)) ||
			    buf_u32(b, 1) || buf_string(b, w->ev[i].name) ||
			    buf_u64(b, w->ev[i].id))
				return BR_ESYS;
		return 1;
	case PF_FEAT_BRANCH_STACK:
		/* No data: the bit says the samples carry branch stacks. */
		for (i = 0; i < w->nr_ev; i++)
			if (w->ev[i].attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
				return 1;
		return 0;
	case PF_FEAT_SAMPLE_TIME:
		if (w->pipe || !w->have_sample_time)
			return 0;
		return buf_u64(b, w->first_sample_time) ||
			buf_u64(b, w->last_sample_time) ? -1 : 1;
	default:
		return 0;
	}
}

/*
 * Fix events and features: check the events, and write the pipe header,
 * attr and feature records (pipe mode) or room for the header and the
 * attr section (file mode).
 */
static int start(struct pdw *w)
{
	size_t i;
	int feat;

	if (w->failed)
		return BR_ESYS;
	if (w->started)
		return 0;
	w->started = true;
	if (!w->nr_ev)
		return fail(w, "%s: no event added before the first record",
			    w->name);
	for (i = 0; w->nr_ev > 1 && i < w->nr_ev; i++)
		if (!(w->ev[i].attr.sample_type & PERF_SAMPLE_IDENTIFIER))
			return fail(w, "%s: several events need PERF_SAMPLE_IDENTIFIER in every attr",
				    w->name);
	if (w->pipe) {
		struct pf_pipe_header ph = { PF_MAGIC2, sizeof(ph) };

		if (buf_put(&w->out, &ph, sizeof(ph)))
			return nomem(w);
		for (i = 0; i < w->nr_ev; i++) {
			if (rec_begin(w, PF_RECORD_HEADER_ATTR, 0) ||
			    buf_put(&w->rec, &w->ev[i].attr,
				    sizeof(w->ev[i].attr)) ||
			    buf_u64(&w->rec, w->ev[i].id))
				return nomem(w);
			if (rec_end(w))
				return BR_ESYS;
		}
		for (feat = 1; feat < PF_FEAT_BITS; feat++) {
			int r;

			if (rec_begin(w, PF_RECORD_HEADER_FEATURE, 0) ||
			    buf_u64(&w->rec, (uint64_t)feat))
				return nomem(w);
			r = feature_data(w, feat, &w->rec);
			if (r < 0)
				return nomem(w);
			if (r && rec_end(w))
				return BR_ESYS;
		}
		return 0;
	}
	/* File mode: header (written by pdw_close), ids, attrs, data. */
	if (buf_zero(&w->out, sizeof(struct pf_header)))
		return nomem(w);
	for (i = 0; i < w->nr_ev; i++)
		if (buf_u64(&w->out, w->ev[i].id))
			return nomem(w);
	w->attrs_offset = w->out.len;
	for (i = 0; i < w->nr_ev; i++) {
		struct pf_section ids = {
			sizeof(struct pf_header) + i * sizeof(uint64_t),
			sizeof(uint64_t),
		};

		if (buf_put(&w->out, &w->ev[i].attr, sizeof(w->ev[i].attr)) ||
		    buf_put(&w->out, &ids, sizeof(ids)))
			return nomem(w);
	}
	w->data_offset = w->out.len;
	return 0;
}

/* The sample_id trailer of the first event, if it has sample_id_all. */
static int sample_id(struct pdw *w, int32_t pid, int32_t tid, uint64_t time)
{
	const struct pdw_event *ev = &w->ev[0];
	uint64_t st = ev->attr.sample_type;
	struct buf *b = &w->rec;
	int r = 0;

	if (!ev->attr.sample_id_all)
		return 0;
	if (st & PERF_SAMPLE_TID)
		r |= buf_u32(b, (uint32_t)pid) | buf_u32(b, (uint32_t)tid);
	if (st & PERF_SAMPLE_TIME)
		r |= buf_u64(b, time);
	if (st & PERF_SAMPLE_ID)
		r |= buf_u64(b, ev->id);
	if (st & PERF_SAMPLE_CPU)
		r |= buf_u32(b, 0) | buf_u32(b, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		r |= buf_u64(b, ev->id);
	return r ? nomem(w) : 0;
}

/* @s NUL-terminated and padded with NULs to a multiple of 8. */
static int put_padded(struct buf *b, const char *s)
{
	size_t n = strlen(s) + 1;

	if (buf_put(b, s, n))
		return BR_ESYS;
	return buf_zero(b, ((n + 7) & ~(size_t)7) - n);
}

int pdw_comm(struct pdw *w, int32_t pid, int32_t tid, const char *comm,
	     bool exec, uint64_t time)
{
	if (start(w))
		return BR_ESYS;
	if (rec_begin(w, PERF_RECORD_COMM,
		      PERF_RECORD_MISC_USER |
		      (exec ? PERF_RECORD_MISC_COMM_EXEC : 0)) ||
	    buf_u32(&w->rec, (uint32_t)pid) || buf_u32(&w->rec, (uint32_t)tid) ||
	    put_padded(&w->rec, comm))
		return nomem(w);
	if (sample_id(w, pid, tid, time))
		return BR_ESYS;
	return rec_end(w);
}

static int task(struct pdw *w, uint32_t type, int32_t pid, int32_t ppid,
		int32_t tid, int32_t ptid, uint64_t time)
{
	if (start(w))
		return BR_ESYS;
	if (rec_begin(w, type, 0) || buf_u32(&w->rec, (uint32_t)pid) ||
	    buf_u32(&w->rec, (uint32_t)ppid) || buf_u32(&w->rec, (uint32_t)tid) ||
	    buf_u32(&w->rec, (uint32_t)ptid) || buf_u64(&w->rec, time))
		return nomem(w);
	if (sample_id(w, pid, tid, time))
		return BR_ESYS;
	return rec_end(w);
}

int pdw_fork(struct pdw *w, int32_t pid, int32_t ppid, int32_t tid,
	     int32_t ptid, uint64_t time)
{
	return task(w, PERF_RECORD_FORK, pid, ppid, tid, ptid, time);
}

int pdw_exit(struct pdw *w, int32_t pid, int32_t ppid, int32_t tid,
	     int32_t ptid, uint64_t time)
{
	return task(w, PERF_RECORD_EXIT, pid, ppid, tid, ptid, time);
}

int pdw_mmap2(struct pdw *w, const struct pdw_mmap *m)
{
	uint16_t misc = m->cpumode & PERF_RECORD_MISC_CPUMODE_MASK;
	struct buf *b = &w->rec;
	int r;

	if (start(w))
		return BR_ESYS;
	if (m->build_id_size > BR_BUILD_ID_MAX)
		return fail(w, "%s: build-id of %u bytes (at most 20)", w->name,
			    m->build_id_size);
	if (m->build_id_size)
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	r = rec_begin(w, PERF_RECORD_MMAP2, misc);
	r |= buf_u32(b, (uint32_t)m->pid) | buf_u32(b, (uint32_t)m->tid);
	r |= buf_u64(b, m->start) | buf_u64(b, m->len) | buf_u64(b, m->pgoff);
	if (m->build_id_size) {
		uint8_t id[24] = { m->build_id_size };

		memcpy(id + 4, m->build_id, m->build_id_size);
		r |= buf_put(b, id, sizeof(id));
	} else {
		r |= buf_u32(b, m->maj) | buf_u32(b, m->min);
		r |= buf_u64(b, m->ino) | buf_u64(b, m->ino_generation);
	}
	r |= buf_u32(b, m->prot) | buf_u32(b, m->flags);
	r |= put_padded(b, m->path);
	if (r)
		return nomem(w);
	if (sample_id(w, m->pid, m->tid, m->time))
		return BR_ESYS;
	return rec_end(w);
}

int pdw_sample(struct pdw *w, const struct pdw_sample *s)
{
	const struct pdw_event *ev;
	struct buf *b = &w->rec;
	uint64_t st;
	int r;

	if (start(w))
		return BR_ESYS;
	if (s->event >= w->nr_ev)
		return fail(w, "%s: sample of event %u, which was not added",
			    w->name, s->event);
	ev = &w->ev[s->event];
	st = ev->attr.sample_type;
	if ((st & PERF_SAMPLE_BRANCH_STACK) && s->nr > PDW_MAX_BRANCHES)
		return fail(w, "%s: a sample of %llu branches (perf.data records hold at most %d)",
			    w->name, (unsigned long long)s->nr,
			    PDW_MAX_BRANCHES);
	r = rec_begin(w, PERF_RECORD_SAMPLE,
		      s->cpumode & PERF_RECORD_MISC_CPUMODE_MASK);
	if (st & PERF_SAMPLE_IDENTIFIER)
		r |= buf_u64(b, ev->id);
	if (st & PERF_SAMPLE_IP)
		r |= buf_u64(b, s->ip);
	if (st & PERF_SAMPLE_TID)
		r |= buf_u32(b, (uint32_t)s->pid) | buf_u32(b, (uint32_t)s->tid);
	if (st & PERF_SAMPLE_TIME)
		r |= buf_u64(b, s->time);
	if (st & PERF_SAMPLE_ID)
		r |= buf_u64(b, ev->id);
	if (st & PERF_SAMPLE_CPU)
		r |= buf_u32(b, s->cpu) | buf_u32(b, 0);
	if (st & PERF_SAMPLE_PERIOD)
		r |= buf_u64(b, s->period);
	if (st & PERF_SAMPLE_CALLCHAIN)
		r |= buf_u64(b, s->nr_chain) |
		     buf_put(b, s->chain, s->nr_chain * sizeof(*s->chain));
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		r |= buf_u64(b, s->nr);
		if (ev->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			r |= buf_u64(b, s->hw_idx);
		r |= buf_put(b, s->br, s->nr * sizeof(*s->br));
	}
	if (r)
		return nomem(w);
	if (st & PERF_SAMPLE_TIME) {
		if (!w->have_sample_time)
			w->first_sample_time = s->time;
		w->last_sample_time = s->time;
		w->have_sample_time = true;
	}
	return rec_end(w);
}

/* struct build_id_event: header, pid, build_id[24], padded file name. */
static int build_id_entry(struct buf *b, uint32_t type, int32_t pid,
			  uint16_t cpumode, const char *path,
			  const uint8_t *id, size_t size)
{
	struct perf_event_header h;
	size_t n = strlen(path) + 1, pad = ((n + 7) & ~(size_t)7) - n;
	uint8_t bid[24] = { 0 };

	h.type = type;
	h.misc = (uint16_t)((cpumode & PERF_RECORD_MISC_CPUMODE_MASK) |
			    PF_MISC_BUILD_ID_SIZE);
	h.size = (uint16_t)(sizeof(h) + sizeof(int32_t) + sizeof(bid) + n +
			    pad);
	memcpy(bid, id, size);
	bid[BR_BUILD_ID_MAX] = (uint8_t)size;	/* PF_MISC_BUILD_ID_SIZE */
	if (buf_put(b, &h, sizeof(h)) || buf_put(b, &pid, sizeof(pid)) ||
	    buf_put(b, bid, sizeof(bid)) || buf_put(b, path, n))
		return BR_ESYS;
	return buf_zero(b, pad);
}

int pdw_build_id(struct pdw *w, int32_t pid, uint16_t cpumode,
		 const char *path, const uint8_t *id, size_t size)
{
	char **paths;
	size_t i;

	if (start(w))
		return BR_ESYS;
	if (size > BR_BUILD_ID_MAX || strlen(path) > 4096)
		return fail(w, "%s: build-id of %zu bytes for %s", w->name,
			    size, path);
	if (w->pipe) {
		w->rec.len = 0;
		if (build_id_entry(&w->rec, PF_RECORD_HEADER_BUILD_ID, pid,
				   cpumode, path, id, size))
			return nomem(w);
		return emit(w);
	}
	for (i = 0; i < w->nr_bid; i++)
		if (!strcmp(w->bid_paths[i], path))
			return 0;
	paths = realloc(w->bid_paths, (w->nr_bid + 1) * sizeof(*paths));
	if (!paths)
		return nomem(w);
	w->bid_paths = paths;
	paths[w->nr_bid] = strdup(path);
	if (!paths[w->nr_bid] ||
	    build_id_entry(&w->build_ids, PF_RECORD_HEADER_BUILD_ID, pid,
			   cpumode, path, id, size)) {
		free(paths[w->nr_bid]);
		return nomem(w);
	}
	w->nr_bid++;
	return 0;
}

int pdw_finished_round(struct pdw *w)
{
	if (start(w))
		return BR_ESYS;
	if (rec_begin(w, PF_RECORD_FINISHED_ROUND, 0))
		return nomem(w);
	return rec_end(w);
}

/* File mode: feature sections after the data, then the header. */
static int finish_file(struct pdw *w)
{
	struct pf_header h;
	struct buf feats = { 0 }, data = { 0 };
	uint64_t data_end = w->pos, off;
	int feat, nr = 0, r;

	memset(&h, 0, sizeof(h));
	for (feat = 1; feat < PF_FEAT_BITS; feat++) {
		size_t before = data.len;
		struct pf_section sec;

		r = feature_data(w, feat, &data);
		if (r < 0)
			goto oom;
		if (!r)
			continue;
		h.flags[feat / 64] |= 1ULL << (feat % 64);
		sec.offset = before;	/* relative until the table's size is known */
		sec.size = data.len - before;
		if (buf_put(&feats, &sec, sizeof(sec)))
			goto oom;
		nr++;
	}
	off = data_end + (uint64_t)nr * sizeof(struct pf_section);
	for (feat = 0; feat < nr; feat++)
		((struct pf_section *)feats.p)[feat].offset += off;
	if (write_all(w, feats.p, feats.len) || write_all(w, data.p, data.len))
		goto out;
	h.magic = PF_MAGIC2;
	h.size = sizeof(h);
	h.attr_size = sizeof(struct perf_event_attr) + sizeof(struct pf_section);
	h.attrs.offset = w->attrs_offset;
	h.attrs.size = w->nr_ev * h.attr_size;
	h.data.offset = w->data_offset;
	h.data.size = data_end - w->data_offset;
	if (pwrite(w->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		fail(w, "%s: %s", w->name, strerror(errno));
	goto out;
oom:
	nomem(w);
out:
	free(feats.p);
	free(data.p);
	return w->failed ? BR_ESYS : 0;
}

int pdw_close(struct pdw *w, char *err, size_t errsz)
{
	size_t i;
	int ret;

	if (!w)
		return 0;
	if (!w->failed && !start(w) && !flush(w) && !w->pipe)
		finish_file(w);
	if (w->own_fd && close(w->fd))
		fail(w, "%s: %s", w->name, strerror(errno));
	ret = w->failed ? BR_ESYS : 0;
	if (ret)
		snprintf(err, errsz, "%s", w->err);
	for (i = 0; i < w->nr_ev; i++)
		free(w->ev[i].name);
	free(w->ev);
	for (i = 0; i < NR_STRING_FEATS; i++)
		free(w->str[i]);
	for (i = 0; i < (size_t)w->cmdline_argc; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	for (i = 0; i < w->nr_bid; i++)
		free(w->bid_paths[i]);
	free(w->bid_paths);
	free(w->build_ids.p);
	free(w->out.p);
	free(w->rec.p);
	free(w->name);
	free(w);
	return ret;
}
