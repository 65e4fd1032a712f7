// SPDX-License-Identifier: GPL-2.0
/*
 * What every subcommand says when its options, its inputs or its outputs
 * are wrong: the exit status (1 for the command line and the system, 2 for
 * the input) and the line on stderr that says why.  Also the options that
 * only change how a run goes (--progress, --skip-bad, --symfs, --stats,
 * --start=entry), outputs that cannot be written (a directory that does
 * not exist; a full disk, which a file size limit of 0 stands in for: every
 * write to a regular file fails with EFBIG; tools/fullfs.so sets it in
 * blockrange's main(), so that the coverage build still writes its
 * counters at exit), and a profile written to a FIFO.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_tests.h"

/*
 * @args: blockrange's arguments, split at blanks, with these @-words:
 * @GOLDEN the golden program, @FLAGS its perf script text, @GPROF its
 * .brprof, @DATA a perf.data of the three-DSO program, @BRPROF a .brprof
 * of @DATA, @WL the workloads' directory, @PDBAD the generated perf.data
 * files of test_perfdata.c's hostile corpus, @BAD the hostile perf script
 * corpus (bad-input/), @S the scratch directory of this suite, where
 * setup() makes @S/notelf (executable text), @S/loop.sh (a #! script
 * naming itself as its interpreter), @S/noint.sh (one naming a missing
 * interpreter), @S/trunc.elf (an x86-64 ELF header alone) and @S/q'emu
 * (qemu-x86_64 by a name with a quote).  A first word VAR=VALUE is set in
 * the environment of the run, as a shell does.  @in: stdin comes through
 * a pipe from this file (NULL: /dev/null).  @err: a text stderr must hold
 * (NULL: anything).  @full: no file can grow (stdout is a scratch file, so
 * writing it fails too).
 */
struct opt_case {
	const char *args;
	int status;
	const char *err;
	const char *in;
	bool full;
};

#define FULL true
#define TOO_LARGE "File too large"

