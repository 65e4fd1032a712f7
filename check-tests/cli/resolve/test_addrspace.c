// SPDX-License-Identifier: GPL-2.0
/*
 * Address spaces (runtime -> DSO and ELF address through mmaps, forks and
 * execs), the --binary mapping rules, and the ELF view the profile rules
 * depend on (code set, fall-through check), on the workloads that
 * `make check-cli` builds.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "cli_tests.h"
#include "resolve/addrspace.h"
#include "resolve/elfbin.h"
#include "resolve/resolver.h"

static struct eb_binary bin;
static struct resolver ses;
static bool ses_open;
static char err[512];

static void wl(const char *name, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", env_path("BLOCKRANGE_WORKLOADS"), name);
}

static void open_wl(const char *name)
{
	char path[512], err[512];

	wl(name, path, sizeof(path));
	ck_assert_msg(!eb_open(path, &bin, err, sizeof(err)), "%s", err);
}

/* A resolver in the single-binary mode of @name (NULL: none). */
static void open_resolver(const char *name)
{
	struct resolver_opts o;
	char path[512], err[512];

	memset(&o, 0, sizeof(o));
	o.dso.code_set = true;
	if (name) {
		wl(name, path, sizeof(path));
		o.binary = path;
	}
	ck_assert_msg(!resolver_init(&ses, "test", &o, err, sizeof(err)), "%s",
		      err);
	ses_open = true;
}

static void teardown(void)
{
	eb_close(&bin);
	if (ses_open)
		resolver_free(&ses);
	ses_open = false;
}

static struct ev_mmap mm(int32_t pid, uint64_t start, uint64_t len,
			 uint64_t pgoff, const char *path)
{
	struct ev_mmap m = { .pid = pid, .tid = pid, .start = start,
			     .len = len, .pgoff = pgoff, .path = path,
			     .exec = true };

	m.pos.name = "test";
	m.pos.line = 7;
	return m;
}

static int add(struct ev_mmap m)
{
	return resolver_mmap(&ses, &m, err, sizeof(err));
}

static enum as_res res(int32_t pid, uint64_t addr, uint64_t *v,
		       struct dso **d)
{
	struct as_resolved r;

	as_resolve(ses.as, pid, EV_CPU_USER, addr, &r);
	*v = r.vaddr;
	if (d)
		*d = r.dso;
	return r.res;
}

START_TEST(pie_through_mmap)
{
	struct ev_mmap a = mm(7, 0x555555554000 + 0x1000, 0x1000, 0x1000,
			      "/some/dir/branches-pie");
	const struct eb_sym *s;
	uint64_t v, text;

	open_wl("branches-pie");
	open_resolver("branches-pie");
	ck_assert(bin.pie);
	ck_assert_uint_eq(bin.text_base, 0x1000);
	ck_assert(eb_off_to_vaddr(&bin, 0x1000, &text));
	ck_assert_int_eq(add(mm(7, 0x7f0000000000, 0x1000, 0x1000,
				"/lib/libc.so.6")), 0);
	ck_assert(!ses.bin_mapped);	/* not the binary */
	ck_assert_int_eq(add(a), 0);
	ck_assert(ses.bin_mapped);
	s = eb_sym_by_name(&bin, "branches");
	ck_assert(s);
	/* runtime = start + (file offset - pgoff) */
	ck_assert_int_eq(res(7, a.start + (s->start - text), &v, NULL), AS_OK);
	ck_assert_uint_eq(v, s->start);
	ck_assert_int_eq(res(-1, a.start, &v, NULL), AS_OK);
	ck_assert_uint_eq(v, text);
	/* outside the mapping, or another process */
	ck_assert_int_eq(res(7, a.start + a.len, &v, NULL), AS_UNMAPPED);
	ck_assert_int_eq(res(7, a.start - 1, &v, NULL), AS_UNMAPPED);
	ck_assert_int_eq(res(8, a.start, &v, NULL), AS_UNMAPPED);
	/* libc: another DSO, left out by --binary (and never loaded) */
	ck_assert_int_eq(res(7, 0x7f0000000010, &v, NULL), AS_FILTERED);
}
END_TEST

