// SPDX-License-Identifier: GPL-2.0
/*
 * Parser: every brstack generation perf has printed, the other line kinds,
 * and one test per malformed-input class (each asserts the message names
 * what was expected and what was found).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "cli_tests.h"
#include "input/perfscript.h"

static struct ps_line pl;
static char err[PS_ERR_MAX];

static void setup(void)
{
	memset(&pl, 0, sizeof(pl));
	err[0] = '\0';
}

static void teardown(void)
{
	ps_line_free(&pl);
}

static int parse(const char *s)
{
	return ps_parse_line(s, strlen(s), &pl, err, sizeof(err));
}

static void ok_sample(const char *s, size_t nr)
{
	ck_assert_msg(parse(s) == 0, "'%s' rejected: %s", s, err);
	ck_assert_int_eq(pl.kind, PS_SAMPLE);
	ck_assert_uint_eq(pl.sample.nr, nr);
}

#define E(i) (pl.sample.entries[i])

/* perf <= 6.0: FROM/TO/PRED/INTX/ABORT/CYCLES, IP right-aligned, no 0x. */
START_TEST(gen_six_fields)
{
	ok_sample("           40062f 0x40062f/0x4005b0/P/-/-/9  0x400645/0x4005ff/M/X/A/1",
		  2);
	ck_assert(pl.ip_present);
	ck_assert_uint_eq(pl.sample.ip, 0x40062f);
	ck_assert_int_eq(pl.sample.pid, -1);
	ck_assert_str_eq(pl.sample.event, "");
	ck_assert_uint_eq(E(0).from, 0x40062f);
	ck_assert_uint_eq(E(0).to, 0x4005b0);
	ck_assert(E(0).predicted && !E(0).mispredicted);
	ck_assert(!E(0).in_tx && !E(0).abort);
	ck_assert_uint_eq(E(0).cycles, 9);
	ck_assert(E(1).mispredicted && !E(1).predicted);
	ck_assert(E(1).in_tx && E(1).abort);
	ck_assert_uint_eq(E(1).cycles, 1);
}
END_TEST

/* perf 6.1+: TYPE (empty) and SPEC fields, leading event, trailing blank. */
START_TEST(gen_type_empty_spec_event)
{
	ok_sample("  br_inst_retired.near_taken:upp:            401310 0x401310/0x4012f0/P/-/-/22//-  0x4012fa/0x4012ff/M/-/-/3//- ",
		  2);
	ck_assert_str_eq(pl.sample.event, "br_inst_retired.near_taken:upp");
	ck_assert_uint_eq(pl.sample.ip, 0x401310);
	ck_assert_uint_eq(E(1).from, 0x4012fa);
	ck_assert(E(1).mispredicted);
	ck_assert_uint_eq(E(1).cycles, 3);
}
END_TEST

START_TEST(gen_type_named_pid)
{
	ok_sample(" 149754      5ffeb3637150 0x5ffeb3637150/0x5ffeb3637155/P/-/-/1/UNCOND/-  0x5ffeb3637161/0x5ffeb363713c/P/-/-/1/UNCOND/-",
		  2);
	ck_assert_int_eq(pl.sample.pid, 149754);
	ck_assert_uint_eq(pl.sample.ip, 0x5ffeb3637150);
	ck_assert_uint_eq(E(1).to, 0x5ffeb363713c);
}
END_TEST

START_TEST(gen_spec_field)
{
	ok_sample("1632846      5f66b792016a 0x5f66b792016c/0x5f66b792016e/P/-/-/0//NON_SPEC_CORRECT_PATH",
		  1);
	ck_assert_int_eq(pl.sample.pid, 1632846);
	ck_assert_uint_eq(E(0).cycles, 0);
}
END_TEST

/* Hex digits in upper case are read too. */
START_TEST(gen_upper_hex)
{
	ok_sample("  40AB 0x40AB/0x4005Fe/P/-/-/9", 1);
	ck_assert_uint_eq(pl.sample.ip, 0x40ab);
	ck_assert_uint_eq(E(0).from, 0x40ab);
	ck_assert_uint_eq(E(0).to, 0x4005fe);
}
END_TEST

