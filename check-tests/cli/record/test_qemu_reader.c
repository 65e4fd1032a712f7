// SPDX-License-Identifier: GPL-2.0
/*
 * The qemu-record suite, the plugin's recordings as record reads them:
 * every error record reports in one line; valid and malformed recordings
 * made by hand.
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

/* ---- errors ---------------------------------------------------------------------- */

/* Exactly one line on stderr, containing @want. */
static void one_line(const char *err, const char *want)
{
	const char *nl = strchr(err, '\n');

	ck_assert_msg(strstr(err, want) && nl && !nl[1], "want one line with '%s', got:\n%s",
		      want, err);
}

START_TEST(errors)
{
	char calls[512], foreign[512], out[512], bin[512], copy[600], *err;
	static const unsigned char elf32[64] = {
		0x7f, 'E', 'L', 'F', 1, 1, 1, 0, [16] = 2, 0, 3, 0, 1,
	};
	int fd;

	qt_qwl("calls", calls, sizeof(calls));
	scratch("err.data", out, sizeof(out));
	/* not an x86-64 program: an ELF of class 32, machine 3 (i386) */
	scratch("foreign.elf", foreign, sizeof(foreign));
	fd = open(foreign, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ck_assert(fd >= 0 && write(fd, elf32, sizeof(elf32)) == sizeof(elf32));
	close(fd);
	ck_assert_int_eq(qt_rec("err-foreign", ARGV("-o", out), ARGV(foreign), &err), 1);
	one_line(err, "not an x86-64 program (an ELF file of class 32, machine 3)");
	free(err);
	/* ... and refused when the program execs it: nothing runs unrecorded */
	qt_qwl("exec", bin, sizeof(bin));
	unlink(out);
	ck_assert_int_eq(qt_rec("err-exec-foreign", ARGV("-o", out), ARGV(bin, foreign), &err), 1);
	one_line(err, "cannot follow execve of ");
	ck_assert_msg(strstr(err, "(an ELF file of class 32, machine 3)"), "%s", err);
	ck_assert_int_ne(access(out, F_OK), 0);
	free(err);
	/* no qemu-x86_64, one that cannot load plugins, no plugin */
	setenv("BLOCKRANGE_QEMU", "/bin/true", 1);
	ck_assert_int_eq(qt_rec("err-static", ARGV("-o", out), ARGV(calls), &err), 1);
	one_line(err, "/bin/true cannot load TCG plugins");
	free(err);
	unsetenv("BLOCKRANGE_QEMU");
	{
		char *path = strdup(getenv("PATH"));

		setenv("PATH", "/nonexistent", 1);
		ck_assert_int_eq(qt_rec("err-noqemu", ARGV("-o", out), ARGV(calls), &err), 1);
		setenv("PATH", path, 1);
		free(path);
	}
	one_line(err, "qemu-x86_64 not found in PATH: install Debian's qemu-user");
	free(err);
	/* the binary somewhere without ../lib/blockrange/ */
	scratch("bin-alone/blockrange", copy, sizeof(copy));
	mkdir(scratch("bin-alone", bin, sizeof(bin)), 0755);
	{
		size_t len;
		char *b = slurp(env_path("BLOCKRANGE"), &len);

		fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0755);
		ck_assert(fd >= 0 && write(fd, b, len) == (ssize_t)len);
		close(fd);
		free(b);
	}
	{
		char eout[512], *e, *given = getenv("BLOCKRANGE_QEMU_PLUGIN");

		/* a plugin named in the environment is used wherever the binary is */
		given = given ? strdup(given) : NULL;
		unsetenv("BLOCKRANGE_QEMU_PLUGIN");
		scratch("err-noplugin.err", eout, sizeof(eout));
		ck_assert_int_eq(run_cmd(ARGV(copy, "record", "-o", out, "--", calls),
					 NULL, eout), 1);
		if (given) {
			setenv("BLOCKRANGE_QEMU_PLUGIN", given, 1);
			free(given);
		}
		e = slurp(eout, NULL);
		one_line(e, "the recorder's QEMU plugin is missing (");
		ck_assert_msg(strstr(e, "/lib/blockrange/blockrange-qemu.so)"), "%s", e);
		free(e);
	}
	/* a CPU model QEMU does not have */
	ck_assert_int_eq(qt_rec("err-cpu", ARGV("-o", out, "--cpu", "nosuch"), ARGV(calls),
				&err), 1);
	one_line(err, "expected --cpu MODEL of `");
	free(err);
	/* output: a missing directory, a full disk */
	ck_assert_int_eq(qt_rec("err-outdir", ARGV("-o", "/nonexistent/dir/x.data"),
				ARGV(calls), &err), 1);
	one_line(err, "/nonexistent/dir/x.data: No such file or directory");
	free(err);
	ck_assert_int_eq(qt_rec("err-full", ARGV("-o", "/dev/full"), ARGV(calls), &err), 1);
	one_line(err, "/dev/full: No space left on device");
	free(err);
	/* the plugin's files cannot grow (as on a full disk): nothing written */
	unlink(out);
	ck_assert_int_eq(qt_rec("err-fsize", ARGV("-o", out, "--period", "1"),
				ARGV("prlimit", "--fsize=200000", "--", calls), &err), 1);
	one_line(err, ": File too large");
	ck_assert_int_ne(access(out, F_OK), 0);
	free(err);
	/* killed: the signal is record's status; what ran is recorded */
	ck_assert_int_eq(qt_rec("err-killed", ARGV("-o", out), ARGV("sh", "-c", "kill -9 $$"),
				&err), 128 + 9);
	one_line(err, "sh was killed by signal 9 (Killed) (process ");
	ck_assert_msg(qt_after(err, "cpu max: ") > 1000, "%s", err);
	free(err);
}
END_TEST

