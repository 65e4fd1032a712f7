// SPDX-License-Identifier: GPL-2.0
/* The outputs of a software recording.  See recout.h. */
#define _GNU_SOURCE

#include "record/recout.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "base/status.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		     PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK)
/* Records between PERF_RECORD_FINISHED_ROUNDs (perf sorts per round). */
#define ROUND_RECORDS 4096

static int fail(struct recout *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct recout *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->err, o->errsz, fmt, ap);
	va_end(ap);
	return BR_ESYS;
}

/* The first writer error, or out of memory. */
static int out_err(struct recout *o)
{
	int i;

	if (o->pdw && *pdw_error(o->pdw))
		return fail(o, "%s", pdw_error(o->pdw));
	for (i = 0; i < 2; i++)
		if (o->psw[i] && *psw_error(o->psw[i]))
			return fail(o, "%s", psw_error(o->psw[i]));
	return fail(o, "out of memory");
}

static int round_tick(struct recout *o)
{
	if (++o->records % ROUND_RECORDS)
		return 0;
	if (o->pdw && pdw_finished_round(o->pdw))
		return out_err(o);
	return 0;
}

void recout_tmp_name(const char *out, char *buf, size_t size)
{
	struct stat st;

	buf[0] = '\0';
	if (strcmp(out, "-") && (stat(out, &st) || S_ISREG(st.st_mode)))
		snprintf(buf, size, "%s.tmp", out);
}

int recout_open(struct recout *o, const struct recout_opts *ro, char *err,
		size_t errsz)
{
	char msg[512];
	int k = 0;

	memset(o, 0, sizeof(*o));
	o->err = err;
	o->errsz = errsz;
	o->output = ro->output;
	o->perfdata = ro->format == RECORD_PERFDATA;
	recout_tmp_name(ro->output, o->tmp, sizeof(o->tmp));
	if (o->perfdata) {
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_MAX;
		a.sample_period = ro->period;
		a.sample_type = SAMPLE_TYPE |
				(ro->callchain ? PERF_SAMPLE_CALLCHAIN : 0);
		a.branch_sample_type = PERF_SAMPLE_BRANCH_USER |
				       PERF_SAMPLE_BRANCH_ANY |
				       PERF_SAMPLE_BRANCH_HW_INDEX;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		a.sample_id_all = 1;
		a.mmap = 1;
		a.mmap2 = 1;
		a.comm = 1;
		a.comm_exec = 1;
		a.task = 1;
		a.inherit = 1;
		if (pdw_open(&o->pdw, o->tmp[0] ? o->tmp : ro->output, msg,
			     sizeof(msg)))
			return fail(o, "%s", msg);
		if (pdw_add_event(o->pdw, &a, RECOUT_EVENT) < 0 ||
		    pdw_set_host(o->pdw) ||
		    pdw_set_string(o->pdw, PF_FEAT_VERSION, ro->version) ||
		    (ro->cmd_argc &&
		     pdw_set_cmdline(o->pdw, ro->cmd_argc, ro->cmd_argv)))
			return out_err(o);
	} else if (psw_open(&o->psw[k++], o->tmp[0] ? o->tmp : ro->output,
			    ro->fields, ro->task_events, msg, sizeof(msg))) {
		return fail(o, "%s", msg);
	}
	if (ro->script_copy &&
	    psw_open(&o->psw[k], ro->script_copy, ro->fields,
		     ro->task_events, msg, sizeof(msg)))
		return fail(o, "%s", msg);
	return 0;
}

int recout_comm(struct recout *o, int32_t pid, int32_t tid,
		const char *comm, bool exec, uint64_t time)
{
	int i;

	if (o->pdw && pdw_comm(o->pdw, pid, tid, comm, exec, time))
		return out_err(o);
	for (i = 0; i < 2; i++)
		if (o->psw[i] && psw_comm(o->psw[i], pid, tid, comm, exec, time))
			return out_err(o);
	return round_tick(o);
}

int recout_task(struct recout *o, bool exit, int32_t pid, int32_t ppid,
		int32_t tid, int32_t ptid, uint64_t time)
{
	int i;

	if (o->pdw &&
	    (exit ? pdw_exit : pdw_fork)(o->pdw, pid, ppid, tid, ptid, time))
		return out_err(o);
	for (i = 0; i < 2; i++)
		if (o->psw[i] &&
		    (exit ? psw_exit : psw_fork)(o->psw[i], pid, ppid, tid, ptid,
						 time))
			return out_err(o);
	return round_tick(o);
}

int recout_mmap(struct recout *o, const struct pdw_mmap *m)
{
	int i;

	if (o->pdw && pdw_mmap2(o->pdw, m))
		return out_err(o);
	for (i = 0; i < 2; i++)
		if (o->psw[i] && psw_mmap2(o->psw[i], m))
			return out_err(o);
	return round_tick(o);
}

int recout_build_id(struct recout *o, const char *path, const uint8_t *id,
		    size_t id_size)
{
	size_t i;
	char **v;

	if (!o->pdw || path[0] != '/' || !id_size)
		return 0;
	for (i = 0; i < o->nr_bid; i++)
		if (!strcmp(o->bid[i], path))
			return 0;
	v = realloc(o->bid, (o->nr_bid + 1) * sizeof(*v));
	if (!v)
		return fail(o, "out of memory");
	o->bid = v;
	v[o->nr_bid] = strdup(path);
	if (!v[o->nr_bid])
		return fail(o, "out of memory");
	o->nr_bid++;
	if (pdw_build_id(o->pdw, -1, PERF_RECORD_MISC_USER, path, id, id_size))
		return out_err(o);
	return 0;
}

int recout_sample(struct recout *o, const struct pdw_sample *s)
{
	int i;

	if (o->pdw && pdw_sample(o->pdw, s))
		return out_err(o);
	for (i = 0; i < 2; i++)
		if (o->psw[i] && psw_sample(o->psw[i], s))
			return out_err(o);
	return round_tick(o);
}

/* Keep an existing non-empty @out as NAME.old, as perf record does. */
static void keep_old(const char *out)
{
	char old[PATH_MAX + 8];
	struct stat st;

	if (!stat(out, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		snprintf(old, sizeof(old), "%s.old", out);
		rename(out, old);
	}
}

int recout_close(struct recout *o, int ret)
{
	char msg[512];
	size_t i;
	int k;

	if (pdw_close(o->pdw, msg, sizeof(msg)) && !ret)
		ret = fail(o, "%s", msg);
	o->pdw = NULL;
	for (k = 0; k < 2; k++) {
		if (psw_close(o->psw[k], msg, sizeof(msg)) && !ret)
			ret = fail(o, "%s", msg);
		o->psw[k] = NULL;
	}
	if (o->tmp[0]) {
		if (!ret) {
			if (o->perfdata)
				keep_old(o->output);
			if (rename(o->tmp, o->output))
				ret = fail(o, "%s: %s", o->output,
					   strerror(errno));
		}
		if (ret)
			unlink(o->tmp);
	}
	for (i = 0; i < o->nr_bid; i++)
		free(o->bid[i]);
	free(o->bid);
	o->bid = NULL;
	o->nr_bid = 0;
	return ret;
}
