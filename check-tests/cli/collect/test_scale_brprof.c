// SPDX-License-Identifier: GPL-2.0
/*
 * The scale suite, .brprof: profiles of the shared recordings round-trip,
 * merging is additive and obeys its laws, the golden profile byte for
 * byte, hostile profiles and counts that overflow are refused, and a
 * profile of a pipe.
 */
#define _GNU_SOURCE

#include "cli_tests.h"
#include "scale_tests.h"
#include "input/brprof.h"

#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- .brprof ----------------------------------------------------------------- */


/* Every @what in @s replaced by "%I" (in place). */
static void unname(char *s, const char *what)
{
	size_t n = strlen(what);
	char *p;

	while ((p = strstr(s, what))) {
		p[0] = '%';
		p[1] = 'I';
		memmove(p + 2, p + n, strlen(p + n) + 1);
	}
}

/* What each command prints for @in equals what it prints for @prof. */
static void same_from_profile(const char *tag, const char *in,
			      const char *prof, const char *cmd, bool err)
{
	char c1[1024], c2[1024], t[160];
	char *o1, *e1, *o2, *e2;
	int s1, s2;

	snprintf(c1, sizeof(c1), cmd, in);
	snprintf(c2, sizeof(c2), cmd, prof);
	snprintf(t, sizeof(t), "%s-raw", tag);
	s1 = sc_br_in("/", t, c1, &o1, &e1);
	snprintf(t, sizeof(t), "%s-prof", tag);
	s2 = sc_br_in("/", t, c2, &o2, &e2);
	ck_assert_msg(s1 == 0 && s2 == 0, "%s: status %d / %d: %s%s", tag, s1,
		      s2, e1, e2);
	ck_assert_msg(strlen(o1) > 100, "%s: little output", tag);
	/* the report names its input */
	unname(o1, in);
	unname(o2, prof);
	ck_assert_msg(!strcmp(o1, o2), "%s: output from the profile differs", tag);
	/*
	 * With --dso, the summary line of a profile is the profile's: it
	 * counted the other DSOs' blocks, the input read with --dso skips them.
	 */
	if (err)
		ck_assert_msg(!strcmp(e1, e2),
			      "%s: stderr\n%s\nfrom the profile\n%s", tag, e1,
			      e2);
	free(o1);
	free(e1);
	free(o2);
	free(e2);
}

static void merge_of(const char *const *in, size_t n, const char *out)
{
	char cmd[8192], t[160];
	size_t i, k = 0;
	char *o, *e;

	k += snprintf(cmd + k, sizeof(cmd) - k, "merge");
	for (i = 0; i < n; i++)
		k += snprintf(cmd + k, sizeof(cmd) - k, " '%s'", in[i]);
	snprintf(cmd + k, sizeof(cmd) - k, " -o '%s'", out);
	snprintf(t, sizeof(t), "merge-%s", strrchr(out, '/') + 1);
	ck_assert_msg(sc_br_in("/", t, cmd, &o, &e) == 0, "merge: %s", e);
	free(o);
	free(e);
}

static bool same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = slurp(a, &la), *y = slurp(b, &lb);
	bool eq = la == lb && !memcmp(x, y, la);

	free(x);
	free(y);
	return eq;
}