/* TYPE without SPEC (7 fields), and an empty TYPE from a trailing '/'. */
START_TEST(gen_seven_fields)
{
	ok_sample("  401136 0x401136/0x401200/P/-/-/4/COND  0x1/0x2/-/-/-/0/", 2);
	ck_assert_uint_eq(E(0).cycles, 4);
	ck_assert(!E(1).predicted && !E(1).mispredicted);
}
END_TEST

/* FROM/TO only, hybrid LBR line without IP. */
START_TEST(gen_two_fields_no_ip)
{
	ok_sample(" 0x0/0x457160", 1);
	ck_assert(!pl.ip_present);
	ck_assert_uint_eq(E(0).from, 0);
	ck_assert_uint_eq(E(0).to, 0x457160);
	ck_assert(!E(0).predicted && !E(0).mispredicted);
}
END_TEST

START_TEST(gen_pn_mn)
{
	ok_sample("  40 0x1/0x2/PN/-/-/1//-  0x3/0x4/MN/-/-/2//-  0x5/0x6/-N/-/-/3//-", 3);
	ck_assert(E(0).predicted && E(0).not_taken);
	ck_assert(E(1).mispredicted && E(1).not_taken);
	ck_assert(!E(2).predicted && !E(2).mispredicted && E(2).not_taken);
}
END_TEST

/* 0xADDR(dso) forms, with '/' inside the dso path, and the IP's (dso). */
START_TEST(gen_dso)
{
	ok_sample("  400652 (/tmp/a.out) 0x400652(/tmp/a.out)/0x400670(/usr/lib/libc.so.6)/P/-/-/0  0x1(a)/0x2(b)",
		  2);
	ck_assert_uint_eq(pl.sample.ip, 0x400652);
	ck_assert_uint_eq(E(0).from, 0x400652);
	ck_assert_uint_eq(E(0).to, 0x400670);
	ck_assert(E(0).predicted);
	ck_assert_uint_eq(E(1).to, 2);
}
END_TEST

START_TEST(gen_buildid)
{
	ok_sample("  4005b0 aabb1122:0x4005b0/aabb1122:0x4005c8/P/-/-/1", 1);
	ck_assert_uint_eq(E(0).from, 0x4005b0);
	ck_assert_uint_eq(E(0).to, 0x4005c8);
}
END_TEST

/* comm, pid/tid, time and event columns. */
START_TEST(gen_comm_pid_tid_time)
{
	ok_sample("branches 1234/1235 12345.678901: cycles:u: 401136 0x401136/0x401200/P/-/-/4",
		  1);
	ck_assert_int_eq(pl.sample.pid, 1234);
	ck_assert_int_eq(pl.sample.tid, 1235);
	ck_assert_str_eq(pl.sample.event, "cycles:u");
	ck_assert_uint_eq(pl.sample.ip, 0x401136);
}
END_TEST

START_TEST(gen_no_entries_crlf)
{
	ok_sample("           40062f\r", 0);
	ck_assert_uint_eq(pl.sample.ip, 0x40062f);
}
END_TEST

START_TEST(other_lines)
{
	static const char *const skip[] = {
		"", "   ", "; comment", "// Invalid perf line", "# header",
		"1632846 PERF_RECORD_COMM exec: fork-nocs-nopro:1632846/1632846",
		"1632846 PERF_RECORD_FORK(1632847:1632847):(1632846:1632846)",
		"PERF_RECORD_EXIT(1632846:1632846):(1632843:1632843)",
	};
	size_t i;

	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++) {
		ck_assert_msg(parse(skip[i]) == 0, "'%s': %s", skip[i], err);
		ck_assert_int_eq(pl.kind, PS_SKIP);
	}
	ck_assert_int_eq(parse("3"), 0);
	ck_assert_int_eq(pl.kind, PS_COUNT);
	ck_assert_uint_eq(pl.count, 3);
	ck_assert_int_eq(parse("\t          20179e"), 0);
	ck_assert_int_eq(pl.kind, PS_FRAME);
	ck_assert_uint_eq(pl.frame, 0x20179e);
}
END_TEST

