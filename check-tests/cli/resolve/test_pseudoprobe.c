// SPDX-License-Identifier: GPL-2.0
/*
 * The pseudo-probe decoder (resolve/pseudoprobe.h) and the MD5 that names
 * functions by GUID (base/md5.h).
 *
 * Oracle: llvm-profgen-19 --show-pseudo-probe --show-disassembly-only
 * prints, before each instruction, the probes at its address (function,
 * index, type, inline context); the decoder's table printed the same way
 * must be equal, line for line, for clang-19 -O2 probe builds of a C and a
 * C++ program (inlines.c, containers.cc: nested inlining, calls of both
 * kinds).  MD5 against RFC 1321's test suite.  Hostile sections: a cut
 * LEB128, a probe type that does not exist, a name longer than its section
 * are refused with the file, the section and the offset.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/md5.h"
#include "base/status.h"
#include "cli_tests.h"
#include "resolve/elfbin.h"
#include "resolve/pseudoprobe.h"

static const char *tool(const char *env, const char *def)
{
	const char *v = getenv(env);

	return v && *v ? v : def;
}

/* Build @src (under BLOCKRANGE_LOOKUP) with clang-19 and probes into @out. */
static void build_probes(const char *src, int cxx, const char *out)
{
	char path[512], err[512];
	char *argv[] = { (char *)(cxx ? tool("CLANGXX19", "clang++-19") :
				  tool("CLANG19", "clang-19")),
			 "-O2", "-g", "-fpseudo-probe-for-profiling", "-o",
			 (char *)out, path, NULL };

	snprintf(path, sizeof(path), "%s/%s", env_path("BLOCKRANGE_LOOKUP"),
		 src);
	scratch("probes-build.err", err, sizeof(err));
	ck_assert_msg(run_cmd(argv, NULL, err) == 0, "%s failed (see %s)",
		      argv[0], err);
}

struct text {
	char *p;
	size_t len, cap;
};

static void put(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->p = realloc(t->p, t->cap);
		ck_assert_ptr_nonnull(t->p);
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = 0;
}

static void putf(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void putf(struct text *t, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ck_assert_int_lt(n, (int)sizeof(buf));
	put(t, buf, (size_t)n);
}

static void put_name(struct text *t, const struct pp_table *pp, uint64_t g)
{
	const struct pp_desc *d = pp_desc_of(pp, g);

	ck_assert_msg(d, "GUID %llu has no description",
		      (unsigned long long)g);
	put(t, d->name, d->name_len);
}

static void put_context(struct text *t, const struct pp_table *pp,
			uint32_t node)
{
	const struct pp_node *n = &pp->nodes[node];

	if (n->parent == PP_NO_NODE)
		return;
	put_context(t, pp, n->parent);
	put(t, " @ ", 3);
	put_name(t, pp, pp->nodes[n->parent].guid);
	putf(t, ":%u", n->site);
}

/* The table as llvm-profgen prints it: "ADDR\tPROBE LINE" per probe. */
static char *listing(const struct pp_table *pp)
{
	static const char *const types[] = { "Block", "IndirectCall",
					     "DirectCall" };
	struct text t = { 0 };

	put(&t, "", 0);
	for (size_t i = 0; i < pp->nr_probes; i++) {
		const struct pp_probe *p = &pp->probes[i];

		putf(&t, "%llx\t [Probe]:\tFUNC: ", (unsigned long long)p->addr);
		put_name(&t, pp, pp->nodes[p->node].guid);
		putf(&t, " Index: %u  Type: %s", p->index, types[p->type]);
		if (p->attr & PP_ATTR_DISCRIMINATOR)
			putf(&t, "  Discriminator: %u", p->discriminator);
		if (pp->nodes[p->node].parent != PP_NO_NODE) {
			put(&t, "  Inlined:", 10);
			put_context(&t, pp, p->node);
		}
		put(&t, "\n", 1);
	}
	return t.p;
}

/*
 * llvm-profgen's disassembly reduced to the same lines: the probe lines it
 * prints before an instruction, each prefixed with that instruction's
 * address, trailing blanks dropped.
 */
static char *profgen_listing(const char *bin)
{
	char out[512], empty[512], prof[512];
	char *argv[] = { (char *)env_path("LLVM_PROFGEN"),
			 "--show-pseudo-probe", "--show-disassembly-only",
			 "--binary", (char *)bin, "--perfscript", empty,
			 "--output", prof, NULL };
	struct text t = { 0 }, pend = { 0 };
	char *text, *line, *save = NULL;

	scratch("probes-profgen.txt", out, sizeof(out));
	scratch("probes-empty.script", empty, sizeof(empty));
	scratch("probes-empty.prof", prof, sizeof(prof));
	spew(empty, "\n");
	ck_assert_int_eq(run_cmd(argv, out, out), 0);
	text = slurp(out, NULL);
	put(&t, "", 0);
	put(&pend, "", 0);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);
		char *end;
		unsigned long long a;

		while (n && line[n - 1] == ' ')
			line[--n] = 0;
		if (!strncmp(line, " [Probe]:", 9)) {
			put(&pend, line, n);
			put(&pend, "\n", 1);
			continue;
		}
		a = strtoull(line, &end, 16);
		if (end == line || *end != ':' || line[0] != ' ' || !pend.len)
			continue;
		for (char *p = pend.p, *nl; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			putf(&t, "%llx\t", a);
			put(&t, p, (size_t)(nl - p + 1));
		}
		pend.len = 0;
		pend.p[0] = 0;
	}
	ck_assert_msg(!pend.len, "probes after the last instruction: %s",
		      pend.p);
	free(pend.p);
	free(text);
	return t.p;
}