/* annotate, its JSON, ranges, bolt and report read a .brprof as the input. */
START_TEST(profile_round_trip)
{
	size_t f = (size_t)_i / 2;
	bool text = _i % 2;
	char data[512], txt[512], prof[512], tag[128], cmd[512], rep[512];
	const char *in;

	sc_fixture(f, data, sizeof(data), txt, sizeof(txt));
	in = text ? txt : data;
	snprintf(tag, sizeof(tag), "rt-%zu.brprof", (size_t)_i);
	scratch(tag, prof, sizeof(prof));
	sc_profile_of(in, prof, NULL);
	snprintf(tag, sizeof(tag), "rt-%zu-annotate", (size_t)_i);
	same_from_profile(tag, in, prof, "annotate -i '%s' --no-pager", true);
	snprintf(tag, sizeof(tag), "rt-%zu-json", (size_t)_i);
	same_from_profile(tag, in, prof, "annotate -i '%s' --format=json",
			  true);
	snprintf(tag, sizeof(tag), "rt-%zu-ranges", (size_t)_i);
	snprintf(cmd, sizeof(cmd), "ranges -i '%%s' --dso %s", sc_fixtures[f].prog);
	same_from_profile(tag, in, prof, cmd, false);
	snprintf(tag, sizeof(tag), "rt-%zu-bolt", (size_t)_i);
	snprintf(cmd, sizeof(cmd), "bolt -i '%%s' --dso %s", sc_fixtures[f].prog);
	same_from_profile(tag, in, prof, cmd, false);
	if (_i)
		return;	/* the report (Graphviz) once */
	snprintf(tag, sizeof(tag), "rt-%zu.html", (size_t)_i);
	scratch(tag, rep, sizeof(rep));
	snprintf(cmd, sizeof(cmd), "report -i '%%s' -o - --max-symbols 3");
	snprintf(tag, sizeof(tag), "rt-%zu-report", (size_t)_i);
	same_from_profile(tag, in, prof, cmd, true);
}
END_TEST

/* A tiny generator of the same numbers every run. */
static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/*
 * profile is additive: the profiles of a random partition of the samples
 * of a text, merged in a random order and grouping, are the profile of
 * the whole (merged alone, which orders it canonically), byte for byte.
 */
START_TEST(merge_is_additive)
{
	char data[512], txt[512], path[512], whole[512], all[512], tag[128];
	char **lines = NULL, *buf, *p, *pool[16];
	size_t nl = 0, cap = 0, parts, i, k, np;
	uint64_t seed = 0x5eed + (uint64_t)_i;
	FILE *fs[8];
	FILE *wf;

	sc_fixture(0, data, sizeof(data), txt, sizeof(txt));
	buf = slurp(txt, NULL);
	for (p = buf; *p; ) {
		char *e = strchr(p, '\n');

		ck_assert(e);
		*e = '\0';
		if (nl == cap) {
			cap = cap ? 2 * cap : 1024;
			lines = realloc(lines, cap * sizeof(*lines));
			ck_assert(lines);
		}
		lines[nl++] = p;
		p = e + 1;
	}
	parts = 2 + lcg(&seed) % 5;
	snprintf(tag, sizeof(tag), "add-%d-whole.txt", _i);
	scratch(tag, whole, sizeof(whole));
	wf = fopen(whole, "w");
	ck_assert(wf);
	for (k = 0; k < parts; k++) {
		snprintf(tag, sizeof(tag), "add-%d-%zu.txt", _i, k);
		fs[k] = fopen(scratch(tag, path, sizeof(path)), "w");
		ck_assert(fs[k]);
	}
	/* the mmap lines go to every part, before its samples */
	for (i = 0; i < nl; i++) {
		if (!strstr(lines[i], "PERF_RECORD_"))
			continue;
		fprintf(wf, "%s\n", lines[i]);
		for (k = 0; k < parts; k++)
			fprintf(fs[k], "%s\n", lines[i]);
	}
	for (i = 0; i < nl; i++) {
		if (strstr(lines[i], "PERF_RECORD_"))
			continue;
		fprintf(wf, "%s\n", lines[i]);
		/* every part gets a sample (an empty one is an error) */
		k = i < parts ? i : lcg(&seed) % parts;
		fprintf(fs[k], "%s\n", lines[i]);
	}
	fclose(wf);
	for (k = 0; k < parts; k++) {
		char prof[512];

		fclose(fs[k]);
		snprintf(tag, sizeof(tag), "add-%d-%zu.txt", _i, k);
		scratch(tag, path, sizeof(path));
		snprintf(tag, sizeof(tag), "add-%d-%zu.brprof", _i, k);
		scratch(tag, prof, sizeof(prof));
		sc_profile_of(path, prof, NULL);
		pool[k] = strdup(prof);
	}
	np = parts;
	/* merge two or three at random until one is left */
	for (k = 0; np > 1; k++) {
		size_t take = np > 2 && lcg(&seed) % 2 ? 3 : 2, t;
		const char *in[3];
		char out[512];

		for (t = 0; t < take; t++) {
			size_t x = lcg(&seed) % np;

			in[t] = pool[x];
			pool[x] = pool[--np];
		}
		snprintf(tag, sizeof(tag), "add-%d-m%zu.brprof", _i, k);
		scratch(tag, out, sizeof(out));
		merge_of(in, take, out);
		for (t = 0; t < take; t++)
			free((char *)in[t]);
		pool[np++] = strdup(out);
	}
	snprintf(tag, sizeof(tag), "add-%d-whole.brprof", _i);
	scratch(tag, path, sizeof(path));
	sc_profile_of(whole, path, NULL);
	snprintf(tag, sizeof(tag), "add-%d-whole-canon.brprof", _i);
	scratch(tag, all, sizeof(all));
	{
		const char *in[1] = { path };

		merge_of(in, 1, all);
	}
	ck_assert_msg(same_file(pool[0], all),
		      "%zu parts merged (%s) differ from the whole (%s)", parts,
		      pool[0], all);
	free(pool[0]);
	free(lines);
	free(buf);
}
END_TEST

