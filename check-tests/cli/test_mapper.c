// SPDX-License-Identifier: GPL-2.0
/*
 * Mapper (runtime -> ELF address through MMAP2 lines) and the ELF view the
 * profile rules depend on (code set, fall-through check), on the workloads
 * that `make check-cli` builds.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tests.h"
#include "elfbin.h"
#include "mapper.h"

static struct eb_binary bin;
static char err[512];

static void open_wl(const char *name)
{
	char path[512], err[512];

	snprintf(path, sizeof(path), "%s/%s", env_path("BLOCKRANGE_WORKLOADS"),
		 name);
	ck_assert_msg(!eb_open(path, &bin, err, sizeof(err)), "%s", err);
}

static void teardown(void)
{
	eb_close(&bin);
}

static struct ps_mmap mm(long pid, uint64_t start, uint64_t len,
			 uint64_t pgoff, const char *path)
{
	struct ps_mmap m = { .pid = pid, .start = start, .len = len,
			     .pgoff = pgoff, .prot = "r-xp", .path = path };

	return m;
}

START_TEST(pie_through_mmap)
{
	struct mapper m;
	struct ps_mmap a = mm(7, 0x555555554000 + 0x1000, 0x1000, 0x1000,
			      "/some/dir/branches-pie");
	struct ps_mmap other = mm(7, 0x7f0000000000, 0x1000, 0x1000,
				  "/lib/libc.so.6");
	const struct eb_sym *s;
	uint64_t v, text;

	open_wl("branches-pie");
	ck_assert(bin.pie);
	ck_assert_uint_eq(bin.text_base, 0x1000);
	ck_assert(eb_off_to_vaddr(&bin, 0x1000, &text));
	mapper_init(&m, &bin);
	ck_assert(mapper_missing(&m));
	ck_assert_int_eq(mapper_add(&m, &other, err, sizeof(err)), 0);	/* not ours */
	ck_assert(mapper_missing(&m));
	ck_assert_int_eq(mapper_add(&m, &a, err, sizeof(err)), 1);
	ck_assert(!mapper_missing(&m));
	s = eb_sym_by_name(&bin, "branches");
	ck_assert(s);
	/* runtime = start + (file offset - pgoff) */
	ck_assert(mapper_map(&m, 7, a.start + (s->start - text), &v));
	ck_assert_uint_eq(v, s->start);
	ck_assert(mapper_map(&m, -1, a.start, &v));
	ck_assert_uint_eq(v, text);
	/* outside the mapping, or another process: external */
	ck_assert(!mapper_map(&m, 7, a.start + a.len, &v));
	ck_assert(!mapper_map(&m, 7, a.start - 1, &v));
	ck_assert(!mapper_map(&m, 8, a.start, &v));
	mapper_free(&m);
}
END_TEST

/* Two processes, two load addresses (multi-process fixture shape). */
START_TEST(pie_per_pid)
{
	struct mapper m;
	struct ps_mmap p1 = mm(1, 0x5ffeb3637000, 0x1000, 0x1000, "branches-pie");
	struct ps_mmap p2 = mm(2, 0x5caa46c41000, 0x1000, 0x1000, "branches-pie");
	uint64_t v, text;

	open_wl("branches-pie");
	ck_assert(eb_off_to_vaddr(&bin, 0x1000, &text));
	mapper_init(&m, &bin);
	ck_assert_int_eq(mapper_add(&m, &p1, err, sizeof(err)), 1);
	ck_assert_int_eq(mapper_add(&m, &p2, err, sizeof(err)), 1);
	ck_assert(mapper_map(&m, 1, 0x5ffeb3637150, &v));
	ck_assert_uint_eq(v, text + 0x150);
	ck_assert(mapper_map(&m, 2, 0x5caa46c41190, &v));
	ck_assert_uint_eq(v, text + 0x190);
	ck_assert(!mapper_map(&m, 1, 0x5caa46c41190, &v));
	/* no pid column: any mapping */
	ck_assert(mapper_map(&m, -1, 0x5caa46c41190, &v));
	ck_assert_uint_eq(v, text + 0x190);
	mapper_free(&m);
}
END_TEST

/* Mappings that cannot be of the binary are refused with a message. */
START_TEST(mmap_rejects)
{
	struct mapper m;
	struct ps_mmap wrap = mm(1, 0xfffffffffffff000, 0x2000, 0x1000,
				 "branches-pie");
	struct ps_mmap fwrap = mm(1, 0x1000, 0x2000, 0xfffffffffffff000,
				  "branches-pie");
	struct ps_mmap past = mm(1, 0x5000, 0x1000, 0, "branches-pie");
	struct ps_mmap last = mm(1, 0x1000, UINT64_MAX, 0, "branches-pie");
	struct ps_mmap edge = mm(1, 0xfffffffffffff000, 0x1000, 0,
				 "branches-pie");
	char want[256];

	open_wl("branches-pie");
	past.pgoff = bin.image_size;
	mapper_init(&m, &bin);
	ck_assert_int_eq(mapper_add(&m, &wrap, err, sizeof(err)), -2);
	ck_assert_str_eq(err, "expected a mapping of branches-pie whose end (start + length) and file end (offset + length) fit in 64 bits, got start 0xfffffffffffff000, length 0x2000, offset 0x1000");
	ck_assert_int_eq(mapper_add(&m, &fwrap, err, sizeof(err)), -2);
	ck_assert(strstr(err, "offset 0xfffffffffffff000"));
	ck_assert_int_eq(mapper_add(&m, &last, err, sizeof(err)), -2);
	ck_assert_int_eq(mapper_add(&m, &past, err, sizeof(err)), -2);
	snprintf(want, sizeof(want), "expected a file offset inside branches-pie (%zu bytes) for its mapping, got 0x%zx",
		 bin.image_size, bin.image_size);
	ck_assert_str_eq(err, want);
	ck_assert(mapper_missing(&m));
	/* The last byte of the address space is a valid end. */
	ck_assert_int_eq(mapper_add(&m, &edge, err, sizeof(err)), 1);
	ck_assert(!mapper_missing(&m));
	mapper_free(&m);
}
END_TEST