/* Equal texts, else the first line that differs, with its number. */
static void assert_same_lines(const char *ours, const char *theirs)
{
	size_t i = 0, line = 1, start = 0;

	while (ours[i] && ours[i] == theirs[i]) {
		if (ours[i++] == '\n') {
			line++;
			start = i;
		}
	}
	ck_assert_msg(!ours[i] && !theirs[i],
		      "line %zu differs:\n ours:   %.200s\n theirs: %.200s",
		      line, ours + start, theirs + start);
}

static void check_against_profgen(const char *src, int cxx,
				  size_t min_probes, size_t min_inlined)
{
	char bin[512], err[BR_ERR_MAX];
	struct eb_open_opts o = { 0 };
	struct eb_binary b;
	struct pp_table pp;
	size_t inlined = 0;
	char *ours, *theirs;

	scratch(cxx ? "probes-cxx" : "probes-c", bin, sizeof(bin));
	build_probes(src, cxx, bin);
	ck_assert_msg(eb_open_ex(bin, &o, &b, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_msg(pp_read(&b, &pp, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_ge(pp.nr_probes, min_probes);
	ck_assert_uint_eq(pp.unplaced, 0);
	for (size_t i = 0; i < pp.nr_nodes; i++)
		inlined += pp.nodes[i].parent != PP_NO_NODE;
	ck_assert_uint_ge(inlined, min_inlined);
	ours = listing(&pp);
	theirs = profgen_listing(bin);
	assert_same_lines(ours, theirs);
	free(ours);
	free(theirs);
	pp_free(&pp);
	eb_close(&b);
}

START_TEST(probes_of_a_c_program_match_llvm_profgen)
{
	check_against_profgen("autofdo/inlines.c", 0, 40, 5);
}
END_TEST

START_TEST(probes_of_a_cxx_program_match_llvm_profgen)
{
	check_against_profgen("autofdo/containers.cc", 1, 400, 100);
}
END_TEST

START_TEST(a_binary_without_probes_has_an_empty_table)
{
	char bin[512], err[BR_ERR_MAX];
	struct eb_open_opts o = { 0 };
	struct eb_binary b;
	struct pp_table pp;
	char *argv[] = { (char *)tool("CLANG19", "clang-19"), "-O2", "-o", bin,
			 NULL, NULL };
	char src[512];

	snprintf(src, sizeof(src), "%s/autofdo/inlines.c",
		 env_path("BLOCKRANGE_LOOKUP"));
	argv[4] = src;
	scratch("probes-none", bin, sizeof(bin));
	ck_assert_int_eq(run_cmd(argv, NULL, NULL), 0);
	ck_assert_int_eq(eb_open_ex(bin, &o, &b, err, sizeof(err)), 0);
	ck_assert_int_eq(pp_read(&b, &pp, err, sizeof(err)), 0);
	ck_assert_uint_eq(pp.nr_probes, 0);
	ck_assert_uint_eq(pp.nr_descs, 0);
	ck_assert_uint_eq(pp.nr_nodes, 0);
	pp_free(&pp);
	eb_close(&b);
}
END_TEST

START_TEST(md5_matches_rfc_1321)
{
	static const struct {
		const char *in, *hex;
	} v[] = {
		{ "", "d41d8cd98f00b204e9800998ecf8427e" },
		{ "a", "0cc175b9c0f1b6a831c399e269772661" },
		{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
		{ "abcdefghijklmnopqrstuvwxyz",
		  "c3fcd3d76192e4007dfb496cca67e13b" },
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		  "d174ab98d277d9f5a5611c2c9f419d9f" },
		{ "1234567890123456789012345678901234567890"
		  "1234567890123456789012345678901234567890",
		  "57edf4a22be3c955ac49da2e2107b67a" },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t d[16];
		char hex[33];

		br_md5(v[i].in, strlen(v[i].in), d);
		for (int k = 0; k < 16; k++)
			snprintf(hex + 2 * k, 3, "%02x", d[k]);
		ck_assert_str_eq(hex, v[i].hex);
	}
	/* LLVM's GUID of "main", as .pseudo_probe_desc of any build has it. */
	ck_assert_uint_eq(br_md5_guid("main", 4), 15822663052811949562ull);
}
END_TEST

/* The probe build of inlines.c with bytes of .pseudo_probe replaced. */
struct hostile {
	const char *what;
	int from_end;		/* offset from the section's end, else start */
	long at;
	const char *bytes;
	size_t n;
	const char *want;
};

static long section_offset(const char *bin, const char *name, long *size)
{
	char out[512], line[512];
	char *argv[] = { "readelf", "-S", "-W", (char *)bin, NULL };
	FILE *f;
	long off = -1;

	scratch("probes-sections.txt", out, sizeof(out));
	ck_assert_int_eq(run_cmd(argv, out, NULL), 0);
	f = fopen(out, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, name);
		char n[64], type[64];
		unsigned long addr, o, s;

		if (!p || sscanf(p, "%63s %63s %lx %lx %lx", n, type, &addr, &o,
				 &s) != 5 || strcmp(n, name))
			continue;
		off = (long)o;
		*size = (long)s;
	}
	fclose(f);
	ck_assert_int_ge(off, 0);
	return off;
}

static void check_hostile(const char *bin, const struct hostile *h)
{
	char copy[512], err[BR_ERR_MAX];
	struct eb_open_opts o = { 0 };
	struct eb_binary b;
	struct pp_table pp;
	size_t len;
	char *img = slurp(bin, &len);
	long size = 0, off = section_offset(bin, h->from_end < 0 ?
					".pseudo_probe_desc" : ".pseudo_probe",
					&size);
	FILE *f;

	off += h->from_end > 0 ? size - h->at : h->at;
	memcpy(img + off, h->bytes, h->n);
	scratch("probes-hostile", copy, sizeof(copy));
	f = fopen(copy, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(img, 1, len, f), len);
	fclose(f);
	free(img);
	ck_assert_int_eq(eb_open_ex(copy, &o, &b, err, sizeof(err)), 0);
	err[0] = 0;
	ck_assert_int_eq(pp_read(&b, &pp, err, sizeof(err)), BR_EINPUT);
	ck_assert_msg(strstr(err, copy) && strstr(err, h->want),
		      "%s: %s", h->what, err);
	pp_free(&pp);
	eb_close(&b);
}

START_TEST(hostile_probe_sections_are_refused)
{
	static const struct hostile cases[] = {
		{ "a LEB128 cut by the section's end", 1, 1, "\x80", 1,
		  ".pseudo_probe offset " },
		{ "a probe type that does not exist", 0, 10, "\x01\x8f", 2,
		  "expected a probe type 0..2" },
		{ "a name longer than its section", -1, 16, "\xff\x7f", 2,
		  "expected a name of the length given" },
	};
	char bin[512];

	scratch("probes-base", bin, sizeof(bin));
	build_probes("autofdo/inlines.c", 0, bin);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_hostile(bin, &cases[i]);
}
END_TEST

Suite *pseudoprobe_suite(void)
{
	Suite *s = suite_create("pseudoprobe");
	TCase *t = tcase_create("pseudoprobe");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, probes_of_a_c_program_match_llvm_profgen);
	tcase_add_test(t, probes_of_a_cxx_program_match_llvm_profgen);
	tcase_add_test(t, a_binary_without_probes_has_an_empty_table);
	tcase_add_test(t, md5_matches_rfc_1321);
	tcase_add_test(t, hostile_probe_sections_are_refused);
	suite_add_tcase(s, t);
	return s;
}
