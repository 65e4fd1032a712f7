// SPDX-License-Identifier: GPL-2.0
/*
 * Parity and exactness on the workloads (the .c files of check-tests/cli/workloads, each
 * built non-PIE and PIE), recorded with `blockrange record`:
 *  - parity: `blockrange ranges` is byte-for-byte llvm-profgen-19's raw
 *    profile of the same script, for a sampled recording (depth 32, period
 *    7: overlapping stacks, as LBR gives, and also with --leading-ip-only
 *    of both) and for a full trace;
 *  - exactness: for a full trace (depth 0 = unbounded, period 1), the
 *    coverage annotate computes for every instruction equals the number of
 *    times single-stepping executed it.  The only instructions no block can
 *    cover are those executed before the first taken branch (the head of
 *    _start, from the entry point to its first branch): their coverage is
 *    their count minus one, and the test checks that too.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/annot.h"
#include "cli_tests.h"
#include "resolve/elfbin.h"
#include "input/input.h"
#include "input/perfscript.h"
#include "collect/profile.h"

static const struct workload {
	const char *name;
	const char *arg;
} workloads[] = {
	{ "branches", "300" },
	{ "sortsearch", "48" },
};

#define NR_WL (sizeof(workloads) / sizeof(workloads[0]))

static const char *variants[] = { "nopie", "pie" };

static void wl_path(size_t w, size_t v, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s-%s", env_path("BLOCKRANGE_WORKLOADS"),
		 workloads[w].name, variants[v]);
}

static void record(const char *bin, const char *arg, const char *depth,
		   const char *period, const char *out, const char *counts)
{
	char *argv[16];
	size_t i = 0;

	argv[i++] = (char *)env_path("BLOCKRANGE");
	argv[i++] = "record";
	argv[i++] = "--engine=ptrace";
	argv[i++] = "--format=perfscript";
	argv[i++] = "-o";
	argv[i++] = (char *)out;
	argv[i++] = "--depth";
	argv[i++] = (char *)depth;
	argv[i++] = "--period";
	argv[i++] = (char *)period;
	if (counts) {
		argv[i++] = "--counts";
		argv[i++] = (char *)counts;
	}
	argv[i++] = "--";
	argv[i++] = (char *)bin;
	argv[i++] = (char *)arg;
	argv[i] = NULL;
	ck_assert_msg(run_cmd(argv, NULL, NULL) == 0, "record %s failed", bin);
}

/* _i = ((workload * 2) + variant) * 2 + config */
START_TEST(parity)
{
	size_t w = (size_t)_i / 4, v = ((size_t)_i / 2) % 2, c = (size_t)_i % 2;
	char bin[512], ps[512], ours[512], theirs[512], errf[512], outarg[600];
	char psarg[600], binarg[600], tag[64];
	char *a, *b, *script;
	unsigned long nranges;

	wl_path(w, v, bin, sizeof(bin));
	snprintf(tag, sizeof(tag), "parity-%zu.perfscript", (size_t)_i);
	scratch(tag, ps, sizeof(ps));
	record(bin, workloads[w].arg, c ? "0" : "32", c ? "1" : "7", ps, NULL);
	script = slurp(ps, NULL);
	/* The script carries the executable's mmap line (PIE needs it). */
	{
		char want[600], *m = strstr(script, "PERF_RECORD_MMAP2");

		snprintf(want, sizeof(want), "r-xp %s\n", bin);
		ck_assert_msg(m && strstr(m, want), "no mmap line of %s", bin);
	}
	free(script);

	snprintf(tag, sizeof(tag), "parity-%zu.ours", (size_t)_i);
	scratch(tag, ours, sizeof(ours));
	snprintf(tag, sizeof(tag), "parity-%zu.llvm", (size_t)_i);
	scratch(tag, theirs, sizeof(theirs));
	scratch("parity.err", errf, sizeof(errf));
	{
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "ranges",
				 "--perfscript", ps, "--binary", bin, NULL };

		ck_assert_int_eq(run_cmd(argv, ours, errf), 0);
	}
	snprintf(psarg, sizeof(psarg), "--perfscript=%s", ps);
	snprintf(binarg, sizeof(binarg), "--binary=%s", bin);
	snprintf(outarg, sizeof(outarg), "--output=%s", theirs);
	{
		char *argv[] = { (char *)env_path("LLVM_PROFGEN"),
				 "--format=text", psarg, binarg, outarg,
				 "--skip-symbolization", NULL };

		ck_assert_msg(run_cmd(argv, NULL, errf) == 0,
			      "%s failed (see %s)", argv[0], errf);
	}
	a = slurp(ours, NULL);
	b = slurp(theirs, NULL);
	ck_assert_msg(!strcmp(a, b), "%s-%s config %zu: %s and %s differ",
		      workloads[w].name, variants[v], c, ours, theirs);
	/* Not a vacuous comparison. */
	nranges = strtoul(a, NULL, 10);
	ck_assert_msg(nranges >= 10, "only %lu ranges", nranges);
	free(a);
	free(b);
	if (c)
		return;
	/* One ip-ip range per sample: --leading-ip-only of both. */
	{
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "ranges",
				 "--perfscript", ps, "--binary", bin,
				 "--leading-ip-only", NULL };

		ck_assert_int_eq(run_cmd(argv, ours, errf), 0);
	}
	{
		char *argv[] = { (char *)env_path("LLVM_PROFGEN"),
				 "--format=text", psarg, binarg, outarg,
				 "--skip-symbolization", "--leading-ip-only",
				 NULL };

		ck_assert_msg(run_cmd(argv, NULL, errf) == 0,
			      "%s failed (see %s)", argv[0], errf);
	}
	a = slurp(ours, NULL);
	b = slurp(theirs, NULL);
	ck_assert_msg(!strcmp(a, b),
		      "%s-%s --leading-ip-only: %s and %s differ",
		      workloads[w].name, variants[v], ours, theirs);
	nranges = strtoul(a, NULL, 10);
	ck_assert_msg(nranges >= 5, "only %lu leading IPs", nranges);
	free(a);
	free(b);
}
END_TEST