/* merge(A, B) = merge(B, A); merge(merge(A, B), C) = merge(A, merge(B, C)). */
START_TEST(merge_laws)
{
	char d[3][512], t[3][512], pr[3][512], x[6][512], tag[128];
	size_t i;

	for (i = 0; i < 3; i++) {
		sc_fixture(i, d[i], sizeof(d[i]), t[i], sizeof(t[i]));
		snprintf(tag, sizeof(tag), "law-%zu.brprof", i);
		scratch(tag, pr[i], sizeof(pr[i]));
		sc_profile_of(d[i], pr[i], NULL);
	}
	for (i = 0; i < 6; i++) {
		snprintf(tag, sizeof(tag), "law-x%zu.brprof", i);
		scratch(tag, x[i], sizeof(x[i]));
	}
	{
		const char *ab[] = { pr[0], pr[1] }, *ba[] = { pr[1], pr[0] };
		const char *ab_c[] = { x[0], pr[2] }, *bc[] = { pr[1], pr[2] };
		const char *a_bc[] = { pr[0], x[3] };
		const char *cab[] = { pr[2], pr[0], pr[1] };

		merge_of(ab, 2, x[0]);
		merge_of(ba, 2, x[1]);
		ck_assert(same_file(x[0], x[1]));
		merge_of(ab_c, 2, x[2]);
		merge_of(bc, 2, x[3]);
		merge_of(a_bc, 2, x[4]);
		ck_assert(same_file(x[2], x[4]));
		merge_of(cab, 3, x[5]);
		ck_assert(same_file(x[2], x[5]));
	}
	{
		/* A + A: every count doubled, the same as a profile of AA */
		char aa[512], two[512], p2[512], c2[512];
		const char *in[] = { pr[0], pr[0] }, *one[1] = { p2 };
		char *argv[] = { "python3", NULL, d[0], two, "--copies", "2",
				 NULL };
		char script[512];

		snprintf(script, sizeof(script), "%s/../../bench/pdrepl.py",
			 env_path("BLOCKRANGE_LOOKUP"));
		argv[1] = script;
		scratch("law-aa.brprof", aa, sizeof(aa));
		scratch("law-two.data", two, sizeof(two));
		scratch("law-two.brprof", p2, sizeof(p2));
		scratch("law-two-canon.brprof", c2, sizeof(c2));
		ck_assert_int_eq(run_cmd(argv, NULL, NULL), 0);
		merge_of(in, 2, aa);
		sc_profile_of(two, p2, NULL);
		merge_of(one, 1, c2);
		ck_assert(same_file(aa, c2));
	}
}
END_TEST

