// SPDX-License-Identifier: GPL-2.0
/* Inputs -> events.  See input.h. */
#define _GNU_SOURCE

#include "input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfscript.h"

struct adapter {
	const struct ev_sink *sink;
	const char *name;
	struct ev_branch *br;
	size_t cap;
};

static int on_sample(void *arg, const struct ps_sample *s, char *err,
		     size_t errsz)
{
	struct adapter *a = arg;
	struct ev_sample e;
	size_t i;

	if (!a->sink->sample)
		return 0;
	if (s->nr > a->cap) {
		struct ev_branch *b = realloc(a->br, s->nr * sizeof(*b));

		if (!b) {
			snprintf(err, errsz, "%s:%lu: out of memory", a->name,
				 s->line);
			return -2;
		}
		a->br = b;
		a->cap = s->nr;
	}
	for (i = 0; i < s->nr; i++) {
		const struct ps_entry *p = &s->entries[i];
		struct ev_branch *b = &a->br[i];

		memset(b, 0, sizeof(*b));
		b->from = p->from;
		b->to = p->to;
		b->cycles = p->cycles;
		b->predicted = p->predicted;
		b->mispredicted = p->mispredicted;
		b->in_tx = p->in_tx;
		b->abort = p->abort;
		b->not_taken = p->not_taken;
	}
	memset(&e, 0, sizeof(e));
	e.pid = (int32_t)s->pid;
	e.tid = (int32_t)s->tid;
	e.cpumode = EV_CPU_UNKNOWN;
	e.has_ip = !s->hybrid || s->ip;
	e.ip = s->ip;
	e.cpu = UINT32_MAX;
	e.period = 1;
	e.event = s->event;
	e.repeat = s->repeat;
	e.has_brstack = true;
	e.br = a->br;
	e.nr = s->nr;
	e.pos.name = a->name;
	e.repeat_line = s->repeat_line;
	e.pos.line = s->line;
	return a->sink->sample(a->sink->arg, &e, err, errsz);
}

static int on_mmap(void *arg, const struct ps_mmap *m, char *err,
		   size_t errsz)
{
	struct adapter *a = arg;
	struct ev_mmap e;

	if (!a->sink->mmap)
		return 0;
	memset(&e, 0, sizeof(e));
	e.pid = (int32_t)m->pid;
	e.tid = -1;
	e.cpumode = EV_CPU_UNKNOWN;
	e.start = m->start;
	e.len = m->len;
	e.pgoff = m->pgoff;
	e.path = m->path;
	e.exec = strchr(m->prot, 'x') != NULL;
	e.pos.name = a->name;
	e.pos.line = m->line;
	return a->sink->mmap(a->sink->arg, &e, err, errsz);
}

int input_read(const char *path, const struct input_opts *o,
	       const struct ev_sink *sink, struct input_stats *st, char *err,
	       size_t errsz)
{
	struct adapter a = { .sink = sink };
	struct ps_callbacks cb = { on_sample, on_mmap, &a };
	struct ps_stats ps = { 0 };
	struct stat sb;
	FILE *f;
	int r;

	a.name = strcmp(path, "-") ? path : "<stdin>";
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "-")) {
		f = stdin;
	} else {
		f = fopen(path, "r");
		if (!f) {
			snprintf(err, errsz, "%s: %s", path, strerror(errno));
			return -2;
		}
		if (!fstat(fileno(f), &sb) && S_ISDIR(sb.st_mode)) {
			snprintf(err, errsz,
				 "%s: expected a perf.data or perf script file, got a directory",
				 path);
			fclose(f);
			return -2;
		}
	}
	r = ps_read(f, a.name, o->skip_bad, &cb, &ps, err, errsz);
	if (f != stdin)
		fclose(f);
	free(a.br);
	st->format = INPUT_PERFSCRIPT;
	st->samples = ps.samples;
	st->bad_lines = ps.bad_lines;
	if (r)
		return r;
	if (!ps.samples) {
		if (!ps.lines)
			snprintf(err, errsz,
				 "%s: expected perf script sample lines, got an empty file",
				 a.name);
		else if (o->skip_bad)
			snprintf(err, errsz,
				 "%s: expected perf script sample lines, got none in %lu line%s (%lu malformed, skipped)",
				 a.name, ps.lines, ps.lines == 1 ? "" : "s",
				 ps.bad_lines);
		else
			snprintf(err, errsz,
				 "%s: expected perf script sample lines, got none in %lu line%s",
				 a.name, ps.lines, ps.lines == 1 ? "" : "s");
		return -1;
	}
	return 0;
}
