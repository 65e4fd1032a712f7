// SPDX-License-Identifier: GPL-2.0
/* Input layer: format sniffing and the perf-script adapter.  See input.h. */
#define _GNU_SOURCE

#include "input/input.h"

#include "base/grow.h"
#include "base/status.h"
#include "input/brprof.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/perf_file.h"

const char *input_format_name(enum input_format f)
{
	switch (f) {
	case INPUT_PERFSCRIPT:
		return "perf script text";
	case INPUT_PERFDATA:
		return "perf.data";
	case INPUT_PERFDATA_PIPE:
		return "perf.data (pipe mode)";
	case INPUT_BRPROF:
		return ".brprof profile";
	default:
		return "none";
	}
}

enum input_format input_sniff(const uint8_t *head, size_t n)
{
	uint64_t magic;

	if (n < 8)
		return INPUT_PERFSCRIPT;
	memcpy(&magic, head, 8);
	/* PERFFILE (version 1) too: perfdata.c refuses it by name */
	if (magic == PF_MAGIC2 || magic == __builtin_bswap64(PF_MAGIC2) ||
	    !memcmp(head, PF_MAGIC1, 8) || !memcmp(head, "ELIFFREP", 8))
		return INPUT_PERFDATA;
	if (brprof_sniff(head, n))
		return INPUT_BRPROF;
	return INPUT_PERFSCRIPT;
}

/* ---- perf script text -> events ---- */

struct ps_adapter {
	const struct ev_sink *sink;
	const char *name;
	struct ev_branch *br;
	size_t cap;
	struct input_stats *st;
};

static int ad_sample(void *arg, const struct ps_sample *s, char *err,
		     size_t errsz)
{
	struct ps_adapter *ad = arg;
	struct ev_sample e;
	size_t i;

	if (br_grow_from((void **)&ad->br, &ad->cap, s->nr, sizeof(*ad->br),
			 64)) {
		snprintf(err, errsz, "%s:%lu: out of memory", ad->name,
			 s->line);
		return BR_ESYS;
	}
	for (i = 0; i < s->nr; i++) {
		const struct ps_entry *p = &s->entries[i];

		memset(&ad->br[i], 0, sizeof(ad->br[i]));
		ad->br[i].from = p->from;
		ad->br[i].to = p->to;
		ad->br[i].cycles = p->cycles;
		ad->br[i].predicted = p->predicted;
		ad->br[i].mispredicted = p->mispredicted;
		ad->br[i].in_tx = p->in_tx;
		ad->br[i].abort = p->abort;
		ad->br[i].not_taken = p->not_taken;
	}
	memset(&e, 0, sizeof(e));
	e.pid = (int32_t)s->pid;
	e.tid = (int32_t)s->tid;
	e.has_ip = true;
	e.ip = s->ip;
	e.cpu = UINT32_MAX;
	e.period = 1;
	e.event = s->event;
	e.repeat = s->repeat;
	e.repeat_line = s->repeat_line;
	e.has_brstack = true;
	e.br = ad->br;
	e.nr = s->nr;
	e.callchain = s->frames;
	e.callchain_nr = s->nframes;
	e.pos.name = ad->name;
	e.pos.line = s->line;
	ad->st->samples++;
	ad->st->samples_brstack++;
	ad->st->branch_entries += s->nr;
	if (ad->sink && ad->sink->sample)
		return ad->sink->sample(ad->sink->arg, &e, err, errsz);
	return 0;
}

void input_text_mmap(const struct ps_mmap *m, const char *name,
		     struct ev_mmap *e)
{
	const char *p;

	memset(e, 0, sizeof(*e));
	e->pid = (int32_t)m->pid;
	e->tid = -1;
	e->start = m->start;
	e->len = m->len;
	e->pgoff = m->pgoff;
	e->path = m->path;
	e->has_prot = true;
	for (p = m->prot; *p; p++) {
		if (*p == 'r')
			e->prot |= 1;
		else if (*p == 'w')
			e->prot |= 2;
		else if (*p == 'x')
			e->prot |= 4;
		else if (*p == 's')
			e->flags |= 1;	/* MAP_SHARED */
		else if (*p == 'p')
			e->flags |= 2;	/* MAP_PRIVATE */
	}
	e->exec = e->prot & 4;
	e->pos.name = name;
	e->pos.line = m->line;
}