START_TEST(mmap_forms)
{
	ck_assert_int_eq(parse("1632846 PERF_RECORD_MMAP2 1632846/1632846: [0x5f66b7920000(0x1000) @ 0x1000 103:02 16517001 728092706]: r-xp /home/fork-nocs-noprobe.perfbin"), 0);
	ck_assert_int_eq(pl.kind, PS_MMAP);
	ck_assert_int_eq(pl.mmap.pid, 1632846);
	ck_assert_uint_eq(pl.mmap.start, 0x5f66b7920000);
	ck_assert_uint_eq(pl.mmap.len, 0x1000);
	ck_assert_uint_eq(pl.mmap.pgoff, 0x1000);
	ck_assert_str_eq(pl.mmap.prot, "r-xp");
	ck_assert_str_eq(pl.mmap.path, "/home/fork-nocs-noprobe.perfbin");
	ck_assert_int_eq(parse(" PERF_RECORD_MMAP2 1243676/1243676: [0x201000(0x1000) @ 0 00:1d 224517108 1044165]: r-xp /home/a b.perfbin"), 0);
	ck_assert_uint_eq(pl.mmap.pgoff, 0);
	ck_assert_str_eq(pl.mmap.path, "/home/a b.perfbin");
	/* build-id form inside the brackets, and the old MMAP record */
	ck_assert_int_eq(parse("PERF_RECORD_MMAP2 7/7: [0x1000(0x2000) @ 0x3000 build_id 0123abcd]: r-xp /x"), 0);
	ck_assert_uint_eq(pl.mmap.pgoff, 0x3000);
	ck_assert_int_eq(parse("PERF_RECORD_MMAP -1/0: [0xffffffff81000000(0x1000000) @ 0xffffffff81000000]: x [kernel.kallsyms]_text"), 0);
	ck_assert_int_eq(pl.kind, PS_MMAP);
	ck_assert_int_eq(pl.mmap.pid, -1);
	ck_assert_str_eq(pl.mmap.path, "[kernel.kallsyms]_text");
}
END_TEST