/* ---- the reader, on recordings made by hand ---------------------------------- */

static char calls_path[512];

struct wfile {
	uint8_t buf[16384];
	size_t len;
};

static void w_header(struct wfile *w, uint32_t mode, int32_t pid, int32_t tid)
{
	struct qrec_header h;

	memset(w->buf, 0, sizeof(w->buf));
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, QREC_MAGIC, sizeof(h.magic));
	h.version = QREC_VERSION;
	h.size = QREC_HEADER_SIZE;
	h.mode = mode;
	h.depth = 32;
	h.period = 1;
	h.pid = pid;
	h.ppid = 1;
	h.tid = tid;
	h.state = QREC_FINISHED;
	h.time = 1000;
	h.counts.insns = 7;
	h.counts.taken = 1;
	memcpy(w->buf, &h, sizeof(h));
	w->len = QREC_HEADER_SIZE;
}

static void w_rec(struct wfile *w, uint32_t type, const void *body, size_t n,
		  const void *tail, size_t tn)
{
	struct qrec_rec r = { type, (uint32_t)((sizeof(r) + n + tn + 7) & ~7u) };

	memcpy(w->buf + w->len, &r, sizeof(r));
	memcpy(w->buf + w->len + sizeof(r), body, n);
	if (tn)
		memcpy(w->buf + w->len + sizeof(r) + n, tail, tn);
	w->len += r.size;
}

static void w_save(const struct wfile *w, const char *dir, const char *name)
{
	char path[700];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert(fd >= 0 && write(fd, w->buf, w->len) == (ssize_t)w->len);
	close(fd);
}