/* The committed golden profile: written the same, read the same. */
START_TEST(golden_profile)
{
	char gold[512], flags[512], cmd[2048], out[512];
	const char *wl = env_path("BLOCKRANGE_WORKLOADS");
	char *o, *e, *want;

	snprintf(gold, sizeof(gold), "%s/golden.brprof",
		 env_path("BLOCKRANGE_GOLDEN"));
	snprintf(flags, sizeof(flags), "%s/flags.perfscript",
		 env_path("BLOCKRANGE_GOLDEN"));
	scratch("golden-now.brprof", out, sizeof(out));
	/* the DSO's path is what --binary says: "golden" */
	snprintf(cmd, sizeof(cmd), "profile -i '%s' --binary golden -o '%s'",
		 flags, out);
	ck_assert_int_eq(sc_br_in(wl, "golden-prof", cmd, &o, &e), 0);
	free(o);
	free(e);
	ck_assert_msg(same_file(out, gold),
		      "the profile of golden/flags.perfscript is not golden/golden.brprof (a format change needs a new version)");
	snprintf(cmd, sizeof(cmd),
		 "annotate -i '%s' --binary ./golden --color=never", gold);
	ck_assert_int_eq(sc_br_in(wl, "golden-annot", cmd, &o, &e), 0);
	snprintf(cmd, sizeof(cmd), "%s/annotate-flags.txt",
		 env_path("BLOCKRANGE_GOLDEN"));
	want = slurp(cmd, NULL);
	ck_assert_str_eq(o, want);
	free(want);
	free(o);
	free(e);
	snprintf(cmd, sizeof(cmd), "ranges -i '%s' --binary ./golden", gold);
	ck_assert_int_eq(sc_br_in(wl, "golden-ranges", cmd, &o, &e), 0);
	snprintf(cmd, sizeof(cmd), "%s/ranges-flags.txt",
		 env_path("BLOCKRANGE_GOLDEN"));
	want = slurp(cmd, NULL);
	ck_assert_str_eq(o, want);
	free(want);
	free(o);
	free(e);
}
END_TEST

/* Hostile profiles: one-line refusals (status 2) by annotate and merge. */
static void reseal(uint8_t *b, size_t len)
{
	uint64_t v = htole64(len - BRPROF_HEADER);

	memcpy(b + 16, &v, 8);
	v = htole64(brprof_hash(b + BRPROF_HEADER, len - BRPROF_HEADER));
	memcpy(b + 24, &v, 8);
	v = htole64(brprof_hash(b, 56));
	memcpy(b + 56, &v, 8);
}

static void set64(uint8_t *b, size_t at, uint64_t v)
{
	v = htole64(v);
	memcpy(b + at, &v, 8);
}

/*
 * Offsets in golden.brprof (one DSO "golden": 7 blocks, 2 sample IPs,
 * 5 edges, 6 ranges, 5 branches, 5 BOLT branches, 6 BOLT traces).
 */
#define G_NR_DSOS 32
#define G_SAMPLES_STAT (72 + 8 * 18)
#define G_EVENT 224
#define G_DSO 232
#define G_DSO_SAMPLES (G_DSO + 40)
#define G_NR_BLOCKS 288
#define G_PATH (G_DSO + 112)
#define G_BLOCK0 352
#define G_EDGE0 (G_BLOCK0 + 7 * 32 + 2 * 16)
#define G_RANGE0 (G_EDGE0 + 5 * 32)
#define G_BRANCH0 (G_RANGE0 + 6 * 24)
#define G_BOLT_BR0 (G_BRANCH0 + 5 * 24)
#define G_BOLT_FT0 (G_BOLT_BR0 + 5 * 32)

struct hostile {
	const char *name;
	const char *expect;	/* in the message */
	size_t len_delta;	/* bytes appended (zero) */
	bool keep_seal;		/* do not fix the checksums */
	void (*edit)(uint8_t *b, size_t len);
	size_t cut_to;		/* the first bytes only (0: all) */
};