/* One malformed-input class per row: line, and text the error must hold. */
static const struct bad {
	const char *line;
	const char *expect;
} bad[] = {
	{ "  401 40065d/0x40068f/M/-/-/1", "expected a branch source address '0x<hex>' in branch entry 1, got '40065d/0x40068f/M/-/-/1'" },
	{ "  401 0x40065d/40068f", "expected a branch target address '0x<hex>' in branch entry 1" },
	{ "  401 0xzz/0x1", "hex digits after '0x' in the branch source of branch entry 1" },
	{ "  401 0x1/0xqq", "hex digits after '0x' in the branch target of branch entry 1" },
	{ "  401 0x12345678901234567/0x1", "64-bit branch source address" },
	{ "  401 0x1/0x12345678901234567", "64-bit branch target address" },
	{ "  401 0x1/0x2/Q/-/-/1", "expected prediction flag 'P', 'M' or '-' (optionally followed by 'N') in branch entry 1, got 'Q'" },
	{ "  401 0x1/0x2/P/Y/-/1", "transaction flag 'X' or '-' in branch entry 1, got 'Y'" },
	{ "  401 0x1/0x2/P/-/B/1", "abort flag 'A' or '-' in branch entry 1, got 'B'" },
	{ "  401 0x1/0x2/P/-/-/x1", "a cycle count 0..65535 in branch entry 1, got 'x1'" },
	{ "  401 0x1/0x2/P/-/-/70000", "a cycle count 0..65535 in branch entry 1, got '70000'" },
	{ "  401 0x1/0x2/P/-/-", "2, 6, 7 or 8 '/'-separated fields" },
	{ "  401 0x1/0x2/P", "2, 6, 7 or 8 '/'-separated fields" },
	{ "  401 0x1/0x2/P/-/-/1/COND/-/x", "2, 6, 7 or 8 '/'-separated fields" },
	{ "  401 0x1/0x2/P/-/-/1/cond/-", "a branch type (empty or like 'COND', 'UNCOND', 'IND_CALL') in branch entry 1, got 'cond'" },
	{ "  401 0x1/0x2/P/-/-/1/COND/maybe", "speculation outcome ('-' or like 'NON_SPEC_CORRECT_PATH') in branch entry 1, got 'maybe'" },
	{ "  401 0x1(/a.out/0x2", "')' closing the dso name of the branch source in branch entry 1" },
	{ "  401 0x1/0x2  junk  0x3/0x4", "a branch source address '0x<hex>' in branch entry 2, got 'junk'" },
	{ "  zz 0x1/0x2", "expected the sample IP (hex) before the branch stack, got 'zz'" },
	{ "  12345678901234567 0x1/0x2", "expected the sample IP (hex) before the branch stack, got '12345678901234567'" },
	{ "hello world", "expected the sample IP (hex) before the branch stack, got 'world'" },
	{ "  401 0x1x/0x2", "only hex digits in the branch source address of branch entry 1, got '0x1x/0x2'" },
	{ "  401 0x1/0x2x", "only hex digits in the branch target address of branch entry 1, got '0x1/0x2x'" },
	{ "  401 0x1/0x2 0x3", "'/' and the branch target after the source in branch entry 2, got '0x3'" },
	{ "  401 0x1/0x2(a)x", "'/' after the branch target in branch entry 1, got '0x1/0x2(a)x'" },
	{ "\t401 0x1/0x2", "only a symbol and '(dso)' after the call-stack frame address on a tab-indented line (sample lines must not start with a tab), got '0x1/0x2'" },
	{ "  401 0x1/0x2/P/-/-/1\r 0x3/0x4", "a cycle count 0..65535 in branch entry 1, got '1\\r'" },
	{ "  401 0x1/0x2 \xff\xfe", "a branch source address '0x<hex>' in branch entry 2, got '\\xff\\xfe'" },
	{ "  401 0x/0x2", "hex digits after '0x' in the branch source" },
	{ "  : 401 0x1/0x2", "expected an event name before ':', got ':'" },
	{ "PERF_RECORD_MMAP2 12/12 [0x1(0x2) @ 0 0:0 0 0]: r-xp /a", "expected 'PID/TID:' in the mmap record" },
	{ "PERF_RECORD_MMAP2 x/12: [0x1(0x2) @ 0 0:0 0 0]: r-xp /a", "expected 'PID/TID:' in the mmap record, got 'x/12'" },
	{ "PERF_RECORD_MMAP2 12/12: 0x1(0x2) @ 0 0:0 0 0]: r-xp /a", "'[0xSTART(0xLEN) @ PGOFF ...]' in the mmap record" },
	{ "PERF_RECORD_MMAP2 12/12: [0xzz(0x2) @ 0 0:0 0 0]: r-xp /a", "the mapping start '0x<hex>' in the mmap record, got '0xzz'" },
	{ "PERF_RECORD_MMAP2 12/12: [0x1(0x0) @ 0 0:0 0 0]: r-xp /a", "a non-zero mapping length" },
	{ "PERF_RECORD_MMAP2 12/12: [0x1(0x2) 0 0:0 0 0]: r-xp /a", "'@ PGOFF' after the mapping length" },
	{ "PERF_RECORD_MMAP2 12/12: [0x1(0x2) @ zz 0:0 0 0]: r-xp /a", "the file offset (hex) after '@' in the mmap record, got 'zz'" },
	{ "PERF_RECORD_MMAP2 12/12: [0x1(0x2) @ 0 0:0 0 0] r-xp /a", "']:' closing the mapping" },
	{ "PERF_RECORD_MMAP2 12/12: [0x1(0x2) @ 0 0:0 0 0]: r-xp", "'PROT PATH' after the mapping" },
	{ "99999999999999999999999", "a repeat count that fits in 64 bits" },
	{ "\tzz main+0x1", "a call-stack frame address (hex) on a tab-indented line, got 'zz'" },
};

START_TEST(malformed)
{
	const struct bad *b = &bad[_i];

	ck_assert_msg(parse(b->line) == -1, "'%s' accepted", b->line);
	ck_assert_msg(strstr(err, b->expect), "'%s': message '%s' lacks '%s'",
		      b->line, err, b->expect);
	ck_assert_msg(!strncmp(err, "expected ", 9), "message '%s'", err);
}
END_TEST