static const struct opt_case cases[] = {
	/* options that do not parse */
	{ "annotate -i @FLAGS --format=xml", 1,
	  "expected --format=text|json, got 'xml'", NULL, false },
	{ "annotate -i", 1, "option '-i' needs a value", NULL, false },
	{ "annotate -x", 1, "annotate does not take option '-x'", NULL, false },
	{ "annotate -i @FLAGS -j 0", 1,
	  "expected -j N with N from 1 to 256, got '0'", NULL, false },
	{ "annotate -i @FLAGS --engine=fast", 1,
	  "expected --engine=batch|tree, got 'fast'", NULL, false },
	{ "annotate -i @FLAGS extra", 1, "unexpected argument 'extra'",
	  NULL, false },
	{ "report -i @FLAGS --max-symbols 0", 1,
	  "expected --max-symbols N (1 to 1000000), got '0'", NULL, false },
	{ "report -i @FLAGS --max-blocks 2000000", 1,
	  "expected --max-blocks N (1 to 1000000), got '2000000'",
	  NULL, false },
	{ "report -i @FLAGS -q", 1, "report does not take option '-q'",
	  NULL, false },
	{ "report -i @FLAGS extra", 1, "unexpected argument 'extra'",
	  NULL, false },
	{ "profile -i @FLAGS", 1, "profile needs -o FILE.brprof", NULL, false },
	{ "profile -i @FLAGS -o @S/x.brprof --bogus", 1,
	  "profile does not take option '--bogus'", NULL, false },
	{ "profile -i @FLAGS extra -o @S/x.brprof", 1,
	  "unexpected argument 'extra'", NULL, false },
	{ "merge @BRPROF", 1, "merge needs -o FILE.brprof", NULL, false },
	{ "merge -o @S/m.brprof", 1, "merge needs at least one FILE.brprof",
	  NULL, false },
	{ "merge --bogus", 1, "merge does not take option '--bogus'",
	  NULL, false },
	{ "bolt -i @FLAGS --binary @GOLDEN --dso golden", 1,
	  "bolt takes --dso NAME or --binary BIN, not both", NULL, false },
	{ "record -o @S/r.data", 1, "record needs -- PROGRAM [ARGS...]",
	  NULL, false },
	{ "record --format=xml -- @GOLDEN", 1,
	  "expected --format=perfdata or perfscript, got 'xml'", NULL, false },
	{ "record --start=main -- @GOLDEN", 1,
	  "expected --start=entry or exec, got 'main'", NULL, false },
	{ "record -F foo -- @GOLDEN", 1,
	  "expected -F with some of comm,pid,tid,time,ip,brstack, got 'foo'",
	  NULL, false },
	{ "record --depth 2000000 -- @GOLDEN", 1,
	  "expected --depth N (0 = unbounded, at most 1048576), got '2000000'",
	  NULL, false },
	{ "record --depth 3000 -- @GOLDEN", 1,
	  "expected --depth of at most 2727 for perf.data", NULL, false },
	{ "record --depth 0 --period 3000 -- @GOLDEN", 1,
	  "expected --period below 2727 with --depth 0 for perf.data",
	  NULL, false },
	{ "record --format=perfscript --script-copy blockrange.perfscript -- @GOLDEN",
	  1, "--script-copy names the output itself", NULL, false },
	{ "record -o - --script-copy - -- @GOLDEN", 1,
	  "only one of -o and --script-copy can be stdout", NULL, false },
	{ "record --bogus -- @GOLDEN", 1,
	  "record does not take option '--bogus'", NULL, false },
	{ "record --engine=bogus -- @GOLDEN", 1,
	  "expected --engine=qemu or ptrace, got 'bogus'", NULL, false },
	{ "record --jitter x -- @GOLDEN", 1,
	  "expected --jitter J (a number of taken branches), got 'x'", NULL,
	  false },
	{ "record --cpu a,b -- @GOLDEN", 1,
	  "expected --cpu MODEL (a name from qemu-x86_64 -cpu help), got 'a,b'",
	  NULL, false },
	{ "record --engine=ptrace --exact -- @GOLDEN", 1,
	  "--exact is an option of --engine=qemu", NULL, false },
	{ "record --engine=ptrace --jitter 1 -- @GOLDEN", 1,
	  "--jitter is an option of --engine=qemu", NULL, false },
	{ "record --engine=qemu --start=exec -- @GOLDEN", 1,
	  "--start is an option of --engine=ptrace", NULL, false },
	{ "record --exact --depth 4 -- @GOLDEN", 1,
	  "--exact counts every branch into a .brprof: it takes no --depth, --period, --jitter, --format, --script-copy, -F or --show-task-events",
	  NULL, false },
	{ "record --depth 0 -o @S/q.data -- @GOLDEN", 1,
	  "expected --depth of at least 1 with --engine=qemu (ptrace's --depth 0 is a full trace: use --exact)",
	  NULL, false },
	{ "record --jitter 20000 -o @S/q.data -- @GOLDEN", 1,
	  "expected --jitter below the period (10007), got '20000'", NULL,
	  false },
	{ "autofdo -i @FLAGS --format=xml", 1,
	  "expected --format=text|extbinary, got 'xml'", NULL, false },
	{ "autofdo -i @FLAGS --bogus", 1,
	  "autofdo does not take option '--bogus'", NULL, false },
	{ "autofdo -i @FLAGS extra", 1, "unexpected argument 'extra'", NULL,
	  false },
	{ "autofdo -i @FLAGS --binary @GOLDEN --dso golden", 1,
	  "autofdo takes --dso NAME or --binary BIN, not both", NULL, false },
	{ "autofdo -i @FLAGS --dso a --dso b", 1,
	  "autofdo writes the profile of one DSO: give one --dso", NULL,
	  false },
	{ "report -i @FLAGS -j 0", 1,
	  "expected -j N with N from 1 to 256, got '0'", NULL, false },
	{ "ranges -i @FLAGS --use-offset=2", 1,
	  "expected --use-offset=0|1, got '2'", NULL, false },
	{ "ranges -i @FLAGS --base zz", 1,
	  "expected --base ADDR (hex 0x... or decimal), got 'zz'",
	  NULL, false },
	{ "ranges -i @FLAGS --binary @GOLDEN --dso golden", 1,
	  "ranges takes --dso NAME or --binary BIN, not both", NULL, false },
	{ "ranges -i @FLAGS extra", 1, "unexpected argument 'extra'",
	  NULL, false },
	{ "script -i @FLAGS -j 0", 1,
	  "expected -j N with N from 1 to 256, got '0'", NULL, false },
	{ "script -i @FLAGS extra", 1, "unexpected argument 'extra'",
	  NULL, false },
	{ "script", 1, "script needs -i FILE|-", NULL, false },
	{ "script --bogus", 1, "script does not take option '--bogus'",
	  NULL, false },
	/* the parser: prefixes, attached values, letters together, operands */
	{ "annotate -xh", 1, "annotate does not take option '-x'", NULL, false },
	{ "annotate -i @FLAGS -hx", 0, NULL, NULL, false },
	{ "annotate --p", 1, "annotate does not take option '--p'", NULL,
	  false },
	{ "annotate --sourc=1", 1, "annotate does not take option '--sourc'",
	  NULL, false },
	{ "annotate -i @FLAGS -j0", 1,
	  "expected -j N with N from 1 to 256, got '0'", NULL, false },
	{ "report -i @FLAGS --max-b 0", 1,
	  "expected --max-blocks N (1 to 1000000), got '0'", NULL, false },
	{ "script --i", 1, "option '--i' needs a value", NULL, false },
	{ "merge @BRPROF -o", 1, "option '-o' needs a value", NULL, false },
	{ "merge @BRPROF -o @S/between.brprof @BRPROF", 0, "between.brprof (",
	  NULL, false },
	{ "merge -o @S/after.brprof -- @BRPROF", 0, "after.brprof (", NULL,
	  false },
	{ "merge -o @S/x.brprof --", 1, "merge needs at least one FILE.brprof",
	  NULL, false },
	{ "annotate --no-pa --symb hot -i @FLAGS --bin @GOLDEN", 0,
	  "1 DSO annotated", NULL, false },
	{ "--bogus annotate", 1, "unknown option '--bogus'", NULL, false },
	{ "help annotate extra", 1, "expected a subcommand", NULL, false },
	{ "help bogus", 1, "got 'bogus'", NULL, false },
	{ "", 1, "usage: blockrange", NULL, false },
	{ "help", 0, NULL, NULL, false },
	{ "annotate --no-pager -i @FLAGS --binary @GOLDEN --color=auto", 0,
	  "1 DSO annotated", NULL, false },

	/* options that change how a run goes, not what it writes */
	{ "script -i @FLAGS --stats", 0,
	  "lines 4, samples 2, mmaps 0, malformed skipped 0", NULL, false },
	{ "script -i @DATA -j 1 --no-progress --skip-bad", 0, NULL,
	  NULL, false },
	{ "script -i @FLAGS --skip-bad", 0, "skipped 0 malformed lines", NULL,
	  false },
	{ "script --skip-bad -i @BAD/cycles-garbage.perfscript", 0,
	  "blockrange: skipped 1 malformed line\n", NULL, false },
	{ "annotate --no-pager --no-progress -i @FLAGS --binary @GOLDEN", 0,
	  "1 DSO annotated", NULL, false },
	{ "script -i @DATA -j 1 --progress", 0, " MB (", NULL, false },
	{ "script -i - -j 1 --progress", 0, " MB, ", "@DATA", false },
	{ "annotate --no-pager -i @FLAGS --binary @GOLDEN --symfs / --progress",
	  0, "1 DSO annotated", NULL, false },
	{ "annotate --no-pager -i - --progress", 0, "DSOs annotated", "@DATA",
	  false },
	{ "annotate --no-pager -j 1 --progress -i @DATA", 0, " MB (", NULL,
	  false },
	{ "annotate --no-pager -j 1 --progress -i @BRPROF", 0,
	  "DSOs annotated", NULL, false },
	{ "annotate --no-pager -j 1 --progress -i -", 0, " MB, ", "@DATA",
	  false },
	{ "record --engine=ptrace --format=perfscript -o @S/p.ps -F pid,ip,brstack -- @GOLDEN",
	  0, "samples written to", NULL, false },
	{ "record --engine=ptrace --format=perfscript -o @S/t.ps -F tid,ip -- @GOLDEN", 0,
	  "samples written to", NULL, false },
	{ "record --engine=ptrace --format=perfdata --start=entry -o @S/r.data -- @GOLDEN", 0,
	  "samples written to", NULL, false },
	{ "ranges --no-pager -i @DATA --binary @GOLDEN", 0, "0 DSOs profiled",
	  NULL, false },

	/* inputs that leave nothing to do, or too much */
	{ "ranges --no-pager -i @DATA", 1,
	  "pick one with --dso NAME, or write one profile per DSO with -o DIR",
	  NULL, false },
	{ "bolt -i @DATA", 1, "DSOs (", NULL, false },
	{ "bolt -i @DATA --dso nosuch", 2,
	  "nothing to export: ", NULL, false },
	{ "ranges --no-pager -i @DATA --dso nosuch", 2, "nothing to profile: ",
	  NULL, false },
	{ "annotate --no-pager -i @DATA --symbol nosuch", 2,
	  "blockrange: expected a function symbol of the profiled DSOs for --symbol, got 'nosuch'\n",
	  NULL, false },
	{ "annotate --no-pager -i @PDBAD/no-samples.data", 2,
	  "no-samples.data: nothing to annotate: expected samples, got none\n",
	  NULL, false },
	{ "annotate --no-pager -i @PDBAD/no-branch-stacks.data", 2,
	  "no-branch-stacks.data: nothing to annotate: expected samples with branch stacks (perf record -b), got none\n",
	  NULL, false },
	{ "merge @FLAGS -o @S/m.brprof", 2,
	  "expected the .brprof magic, got another file", NULL, false },
	{ "merge /nonexistent.brprof -o @S/m.brprof", 1,
	  "/nonexistent.brprof: No such file or directory", NULL, false },
	{ "autofdo -i @BRPROF --format=text", 1,
	  "autofdo: the input has samples in 4 DSOs (multidso-pie, libc.so.6, libhot.so, ld-linux-x86-64.so.2): pick one with --dso NAME or --binary BIN\n",
	  NULL, false },
	{ "autofdo -i @FLAGS --format=text", 2,
	  "flags.perfscript: nothing to profile: 10 blocks were skipped as 'no mapping'",
	  NULL, false },
	{ "ranges --no-pager -i @BRPROF --leading-ip-only", 1,
	  "multidso.brprof: a .brprof holds llvm-profgen's profile of every sample of each DSO; --perf-event, --leading-ip-only and --base or --use-offset=0 without --dso need the input itself",
	  NULL, false },
	{ "autofdo -i @FLAGS --dso nosuch --format=text", 2,
	  "/flags.perfscript (DSOs in it: none)\n", NULL, false },
	{ "autofdo -i @DATA --dso @WL/libhot.so --format=text", 0,
	  "autofdo: libhot.so: 1 functions, 0 inlined instances, ", NULL,
	  false },
	{ "autofdo -i @GPROF --format=text", 2,
	  "autofdo: golden: golden: no such file", NULL, false },
	{ "autofdo -i @FLAGS --binary @GOLDEN --format=text --debug-file /nonexistent/g.debug",
	  2, "/nonexistent/g.debug: No such file or directory", NULL, false },
	{ "autofdo -i @FLAGS --binary @GOLDEN --format=text --debug-file @WL/multidso-pie",
	  2, "autofdo: golden: no sample has line info (", NULL, false },

	/* programs record cannot run, a recorder it cannot find */
	{ "record --engine=ptrace -o @S/p.data -- /nonexistent/prog", 1,
	  "cannot run /nonexistent/prog: No such file or directory", NULL,
	  false },
	{ "record -o @S/q.data -- @S/notelf", 1,
	  "/notelf: neither an ELF program nor a #! script", NULL, false },
	{ "record -o @S/q.data -- @S/loop.sh", 1,
	  "/loop.sh: more than 4 levels of #! interpreters", NULL, false },
	{ "record -o @S/q.data -- @S/noint.sh", 1,
	  "/noint.sh: No such file or directory", NULL, false },
	{ "record -o @S/q.data -- @S/trunc.elf", 1,
	  "/trunc.elf ran (status 255): see its message above", NULL, false },
	{ "BLOCKRANGE_QEMU=/nonexistent/qemu record -o @S/q.data -- @GOLDEN", 1,
	  "BLOCKRANGE_QEMU=/nonexistent/qemu: not an executable file", NULL,
	  false },
	{ "BLOCKRANGE_QEMU=@S/q'emu record --cpu max -o @S/q.data -- @GOLDEN", 1,
	  "/q'emu: path not usable", NULL, false },
	{ "BLOCKRANGE_QEMU_PLUGIN=/nonexistent/p.so record -o @S/q.data -- @GOLDEN",
	  1, "BLOCKRANGE_QEMU_PLUGIN=/nonexistent/p.so: cannot read it", NULL,
	  false },
	{ "TMPDIR=/nonexistent record -o - -- @GOLDEN", 1,
	  "cannot create a recording directory in /nonexistent: No such file or directory",
	  NULL, false },
	{ "merge @S -o @S/m.brprof", 1,
	  "options: expected a .brprof file, got a directory", NULL, false },
	{ "merge - -o @S/m.brprof", 1,
	  "<stdin>: expected a .brprof file, got a pipe or device", "@BRPROF",
	  false },

	/* outputs that cannot be written */
	{ "report -i @FLAGS --binary @GOLDEN -o /nonexistent/r.html", 1,
	  "/nonexistent/r.html: No such file or directory", NULL, false },
	{ "profile -i @FLAGS --binary @GOLDEN -o /nonexistent/x.brprof", 1,
	  "/nonexistent/x.brprof: No such file or directory", NULL, false },
	{ "bolt -i @FLAGS --binary @GOLDEN -o /nonexistent/b.fdata", 1,
	  "/nonexistent/b.fdata: No such file or directory", NULL, false },
	{ "ranges --no-pager -i @DATA -o /nonexistent/dir", 1,
	  "/nonexistent/dir: No such file or directory", NULL, false },
	{ "merge @BRPROF -o /nonexistent/m.brprof", 1,
	  "/nonexistent/m.brprof: No such file or directory", NULL, false },
	{ "autofdo -i @DATA --dso libhot.so -o /nonexistent/a.afdo", 1,
	  "/nonexistent/a.afdo: No such file or directory", NULL, false },
	{ "record --engine=ptrace -o @S/c.data --counts /nonexistent/c -- @GOLDEN",
	  1, "/nonexistent/c: No such file or directory", NULL, false },
	{ "record --engine=ptrace -o @S/c.data --counts /dev/full -- @GOLDEN",
	  1, "/dev/full: No space left on device", NULL, false },
	{ "annotate --no-pager -i @FLAGS --binary @GOLDEN", 1,
	  "cannot write the output", NULL, FULL },
	{ "script -i @FLAGS", 1, "cannot write the output", NULL, FULL },
	{ "help annotate", 1, "blockrange: cannot write the manual page",
	  NULL, FULL },
	{ "script -i @DATA --dump-events", 1, "cannot write the output", NULL,
	  FULL },
	{ "ranges --no-pager -i @FLAGS --binary @GOLDEN", 1,
	  "cannot write the profile", NULL, FULL },
	{ "report -i @FLAGS --binary @GOLDEN -o @S/full.html", 1,
	  "full.html: cannot write the report", NULL, FULL },
	{ "bolt -i @FLAGS --binary @GOLDEN -o @S/full.fdata", 1,
	  "full.fdata: cannot write the profile", NULL, FULL },
	{ "profile -i @FLAGS --binary @GOLDEN -o @S/full.brprof", 1,
	  "full.brprof: cannot write the profile: " TOO_LARGE, NULL, FULL },
	{ "profile -i @FLAGS --binary @GOLDEN -o -", 1,
	  "-: cannot write the profile: " TOO_LARGE, NULL, FULL },
	{ "merge @BRPROF -o @S/full.brprof", 1,
	  "full.brprof: cannot write the profile: " TOO_LARGE, NULL, FULL },
	{ "merge @BRPROF -o -", 1,
	  "-: cannot write the profile: " TOO_LARGE, NULL, FULL },
	{ "autofdo -i @DATA --dso libhot.so --format=text", 1,
	  "stdout: cannot write the profile: " TOO_LARGE, NULL, FULL },
	{ "autofdo -i @DATA --dso libhot.so -o @S/full.afdo", 1,
	  "full.afdo: cannot write the profile: " TOO_LARGE, NULL, FULL },
	/* /dev/full: opened, then every write fails */
	{ "record --engine=ptrace --format=perfscript -o /dev/full -- @GOLDEN",
	  1, "/dev/full: No space left on device", NULL, false },
	{ "record --engine=ptrace --format=perfscript --depth 4 --period 1 -o /dev/full -- @WL/branches-nopie 8",
	  1, "/dev/full: write error", NULL, false },
	{ "record --engine=ptrace --depth 4 --period 1 -o /dev/full -- @WL/branches-nopie 8",
	  1, "/dev/full: No space left on device", NULL, false },
	{ "autofdo -i @DATA --dso libhot.so -o /dev/full", 1,
	  "/dev/full: cannot write the profile: No space left on device", NULL,
	  false },
	{ "report -i @FLAGS --binary @GOLDEN -o /dev/full", 1,
	  "/dev/full: cannot write the report", NULL, false },
	{ "profile -i @FLAGS --binary @GOLDEN -o /", 1,
	  "blockrange: /: Is a directory", NULL, false },
	{ "ranges --no-pager -i @DATA -o @BRPROF", 1,
	  "multidso.brprof/multidso-pie.rawprof: Not a directory", NULL, false },
	{ "ranges --no-pager -i @DATA -o @S/full-ranges", 1,
	  "full-ranges/multidso-pie.rawprof: cannot write the profile", NULL,
	  FULL },
	{ "record --engine=ptrace -o /dev/stderr -- @GOLDEN", 1,
	  "/dev/stderr: expected a seekable file for perf.data (use - for pipe mode), got Illegal seek",
	  NULL, false },
	{ "record --engine=ptrace --format=perfscript -o @S/sc.ps --script-copy /nonexistent/c.ps -- @GOLDEN",
	  1, "blockrange record: /nonexistent/c.ps: No such file or directory",
	  NULL, false },
	{ "record --engine=ptrace --format=perfscript -o - -- @GOLDEN", 1,
	  "blockrange record: <stdout>: " TOO_LARGE, NULL, FULL },
	/* a recording is written as NAME.tmp, renamed once complete */
	{ "record --engine=ptrace -o @S/full.data -- @GOLDEN", 1,
	  "full.data.tmp: " TOO_LARGE, NULL, FULL },
	{ "record --engine=ptrace --format=perfscript -o @S/full.ps -- @GOLDEN", 1,
	  "full.ps.tmp: " TOO_LARGE, NULL, FULL },
	/* the QEMU engine stops at its recording directory's first page */
	{ "record -o @S/full.data -- @GOLDEN", 1, "/status: " TOO_LARGE, NULL,
	  FULL },
	{ "record -o - -- @GOLDEN", 1, TOO_LARGE, NULL, FULL },
};