static void h_cut(uint8_t *b, size_t len) { (void)b; (void)len; }
static void h_hdr(uint8_t *b, size_t len) { (void)len; b[20] ^= 1; }
static void h_body(uint8_t *b, size_t len) { (void)len; b[400] ^= 0x10; }
static void h_version(uint8_t *b, size_t len) { (void)len; b[8] = 2; }
static void h_huge(uint8_t *b, size_t len) { (void)len; set64(b, G_NR_BLOCKS, 1ull << 62); }
static void h_order(uint8_t *b, size_t len)
{
	uint8_t t[32];

	(void)len;
	memcpy(t, b + G_BLOCK0, 32);
	memcpy(b + G_BLOCK0, b + G_BLOCK0 + 32, 32);
	memcpy(b + G_BLOCK0 + 32, t, 32);
}
static void h_zero(uint8_t *b, size_t len) { (void)len; set64(b, G_BLOCK0 + 24, 0); }
static void h_pred(uint8_t *b, size_t len) { (void)len; set64(b, G_BLOCK0 + 16, 3); }
static void h_start(uint8_t *b, size_t len) { (void)len; set64(b, G_BLOCK0, 0); }
static void h_flags(uint8_t *b, size_t len) { (void)len; b[G_DSO + 5] |= 0x40; }
static void h_nul(uint8_t *b, size_t len) { (void)len; b[G_DSO + 112 + 2] = 0; }
static void h_miss(uint8_t *b, size_t len) { (void)len; set64(b, G_EDGE0 + 24, 1000); }
static void h_dsos(uint8_t *b, size_t len) { (void)len; b[G_NR_DSOS] = 200; }
static void h_dup(uint8_t *b, size_t len)
{
	size_t n = (len - G_DSO) / 2;

	/* the DSO entry twice (the file was made twice as long after it) */
	memcpy(b + G_DSO + n, b + G_DSO, n);
	b[G_NR_DSOS] = 2;
}
static void h_trail(uint8_t *b, size_t len) { (void)b; (void)len; }
static void set32(uint8_t *b, size_t at, uint32_t v)
{
	v = htole32(v);
	memcpy(b + at, &v, 4);
}
static void h_hsize(uint8_t *b, size_t len) { (void)len; set32(b, 12, 72); }
static void h_hflags(uint8_t *b, size_t len) { (void)len; b[36] = 4; }
static void h_nstats(uint8_t *b, size_t len) { (void)len; set32(b, 64, 18); }
static void h_evlen(uint8_t *b, size_t len) { (void)len; set32(b, 68, 5000); }
static void h_evnul(uint8_t *b, size_t len) { (void)len; b[G_DSO - 8] = 0; }
static void h_bidsz(uint8_t *b, size_t len) { (void)len; b[G_DSO + 4] = 21; }
static void h_path0(uint8_t *b, size_t len) { (void)len; set32(b, G_DSO, 0); }
static void h_ip0(uint8_t *b, size_t len) { (void)len; set64(b, G_BLOCK0 + 7 * 32 + 8, 0); }
static void h_range(uint8_t *b, size_t len) { (void)len; set64(b, G_RANGE0, 0xffffffff); }
static void h_branch0(uint8_t *b, size_t len) { (void)len; set64(b, G_BRANCH0 + 16, 0); }
static void h_boltbr(uint8_t *b, size_t len)
{
	(void)len;
	set64(b, G_BOLT_BR0, 0);
	set64(b, G_BOLT_BR0 + 8, 0);
}
static void h_boltft(uint8_t *b, size_t len) { (void)len; set64(b, G_BOLT_FT0, 0); }
static void h_boltft0(uint8_t *b, size_t len)
{
	(void)len;
	set64(b, G_BOLT_FT0 + 16, 0);
	set64(b, G_BOLT_FT0 + 24, 0);
}
static void h_evpad(uint8_t *b, size_t len) { (void)len; set32(b, 68, 7); }
static void h_dso2(uint8_t *b, size_t len) { (void)len; b[G_NR_DSOS] = 2; }
static void h_path10(uint8_t *b, size_t len)
{
	(void)len;
	set32(b, G_DSO, 10);
	memset(b + G_PATH + 6, 'x', 4);
}