/* A fresh directory DIR for case @tag. */
static void w_dir(const char *tag, char *dir, size_t size)
{
	char cmd[800];

	scratch(tag, dir, size);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A valid sampled image of calls: COMM, its mapping, one sample. */
static void w_valid(struct wfile *w, const char *calls)
{
	struct qrec_comm c = { .time = 1001, .pid = 77, .tid = 77, .exec = 1 };
	struct qrec_map m = { .time = 1002, .id = 1, .start = 0x400000,
			      .end = 0x403000, .pgoff = 0 };
	struct stat st;
	struct {
		struct qrec_sample s;
		struct qrec_branch b[2];
	} smp = { { .time = 1003, .pid = 77, .tid = 77, .nr = 2 },
		  { { 0x401006, 0x401018 }, { 0x40100d, 0x401005 } } };
	struct qrec_end e = { .time = 1004, .pid = 77, .how = QREC_END_EXIT };

	ck_assert(!stat(calls, &st));
	m.ino = st.st_ino;
	m.maj = 0;
	m.min = 0;
	m.path_len = (uint32_t)strlen(calls);
	strcpy(c.comm, "calls");
	w_header(w, QREC_SAMPLED, 77, 77);
	w_rec(w, QREC_COMM, &c, sizeof(c), NULL, 0);
	w_rec(w, QREC_MAP, &m, sizeof(m), calls, strlen(calls));
	w_rec(w, QREC_SAMPLE, &smp, sizeof(smp), NULL, 0);
	w_rec(w, QREC_END, &e, sizeof(e), NULL, 0);
}

static int convert(const char *dir, bool exact, const char *out, char *err,
		   size_t errsz)
{
	return qt_convert(dir, exact, false, out, err, errsz);
}

/*
 * The reader on recordings made by hand: a valid one becomes the text
 * perf script would print (the mapping narrowed to calls's executable
 * segment); every malformed one is refused with the file, the offset and
 * what was expected.
 */
START_TEST(reader)
{
	char dir[512], out[512], calls[512], err[4608], *s;
	struct wfile w;
	static const struct {
		const char *tag;
		size_t off;		/* where to put @patch in the valid file */
		uint32_t patch;
		bool exact;
		const char *want;
	} bad[] = {
		{ "magic", 0, 0x12345678, false, ": offset 0: expected the recorder's header, version 1 or 2" },
		{ "version", 8, 3, false, ": offset 0: expected the recorder's header, version 1 or 2" },
		{ "mode", 16, QREC_EXACT, false, ": offset 0: expected a sampled recording" },
		{ "size", QREC_HEADER_SIZE + 4, 13, false, ": offset 4096: expected a record size that is a multiple of 8, inside the file" },
		{ "type", QREC_HEADER_SIZE, 99, false, ": offset 4096: expected a record type of 1..9" },
		{ "map-id", QREC_HEADER_SIZE + 8 + sizeof(struct qrec_comm) + 8 + 8, 0,
		  false, "expected a mapping with an id and a range" },
		{ "exact", 0, 0, true, ": offset 0: expected an exact recording" },
	};
	size_t i;

	qt_qwl("calls", calls, sizeof(calls));
	scratch("reader.txt", out, sizeof(out));
	w_dir("reader-empty", dir, sizeof(dir));
	ck_assert_int_eq(convert(dir, false, out, err, sizeof(err)), BR_ESYS);
	ck_assert_msg(strstr(err, "did not record anything"), "%s", err);

	w_dir("reader-valid", dir, sizeof(dir));
	w_valid(&w, calls);
	w_save(&w, dir, "77.0.0.qrec");
	ck_assert_msg(!convert(dir, false, out, err, sizeof(err)), "%s", err);
	s = slurp(out, NULL);
	ck_assert_msg(strstr(s, "PERF_RECORD_MMAP2 77/77: [0x401000(0x1000) @ 0x1000 00:00 ") &&
		      strstr(s, " 401006 0x401006/0x401018/-/-/-/0/  0x40100d/0x401005/-/-/-/0/ \n"),
		      "%s", s);
	free(s);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char tag[64];

		snprintf(tag, sizeof(tag), "reader-%s", bad[i].tag);
		w_dir(tag, dir, sizeof(dir));
		w_valid(&w, calls);
		if (strcmp(bad[i].tag, "exact"))
			memcpy(w.buf + bad[i].off, &bad[i].patch, 4);
		w_save(&w, dir, "77.0.0.qrec");
		ck_assert_msg(convert(dir, bad[i].exact, out, err,
				      sizeof(err)) == BR_EINPUT,
			      "%s: accepted", bad[i].tag);
		ck_assert_msg(strstr(err, "/77.0.0.qrec") && strstr(err, bad[i].want),
			      "%s: %s", bad[i].tag, err);
	}

	/* a header cut short; two end records; a table without records */
	w_dir("reader-cut", dir, sizeof(dir));
	w_valid(&w, calls);
	w.len = 100;
	w_save(&w, dir, "77.0.0.qrec");
	ck_assert_int_eq(convert(dir, false, out, err, sizeof(err)), BR_EINPUT);
	ck_assert_msg(strstr(err, ": offset 0: expected a header page of 4096 bytes (the file is cut short)"),
		      "%s", err);
	w_dir("reader-ends", dir, sizeof(dir));
	w_valid(&w, calls);
	w_save(&w, dir, "77.0.0.qrec");
	w_header(&w, QREC_SAMPLED, 77, 78);
	{
		struct qrec_end e = { .time = 1005, .pid = 77, .how = QREC_END_EXIT };

		w_rec(&w, QREC_END, &e, sizeof(e), NULL, 0);
	}
	w_save(&w, dir, "77.0.1.qrec");
	ck_assert_int_eq(convert(dir, false, out, err, sizeof(err)), BR_EINPUT);
	ck_assert_msg(strstr(err, "77.0.1.qrec: offset 4096: expected one end record per image"),
		      "%s", err);
	w_dir("reader-table", dir, sizeof(dir));
	{
		struct qrec_table t;

		memset(&t, 0, sizeof(t));
		memcpy(t.magic, QREC_TABLE_MAGIC, sizeof(t.magic));
		t.valid = 1;
		memcpy(w.buf, &t, sizeof(t));
		w.len = sizeof(t);
		w_save(&w, dir, "77.0.0.qtab");
	}
	ck_assert_int_eq(convert(dir, true, out, err, sizeof(err)), BR_EINPUT);
	ck_assert_msg(strstr(err, "a table of process 77 without its records"), "%s", err);

	/* exact: a trace naming a mapping nobody described */
	w_dir("reader-trace", dir, sizeof(dir));
	w_header(&w, QREC_EXACT, 77, 77);
	{
		struct {
			struct qrec_traces h;
			struct qrec_trace t;
		} tr = { { .pid = 77, .tid = 77, .nr = 1 },
			 { 0, 0x401000, 0x401006, 1, 0, 5 } };

		w_rec(&w, QREC_TRACES, &tr, sizeof(tr), NULL, 0);
	}
	w_save(&w, dir, "77.0.0.qrec");
	scratch("reader.brprof", out, sizeof(out));
	ck_assert_int_eq(convert(dir, true, out, err, sizeof(err)), BR_EINPUT);
	ck_assert_msg(strstr(err, "process 77: a trace names mapping 5, which no record described"),
		      "%s", err);
}
END_TEST