#define NR_CASES (sizeof(cases) / sizeof(cases[0]))

static char golden[512], flags[512], data[600], brprof[600], sdir[400];
static char gprof[512];
static char fullfs[600];

/* @s with its @-words expanded (a static buffer). */
static const char *expand(const char *s)
{
	static char buf[4096];
	size_t n = 0;

	while (*s && n < sizeof(buf) - 600) {
		const char *v = NULL;
		size_t skip = 0;

		if (!strncmp(s, "@GOLDEN", 7))
			v = golden, skip = 7;
		else if (!strncmp(s, "@FLAGS", 6))
			v = flags, skip = 6;
		else if (!strncmp(s, "@DATA", 5))
			v = data, skip = 5;
		else if (!strncmp(s, "@BRPROF", 7))
			v = brprof, skip = 7;
		else if (!strncmp(s, "@GPROF", 6))
			v = gprof, skip = 6;
		else if (!strncmp(s, "@WL", 3))
			v = env_path("BLOCKRANGE_WORKLOADS"), skip = 3;
		else if (!strncmp(s, "@BAD", 4))
			v = env_path("BLOCKRANGE_BADINPUT"), skip = 4;
		else if (!strncmp(s, "@PDBAD", 6))
			v = env_path("BLOCKRANGE_PD_BAD"), skip = 6;
		else if (!strncmp(s, "@S", 2))
			v = sdir, skip = 2;
		if (v) {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s",
					      v);
			s += skip;
		} else {
			buf[n++] = *s++;
		}
	}
	buf[n] = '\0';
	return buf;
}