/* Two processes, two load addresses (multi-process fixture shape). */
START_TEST(pie_per_pid)
{
	uint64_t v, text;

	open_wl("branches-pie");
	open_resolver("branches-pie");
	ck_assert(eb_off_to_vaddr(&bin, 0x1000, &text));
	ck_assert_int_eq(add(mm(1, 0x5ffeb3637000, 0x1000, 0x1000,
				"branches-pie")), 0);
	ck_assert_int_eq(add(mm(2, 0x5caa46c41000, 0x1000, 0x1000,
				"branches-pie")), 0);
	ck_assert_int_eq(res(1, 0x5ffeb3637150, &v, NULL), AS_OK);
	ck_assert_uint_eq(v, text + 0x150);
	ck_assert_int_eq(res(2, 0x5caa46c41190, &v, NULL), AS_OK);
	ck_assert_uint_eq(v, text + 0x190);
	ck_assert_int_eq(res(1, 0x5caa46c41190, &v, NULL), AS_UNMAPPED);
	/* no pid column: any mapping */
	ck_assert_int_eq(res(-1, 0x5caa46c41190, &v, NULL), AS_OK);
	ck_assert_uint_eq(v, text + 0x190);
}
END_TEST

/* Mappings that cannot be of the binary are refused with a message. */
START_TEST(mmap_rejects)
{
	struct ev_mmap past = mm(1, 0x5000, 0x1000, 0, "branches-pie");
	char want[256];

	open_wl("branches-pie");
	open_resolver("branches-pie");
	past.pgoff = bin.image_size;
	ck_assert_int_eq(add(mm(1, 0xfffffffffffff000, 0x2000, 0x1000,
				"branches-pie")), BR_EINPUT);
	ck_assert_str_eq(err, "test:7: expected a mapping of branches-pie whose end (start + length) and file end (offset + length) fit in 64 bits, got start 0xfffffffffffff000, length 0x2000, offset 0x1000");
	ck_assert_int_eq(add(mm(1, 0x1000, 0x2000, 0xfffffffffffff000,
				"branches-pie")), BR_EINPUT);
	ck_assert(strstr(err, "offset 0xfffffffffffff000"));
	ck_assert_int_eq(add(mm(1, 0x1000, UINT64_MAX, 0, "branches-pie")),
			 BR_EINPUT);
	ck_assert_int_eq(add(past), BR_EINPUT);
	snprintf(want, sizeof(want), "test:7: expected a file offset inside branches-pie (%zu bytes) for its mapping, got 0x%zx",
		 bin.image_size, bin.image_size);
	ck_assert_str_eq(err, want);
	ck_assert(!ses.bin_mapped);
	/* The last byte of the address space is a valid end. */
	ck_assert_int_eq(add(mm(1, 0xfffffffffffff000, 0x1000, 0,
				"branches-pie")), 0);
	ck_assert(ses.bin_mapped);
}
END_TEST

START_TEST(nopie_identity)
{
	uint64_t v;

	open_wl("branches-nopie");
	open_resolver("branches-nopie");
	ck_assert(!bin.pie);
	ck_assert_uint_eq(bin.text_base, 0x401000);
	ck_assert_int_eq(res(3, 0x401234, &v, NULL), AS_OK);
	ck_assert_uint_eq(v, 0x401234);
	ck_assert_int_eq(res(-1, 0x401234, &v, NULL), AS_OK);
	/* an address in no segment of the executable */
	ck_assert_int_eq(res(3, 0x300000, &v, NULL), AS_UNMAPPED);
}
END_TEST

/*
 * Without --binary: DSOs by recorded path, a new mmap replaces the part of
 * an older one it overlaps, a fork copies the parent's mappings, threads
 * share them and an exec empties the process.
 */