/*
 * Differential test of the counting rules on synthetic stacks: a real trace
 * never has a call, ret or jmp inside a range, never ends mid-instruction
 * and rarely jumps from PLT stubs to nowhere, so recorded scripts cannot
 * exercise llvm-profgen's filters.  Here 400 random stacks (fixed seed)
 * mix every instruction start of the workload, addresses one byte into
 * instructions, PLT stubs and external addresses, with random flags and
 * repeat counts; both tools must agree byte for byte.
 */
static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

START_TEST(rules)
{
	size_t w = (size_t)_i / 2, v = (size_t)_i % 2;
	char bin[512], ps[512], ours[512], theirs[512], errf[512], tag[64];
	char psarg[600], binarg[600], outarg[600], err[512];
	struct eb_binary eb;
	uint64_t *pool, mstart = 0x555555554000 + 0x1000, pgoff = 0, text;
	size_t np = 0, i, k;
	FILE *f;
	char *a, *b;

	wl_path(w, v, bin, sizeof(bin));
	ck_assert_msg(!eb_open(bin, &eb, err, sizeof(err)), "%s", err);
	pool = calloc(2 * eb.nr_code + 64, sizeof(*pool));
	ck_assert(pool);
	for (i = 0; i < eb.nr_code; i++) {
		pool[np++] = eb.code[i].addr;
		if (eb.code[i].size > 1 && i % 5 == 0)
			pool[np++] = eb.code[i].addr + 1;
	}
	for (i = 0; i < eb.nr_xsecs; i++)
		if (!strncmp(eb.xsecs[i].name, ".plt", 4))
			for (k = 0; k < eb.xsecs[i].size && k < 64; k += 6)
				pool[np++] = eb.xsecs[i].addr + k;
	ck_assert(eb_off_to_vaddr(&eb, 0x1000, &text));
	(void)text;
	ck_assert(eb_vaddr_to_off(&eb, eb.text_base, &pgoff));

	snprintf(tag, sizeof(tag), "rules-%zu.perfscript", (size_t)_i);
	scratch(tag, ps, sizeof(ps));
	f = fopen(ps, "w");
	ck_assert(f);
	if (eb.pie)
		fprintf(f, "PERF_RECORD_MMAP2 42/42: [0x%" PRIx64 "(0x%" PRIx64 ") @ 0x%" PRIx64 " 00:00 1 0]: r-xp %s\n",
			mstart, (uint64_t)0x100000, pgoff, bin);
	rng_state = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
	for (i = 0; i < 400; i++) {
		size_t n = 1 + rng() % 8;

		if (rng() % 7 == 0)
			fprintf(f, "%u\n", (unsigned)(1 + rng() % 3));
		fprintf(f, "  %" PRIx64, eb.pie ? mstart : eb.text_base);
		for (k = 0; k < n; k++) {
			uint64_t ad[2];
			int j;

			for (j = 0; j < 2; j++) {
				uint64_t r = rng() % (np + np / 8 + 1);

				if (r >= np)
					ad[j] = 0x7f0000001000 + (r % 2) * 0x40;
				else if (eb.pie)
					ad[j] = mstart + (pool[r] - eb.text_base);
				else
					ad[j] = pool[r];
			}
			fprintf(f, " 0x%" PRIx64 "/0x%" PRIx64 "/%c/-/-/%u ", ad[0],
				ad[1], "PM-"[rng() % 3], (unsigned)(rng() % 30));
		}
		fputc('\n', f);
	}
	ck_assert(!fclose(f));
	free(pool);
	eb_close(&eb);

	snprintf(tag, sizeof(tag), "rules-%zu.ours", (size_t)_i);
	scratch(tag, ours, sizeof(ours));
	snprintf(tag, sizeof(tag), "rules-%zu.llvm", (size_t)_i);
	scratch(tag, theirs, sizeof(theirs));
	scratch("rules.err", errf, sizeof(errf));
	{
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "ranges",
				 "--perfscript", ps, "--binary", bin, NULL };

		ck_assert_int_eq(run_cmd(argv, ours, errf), 0);
	}
	snprintf(psarg, sizeof(psarg), "--perfscript=%s", ps);
	snprintf(binarg, sizeof(binarg), "--binary=%s", bin);
	snprintf(outarg, sizeof(outarg), "--output=%s", theirs);
	{
		char *argv[] = { (char *)env_path("LLVM_PROFGEN"),
				 "--format=text", psarg, binarg, outarg,
				 "--skip-symbolization", NULL };

		ck_assert_msg(run_cmd(argv, NULL, errf) == 0,
			      "%s failed (see %s)", argv[0], errf);
	}
	a = slurp(ours, NULL);
	b = slurp(theirs, NULL);
	ck_assert_msg(!strcmp(a, b), "%s and %s differ", ours, theirs);
	ck_assert_msg(strtoul(a, NULL, 10) >= 5, "too few ranges:\n%s", a);
	free(a);
	free(b);
}
END_TEST

