// SPDX-License-Identifier: GPL-2.0
/* perf-script text writer.  See pswrite.h. */
#define _GNU_SOURCE

#include "output/pswrite.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/status.h"

struct psw_comm {
	int32_t tid;
	char *comm;
};

struct psw {
	FILE *f;
	char *name;
	unsigned fields;
	bool task_events;
	bool failed;
	char err[512];
	struct psw_comm *comms;
	size_t nr_comms;
};

bool psw_parse_fields(const char *s, unsigned *fields)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {
		{ "comm", PSW_COMM }, { "pid", PSW_PID }, { "tid", PSW_TID },
		{ "time", PSW_TIME }, { "ip", PSW_IP }, { "brstack", PSW_BRSTACK },
	};
	unsigned f = 0;

	while (*s) {
		size_t n = strcspn(s, ","), i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == n &&
			    !strncmp(names[i].name, s, n))
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			return false;
		f |= names[i].bit;
		s += n;
		if (*s == ',' && *++s == '\0')
			return false;
	}
	*fields = f;
	return f != 0;
}

int psw_open(struct psw **wp, const char *path, unsigned fields,
	     bool task_events, char *err, size_t errsz)
{
	struct psw *w = calloc(1, sizeof(*w));

	*wp = NULL;
	if (!w || !(w->name = strdup(strcmp(path, "-") ? path : "<stdout>"))) {
		free(w);
		snprintf(err, errsz, "out of memory");
		return BR_ESYS;
	}
	w->f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!w->f) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		free(w->name);
		free(w);
		return BR_ESYS;
	}
	w->fields = fields;
	w->task_events = task_events;
	*wp = w;
	return 0;
}

const char *psw_error(const struct psw *w)
{
	return w->err;
}

static struct psw_comm *find_comm(struct psw *w, int32_t tid)
{
	size_t i;

	for (i = w->nr_comms; i-- > 0;)
		if (w->comms[i].tid == tid)
			return &w->comms[i];
	return NULL;
}

static int set_comm(struct psw *w, int32_t tid, const char *comm)
{
	struct psw_comm *c = find_comm(w, tid);
	char *s = strdup(comm);

	if (!s)
		goto oom;
	if (!c) {
		c = realloc(w->comms, (w->nr_comms + 1) * sizeof(*c));
		if (!c) {
			free(s);
			goto oom;
		}
		w->comms = c;
		c += w->nr_comms++;
		c->tid = tid;
	} else {
		free(c->comm);
	}
	c->comm = s;
	return 0;
oom:
	if (!w->failed)
		snprintf(w->err, sizeof(w->err), "out of memory");
	w->failed = true;
	return BR_ESYS;
}

/* The fields before the record: comm, pid/tid, time. */
static void prefix(struct psw *w, int32_t pid, int32_t tid, uint64_t time)
{
	if (w->fields & PSW_COMM) {
		struct psw_comm *c = find_comm(w, tid);

		if (c) {
			fprintf(w->f, "%16s ", c->comm);
		} else {
			char unknown[16];

			snprintf(unknown, sizeof(unknown), ":%d", (int)tid);
			fprintf(w->f, "%16s ", unknown);
		}
	}
	if ((w->fields & PSW_PID) && (w->fields & PSW_TID))
		fprintf(w->f, "%5d/%-5d ", (int)pid, (int)tid);
	else if (w->fields & PSW_PID)
		fprintf(w->f, "%5d ", (int)pid);
	else if (w->fields & PSW_TID)
		fprintf(w->f, "%5d ", (int)tid);
	if (w->fields & PSW_TIME)
		fprintf(w->f, "%5" PRIu64 ".%06" PRIu64 ": ", time / 1000000000,
			time % 1000000000 / 1000);
}

static int done(struct psw *w)
{
	if (ferror(w->f) && !w->failed) {
		snprintf(w->err, sizeof(w->err), "%s: write error", w->name);
		w->failed = true;
	}
	return w->failed ? BR_ESYS : 0;
}

int psw_comm(struct psw *w, int32_t pid, int32_t tid, const char *comm,
	     bool exec, uint64_t time)
{
	if (set_comm(w, tid, comm))
		return BR_ESYS;
	if (w->task_events) {
		prefix(w, pid, tid, time);
		fprintf(w->f, "PERF_RECORD_COMM%s: %s:%d/%d\n",
			exec ? " exec" : "", comm, (int)pid, (int)tid);
	}
	return done(w);
}