START_TEST(processes_fork_exec)
{
	char p1[512], p2[512];
	struct ev_task fork = { .pid = 20, .ppid = 10, .tid = 20, .ptid = 10 };
	struct ev_task thread = { .pid = 10, .ppid = 10, .tid = 11,
				  .ptid = 10 };
	struct ev_comm exec = { .pid = 20, .tid = 20, .comm = "x",
				.exec = true };
	struct dso *d1, *d2;
	uint64_t v, text;

	wl("branches-pie", p1, sizeof(p1));
	wl("sortsearch-pie", p2, sizeof(p2));
	open_wl("branches-pie");
	open_resolver(NULL);
	ck_assert(eb_off_to_vaddr(&bin, 0x1000, &text));
	ck_assert_int_eq(add(mm(10, 0x10000, 0x1000, 0x1000, p1)), 0);
	ck_assert_int_eq(add(mm(10, 0x20000, 0x1000, 0x1000, p2)), 0);
	ck_assert_int_eq(res(10, 0x10010, &v, &d1), AS_OK);
	ck_assert_uint_eq(v, text + 0x10);
	ck_assert_int_eq(res(10, 0x20010, &v, &d2), AS_OK);
	ck_assert_ptr_ne(d1, d2);
	ck_assert_str_eq(d1->short_name, "branches-pie");
	ck_assert_str_eq(d2->short_name, "sortsearch-pie");
	ck_assert_int_eq(resolver_task(&ses, &thread, err, sizeof(err)), 0);
	ck_assert_int_eq(resolver_task(&ses, &fork, err, sizeof(err)), 0);
	ck_assert_int_eq(res(20, 0x10010, &v, &d1), AS_OK);
	ck_assert_str_eq(d1->short_name, "branches-pie");
	/* p2 mapped over p1's mapping from 0x10100 on, in pid 10 only */
	ck_assert_int_eq(add(mm(10, 0x10100, 0x1000, 0x1000, p2)), 0);
	ck_assert_int_eq(res(10, 0x10010, &v, &d1), AS_OK);
	ck_assert_str_eq(d1->short_name, "branches-pie");
	ck_assert_int_eq(res(10, 0x10110, &v, &d1), AS_OK);
	ck_assert_str_eq(d1->short_name, "sortsearch-pie");
	ck_assert_uint_eq(v, text + 0x10);
	ck_assert_int_eq(res(20, 0x10110, &v, &d1), AS_OK);
	ck_assert_str_eq(d1->short_name, "branches-pie");
	ck_assert_uint_eq(v, text + 0x110);
	/* exec: pid 20 loses its mappings, pid 10 keeps them */
	ck_assert_int_eq(resolver_comm(&ses, &exec, err, sizeof(err)), 0);
	ck_assert_int_eq(res(20, 0x10010, &v, NULL), AS_UNMAPPED);
	ck_assert_int_eq(res(10, 0x10010, &v, NULL), AS_OK);
	/* a missing file: its DSO is not found, with the path in the reason */
	ck_assert_int_eq(add(mm(10, 0x30000, 0x1000, 0, "/nonexistent/x.so")),
			 0);
	ck_assert_int_eq(res(10, 0x30000, &v, &d1), AS_NOT_FOUND);
	ck_assert(strstr(d1->why, "/nonexistent/x.so"));
}
END_TEST

/*
 * A mapping of every process (pid -1, as perf synthesizes some), a fork
 * from a process never seen (the child starts empty), a mapped address
 * outside the code sections, and a kernel address without a kernel image.
 */