START_TEST(malformed_nul)
{
	static const char line[] = "  401 0x1/0x2\0/P";

	ck_assert_int_eq(ps_parse_line(line, sizeof(line) - 1, &pl, err,
				       sizeof(err)), BR_EINPUT);
	ck_assert_str_eq(err, "expected text without NUL bytes (one at column 14), got '  401 0x1/0x2\\x00/P'");
}
END_TEST

/* Long garbage is cut in the message. */
START_TEST(malformed_long_got)
{
	char line[400];

	memset(line, 'q', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	ck_assert_int_eq(parse(line), BR_EINPUT);
	ck_assert_msg(strlen(err) < 200, "%s", err);
	ck_assert(strstr(err, "...'"));
}
END_TEST

/* --- ps_read(): file:line messages, multi-line classes, --skip-bad --- */

struct tally {
	unsigned long repeat_line;
	unsigned long samples;
	unsigned long entries;
	uint64_t repeat_sum;
	uint64_t last_ip;
	bool last_hybrid;
	uint64_t frames[8];		/* the last sample's call stack */
	size_t nframes;
	unsigned long mmaps;
};

static int cb_sample(void *arg, const struct ps_sample *s, char *e, size_t n)
{
	struct tally *t = arg;

	(void)e;
	(void)n;
	t->samples++;
	t->entries += s->nr;
	t->repeat_sum += s->repeat;
	t->repeat_line = s->repeat_line;
	t->last_ip = s->ip;
	t->last_hybrid = s->hybrid;
	ck_assert_uint_le(s->nframes, 8);
	t->nframes = s->nframes;
	if (s->nframes)
		memcpy(t->frames, s->frames, s->nframes * sizeof(*s->frames));
	return 0;
}

static int cb_mmap(void *arg, const struct ps_mmap *m, char *e, size_t n)
{
	struct tally *t = arg;

	(void)m;
	(void)e;
	(void)n;
	t->mmaps++;
	return 0;
}

static int read_text(const char *text, bool skip_bad, struct tally *t,
		     struct ps_stats *st)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct ps_callbacks cb = { cb_sample, cb_mmap, t };
	int r;

	ck_assert(f);
	memset(t, 0, sizeof(*t));
	memset(st, 0, sizeof(*st));
	r = ps_read(f, "in.txt", skip_bad, &cb, st, err, sizeof(err));
	fclose(f);
	return r;
}

static const struct bad bad_files[] = {
	{ "  401 0x1/0x2\n3\n4\n  401 0x1/0x2\n", "in.txt:3: expected a sample after the repeat count on line 2, got '4'" },
	{ "  401 0x1/0x2\n\n7\n", "in.txt:3: expected a sample after the repeat count on this line, got end of file" },
	{ "; x\n\t401\n\t402\n", "in.txt:2: expected a sample after the call-stack frames on this line, got end of file" },
	{ "  401 0x1/0x2\n 0x1/0x2\n", "in.txt:2: expected the sample IP before the branch stack, got ' 0x1/0x2'" },
	{ "; a\n; b\n  401 0x1/0x2/P/-/-/1/COND/-/x\n", "in.txt:3: expected 2, 6, 7 or 8" },
	{ "  401 0x1/0x2\n  402 0x1/0x", "in.txt:2: expected a newline at the end of the last line (the input looks cut off), got '  402 0x1/0x'" },
	{ "  401 0x1/0x2\n; comment", "in.txt:2: expected a newline at the end of the last line" },
	{ "  401 0x1/0x2\n\t401 0x1/0x2\n  402 0x1/0x2\n", "in.txt:2: expected only a symbol and '(dso)' after the call-stack frame address" },
};

START_TEST(malformed_file)
{
	const struct bad *b = &bad_files[_i];
	struct tally t;
	struct ps_stats st;

	ck_assert_int_eq(read_text(b->line, false, &t, &st), BR_EINPUT);
	ck_assert_msg(strstr(err, b->expect), "message '%s' lacks '%s'", err,
		      b->expect);
	/* With skip_bad the same input is read to the end. */
	ck_assert_int_eq(read_text(b->line, true, &t, &st), 0);
	ck_assert_uint_eq(st.bad_lines, 1);
}
END_TEST