static const struct hostile hostile[] = {
	{ "cut", "expected a body of", (size_t)-8, true, h_cut, 0 },
	{ "header-checksum", "expected the header checksum", 0, true, h_hdr, 0 },
	{ "body-checksum", "expected the body checksum", 0, true, h_body, 0 },
	{ "version", "expected .brprof version 1, got 2", 0, false, h_version, 0 },
	{ "huge-count", "block records in the", 0, false, h_huge, 0 },
	{ "order", "in increasing order", 0, false, h_order, 0 },
	{ "zero-count", "block count of at least 1", 0, false, h_zero, 0 },
	{ "prediction", "prediction of 0, 1 or 2, got 3", 0, false, h_pred, 0 },
	{ "start-zero", "0 < start <= end", 0, false, h_start, 0 },
	{ "flags", "DSO flags of at most 0xf", 0, false, h_flags, 0 },
	{ "nul-path", "a path without NUL", 0, false, h_nul, 0 },
	{ "mispredicted", "no more mispredicted", 0, false, h_miss, 0 },
	{ "many-dsos", "DSOs in", 0, false, h_dsos, 0 },
	{ "dup-dso", "every DSO once", 0, false, h_dup, 0 },
	{ "trailing", "expected the end of the profile, got 8 more bytes", 8,
	  false, h_trail, 0 },
	{ "short", "expected a .brprof header of 64 bytes, got 32", 0, true,
	  h_cut, 32 },
	{ "header-size", "expected a 64-byte version 1 header", 0, false,
	  h_hsize, 0 },
	{ "header-flags", "expected header flags of at most 0x3, got 0x4", 0,
	  false, h_hflags, 0 },
	{ "no-stats", "expected the statistics, got the end of the file", 0,
	  false, h_cut, 68 },
	{ "cut-stats", "expected 19 statistics, got the end of the file", 0,
	  false, h_cut, 80 },
	{ "nr-stats", "expected 19 statistics, got 18", 0, false, h_nstats, 0 },
	{ "event-name", "expected an event name of at most 4096 bytes", 0,
	  false, h_evlen, 0 },
	{ "event-nul", "expected an event name without NUL", 0, false, h_evnul,
	  0 },
	{ "build-id", "expected a build-id of at most 20 bytes", 0, false,
	  h_bidsz, 0 },
	{ "empty-path", "expected a path of 1 to", 0, false, h_path0, 0 },
	{ "ip-count", "expected a sample IP count of at least 1, got 0", 0,
	  false, h_ip0, 0 },
	{ "range", "offset 768: expected a range with start <= end, got [0xffffffff, 0x", 0,
	  false, h_range, 0 },
	{ "branch-count", "offset 912: expected a llvm-profgen branch count of at least 1, got 0",
	  0, false, h_branch0, 0 },
	{ "bolt-branch", "offset 1032: expected a BOLT branch with an end in the DSO, got 0 -> 0",
	  0, false, h_boltbr, 0 },
	{ "bolt-trace", "offset 1192: expected a BOLT trace in the DSO, got 0x0 -> 0x",
	  0, false, h_boltft, 0 },
	{ "bolt-trace-count", "offset 1192: expected BOLT trace counts of at least 1 in all whose sum fits in 64 bits, got 0 and 0",
	  0, false, h_boltft0, 0 },
	{ "event-padding", "offset 231: expected the event name's padding, got the end of the file",
	  0, false, h_evpad, G_EVENT + 7 },
	{ "dso-missing", "offset 1384: expected DSO 2 of 2, got the end of the file",
	  0, false, h_dso2, 0 },
	{ "path-padding", "offset 354: expected the path's padding, got the end of the file",
	  0, false, h_path10, G_PATH + 10 },
};

#define NR_HOSTILE (sizeof(hostile) / sizeof(hostile[0]))