/* An executable file @name in the scratch directory holding @text. */
static void program(const char *name, const char *text)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", sdir, name);
	spew(path, text);
	ck_assert_int_eq(chmod(path, 0755), 0);
}

/* The programs record cannot run, and qemu-x86_64 by a name with a quote. */
static void programs(void)
{
	char path[600], text[700], *p = getenv("PATH"), *dir, *save = NULL;

	program("notelf", "echo not a program\n");
	snprintf(text, sizeof(text), "#!%s/loop.sh\n", sdir);
	program("loop.sh", text);
	program("noint.sh", "#!/nonexistent/interpreter\n");
	{
		/* an x86-64 ELF header and nothing else */
		static const unsigned char elf[64] = {
			0x7f, 'E', 'L', 'F', 2, 1, 1, 0, [16] = 2, 0, 62, 0, 1,
		};
		FILE *f;

		snprintf(path, sizeof(path), "%s/trunc.elf", sdir);
		f = fopen(path, "wb");
		ck_assert(f && fwrite(elf, 1, sizeof(elf), f) == sizeof(elf));
		ck_assert(!fclose(f) && !chmod(path, 0755));
	}
	snprintf(path, sizeof(path), "%s/q'emu", sdir);
	unlink(path);
	p = strdup(p ? p : "/usr/bin:/bin");
	ck_assert_ptr_nonnull(p);
	for (dir = strtok_r(p, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(text, sizeof(text), "%s/qemu-x86_64", dir);
		if (!access(text, X_OK))
			break;
	}
	ck_assert_msg(dir, "qemu-x86_64 not found in PATH");
	ck_assert_int_eq(symlink(text, path), 0);
	free(p);
}

/* The inputs: the golden program's files, a recording and its profile. */
static void setup(void)
{
	char bin[512], out[600], err[600];
	char *rec[] = { (char *)env_path("BLOCKRANGE"), "record",
			"--engine=ptrace", "-o", data, "--depth", "32",
			"--period", "7", "--", bin, "100", "100", "16", NULL };
	char *prof[] = { (char *)env_path("BLOCKRANGE"), "profile", "-i",
			 data, "-o", brprof, NULL };

	snprintf(golden, sizeof(golden), "%s/golden",
		 env_path("BLOCKRANGE_WORKLOADS"));
	snprintf(fullfs, sizeof(fullfs), "%s/fullfs.so",
		 env_path("BLOCKRANGE_TOOLS"));
	snprintf(bin, sizeof(bin), "%s/multidso-pie",
		 env_path("BLOCKRANGE_WORKLOADS"));
	snprintf(flags, sizeof(flags), "%s/flags.perfscript",
		 env_path("BLOCKRANGE_GOLDEN"));
	snprintf(gprof, sizeof(gprof), "%s/golden.brprof",
		 env_path("BLOCKRANGE_GOLDEN"));
	scratch("options", sdir, sizeof(sdir));
	ck_assert(!mkdir(sdir, 0777) || errno == EEXIST);
	snprintf(data, sizeof(data), "%s/multidso.data", sdir);
	snprintf(brprof, sizeof(brprof), "%s/multidso.brprof", sdir);
	snprintf(out, sizeof(out), "%s/setup.out", sdir);
	snprintf(err, sizeof(err), "%s/setup.err", sdir);
	ck_assert_int_eq(run_cmd(rec, out, err), 0);
	ck_assert_int_eq(run_cmd(prof, out, err), 0);
	programs();
}

/* A child that sends file @path into @fd (and closes it here). */
static pid_t feed(const char *path, int fd[2])
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		char *cat[] = { "cat", (char *)path, NULL };

		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execvp(cat[0], cat);
		_exit(127);
	}
	return pid;
}