/* The offset of record @n of @w (0: the header page, 1: the first record). */
static size_t w_at(const struct wfile *w, int n)
{
	size_t off = QREC_HEADER_SIZE;

	if (!n)
		return 0;
	while (--n) {
		struct qrec_rec r;

		memcpy(&r, w->buf + off, sizeof(r));
		off += r.size;
	}
	return off;
}

/* Convert @dir, which must be refused with an error holding @want. */
static void refused(const char *dir, bool exact, const char *out,
		    const char *want)
{
	char err[4608];

	ck_assert_msg(convert(dir, exact, out, err, sizeof(err)) == BR_EINPUT,
		      "%s: accepted", dir);
	ck_assert_msg(strstr(err, want), "%s: %s", dir, err);
}

/*
 * Call stacks: a version-1 recording (no stacks) still reads, and a
 * version-2 sample's frames become the call chain of its text (-g): the
 * sample's IP (its newest branch's target), then its frames.
 */
START_TEST(reader_stacks)
{
	char dir[512], out[512], calls[512], err[4608], *s;
	char *argv[] = { "prog", NULL };
	struct qrec_opts o;
	struct wfile w;
	uint64_t frames[2] = { 0x401011, 0x401022 };
	struct {
		struct qrec_sample s;
		struct qrec_branch b[1];
		uint64_t f[2];
	} smp = { { .time = 1003, .pid = 77, .tid = 77, .nr = 1, .stack = 2 },
		  { { 0x401006, 0x401018 } }, { 0, 0 } };
	struct qrec_end e = { .time = 1004, .pid = 77, .how = QREC_END_EXIT };

	qt_qwl("calls", calls, sizeof(calls));
	scratch("reader3.txt", out, sizeof(out));
	w_dir("reader3-v1", dir, sizeof(dir));
	w_valid(&w, calls);
	w.buf[offsetof(struct qrec_header, version)] = 1;
	w_save(&w, dir, "77.0.0.qrec");
	ck_assert_msg(!convert(dir, false, out, err, sizeof(err)), "%s", err);
	s = slurp(out, NULL);
	ck_assert_msg(strstr(s, " 401006 0x401006/0x401018/-/-/-/0/  0x40100d/0x401005/-/-/-/0/ \n"),
		      "%s", s);
	free(s);

	w_dir("reader3-v2", dir, sizeof(dir));
	w_valid(&w, calls);
	w.len = w_at(&w, 3);	/* the sample and the end again, with a stack */
	memcpy(smp.f, frames, sizeof(frames));
	w_rec(&w, QREC_SAMPLE, &smp, sizeof(smp), NULL, 0);
	w_rec(&w, QREC_END, &e, sizeof(e), NULL, 0);
	w_save(&w, dir, "77.0.0.qrec");
	memset(&o, 0, sizeof(o));
	o.output = out;
	o.format = RECORD_PERFSCRIPT;
	o.fields = PSW_DEFAULT_FIELDS;
	o.depth = 32;
	o.period = 1;
	o.call_graph = true;
	o.argv = argv;
	ck_assert_msg(!qrec_convert(&o, dir, err, sizeof(err)), "%s", err);
	s = slurp(out, NULL);
	ck_assert_msg(strstr(s, "\n\n\t          401018\n\t          401011\n\t          401022\n 0x401006/0x401018/-/-/-/0/ \n"),
		      "%s", s);
	free(s);
	/* without -g the frames are not written */
	ck_assert_msg(!convert(dir, false, out, err, sizeof(err)), "%s", err);
	s = slurp(out, NULL);
	ck_assert_msg(strstr(s, " 401006 0x401006/0x401018/-/-/-/0/ \n"), "%s", s);
	free(s);
}
END_TEST

