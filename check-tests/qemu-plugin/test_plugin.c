// SPDX-License-Identifier: GPL-2.0
/*
 * The QEMU plugin's own parts (userspace/qemu-plugin/), in the CLI's
 * qemu-record suite: the decoder of block ends against capstone on libc,
 * the symbols the plugin exports, and the benchmark's probe
 * (bench/qemu-probe.c) pairing the same blocks.
 */
#define _GNU_SOURCE

#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_tests.h"
#include "record/qemu_tests.h"
#include "format/qrec_wire.h"
#include "common/x86dec.h"
#include "base/status.h"
#include "input/brprof.h"
#include "output/pswrite.h"
#include "record/qemu_rec.h"
#include "resolve/elfbin.h"

/* The xd kind of an instruction capstone classed @k (@got: ours). */
static enum xd_kind expect_kind(enum eb_kind k, const uint8_t *p,
				enum xd_kind got)
{
	switch (k) {
	case EB_COND:
		/* xbegin: a branch for capstone, a trap in QEMU (no RTM) */
		return p[0] == 0xc7 && p[1] == 0xf8 ? XD_TRAP : XD_COND;
	case EB_JMP:
		return XD_JMP;
	case EB_JMP_IND:
		return XD_IND_JMP;
	case EB_CALL:
		return got == XD_IND_CALL ? XD_IND_CALL : XD_CALL;
	case EB_RET:
		return XD_RET;
	default:
		/* no branch: plain, rep, syscall or trap, never a branch */
		return got == XD_REP || got == XD_SYSCALL || got == XD_TRAP ?
		       got : XD_PLAIN;
	}
}

/*
 * The decoder of block ends against capstone on libc's code: the length
 * of every instruction capstone decodes, the kind of each branch, and
 * that every shorter prefix reads as truncated (QEMU's page-crossing
 * listing); AVX-512 instructions capstone 4 does not know get a length.
 */
START_TEST(decoder)
{
	const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
	struct eb_binary eb;
	size_t h, i, n = 0, unknown = 0;
	uint8_t *buf;
	size_t len;
	int fd;

	qt_bin_open(libc, &eb);
	ck_assert(!eb_cs_open(&h));
	buf = (uint8_t *)slurp(libc, &len);
	(void)fd;
	for (i = 0; i < eb.nr_xsecs; i++) {
		uint64_t a = eb.xsecs[i].addr, end = a + eb.xsecs[i].size, off;

		while (a < end) {
			struct eb_insn in;
			struct xd_insn xi;
			int r, t;

			ck_assert(eb_vaddr_to_off(&eb, a, &off));
			r = xd_decode(buf + off, end - a < 15 ? end - a : 15, a, &xi);
			if (eb_decode_bytes(h, buf + off, end - a, a, &in)) {
				/* capstone does not know it */
				ck_assert_msg(r > 0, "%#" PRIx64, a);
				unknown++;
				a += (uint64_t)r;
				continue;
			}
			n++;
			ck_assert_msg(r == in.size, "%#" PRIx64 ": length %d, capstone %u",
				      a, r, in.size);
			ck_assert_msg(xi.kind == expect_kind(in.kind, buf + off, xi.kind),
				      "%#" PRIx64 ": %s", a, xd_kind_name(xi.kind));
			for (t = 0; t < r; t++) {
				struct xd_insn y;

				ck_assert_msg(!xd_decode(buf + off, (size_t)t, a, &y),
					      "%#" PRIx64 ": %d bytes", a, t);
			}
			a += in.size;
		}
	}
	ck_assert_uint_gt(n, 300000);
	ck_assert_uint_lt(unknown, n / 100);
	free(buf);
	eb_cs_close(h);
	eb_close(&eb);
}
END_TEST

/* ---- what the plugin exports ------------------------------------------------ */

/* The plugin the CLI runs: named in the environment, or beside the binary. */
static void plugin_path(char *buf, size_t size)
{
	const char *given = getenv("BLOCKRANGE_QEMU_PLUGIN");
	const char *bin = env_path("BLOCKRANGE");
	const char *slash = strrchr(bin, '/');

	if (given) {
		snprintf(buf, size, "%s", given);
		return;
	}
	ck_assert(slash);
	snprintf(buf, size, "%.*s/../lib/blockrange/blockrange-qemu.so",
		 (int)(slash - bin), bin);
}