START_TEST(read_aggregated_hybrid)
{
	static const char text[] =
		"PERF_RECORD_MMAP2 1/1: [0x1000(0x1000) @ 0 0:0 0 0]: r-xp /a\n"
		"1\n"
		"           40062f 0x40062f/0x4005b0/P/-/-/9  0x1/0x2/P/-/-/1\n"
		"3\n"
		"\t457170\n"
		"\t457180 caller+0x10 (/a)\n"
		" 0x0/0x457160\n"
		"\n"
		"           40062f 0x40062f/0x4005b0\n";
	struct tally t;
	struct ps_stats st;

	ck_assert_int_eq(read_text(text, false, &t, &st), 0);
	ck_assert_uint_eq(t.mmaps, 1);
	ck_assert_uint_eq(t.samples, 3);
	ck_assert_uint_eq(t.entries, 4);
	ck_assert_uint_eq(t.repeat_sum, 1 + 3 + 1);
	ck_assert_uint_eq(t.last_ip, 0x40062f);
	ck_assert(!t.last_hybrid);
	ck_assert_uint_eq(t.repeat_line, 0);
	ck_assert_uint_eq(st.lines, 9);
}
END_TEST

/* The count's line is passed on (callbacks blame it for huge counts). */
START_TEST(read_repeat_line)
{
	static const char text[] = "; c\n\n5\n  401 0x1/0x2\n";
	struct tally t;
	struct ps_stats st;

	ck_assert_int_eq(read_text(text, false, &t, &st), 0);
	ck_assert_uint_eq(t.repeat_sum, 5);
	ck_assert_uint_eq(t.repeat_line, 3);
}
END_TEST

/* A last line of blanks without its newline is not a cut line. */
START_TEST(read_unterminated_blank)
{
	static const char text[] = "  401 0x1/0x2\n \t\r";
	struct tally t;
	struct ps_stats st;

	ck_assert_int_eq(read_text(text, false, &t, &st), 0);
	ck_assert_uint_eq(t.samples, 1);
	ck_assert_uint_eq(st.lines, 2);
}
END_TEST

START_TEST(read_hybrid_ip_from_frame)
{
	static const char text[] = "\t457170\n\t457180\n 0x0/0x457160\n";
	struct tally t;
	struct ps_stats st;

	ck_assert_int_eq(read_text(text, false, &t, &st), 0);
	ck_assert_uint_eq(t.samples, 1);
	ck_assert_uint_eq(t.last_ip, 0x457170);
	ck_assert(t.last_hybrid);
	ck_assert_uint_eq(t.nframes, 2);
	ck_assert_uint_eq(t.frames[0], 0x457170);
	ck_assert_uint_eq(t.frames[1], 0x457180);
}
END_TEST

/*
 * Each sample gets its own call stack, innermost first, symbols and DSOs
 * after a frame's address ignored; a sample without frame lines has none.
 */
START_TEST(read_hybrid_frames_per_sample)
{
	static const char text[] =
		"\t4005dc main+0x1c (/a)\n"
		"\t400634\n"
		"\t7f0000001234 __libc_start_main (/lib/libc.so.6)\n"
		" 0x4005c8/0x4005dc/P/-/-/0  0x40062f/0x4005b0/P/-/-/0\n"
		"\n"
		"\t400700\n"
		" 0x4006f0/0x400700/P/-/-/0\n";
	static const char plain[] = "  401 0x1/0x2\n";
	struct tally t;
	struct ps_stats st;
	struct ps_callbacks cb = { cb_sample, cb_mmap, &t };
	struct ps_reader r;
	size_t i, n;
	const char *p;

	/* line by line, to see the first sample's stack */
	memset(&t, 0, sizeof(t));
	ps_reader_init(&r, "in.txt", false, &cb, &st, 0);
	for (p = text, i = 0; *p; p += n + 1, i++) {
		n = strcspn(p, "\n");
		ck_assert_int_eq(ps_reader_line(&r, p, n, true, err,
						sizeof(err)), 0);
		if (i == 3) {
			ck_assert_uint_eq(t.samples, 1);
			ck_assert_uint_eq(t.nframes, 3);
			ck_assert_uint_eq(t.frames[0], 0x4005dc);
			ck_assert_uint_eq(t.frames[1], 0x400634);
			ck_assert_uint_eq(t.frames[2], 0x7f0000001234);
			ck_assert_uint_eq(t.last_ip, 0x4005dc);
		}
	}
	ck_assert_int_eq(ps_reader_end(&r, err, sizeof(err)), 0);
	ps_reader_free(&r);
	ck_assert_uint_eq(t.samples, 2);
	ck_assert_uint_eq(t.nframes, 1);
	ck_assert_uint_eq(t.frames[0], 0x400700);

	ck_assert_int_eq(read_text(plain, false, &t, &st), 0);
	ck_assert_uint_eq(t.samples, 1);
	ck_assert_uint_eq(t.nframes, 0);
	ck_assert(!t.last_hybrid);
}
END_TEST