static int ad_mmap(void *arg, const struct ps_mmap *m, char *err,
		   size_t errsz)
{
	struct ps_adapter *ad = arg;
	struct ev_mmap e;

	input_text_mmap(m, ad->name, &e);
	ad->st->mmaps++;
	if (ad->sink && ad->sink->mmap)
		return ad->sink->mmap(ad->sink->arg, &e, err, errsz);
	return 0;
}

/* A FILE that yields the sniffed bytes, then the rest of the fd. */
struct prefixed {
	int fd;
	unsigned char head[16];
	size_t len, pos;
};

static ssize_t pf_read(void *cookie, char *buf, size_t n)
{
	struct prefixed *p = cookie;
	ssize_t r;

	if (p->pos < p->len) {
		size_t k = p->len - p->pos;

		if (k > n)
			k = n;
		memcpy(buf, p->head + p->pos, k);
		p->pos += k;
		return (ssize_t)k;
	}
	do {
		r = read(p->fd, buf, n);
	} while (r < 0 && errno == EINTR);
	return r;
}

void input_text_no_samples(const char *name, const struct input_opts *opts,
			   const struct input_stats *st, char *err,
			   size_t errsz)
{
	if (!st->ps.lines)
		snprintf(err, errsz,
			 "%s: expected perf script sample lines, got an empty file",
			 name);
	else if (opts && opts->skip_bad)
		snprintf(err, errsz,
			 "%s: expected perf script sample lines, got none in %lu line%s (%lu malformed, skipped)",
			 name, st->ps.lines, st->ps.lines == 1 ? "" : "s",
			 st->ps.bad_lines);
	else
		snprintf(err, errsz,
			 "%s: expected perf script sample lines, got none in %lu line%s",
			 name, st->ps.lines, st->ps.lines == 1 ? "" : "s");
}

/* Perf script text: a stream (@f), else @len bytes at @buf. */
struct text_src {
	FILE *f;
	const char *buf;
	size_t len;
	unsigned long line_base;
	bool at_end;
};

static int read_text_src(const struct text_src *src, const char *name,
			 const struct input_opts *opts,
			 const struct ev_sink *sink, struct input_stats *st,
			 char *err, size_t errsz)
{
	struct ps_adapter ad = { sink, name, NULL, 0, st };
	struct ps_callbacks cb = { ad_sample, ad_mmap, &ad };
	bool skip_bad = opts && opts->skip_bad;
	int r;

	st->format = INPUT_PERFSCRIPT;
	if (src->f)
		r = ps_read(src->f, name, skip_bad, &cb, &st->ps, err, errsz);
	else
		r = ps_read_mem(src->buf, src->len, name, src->line_base,
				src->at_end, skip_bad, &cb, &st->ps, err,
				errsz);
	free(ad.br);
	return r;
}

static int read_text(FILE *f, const char *name, const struct input_opts *opts,
		     const struct ev_sink *sink, struct input_stats *st,
		     char *err, size_t errsz)
{
	struct text_src src = { .f = f };
	int r = read_text_src(&src, name, opts, sink, st, err, errsz);

	if (r || st->ps.samples)
		return r;
	/* Text without a single sample is malformed (llvm-profgen agrees). */
	input_text_no_samples(name, opts, st, err, errsz);
	return BR_EINPUT;
}

int input_read_text_mem(const char *buf, size_t len, const char *name,
			unsigned long line_base, bool at_end,
			const struct input_opts *opts,
			const struct ev_sink *sink, struct input_stats *st,
			char *err, size_t errsz)
{
	struct text_src src = {
		.buf = buf,
		.len = len,
		.line_base = line_base,
		.at_end = at_end,
	};

	return read_text_src(&src, name, opts, sink, st, err, errsz);
}

/* The first 8 bytes of @fd into @pre (a regular file: read in place). */
static int sniff_head(int fd, bool regular, struct prefixed *pre,
		      const char *name, char *err, size_t errsz)
{
	memset(pre, 0, sizeof(*pre));
	pre->fd = fd;
	while (pre->len < 8) {
		ssize_t n = regular ? pread(fd, pre->head, 8, 0) :
				      read(fd, pre->head + pre->len,
					   8 - pre->len);

		if (n < 0 && errno == EINTR && !regular)
			continue;
		if (n < 0) {
			snprintf(err, errsz, "%s:1: read error: %s", name,
				 strerror(errno));
			return BR_ESYS;
		}
		pre->len += (size_t)n;
		if (!n || regular)
			break;
	}
	return BR_OK;
}