/* In the child: stdin, stdout and stderr, and the file size limit. */
static void child_io(const struct opt_case *c, const char *out, int in[2],
		     int err[2], char *env)
{
	int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (o < 0)
		_exit(126);
	dup2(o, STDOUT_FILENO);
	dup2(err[1], STDERR_FILENO);
	close(err[0]);
	close(err[1]);
	if (c->in) {
		dup2(in[0], STDIN_FILENO);
		close(in[0]);
		close(in[1]);
	} else {
		int z = open("/dev/null", O_RDONLY);

		dup2(z, STDIN_FILENO);
	}
	if (env)
		putenv(env);
	if (c->full) {
		const char *o = getenv("ASAN_OPTIONS");
		char asan[2048];

		/* The limit comes with main() (see tools/fullfs.c). */
		snprintf(asan, sizeof(asan), "%s%sverify_asan_link_order=0",
			 o ? o : "", o && *o ? ":" : "");
		signal(SIGXFSZ, SIG_IGN);
		if (setenv("LD_PRELOAD", fullfs, 1) ||
		    setenv("ASAN_OPTIONS", asan, 1))
			_exit(126);
	}
}

/*
 * Run blockrange with @c's arguments (expanded), stdin from @c->in through
 * a pipe; stdout into @out; stderr through a pipe into @errf (a file the
 * size limit of @c->full does not stop).  The exit status.
 */
