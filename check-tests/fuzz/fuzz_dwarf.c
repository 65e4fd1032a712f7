// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for hostile ELF/DWARF files through the CLI's two DWARF
 * readers: spd_open() of resolve/spdwarf.c (functions, ranges and inline
 * frames for `blockrange autofdo`) and the DSO loader with source lines
 * (resolve/dso.c through libdwfl, `annotate --source`).  The input bytes
 * are the file; seeds are small programs built with gcc and clang, DWARF 4
 * and 5 (check-tests/fuzz/dwarf-corpus/, made by make-dwarf-seeds.sh).
 *
 * Properties, beyond "no crash, no leak, no undefined behaviour":
 *  - spd_open() gives a description or NULL with one line of printable
 *    text "FILE: ..." and never claims to be out of memory;
 *  - the description is consistent: every function range is non-empty and
 *    has a named function whose ranges include it, spd_find_range() of a
 *    range's start finds a range that contains it, the frames of an
 *    address all have names;
 *  - the DSO loader makes the file a usable binary or says why in one line
 *    of printable text; source lines it gives have a file name and a line;
 *  - reading the file twice gives the same functions, ranges and frames.
 *
 * Built by `make fuzz-dwarf` (clang, ASan + UBSan, libFuzzer) and into the
 * CLI's Check runner (gcc), which replays the corpus through
 * dwarf_fuzz_one().
 */
#define _GNU_SOURCE

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/status.h"
#include "common/hash.h"
#include "resolve/dso.h"
#include "resolve/spdwarf.h"

#include "fuzz_check.h"

/* Work per input stays bounded whatever the file holds. */
#define MAX_RANGES 256
#define MAX_ADDRS 64

static char dir[64];
static char path[96];

static void cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

/* A directory of this process, in memory where there is one. */
static void setup(void)
{
	const char *tmp = getenv("TMPDIR");

	if (dir[0])
		return;
	if (!access("/dev/shm", W_OK | X_OK))
		tmp = "/dev/shm";
	snprintf(dir, sizeof(dir), "%.40s/dwarf-fuzz-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/input.elf", dir);
	atexit(cleanup);
}

static void put_file(const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	CHECK(f);
	CHECK(!n || fwrite(p, 1, n, f) == n);
	CHECK(!fclose(f));
}

/* One line of printable text that starts with @prefix. */
static void check_line(const char *s, const char *prefix)
{
	size_t i;

	CHECK(s && !strncmp(s, prefix, strlen(prefix)));
	for (i = 0; s[i]; i++)
		CHECK(s[i] >= 0x20 && s[i] < 0x7f);
}

static uint64_t mix_str(uint64_t h, const char *s)
{
	while (*s)
		h = br_hash2(h, (unsigned char)*s++);
	return br_hash2(h, 0);
}

/* The frames of @addr: all named; their digest. */
static uint64_t frames_of(struct spd *d, uint64_t addr, uint64_t h)
{
	const struct spd_frame *fr;
	int n = spd_frames(d, addr, &fr), i;

	CHECK(n >= 0);
	for (i = 0; i < n; i++) {
		CHECK(fr[i].name);
		h = br_hash2(mix_str(h, fr[i].name),
			     (uint64_t)fr[i].line << 32 | fr[i].disc);
	}
	return br_hash2(h, (uint64_t)n);
}

/* Range @r of @d checked; its function's starts join @addrs. */
static uint64_t check_range(struct spd *d, long r, uint64_t *addrs,
			    size_t *naddrs, uint64_t h)
{
	const struct spd_range *rs;
	const char *name = spd_range_name(d, r);
	size_t nr, i;

	CHECK(name);
	spd_range_func(d, r, &rs, &nr);
	CHECK(nr >= 1);
	h = br_hash2(mix_str(h, name), spd_range_entry(d, r));
	for (i = 0; i < nr && i < 8; i++) {
		long x = spd_find_range(d, rs[i].lo);

		CHECK(rs[i].lo < rs[i].hi);
		h = br_hash2(br_hash2(h, rs[i].lo), rs[i].hi);
		if (x >= 0)
			CHECK(spd_range_name(d, x));
		h = frames_of(d, rs[i].lo, h);
		h = frames_of(d, rs[i].hi - 1, h);
		if (*naddrs < MAX_ADDRS)
			addrs[(*naddrs)++] = rs[i].lo;
	}
	return h;
}

/* spd_open() of the file: its digest (0: refused), the starts it found. */
static uint64_t read_spd(uint64_t *addrs, size_t *naddrs)
{
	struct sp_names *names = sp_names_new();
	char err[BR_ERR_MAX], prefix[128];
	uint64_t h = 1;
	struct spd *d;
	size_t n, r;
	bool oom;

	CHECK(names);
	*naddrs = 0;
	d = spd_open(path, path, 0, names, err, sizeof(err), &oom);
	CHECK(!oom);
	if (!d) {
		snprintf(prefix, sizeof(prefix), "%s: ", path);
		check_line(err, prefix);
		sp_names_free(names);
		return 0;
	}
	n = spd_nr_ranges(d);
	h = br_hash2(h, n);
	for (r = 0; r < n && r < MAX_RANGES; r++)
		h = check_range(d, (long)r, addrs, naddrs, h);
	h = br_hash2(h, spd_fs_discriminators(d));
	if (spd_line_error(d))
		h = mix_str(h, spd_line_error(d));
	spd_close(d);
	sp_names_free(names);
	return h;
}

/* The DSO loader with source lines, as `annotate --source` uses it. */
static void read_dso(const uint64_t *addrs, size_t naddrs)
{
	struct dso_opts o = { .debug_dir = dir, .buildid_dir = dir,
			      .source = true };
	struct dso_registry *r = dso_registry_new(&o);
	enum dso_state st;
	struct dso *d;
	size_t i;

	CHECK(r);
	d = dso_get(r, path, NULL, 0, false);
	CHECK(d);
	st = dso_load(r, d);
	CHECK(st == DSO_READY || st == DSO_UNUSABLE);
	if (st == DSO_READY) {
		for (i = 0; i < naddrs + d->bin.nr_syms && i < 2 * MAX_ADDRS;
		     i++) {
			uint64_t a = i < naddrs ? addrs[i] :
					 d->bin.syms[i - naddrs].start;
			const char *file;
			int line;

			if (dso_source_line(r, d, a, &file, &line))
				CHECK(file && line >= 0);
		}
	} else {
		check_line(d->why, "");
		CHECK(strstr(d->why, path));
	}
	dso_registry_free(r);
}

int dwarf_fuzz_one(const uint8_t *data, size_t size);

int dwarf_fuzz_one(const uint8_t *data, size_t size)
{
	uint64_t addrs[MAX_ADDRS], again[MAX_ADDRS];
	size_t naddrs, nagain;
	uint64_t h;

	setup();
	put_file(data, size);
	h = read_spd(addrs, &naddrs);
	CHECK(read_spd(again, &nagain) == h && nagain == naddrs);
	read_dso(addrs, naddrs);
	return 0;
}

#ifdef BLOCKRANGE_FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return dwarf_fuzz_one(data, size);
}
#endif