/*
 * More malformed recordings, each a field of one record of the valid
 * sampled file changed (records: 1 COMM, 2 MAP, 3 SAMPLE, 4 END), and
 * files and tables the reader cannot use.
 */
START_TEST(reader_records)
{
	char dir[512], out[512], calls[512], err[4608], path[700], *s;
	struct wfile w;
	static const struct {
		const char *tag;
		int rec;		/* the record patched (0: header) */
		size_t off;		/* inside the record */
		uint32_t val;
		size_t off2;		/* a second field of it, if val2 */
		uint32_t val2;
		const char *want;
	} bad[] = {
		{ "pid", 0, offsetof(struct qrec_header, pid), 78, 0, 0,
		  ": offset 0: expected the pid and image number of the file's name" },
		{ "map-path", 2, 8 + offsetof(struct qrec_map, path_len), 5000, 0, 0,
		  ": expected a path inside the record" },
		{ "comm-short", 1, 4, 8, 0, 0,
		  ": offset 4096: expected a whole task record" },
		{ "sample-short", 3, 4, 8, 0, 0, ": expected a whole sample record" },
		{ "sample-nr", 3, 8 + offsetof(struct qrec_sample, nr), 3, 0, 0,
		  ": expected the sample's branches inside the record" },
		{ "traces-short", 1, 0, QREC_TRACES, 4, 8,
		  ": offset 4096: expected a whole traces record" },
		{ "traces-nr", 1, 0, QREC_TRACES, 0, 0,
		  ": offset 4096: expected the traces filling the record" },
		{ "exec-short", 1, 0, QREC_EXEC, 4, 8,
		  ": offset 4096: expected a whole exec record" },
		/* call stacks: frames past the record, too many, other bits */
		{ "stack-room", 3, 8 + offsetof(struct qrec_sample, stack), 1, 0, 0,
		  ": expected the sample's call stack inside the record" },
		{ "stack-max", 3, 8 + offsetof(struct qrec_sample, stack), 1025, 0, 0,
		  ": expected a sample's call stack of at most 1024 frames (its other bits zero)" },
		{ "stack-bits", 3, 8 + offsetof(struct qrec_sample, stack), 1u << 16, 0, 0,
		  ": expected a sample's call stack of at most 1024 frames (its other bits zero)" },
		/* version 1 had no stacks */
		{ "stack-v1", 3, 8 + offsetof(struct qrec_sample, stack), 1, 0, 0,
		  ": expected a sample without a call stack (version 1)" },
	};
	size_t i;

	qt_qwl("calls", calls, sizeof(calls));
	scratch("reader2.txt", out, sizeof(out));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char tag[64];
		size_t at;

		snprintf(tag, sizeof(tag), "reader2-%s", bad[i].tag);
		w_dir(tag, dir, sizeof(dir));
		w_valid(&w, calls);
		at = w_at(&w, bad[i].rec);
		memcpy(w.buf + at + bad[i].off, &bad[i].val, 4);
		if (bad[i].val2)
			memcpy(w.buf + at + bad[i].off2, &bad[i].val2, 4);
		if (!strcmp(bad[i].tag, "stack-v1"))
			w.buf[offsetof(struct qrec_header, version)] = 1;
		w_save(&w, dir, "77.0.0.qrec");
		refused(dir, false, out, bad[i].want);
	}

	/* a second thread's file describes mapping 1 with another range */
	w_dir("reader2-remap", dir, sizeof(dir));
	w_valid(&w, calls);
	w_save(&w, dir, "77.0.0.qrec");
	w_header(&w, QREC_SAMPLED, 77, 78);
	{
		struct qrec_map m = { .time = 1005, .id = 1, .start = 0x500000,
				      .end = 0x501000 };

		w_rec(&w, QREC_MAP, &m, sizeof(m), NULL, 0);
	}
	w_save(&w, dir, "77.0.1.qrec");
	refused(dir, false, out, "77.0.1.qrec: offset 4096: expected a mapping id described once");

	/*
	 * mapping ids are sparse: the largest, 2^24, is one mapping like any
	 * other (found by its id when the sample's record is written); one
	 * more is refused
	 */
	for (i = 0; i < 2; i++) {
		uint32_t id = (1u << 24) + (uint32_t)i;

		w_dir(i ? "reader2-id-over" : "reader2-id-max", dir, sizeof(dir));
		w_valid(&w, calls);
		memcpy(w.buf + w_at(&w, 2) + 8 + offsetof(struct qrec_map, id), &id, 4);
		w_save(&w, dir, "77.0.0.qrec");
		if (i) {
			refused(dir, false, out, "77.0.0.qrec: offset 4144: expected a mapping with an id and a range");
			continue;
		}
		ck_assert_msg(!convert(dir, false, out, err, sizeof(err)), "%s", err);
		s = slurp(out, NULL);
		ck_assert_msg(strstr(s, "PERF_RECORD_MMAP2 77/77: [0x401000(0x1000) @ 0x1000 00:00 "),
			      "%s", s);
		free(s);
	}

	/* tables: shorter than their header, or not a table */
	w_dir("reader2-table-short", dir, sizeof(dir));
	memcpy(w.buf, QREC_TABLE_MAGIC, 8);
	w.len = 10;
	w_save(&w, dir, "77.0.0.qtab");
	refused(dir, true, out, "77.0.0.qtab: offset 0: expected a table header of 64 bytes");
	w_dir("reader2-table-magic", dir, sizeof(dir));
	memset(w.buf, 0, 64);
	memcpy(w.buf, QREC_MAGIC, 8);
	w.len = 64;
	w_save(&w, dir, "77.0.0.qtab");
	refused(dir, true, out, "77.0.0.qtab: offset 0: expected a trace table whose slots fill the file");

	/* no directory; a file that cannot be opened; one that cannot be mapped */
	ck_assert_int_eq(convert("/nonexistent/rec", false, out, err, sizeof(err)),
			 BR_ESYS);
	ck_assert_str_eq(err, "/nonexistent/rec: No such file or directory");
	w_dir("reader2-dangling", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/77.0.0.qrec", dir);
	ck_assert(!symlink("/nonexistent/77.0.0.qrec", path));
	ck_assert_int_eq(convert(dir, false, out, err, sizeof(err)), BR_ESYS);
	ck_assert_msg(strstr(err, "/77.0.0.qrec: No such file or directory"), "%s", err);
	w_dir("reader2-dir", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/77.0.0.qrec", dir);
	ck_assert(!mkdir(path, 0755));
	ck_assert_int_eq(convert(dir, false, out, err, sizeof(err)), BR_ESYS);
	ck_assert_msg(strstr(err, "/77.0.0.qrec: No such device"), "%s", err);

	/*
	 * three files: the valid one, a second thread of it and a second
	 * process, records of the same time in both threads' files and two
	 * in one file: the text follows the files and their order
	 */
	w_dir("reader2-order", dir, sizeof(dir));
	w_valid(&w, calls);
	w_save(&w, dir, "77.0.0.qrec");
	w_header(&w, QREC_SAMPLED, 77, 78);
	{
		struct qrec_task fk = { .time = 1001, .pid = 77, .ppid = 77,
					.tid = 78, .ptid = 77 };
		struct qrec_task ex = { .time = 1001, .pid = 77, .ppid = 77,
					.tid = 78, .ptid = 78 };

		w_rec(&w, QREC_FORK, &fk, sizeof(fk), NULL, 0);
		w_rec(&w, QREC_EXIT, &ex, sizeof(ex), NULL, 0);
	}
	w_save(&w, dir, "77.0.1.qrec");
	w_header(&w, QREC_SAMPLED, 79, 79);
	{
		struct qrec_comm c = { .time = 900, .pid = 79, .tid = 79, .exec = 1 };
		struct qrec_end e = { .time = 1010, .pid = 79, .how = QREC_END_EXIT };

		strcpy(c.comm, "other");
		w_rec(&w, QREC_COMM, &c, sizeof(c), NULL, 0);
		w_rec(&w, QREC_END, &e, sizeof(e), NULL, 0);
	}
	w_save(&w, dir, "79.0.0.qrec");
	ck_assert_msg(!qt_convert(dir, false, true, out, err, sizeof(err)), "%s", err);
	s = slurp(out, NULL);
	{
		static const char *const order[] = {
			"PERF_RECORD_COMM exec: other:79/79\n",
			"PERF_RECORD_COMM exec: calls:77/77\n",
			"PERF_RECORD_FORK(77:78):(77:77)\n",
			"PERF_RECORD_EXIT(77:78):(77:78)\n",
			"PERF_RECORD_MMAP2 77/77: [0x401000(0x1000) @ 0x1000 00:00 ",
			" 401006 0x401006/0x401018/-/-/-/0/  0x40100d/0x401005/-/-/-/0/ \n",
		};
		const char *at = s;

		/* one line each, in this order (the sample's line is indented) */
		for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
			const char *nl = strchr(at, '\n'), *p = strstr(at, order[i]);

			ck_assert_msg(nl && p && p < nl + 1 && (i == 5 || p == at),
				      "'%s' not next in:\n%s", order[i], s);
			at = nl + 1;
		}
		ck_assert_msg(!*at, "more than expected:\n%s", s);
	}
	free(s);

	/*
	 * a mapping whose file is another one (the inode differs), no file,
	 * or a part of calls without its executable segment keeps its whole
	 * range: only calls's own segment is narrowed to
	 */
	for (i = 0; i < 3; i++) {
		static const char *const tags[] = { "reader2-inode", "reader2-name",
						    "reader2-data" };
		size_t m;

		w_dir(tags[i], dir, sizeof(dir));
		w_valid(&w, calls);
		m = w_at(&w, 2) + 8;
		if (i == 1) {
			/* a name, not a path: "xwork/..." */
			w.buf[m + sizeof(struct qrec_map)] = 'x';
		} else if (i == 0) {
			uint64_t ino = 1;

			memcpy(w.buf + m + offsetof(struct qrec_map, ino), &ino, 8);
		} else {
			uint64_t v[3] = { 0x402000, 0x403000, 0x2000 };

			memcpy(w.buf + m + offsetof(struct qrec_map, start), v, sizeof(v));
		}
		w_save(&w, dir, "77.0.0.qrec");
		ck_assert_msg(!convert(dir, false, out, err, sizeof(err)), "%s", err);
		s = slurp(out, NULL);
		ck_assert_msg(strstr(s, i == 2 ?
				     "PERF_RECORD_MMAP2 77/77: [0x402000(0x1000) @ 0x2000 00:00 " :
				     "PERF_RECORD_MMAP2 77/77: [0x400000(0x3000) @ 0 00:00 "),
			      "%s: %s", tags[i], s);
		free(s);
	}
}
END_TEST