int psw_fork(struct psw *w, int32_t pid, int32_t ppid, int32_t tid,
	     int32_t ptid, uint64_t time)
{
	struct psw_comm *parent = find_comm(w, ptid);

	if (parent && parent->tid != tid) {
		/* set_comm() may move the array: copy the name first. */
		char *c = strdup(parent->comm);

		if (!c || set_comm(w, tid, c)) {
			free(c);
			if (!w->failed)
				snprintf(w->err, sizeof(w->err), "out of memory");
			w->failed = true;
			return BR_ESYS;
		}
		free(c);
	}
	if (w->task_events) {
		prefix(w, pid, tid, time);
		fprintf(w->f, "PERF_RECORD_FORK(%d:%d):(%d:%d)\n", (int)pid,
			(int)tid, (int)ppid, (int)ptid);
	}
	return done(w);
}

int psw_exit(struct psw *w, int32_t pid, int32_t ppid, int32_t tid,
	     int32_t ptid, uint64_t time)
{
	if (w->task_events) {
		prefix(w, pid, tid, time);
		fprintf(w->f, "PERF_RECORD_EXIT(%d:%d):(%d:%d)\n", (int)pid,
			(int)tid, (int)ppid, (int)ptid);
	}
	return done(w);
}

void psw_mmap_text(FILE *f, const char *prefix, const struct ev_mmap *m)
{
	if (!m->has_prot) {
		fprintf(f, "%sMMAP %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			prefix, (int)m->pid, (int)m->tid, m->start, m->len,
			m->pgoff, m->exec ? 'x' : 'r', m->path);
		return;
	}
	fprintf(f, "%sMMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " ",
		prefix, (int)m->pid, (int)m->tid, m->start, m->len, m->pgoff);
	if (m->has_dev) {
		fprintf(f, "%02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min,
			m->ino, m->ino_generation);
	} else {
		char hex[BR_BUILD_ID_HEX];

		br_build_id_hex(m->build_id, m->build_id_size, hex);
		fprintf(f, "<%s>", hex);
	}
	fprintf(f, "]: %c%c%c%c %s\n", m->prot & PROT_READ ? 'r' : '-',
		m->prot & PROT_WRITE ? 'w' : '-',
		m->prot & PROT_EXEC ? 'x' : '-',
		m->flags & MAP_SHARED ? 's' : 'p', m->path);
}

int psw_mmap2(struct psw *w, const struct pdw_mmap *m)
{
	struct ev_mmap e = {
		.pid = m->pid, .tid = m->tid,
		.start = m->start, .len = m->len, .pgoff = m->pgoff,
		.path = m->path, .exec = m->prot & PROT_EXEC,
		.has_prot = true, .prot = m->prot, .flags = m->flags,
		.has_dev = !m->build_id_size,
		.maj = m->maj, .min = m->min, .ino = m->ino,
		.ino_generation = m->ino_generation,
		.build_id_size = m->build_id_size,
	};

	memcpy(e.build_id, m->build_id, m->build_id_size);
	prefix(w, m->pid, m->tid, m->time);
	psw_mmap_text(w->f, "PERF_RECORD_", &e);
	return done(w);
}

int psw_sample(struct psw *w, const struct pdw_sample *s)
{
	uint64_t i;

	prefix(w, s->pid, s->tid, s->time);
	if ((w->fields & PSW_IP) && s->nr_chain > 1) {
		/* a call chain: one line per address, its context marker not */
		fputc('\n', w->f);
		for (i = 1; i < s->nr_chain; i++)
			fprintf(w->f, "\t%16" PRIx64 "\n", s->chain[i]);
	} else if (w->fields & PSW_IP) {
		fprintf(w->f, " %16" PRIx64, s->ip);
	}
	if (w->fields & PSW_BRSTACK)
		for (i = 0; i < s->nr; i++) {
			const struct perf_branch_entry *b = &s->br[i];

			fprintf(w->f, " 0x%" PRIx64 "/0x%" PRIx64 "/%c/%c/%c/%u/ ",
				(uint64_t)b->from, (uint64_t)b->to,
				b->mispred ? 'M' : b->predicted ? 'P' : '-',
				b->in_tx ? 'X' : '-', b->abort ? 'A' : '-',
				(unsigned)b->cycles);
		}
	fputc('\n', w->f);
	return done(w);
}

int psw_close(struct psw *w, char *err, size_t errsz)
{
	size_t i;
	int ret;

	if (!w)
		return 0;
	done(w);
	if (w->f == stdout) {
		if (fflush(w->f) && !w->failed) {
			snprintf(w->err, sizeof(w->err), "%s: %s", w->name,
				 strerror(errno));
			w->failed = true;
		}
	} else if (fclose(w->f) && !w->failed) {
		snprintf(w->err, sizeof(w->err), "%s: %s", w->name,
			 strerror(errno));
		w->failed = true;
	}
	ret = w->failed ? BR_ESYS : 0;
	if (ret)
		snprintf(err, errsz, "%s", w->err);
	for (i = 0; i < w->nr_comms; i++)
		free(w->comms[i].comm);
	free(w->comms);
	free(w->name);
	free(w);
	return ret;
}