START_TEST(spaces_at_the_edges)
{
	char p1[512];
	struct ev_task orphan = { .pid = 30, .ppid = 99, .tid = 30,
				  .ptid = 99 };
	struct as_resolved r;
	struct dso *d;
	uint64_t v, text;

	wl("branches-pie", p1, sizeof(p1));
	open_wl("branches-pie");
	open_resolver(NULL);
	ck_assert(eb_off_to_vaddr(&bin, 0x1000, &text));
	ck_assert_int_eq(add(mm(-1, 0x40000, 0x1000, 0x1000, p1)), 0);
	ck_assert_int_eq(res(55, 0x40010, &v, &d), AS_OK);
	ck_assert_uint_eq(v, text + 0x10);
	ck_assert_str_eq(d->short_name, "branches-pie");
	/* pid 30's own mapping is gone with the fork; pid -1's stays */
	ck_assert_int_eq(add(mm(30, 0x10000, 0x1000, 0x1000, p1)), 0);
	ck_assert_int_eq(res(30, 0x10010, &v, NULL), AS_OK);
	ck_assert_int_eq(resolver_task(&ses, &orphan, err, sizeof(err)), 0);
	ck_assert_int_eq(res(30, 0x10010, &v, NULL), AS_UNMAPPED);
	ck_assert_int_eq(res(30, 0x40010, &v, NULL), AS_OK);
	/* file offset 0: the ELF header, no code */
	ck_assert_int_eq(add(mm(31, 0x50000, 0x1000, 0, p1)), 0);
	ck_assert_int_eq(res(31, 0x50010, &v, NULL), AS_OUTSIDE);
	/* the kernel's half, without a kernel image */
	as_resolve(ses.as, 31, EV_CPU_USER, 0xffffffff81000010, &r);
	ck_assert_int_eq(r.res, AS_KERNEL);
	ck_assert(r.dso && r.dso->kernel);
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

/*
 * A mapping over older ones cuts what it overlaps, as mmap(2) does: the
 * middle of one (two pieces stay, the tail's file offset moved on), the
 * end of one, the start of one, all of one.
 */
static void map(struct as_maps *m, uint64_t start, uint64_t end,
		uint64_t pgoff, uint64_t id)
{
	struct as_map nm = { .start = start, .end = end, .pgoff = pgoff,
			     .id = id };

	ck_assert_int_eq(as_maps_insert(m, &nm), 0);
}

static void has(struct as_maps *m, size_t i, uint64_t start, uint64_t end,
		uint64_t pgoff, uint64_t id)
{
	ck_assert_uint_gt(m->nr, i);
	ck_assert_msg(m->v[i].start == start && m->v[i].end == end &&
		      m->v[i].pgoff == pgoff && m->v[i].id == id,
		      "mapping %zu: [%#lx, %#lx) pgoff %#lx id %lu", i,
		      (unsigned long)m->v[i].start, (unsigned long)m->v[i].end,
		      (unsigned long)m->v[i].pgoff, (unsigned long)m->v[i].id);
}

START_TEST(mappings_cut)
{
	struct as_maps m = { 0 }, c = { 0 };

	map(&m, 0x10000, 0x20000, 0, 1);
	map(&m, 0x14000, 0x15000, 0, 2);	/* the middle of 1 */
	ck_assert_uint_eq(m.nr, 3);
	has(&m, 0, 0x10000, 0x14000, 0, 1);
	has(&m, 1, 0x14000, 0x15000, 0, 2);
	has(&m, 2, 0x15000, 0x20000, 0x5000, 1);
	map(&m, 0x1f000, 0x30000, 0, 3);	/* the end of 1's tail */
	has(&m, 2, 0x15000, 0x1f000, 0x5000, 1);
	has(&m, 3, 0x1f000, 0x30000, 0, 3);
	map(&m, 0x0f000, 0x11000, 0, 4);	/* the start of 1's head */
	has(&m, 0, 0x0f000, 0x11000, 0, 4);
	has(&m, 1, 0x11000, 0x14000, 0x1000, 1);
	map(&m, 0x13000, 0x16000, 0, 5);	/* all of 2 */
	ck_assert_uint_eq(m.nr, 5);
	has(&m, 1, 0x11000, 0x13000, 0x1000, 1);
	has(&m, 2, 0x13000, 0x16000, 0, 5);
	has(&m, 3, 0x16000, 0x1f000, 0x6000, 1);
	ck_assert_ptr_null(as_maps_find(&m, 0x0e000));
	ck_assert_uint_eq(as_maps_find(&m, 0x15fff)->id, 5);
	ck_assert_uint_eq(as_maps_find(&m, 0x2ffff)->id, 3);
	ck_assert_int_eq(as_maps_copy(&c, &m), 0);
	ck_assert_uint_eq(c.nr, m.nr);
	ck_assert(!memcmp(c.v, m.v, m.nr * sizeof(*m.v)));
	as_maps_free(&m);
	as_maps_free(&c);
}
END_TEST

Suite *addrspace_suite(void)
{
	Suite *s = suite_create("addrspace");
	TCase *t = tcase_create("addrspace");

	tcase_add_checked_fixture(t, NULL, teardown);
	tcase_add_test(t, pie_through_mmap);
	tcase_add_test(t, pie_per_pid);
	tcase_add_test(t, mmap_rejects);
	tcase_add_test(t, nopie_identity);
	tcase_add_test(t, processes_fork_exec);
	tcase_add_test(t, spaces_at_the_edges);
	tcase_add_test(t, code_set_and_fallthrough);
	tcase_add_test(t, pie_without_mmap_is_an_error);
	tcase_add_test(t, mappings_cut);
	suite_add_tcase(s, t);
	return s;
}