/*
 * The plugin's units are linked with -fvisibility=hidden: of the symbols
 * it defines, QEMU sees qemu_plugin_version (an int) and
 * qemu_plugin_install (a function) only, so that none of its names can
 * meet QEMU's or another plugin's.  What it takes from QEMU stays
 * undefined: the qemu_plugin_* functions of qemu_api.h.
 */
START_TEST(plugin_exports)
{
	char path[PATH_MAX];
	unsigned version = 0, install = 0, imports = 0;
	Elf_Scn *scn = NULL;
	Elf *elf;
	int fd;

	plugin_path(path, sizeof(path));
	ck_assert(elf_version(EV_CURRENT) != EV_NONE);
	fd = open(path, O_RDONLY);
	ck_assert_msg(fd >= 0, "%s", path);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert(elf);
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data = elf_getdata(scn, NULL);
		GElf_Shdr sh;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM)
			continue;
		for (i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			ck_assert(gelf_getsym(data, (int)i, &sym));
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name || GELF_ST_BIND(sym.st_info) == STB_LOCAL)
				continue;
			if (sym.st_shndx == SHN_UNDEF) {
				imports += !strncmp(name, "qemu_plugin_", 12);
				continue;
			}
			if (!strcmp(name, "qemu_plugin_version")) {
				ck_assert_int_eq(GELF_ST_TYPE(sym.st_info), STT_OBJECT);
				ck_assert_uint_eq(sym.st_size, sizeof(int));
				version++;
			} else if (!strcmp(name, "qemu_plugin_install")) {
				ck_assert_int_eq(GELF_ST_TYPE(sym.st_info), STT_FUNC);
				install++;
			} else {
				ck_abort_msg("%s exports %s", path, name);
			}
		}
	}
	ck_assert_uint_eq(version, 1);
	ck_assert_uint_eq(install, 1);
	/* translation, execution, system calls, exit, and the block's parts */
	ck_assert_uint_ge(imports, 10);
	elf_end(elf);
	close(fd);
}
END_TEST

/* ---- the benchmark's probe ------------------------------------------------- */

/*
 * bench/qemu-probe.c pairs blocks as the least recorder would (the block
 * before, one compare with its fall-through) and is what `make bench`
 * takes for the floor of the plugin's cost; it must pair the same blocks.
 * The blocks it finds not reached by falling through are the taken
 * branches (the rules' counts), the first block, and what the rules know
 * is no branch: the rep block's 37 runs a pass (100 passes), the block
 * that starts at the page-crossing instruction (50 times).
 */
struct probe_case {
	const char *prog;
	int status;
	uint64_t jumps;
};

static const struct probe_case probe_cases[] = {
	{ "calls", 0, 2999 + 1 },
	{ "cond", 0, 1749 + 1 },
	{ "longblock", 0, 9 + 1 },
	{ "repmovs", 0, 99 + 1 + 37 * 100 },
	{ "pagecross", 0, 50 + 1 + 50 },
};

START_TEST(probe_pairs)
{
	const struct probe_case *c = &probe_cases[_i];
	char wl[512], spec[600], out[512], errf[512], name[64];
	long long jumps;
	char *err;
	int st;

	snprintf(spec, sizeof(spec), "%s,mode=pair",
		 env_path("BLOCKRANGE_QEMU_PROBE"));
	snprintf(name, sizeof(name), "probe-%s.out", c->prog);
	scratch(name, out, sizeof(out));
	snprintf(name, sizeof(name), "probe-%s.err", c->prog);
	scratch(name, errf, sizeof(errf));
	st = run_cmd(ARGV("qemu-x86_64", "-cpu", "max", "-plugin", spec,
			  (char *)qt_qwl(c->prog, wl, sizeof(wl))), out, errf);
	err = slurp(errf, NULL);
	ck_assert_msg(st == c->status, "%s: status %d: %s", c->prog, st, err);
	jumps = qt_after(err, " blocks, ");
	ck_assert_msg(jumps == (long long)c->jumps,
		      "%s: %lld blocks not reached by falling through, want %llu: %s",
		      c->prog, jumps, (unsigned long long)c->jumps, err);
	free(err);
}
END_TEST

void qemu_add_plugin_tests(TCase *tc)
{
	tcase_add_test(tc, decoder);
	tcase_add_test(tc, plugin_exports);
	tcase_add_loop_test(tc, probe_pairs, 0,
			    sizeof(probe_cases) / sizeof(probe_cases[0]));
}