START_TEST(hostile_profiles)
{
	const struct hostile *h = &hostile[_i];
	char gold[512], path[512], tag[128], cmd[2048], out[512];
	size_t len, n;
	uint8_t *b;
	FILE *f;
	char *o, *e;
	int pass;

	snprintf(gold, sizeof(gold), "%s/golden.brprof",
		 env_path("BLOCKRANGE_GOLDEN"));
	b = (uint8_t *)slurp(gold, &len);
	n = !strcmp(h->name, "dup-dso") ? 2 * len - G_DSO : len + h->len_delta;
	if (h->cut_to)
		n = h->cut_to;
	b = realloc(b, n > len ? n : len);
	ck_assert(b);
	if (n > len)
		memset(b + len, 0, n - len);
	h->edit(b, n);
	if (!h->keep_seal)
		reseal(b, n);
	snprintf(tag, sizeof(tag), "hostile-%s.brprof", h->name);
	scratch(tag, path, sizeof(path));
	f = fopen(path, "wb");
	ck_assert(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
	free(b);
	scratch("hostile-out.brprof", out, sizeof(out));
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			snprintf(cmd, sizeof(cmd), "merge '%s' -o '%s'", path,
				 out);
		else
			snprintf(cmd, sizeof(cmd), "annotate -i '%s' --binary '%s/golden'",
				 path, env_path("BLOCKRANGE_WORKLOADS"));
		snprintf(tag, sizeof(tag), "hostile-%s-%d", h->name, pass);
		ck_assert_int_eq(sc_br_in("/", tag, cmd, &o, &e), 2);
		ck_assert_str_eq(o, "");
		ck_assert_msg(strstr(e, h->expect), "%s: %s", h->name, e);
		ck_assert_msg(!strncmp(e, "blockrange: ", 12) &&
			      strchr(e, '\n') == e + strlen(e) - 1,
			      "%s: not one line: %s", h->name, e);
		ck_assert_msg(strstr(e, ": offset "), "%s: %s", h->name, e);
		free(o);
		free(e);
	}
}
END_TEST

/*
 * Counts whose sum passes 2^64 - 1 when merged: refused, not wrapped (an
 * edge's count, the samples of the profile, the samples of a DSO).
 */
static const struct {
	size_t at;
	const char *expect;
} overflow[] = {
	{ G_EDGE0 + 16,
	  "golden: expected counts whose sums fit in 64 bits, got sums that overflow" },
	{ G_SAMPLES_STAT,
	  "overflow.brprof: expected sample counts whose sum fits in 64 bits, got a sum that overflows" },
	{ G_DSO_SAMPLES,
	  "golden: expected counts whose sums fit in 64 bits, got sums that overflow" },
};

START_TEST(merge_overflow)
{
	char gold[512], path[512], out[512], cmd[2048];
	size_t len;
	uint8_t *b;
	FILE *f;
	char *o, *e;

	snprintf(gold, sizeof(gold), "%s/golden.brprof",
		 env_path("BLOCKRANGE_GOLDEN"));
	b = (uint8_t *)slurp(gold, &len);
	set64(b, overflow[_i].at, UINT64_MAX - 1);
	reseal(b, len);
	scratch("overflow.brprof", path, sizeof(path));
	f = fopen(path, "wb");
	ck_assert(f);
	ck_assert_uint_eq(fwrite(b, 1, len, f), len);
	fclose(f);
	free(b);
	scratch("overflow-out.brprof", out, sizeof(out));
	snprintf(cmd, sizeof(cmd), "merge '%s' '%s' -o '%s'", path, path, out);
	ck_assert_int_eq(sc_br_in("/", "overflow", cmd, &o, &e), 2);
	ck_assert_msg(strstr(e, overflow[_i].expect), "%s", e);
	ck_assert_str_eq(o, "");
	free(o);
	free(e);
}
END_TEST

/* A .brprof on a pipe is refused with a message that says what to do. */
START_TEST(profile_on_pipe)
{
	char gold[512], tag[64];
	char *o, *e;

	snprintf(gold, sizeof(gold), "%s/golden.brprof",
		 env_path("BLOCKRANGE_GOLDEN"));
	snprintf(tag, sizeof(tag), "brprof-pipe");
	ck_assert_int_eq(sc_br_pipe(tag, gold, "annotate -i -", &o, &e), 2);
	ck_assert_msg(strstr(e, "got a .brprof profile"), "%s", e);
	free(o);
	free(e);
}
END_TEST

void scale_add_brprof_tests(TCase *tc)
{
	tcase_add_loop_test(tc, profile_round_trip, 0, 2 * NR_FIXTURES);
	tcase_add_loop_test(tc, merge_is_additive, 0, 2);
	tcase_add_test(tc, merge_laws);
	tcase_add_test(tc, golden_profile);
	tcase_add_loop_test(tc, hostile_profiles, 0, NR_HOSTILE);
	tcase_add_loop_test(tc, merge_overflow, 0,
			    sizeof(overflow) / sizeof(overflow[0]));
	tcase_add_test(tc, profile_on_pipe);
}