static int run_case(const struct opt_case *c, const char *out,
		    const char *errf)
{
	char *argv[64], *words, *w, *save = NULL, *env = NULL;
	int in[2] = { -1, -1 }, err[2], st;
	pid_t feeder = -1, pid;
	FILE *ef = fopen(errf, "w");
	char buf[4096];
	ssize_t n;
	size_t k = 0;

	ck_assert_ptr_nonnull(ef);
	words = strdup(expand(c->args));
	ck_assert_ptr_nonnull(words);
	argv[k++] = (char *)env_path("BLOCKRANGE");
	for (w = strtok_r(words, " ", &save); w && k < 63;
	     w = strtok_r(NULL, " ", &save))
		argv[k++] = w;
	argv[k] = NULL;
	if (k > 1 && argv[1][0] != '-' && strchr(argv[1], '=')) {
		env = argv[1];
		memmove(argv + 1, argv + 2, (k - 1) * sizeof(*argv));
	}
	ck_assert_int_eq(pipe(err), 0);
	if (c->in) {
		ck_assert_int_eq(pipe(in), 0);
		feeder = feed(expand(c->in), in);
	}
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		child_io(c, out, in, err, env);
		execv(argv[0], argv);
		_exit(127);
	}
	close(err[1]);
	if (c->in) {
		close(in[0]);
		close(in[1]);
	}
	while ((n = read(err[0], buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			fwrite(buf, 1, (size_t)n, ef);
	close(err[0]);
	fclose(ef);
	if (feeder > 0)
		waitpid(feeder, NULL, 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	free(words);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

START_TEST(option_case)
{
	const struct opt_case *c = &cases[_i];
	char out[600], err[600];
	struct stat sb;
	char *e;
	int st;

	snprintf(out, sizeof(out), "%s/case.out", sdir);
	snprintf(err, sizeof(err), "%s/case.err", sdir);
	st = run_case(c, out, err);
	e = slurp(err, NULL);
	ck_assert_msg(st == c->status,
		      "blockrange %s: exit status %d, expected %d; stderr:\n%s",
		      expand(c->args), st, c->status, e);
	ck_assert_msg(!c->err || strstr(e, c->err),
		      "blockrange %s: stderr lacks '%s':\n%s", expand(c->args),
		      c->err, e);
	/* an output that failed is removed only if it is a regular file */
	ck_assert_msg(!stat("/dev/full", &sb) && S_ISCHR(sb.st_mode),
		      "blockrange %s: /dev/full is no device any more",
		      expand(c->args));
	free(e);
}
END_TEST

/*
 * An option with a bad value is one message, its own: not followed by
 * another about the same option.
 */
static const char *const one_message[] = {
	"record --format=xml -- @GOLDEN",
	"record -F foo -- @GOLDEN",
	"record --engine=bogus -- @GOLDEN",
	"record --jitter x -- @GOLDEN",
	"record --cpu a,b -- @GOLDEN",
	"annotate -i @FLAGS --color=blue",
	"ranges -i @FLAGS --base zz",
};

START_TEST(one_message_per_error)
{
	struct opt_case c = { one_message[_i], 1, NULL, NULL, false };
	char out[600], err[600];
	const char *p;
	size_t n = 0;
	char *e;
	int st;

	snprintf(out, sizeof(out), "%s/one.out", sdir);
	snprintf(err, sizeof(err), "%s/one.err", sdir);
	st = run_case(&c, out, err);
	e = slurp(err, NULL);
	for (p = strstr(e, "blockrange: "); p; p = strstr(p + 1, "blockrange: "))
		n++;
	ck_assert_msg(st == 1 && n == 1 && strstr(e, "blockrange: expected "),
		      "blockrange %s: exit status %d, %zu messages:\n%s",
		      expand(c.args), st, n, e);
	free(e);
}
END_TEST

/*
 * A profile written to a FIFO goes through it (a reader on the other end
 * gets the same bytes as a file gets), and the FIFO stays a FIFO.
 */
START_TEST(profile_to_fifo)
{
	char fifo[600], got[600], want[600], out[600], err[600];
	char *merge_fifo[] = { (char *)env_path("BLOCKRANGE"), "merge", brprof,
			       "-o", fifo, NULL };
	char *merge_file[] = { (char *)env_path("BLOCKRANGE"), "merge", brprof,
			       "-o", want, NULL };
	size_t n1, n2;
	char *a, *b;
	struct stat sb;
	pid_t pid;

	snprintf(fifo, sizeof(fifo), "%s/profile.fifo", sdir);
	snprintf(got, sizeof(got), "%s/from-fifo.brprof", sdir);
	snprintf(want, sizeof(want), "%s/to-file.brprof", sdir);
	snprintf(out, sizeof(out), "%s/fifo.out", sdir);
	snprintf(err, sizeof(err), "%s/fifo.err", sdir);
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		char *cat[] = { "cat", fifo, NULL };
		int f = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (f < 0)
			_exit(126);
		dup2(f, STDOUT_FILENO);
		execvp(cat[0], cat);
		_exit(127);
	}
	ck_assert_int_eq(run_cmd(merge_fifo, out, err), 0);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	ck_assert_int_eq(run_cmd(merge_file, out, err), 0);
	ck_assert_int_eq(stat(fifo, &sb), 0);
	ck_assert(S_ISFIFO(sb.st_mode));
	a = slurp(got, &n1);
	b = slurp(want, &n2);
	ck_assert_uint_eq(n1, n2);
	ck_assert(!memcmp(a, b, n1));
	free(a);
	free(b);
}
END_TEST

Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("options");

	tcase_set_timeout(tc, 300);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, option_case, 0, NR_CASES);
	tcase_add_loop_test(tc, one_message_per_error, 0,
			    sizeof(one_message) / sizeof(one_message[0]));
	tcase_add_test(tc, profile_to_fifo);
	suite_add_tcase(s, tc);
	return s;
}