static int read_perfdata(int fd, bool regular, const struct prefixed *pre,
			 const char *name, const struct input_opts *opts,
			 const struct ev_sink *sink, struct input_stats *st,
			 char *err, size_t errsz)
{
	int r = pd_read(fd, name, pre->head, regular ? 0 : pre->len,
			opts ? &opts->pd : NULL, sink, &st->pd, err, errsz);

	st->format = st->pd.pipe ? INPUT_PERFDATA_PIPE : INPUT_PERFDATA;
	st->swapped = st->pd.swapped;
	st->samples = st->pd.samples;
	st->samples_brstack = st->pd.samples_brstack;
	st->branch_entries = st->pd.branch_entries;
	st->mmaps = st->pd.mmaps;
	return r;
}

/* perf script text: a regular file from its start, else after @pre. */
static int read_text_fd(int fd, bool regular, struct prefixed *pre,
			const char *name, const struct input_opts *opts,
			const struct ev_sink *sink, struct input_stats *st,
			char *err, size_t errsz)
{
	cookie_io_functions_t io = { pf_read, NULL, NULL, NULL };
	FILE *f;
	int r;

	if (regular) {
		pre->len = 0;	/* pread: read it from its start */
		if (lseek(fd, 0, SEEK_SET) < 0) {
			snprintf(err, errsz, "%s: %s", name, strerror(errno));
			return BR_ESYS;
		}
	}
	f = fopencookie(pre, "r", io);
	if (!f) {
		snprintf(err, errsz, "%s: %s", name, strerror(errno));
		return BR_ESYS;
	}
	r = read_text(f, name, opts, sink, st, err, errsz);
	fclose(f);
	return r;
}

/* A .brprof: from a regular file, for a sink that takes profiles. */
static int read_profile(int fd, bool regular, const char *name,
			const struct ev_sink *sink, struct input_stats *st,
			char *err, size_t errsz)
{
	st->format = INPUT_BRPROF;
	if (regular && sink && sink->profile_dso)
		return brprof_read(fd, name, sink, err, errsz);
	snprintf(err, errsz,
		 "%s: expected perf.data or perf script text, got a .brprof profile (read it from a file with annotate, ranges, report or bolt)",
		 name);
	return BR_EINPUT;
}

const char *input_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

int input_read(const char *path, const struct input_opts *opts,
	       const struct ev_sink *sink, struct input_stats *stats,
	       char *err, size_t errsz)
{
	const char *name = input_name(path);
	struct input_stats dummy;
	struct prefixed pre;
	struct stat sb;
	bool is_stdin = !strcmp(path, "-"), regular = false;
	enum input_format fmt;
	int fd, r;

	if (!stats)
		stats = &dummy;
	memset(stats, 0, sizeof(*stats));
	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return BR_ESYS;
	}
	if (fstat(fd, &sb) < 0) {
		snprintf(err, errsz, "%s: %s", name, strerror(errno));
		r = BR_ESYS;
	} else if (S_ISDIR(sb.st_mode)) {
		snprintf(err, errsz,
			 "%s: expected a perf.data or perf script file, got a directory",
			 name);
		r = BR_ESYS;
	} else {
		regular = S_ISREG(sb.st_mode);
		r = sniff_head(fd, regular, &pre, name, err, errsz);
	}
	fmt = r ? INPUT_NONE : input_sniff(pre.head, pre.len);
	if (fmt == INPUT_BRPROF)
		r = read_profile(fd, regular, name, sink, stats, err, errsz);
	else if (fmt == INPUT_PERFDATA)
		r = read_perfdata(fd, regular, &pre, name, opts, sink, stats,
				  err, errsz);
	else if (fmt == INPUT_PERFSCRIPT)
		r = read_text_fd(fd, regular, &pre, name, opts, sink, stats,
				 err, errsz);
	if (!is_stdin)
		close(fd);
	return r;
}