/*
 * First instruction boundary at or after @addr, by a linear sweep from the
 * start of the symbol (or executable section) containing it: a range can
 * start inside the branch that ended the block before it.
 */
static uint64_t boundary_at_or_after(const struct eb_binary *eb, uint64_t addr)
{
	const struct eb_sym *sym = eb_sym_at(eb, addr);
	const struct eb_section *sec = eb_xsec_at(eb, addr);
	uint64_t a;

	ck_assert(sec);
	a = sym ? sym->start : sec->addr;
	while (a < addr) {
		struct eb_insn insn;

		ck_assert_msg(!eb_decode(eb, a, &insn, NULL, 0, NULL, 0),
			      "undecodable 0x%" PRIx64, a);
		a += insn.size;
	}
	return a;
}

/* First recorded branch's source, as a virtual address. */
struct first {
	struct annot *a;
	struct ev_sink inner;
	uint64_t from;
	bool have;
};

static int first_sample(void *arg, const struct ev_sample *s, char *err,
			size_t errsz)
{
	struct first *f = arg;
	int r = f->inner.sample(f->inner.arg, s, err, errsz);

	if (!r && !f->have && s->nr) {
		struct as_resolved res;

		/* the oldest entry of the first sample (mapped by now) */
		as_resolve(f->a->s.as, s->pid, EV_CPU_USER,
			   s->br[s->nr - 1].from, &res);
		ck_assert_int_eq(res.res, AS_OK);
		f->from = res.vaddr;
		f->have = true;
	}
	return r;
}