START_TEST(nopie_identity)
{
	struct mapper m;
	uint64_t v;

	open_wl("branches-nopie");
	ck_assert(!bin.pie);
	ck_assert_uint_eq(bin.text_base, 0x401000);
	mapper_init(&m, &bin);
	ck_assert(!mapper_missing(&m));
	ck_assert(mapper_map(&m, 3, 0x401234, &v));
	ck_assert_uint_eq(v, 0x401234);
	mapper_free(&m);
}
END_TEST

/* Code set and fall-through rule (as observed from llvm-profgen-19). */
START_TEST(code_set_and_fallthrough)
{
	const struct eb_sym *s;
	const struct eb_section *plt = NULL;
	struct eb_insn in;
	uint64_t a, jmp = 0, call = 0, cond = 0, jsz = 0, csz = 0;
	size_t i;

	open_wl("branches-nopie");
	s = eb_sym_by_name(&bin, "branches");
	ck_assert(s && eb_is_code(&bin, s->start));
	for (a = s->start; a < s->end; a += in.size) {
		ck_assert(!eb_decode(&bin, a, &in, NULL, 0, NULL, 0));
		ck_assert(eb_is_code(&bin, a));
		if (in.size > 1)
			ck_assert(!eb_is_code(&bin, a + 1));	/* mid-insn */
		if (in.kind == EB_JMP && !jmp) {
			jmp = a;
			jsz = in.size;
		}
		if (in.kind == EB_CALL && !call) {
			call = a;
			csz = in.size;
		}
		if (in.kind == EB_COND && !cond)
			cond = a;
	}
	ck_assert(jmp && call && cond);
	/* a range may end at, but not contain, a direct jmp or call */
	ck_assert(eb_range_valid(&bin, s->start, jmp));
	ck_assert(!eb_range_valid(&bin, s->start, jmp + jsz));
	ck_assert(!eb_range_valid(&bin, jmp, jmp + jsz));
	ck_assert(eb_range_valid(&bin, jmp, jmp));
	ck_assert(eb_range_valid(&bin, cond, cond));
	ck_assert(!eb_range_valid(&bin, call, call + csz));
	ck_assert(!eb_range_valid(&bin, jmp, s->start));	/* reversed */
	/* PLT stubs have no symbol: not code */
	for (i = 0; i < bin.nr_xsecs; i++)
		if (!strcmp(bin.xsecs[i].name, ".plt"))
			plt = &bin.xsecs[i];
	ck_assert(plt);
	ck_assert(!eb_is_code(&bin, plt->addr));
	ck_assert(!eb_is_code(&bin, plt->addr + 0x10));
}
END_TEST

/* A PIE without its mmap line is a clear error (exit 2), for both tools. */
START_TEST(pie_without_mmap_is_an_error)
{
	char in[512], errf[512], binp[512];
	char *msg;
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "ranges",
			 "--perfscript", in, "--binary", binp, NULL };

	snprintf(binp, sizeof(binp), "%s/branches-pie",
		 env_path("BLOCKRANGE_WORKLOADS"));
	scratch("nommap.perfscript", in, sizeof(in));
	scratch("nommap.err", errf, sizeof(errf));
	spew(in, "; no mmap\n     55b978933cb4 0x55b978933cb4/0x55b978933c80/-/-/-/0\n");
	ck_assert_int_eq(run_cmd(argv, NULL, errf), 2);
	msg = slurp(errf, NULL);
	ck_assert_msg(strstr(msg, "nommap.perfscript:2: expected a PERF_RECORD_MMAP2 line for 'branches-pie'"),
		      "%s", msg);
	free(msg);
	argv[1] = "annotate";
	ck_assert_int_eq(run_cmd(argv, NULL, errf), 2);
	msg = slurp(errf, NULL);
	ck_assert_msg(strstr(msg, "nommap.perfscript:2: expected a PERF_RECORD_MMAP2"),
		      "%s", msg);
	free(msg);
}
END_TEST

Suite *mapper_suite(void)
{
	Suite *s = suite_create("mapper");
	TCase *t = tcase_create("mapper");

	tcase_add_checked_fixture(t, NULL, teardown);
	tcase_add_test(t, pie_through_mmap);
	tcase_add_test(t, pie_per_pid);
	tcase_add_test(t, mmap_rejects);
	tcase_add_test(t, nopie_identity);
	tcase_add_test(t, code_set_and_fallthrough);
	tcase_add_test(t, pie_without_mmap_is_an_error);
	suite_add_tcase(s, t);
	return s;
}