/*
 * Records cut short that the other cases do not reach, files whose names
 * give the same pid, image and number (ordered by name), and two images
 * of one process that began at the same time (ordered by number).
 */
START_TEST(reader_names)
{
	char dir[512], out[512], err[4608];
	struct wfile w;
	uint32_t v;
	int i;

	qt_qwl("calls", calls_path, sizeof(calls_path));
	scratch("reader3.txt", out, sizeof(out));
	for (i = 0; i < 2; i++) {
		w_dir(i ? "reader3-end-short" : "reader3-map-short", dir, sizeof(dir));
		w_valid(&w, calls_path);
		v = 24;
		memcpy(w.buf + w_at(&w, i ? 4 : 2) + 4, &v, 4);
		w_save(&w, dir, "77.0.0.qrec");
		refused(dir, false, out, i ? ": expected a whole end record" :
			": expected a whole mapping record");
	}
	/* "077.0.0.qrec" comes first: the second end record is 77.0.0.qrec's */
	w_dir("reader3-names", dir, sizeof(dir));
	w_valid(&w, calls_path);
	w_save(&w, dir, "77.0.0.qrec");
	w_save(&w, dir, "077.0.0.qrec");
	snprintf(err, sizeof(err), "/77.0.0.qrec: offset %zu: expected one end record per image",
		 w_at(&w, 4));
	refused(dir, false, out, err);
	/* image 1 of process 77 began when image 0 did */
	w_dir("reader3-images", dir, sizeof(dir));
	w_valid(&w, calls_path);
	w_save(&w, dir, "77.0.0.qrec");
	w_header(&w, QREC_SAMPLED, 77, 77);
	v = 1;
	memcpy(w.buf + offsetof(struct qrec_header, image), &v, 4);
	w_save(&w, dir, "77.1.0.qrec");
	ck_assert_msg(!convert(dir, false, out, err, sizeof(err)), "%s", err);
}
END_TEST

void qemu_add_reader_tests(TCase *tc)
{
	tcase_add_test(tc, reader_names);
	tcase_add_test(tc, reader);
	tcase_add_test(tc, reader_records);
	tcase_add_test(tc, reader_stacks);
	tcase_add_test(tc, errors);
}