static int first_mmap(void *arg, const struct ev_mmap *m, char *err,
		      size_t errsz)
{
	struct first *f = arg;

	return f->inner.mmap(f->inner.arg, m, err, errsz);
}

START_TEST(exactness)
{
	size_t w = (size_t)_i / 2, v = (size_t)_i % 2;
	char bin[512], ps[512], cnt[512], tag[64], err[1024];
	char line[1024];
	struct resolver_opts so;
	struct input_opts io = { 0 };
	struct input_stats ist;
	const struct annot_dso *ad;
	struct eb_binary eb;
	struct annot an;
	struct first f = { 0 };
	struct ev_sink sink;
	struct pairmap counts = { 0 };
	struct blockrange_rec rec;
	const struct blockrange_rec *br = &rec;
	bool more;
	uint64_t executed = 0, covered = 0, head = 0, checked = 0;
	FILE *in;

	wl_path(w, v, bin, sizeof(bin));
	snprintf(tag, sizeof(tag), "exact-%zu.perfscript", (size_t)_i);
	scratch(tag, ps, sizeof(ps));
	snprintf(tag, sizeof(tag), "exact-%zu.counts", (size_t)_i);
	scratch(tag, cnt, sizeof(cnt));
	record(bin, workloads[w].arg, "0", "1", ps, cnt);

	ck_assert_msg(!eb_open(bin, &eb, err, sizeof(err)), "%s", err);
	memset(&so, 0, sizeof(so));
	so.binary = bin;
	ck_assert_msg(!annot_init(&an, ps, &so, NULL, err, sizeof(err)), "%s",
		      err);
	f.a = &an;
	annot_sink(&an, &f.inner);
	memset(&sink, 0, sizeof(sink));
	sink.sample = first_sample;
	sink.mmap = first_mmap;
	sink.arg = &f;
	ck_assert_msg(!input_read(ps, &io, &sink, &ist, err, sizeof(err)),
		      "%s", err);
	ck_assert(f.have);
	ck_assert_int_eq(annot_finish(&an), 0);
	ad = annot_dso_of(&an, an.s.bin_dso);
	ck_assert_ptr_nonnull(ad);
	/* The recording starts at the entry point, in _start. */
	ck_assert(f.from >= eb.entry);

	in = fopen(cnt, "r");
	ck_assert(in);
	while (fgets(line, sizeof(line), in)) {
		uint64_t addr, n, want, got;
		char *sp = strchr(line, ' ');

		/* "PATH 0xVADDR COUNT": the executable's lines only */
		ck_assert(sp);
		*sp = '\0';
		if (strcmp(line, bin))
			continue;
		ck_assert(sscanf(sp + 1, "0x%" SCNx64 " %" SCNu64, &addr, &n) == 2);
		ck_assert(!pairmap_add(&counts, addr, 0, n));
		executed += n;
		want = n;
		if (addr >= eb.entry && addr <= f.from) {
			want--;	/* ran once before the first branch */
			head++;
		}
		got = annot_coverage_at(&an, an.s.bin_dso, addr);
		ck_assert_msg(got == want,
			      "%s-%s: instruction 0x%" PRIx64 " executed %" PRIu64 " times, coverage %" PRIu64,
			      workloads[w].name, variants[v], addr, n, got);
		checked++;
	}
	fclose(in);
	ck_assert_msg(head >= 2 && head < 32, "head of %" PRIu64 " instructions", head);
	ck_assert_msg(checked > 50 && executed > 5000,
		      "only %" PRIu64 " instructions, %" PRIu64 " executions",
		      checked, executed);

	/* Conversely, every covered instruction was executed that often. */
	for (more = blockrange_rec_first(ad->ctx, &rec); more;
	     more = blockrange_rec_next(ad->ctx, &rec)) {
		uint64_t a = boundary_at_or_after(&eb, br->start), last = a;

		while (a <= br->end) {
			struct eb_insn insn;

			ck_assert_msg(!eb_decode(&eb, a, &insn, NULL, 0, NULL, 0),
				      "range [0x%" PRIx64 ", 0x%" PRIx64 "] holds undecodable 0x%" PRIx64,
				      br->start, br->end, a);
			ck_assert_msg(pairmap_get(&counts, a, 0) ==
				      br->coverage + (a >= eb.entry && a <= f.from),
				      "covered 0x%" PRIx64 " (%" PRIu64 ") count %" PRIu64,
				      a, br->coverage, pairmap_get(&counts, a, 0));
			covered += br->coverage;
			last = a;
			a += insn.size;
		}
		/* a range ends with a branch or just before an instruction */
		ck_assert_msg(a > br->end &&
			      (last == br->end || a == br->end + 1),
			      "range [0x%" PRIx64 ", 0x%" PRIx64 "] splits an instruction",
			      br->start, br->end);
	}
	ck_assert_uint_eq(covered + head, executed);
	/* Nothing outside the binary was counted, nothing was reversed. */
	ck_assert_uint_eq(an.s.st.skipped[SKIP_REVERSED], 0);
	ck_assert_uint_gt(an.s.st.counted, 1000);

	pairmap_free(&counts);
	annot_free(&an);
	eb_close(&eb);
}
END_TEST

