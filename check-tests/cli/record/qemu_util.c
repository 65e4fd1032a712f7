// SPDX-License-Identifier: GPL-2.0
/*
 * The qemu-record suite's shared helpers (qemu_tests.h).
 */
#define _GNU_SOURCE

#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_tests.h"
#include "qemu_tests.h"
#include "format/qrec_wire.h"
#include "common/x86dec.h"
#include "base/status.h"
#include "input/brprof.h"
#include "output/pswrite.h"
#include "record/qemu_rec.h"
#include "resolve/elfbin.h"

const char *qt_qwl(const char *name, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s", env_path("BLOCKRANGE_QEMU_WL"), name);
	return buf;
}

/*
 * blockrange record @opts -- @prog: stdout to TAG.out, stderr to TAG.err
 * (*@err gets it, free() it).  Returns the exit status.
 */
int qt_rec(const char *tag, char *const opts[], char *const prog[],
	   char **err)
{
	char out[512], errf[512], name[128];
	char *argv[64];
	size_t n = 0, i;
	int st;

	snprintf(name, sizeof(name), "%s.out", tag);
	scratch(name, out, sizeof(out));
	snprintf(name, sizeof(name), "%s.err", tag);
	scratch(name, errf, sizeof(errf));
	argv[n++] = (char *)env_path("BLOCKRANGE");
	argv[n++] = "record";
	for (i = 0; opts[i]; i++)
		argv[n++] = opts[i];
	argv[n++] = "--";
	for (i = 0; prog[i]; i++)
		argv[n++] = prog[i];
	argv[n] = NULL;
	st = run_cmd(argv, out, errf);
	*err = slurp(errf, NULL);
	return st;
}


/* The number after @key in @s, or -1. */
long long qt_after(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}
/* ---- exact profiles -------------------------------------------------------- */


void qt_prof_load(const char *path, struct prof *pf)
{
	char err[1024];
	size_t len;

	pf->buf = (uint8_t *)slurp(path, &len);
	ck_assert_msg(!brprof_parse(pf->buf, len, path, &pf->p, false, err,
				   sizeof(err)),
		      "%s", err);
}

void qt_prof_free(struct prof *pf)
{
	brprof_free(&pf->p);
	free(pf->buf);
}

/* The DSO whose path ends in "/@name". */
const struct brprof_dso *qt_prof_dso(const struct prof *pf,
				     const char *name)
{
	size_t n = strlen(name);
	uint32_t i;

	for (i = 0; i < pf->p.nr_dsos; i++) {
		const struct brprof_dso *d = &pf->p.dsos[i];

		if (d->path_len > n && !memcmp(d->path + d->path_len - n, name, n) &&
		    d->path[d->path_len - n - 1] == '/')
			return d;
	}
	ck_abort_msg("no DSO %s in the profile", name);
	return NULL;
}

uint64_t qt_field(const struct brprof_dso *d, enum brprof_section s,
		  uint64_t rec, unsigned f)
{
	uint64_t v;

	memcpy(&v, d->sec[s] + (rec * brprof_fields[s] + f) * 8, 8);
	return v;
}

/* Times the taken branch @from -> @to ran (ELF addresses). */
uint64_t qt_edge(const struct brprof_dso *d, uint64_t from, uint64_t to)
{
	uint64_t i;

	for (i = 0; i < d->nr[BRP_EDGES]; i++)
		if (qt_field(d, BRP_EDGES, i, 0) == from &&
		    qt_field(d, BRP_EDGES, i, 1) == to)
			return qt_field(d, BRP_EDGES, i, 2);
	return 0;
}

/* Times the instruction at @addr ran: the ranges that hold it. */
uint64_t qt_cover(const struct brprof_dso *d, uint64_t addr)
{
	uint64_t i, n = 0;

	for (i = 0; i < d->nr[BRP_BLOCKS]; i++)
		if (qt_field(d, BRP_BLOCKS, i, 0) <= addr &&
		    addr <= qt_field(d, BRP_BLOCKS, i, 1))
			n += qt_field(d, BRP_BLOCKS, i, 3);
	return n;
}

uint64_t qt_sym(const struct eb_binary *eb, const char *name)
{
	const struct eb_sym *s = eb_sym_by_name(eb, name);

	ck_assert_msg(s, "no symbol %s in %s", name, eb->path);
	return s->start;
}

void qt_bin_open(const char *path, struct eb_binary *eb)
{
	char err[1024];

	ck_assert_msg(!eb_open(path, eb, err, sizeof(err)), "%s", err);
}

/* record --exact of @prog into TAG.brprof; the summary in *@err. */
int qt_rec_exact(const char *tag, char *const prog[], struct prof *pf,
		 char **err)
{
	char out[512], name[128];
	int st;

	snprintf(name, sizeof(name), "%s.brprof", tag);
	scratch(name, out, sizeof(out));
	unlink(out);
	st = qt_rec(tag, ARGV("--exact", "-o", out), prog, err);
	ck_assert_msg(strstr(*err, " counted exactly written to "), "%s", *err);
	qt_prof_load(out, pf);
	return st;
}

/* One "ip brstack" line of perf-script text; false for other lines. */
bool qt_parse_sample(const char *line, struct sample *s)
{
	const char *p = line;
	char *e;

	if (strstr(line, "PERF_RECORD_"))
		return false;
	s->ip = strtoull(p, &e, 16);
	if (e == p)
		return false;
	s->nr = 0;
	for (p = e; (p = strstr(p, "0x")) && s->nr < 64; s->nr++) {
		s->from[s->nr] = strtoull(p, &e, 16);
		ck_assert_msg(*e == '/', "%s", line);
		s->to[s->nr] = strtoull(e + 1, &e, 16);
		p = e;
	}
	return true;
}

/*
 * A straight line from @from to @to: instructions, none of them an
 * unconditional branch, from one to the other.
 */
/* Lines of @path that contain @needle. */
size_t qt_count(const char *path, const char *needle)
{
	char *s = slurp(path, NULL), *p;
	size_t n = 0;

	for (p = s; (p = strstr(p, needle)); p++)
		n++;
	free(s);
	return n;
}

int qt_convert(const char *dir, bool exact, bool task_events, const char *out,
	       char *err, size_t errsz)
{
	char *argv[] = { "prog", NULL };
	struct qrec_opts o;

	memset(&o, 0, sizeof(o));
	o.output = out;
	o.format = RECORD_PERFSCRIPT;
	o.fields = PSW_DEFAULT_FIELDS;
	o.task_events = task_events;
	o.exact = exact;
	o.depth = 32;
	o.period = 1;
	o.argv = argv;
	err[0] = '\0';
	return qrec_convert(&o, dir, err, errsz);
}