/* The CLI: exit status 2 and FILE:LINE on stderr; --skip-bad counts. */
START_TEST(cli_exit_status)
{
	char in[512], out[512], errf[512];
	char *msg;
	const char *bin = env_path("BLOCKRANGE");
	char *argv[] = { (char *)bin, "ranges", "--perfscript", in, "--base",
			 "0", NULL, NULL };

	scratch("bad.perfscript", in, sizeof(in));
	scratch("bad.out", out, sizeof(out));
	scratch("bad.err", errf, sizeof(errf));
	spew(in, "  401 0x401/0x402/P/-/-/1  0x400/0x401/P/-/-/1\n"
		 "  401 0x401/0x402/P/-/Z/1\n");
	ck_assert_int_eq(run_cmd(argv, out, errf), 2);
	msg = slurp(errf, NULL);
	ck_assert_msg(strstr(msg, "bad.perfscript:2: expected abort flag 'A' or '-' in branch entry 1, got 'Z'"),
		      "%s", msg);
	free(msg);
	argv[6] = "--skip-bad";
	ck_assert_int_eq(run_cmd(argv, out, errf), 0);
	msg = slurp(errf, NULL);
	ck_assert_msg(strstr(msg, "skipped 1 malformed line"), "%s", msg);
	free(msg);
	msg = slurp(out, NULL);
	ck_assert_str_eq(msg, "1\n401-401:1\n2\n400->401:1\n401->402:1\n");
	free(msg);
}
END_TEST

Suite *parser_suite(void)
{
	Suite *s = suite_create("parser");
	TCase *g = tcase_create("generations");
	TCase *b = tcase_create("malformed");

	tcase_add_checked_fixture(g, setup, teardown);
	tcase_add_test(g, gen_six_fields);
	tcase_add_test(g, gen_type_empty_spec_event);
	tcase_add_test(g, gen_type_named_pid);
	tcase_add_test(g, gen_spec_field);
	tcase_add_test(g, gen_upper_hex);
	tcase_add_test(g, gen_seven_fields);
	tcase_add_test(g, gen_two_fields_no_ip);
	tcase_add_test(g, gen_pn_mn);
	tcase_add_test(g, gen_dso);
	tcase_add_test(g, gen_buildid);
	tcase_add_test(g, gen_comm_pid_tid_time);
	tcase_add_test(g, gen_no_entries_crlf);
	tcase_add_test(g, other_lines);
	tcase_add_test(g, mmap_forms);
	tcase_add_test(g, read_aggregated_hybrid);
	tcase_add_test(g, read_hybrid_ip_from_frame);
	tcase_add_test(g, read_hybrid_frames_per_sample);
	tcase_add_test(g, read_repeat_line);
	tcase_add_test(g, read_unterminated_blank);
	suite_add_tcase(s, g);

	tcase_add_checked_fixture(b, setup, teardown);
	tcase_add_loop_test(b, malformed, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(b, malformed_nul);
	tcase_add_test(b, malformed_long_got);
	tcase_add_loop_test(b, malformed_file, 0,
			    sizeof(bad_files) / sizeof(bad_files[0]));
	tcase_add_test(b, cli_exit_status);
	suite_add_tcase(s, b);
	return s;
}