/*
 * The code set of a binary large enough to be decoded in parts (libc, whose
 * AVX-512 string functions leave gaps that capstone cannot decode) is the
 * same decoded on one thread and on three.
 */
START_TEST(code_set_any_threads)
{
	const char *lib = "/lib/x86_64-linux-gnu/libc.so.6";
	struct eb_open_opts o1 = { .code_set = true, .threads = 1 };
	struct eb_open_opts o3 = { .code_set = true, .threads = 3 };
	struct eb_binary a, b;
	char err[512];
	size_t i;

	ck_assert_msg(!eb_open_ex(lib, &o1, &a, err, sizeof(err)), "%s", err);
	ck_assert_msg(!eb_open_ex(lib, &o3, &b, err, sizeof(err)), "%s", err);
	ck_assert_uint_gt(a.nr_code, 100000);
	ck_assert_uint_eq(a.nr_code, b.nr_code);
	for (i = 0; i < a.nr_code; i++) {
		ck_assert_msg(a.code[i].addr == b.code[i].addr &&
			      a.code[i].size == b.code[i].size &&
			      a.code[i].kind == b.code[i].kind,
			      "instruction %zu: %#" PRIx64 "/%u/%u against %#" PRIx64 "/%u/%u",
			      i, a.code[i].addr, a.code[i].size, a.code[i].kind,
			      b.code[i].addr, b.code[i].size, b.code[i].kind);
	}
	ck_assert_uint_eq(a.xfer_prefix[a.nr_code], b.xfer_prefix[b.nr_code]);
	eb_close(&a);
	eb_close(&b);
}
END_TEST

Suite *parity_suite(void)
{
	Suite *s = suite_create("parity");
	TCase *t = tcase_create("llvm-profgen-19");

	tcase_set_timeout(t, 60);
	tcase_add_loop_test(t, parity, 0, (int)(NR_WL * 2 * 2));
	tcase_add_loop_test(t, rules, 0, (int)(NR_WL * 2));
	suite_add_tcase(s, t);
	t = tcase_create("code set");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, code_set_any_threads);
	suite_add_tcase(s, t);
	return s;
}

Suite *exact_suite(void)
{
	Suite *s = suite_create("exactness");
	TCase *t = tcase_create("full-trace");

	tcase_set_timeout(t, 60);
	tcase_add_loop_test(t, exactness, 0, (int)(NR_WL * 2));
	suite_add_tcase(s, t);
	return s;
}
