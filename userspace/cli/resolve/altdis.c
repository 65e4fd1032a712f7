// SPDX-License-Identifier: GPL-2.0
/* LLVM's MC disassembler through dlopen().  See altdis.h. */
#define _GNU_SOURCE

#include "resolve/altdis.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LLVM's C API (llvm-c/Disassembler.h), declared here for dlsym(). */
typedef void *llvm_disasm;
typedef llvm_disasm (*create_fn)(const char *triple, void *info, int tag,
				 void *getop, void *symlookup);
typedef size_t (*disasm_fn)(llvm_disasm dc, uint8_t *bytes, uint64_t size,
			    uint64_t pc, char *out, size_t outsz);
typedef int (*options_fn)(llvm_disasm dc, uint64_t options);
typedef void (*dispose_fn)(llvm_disasm dc);
typedef void (*init_fn)(void);

#define LLVM_OPT_PRINT_IMM_HEX 2

static const char *const libs[] = {
	"libLLVM.so.19.1", "libLLVM-19.so", "libLLVM.so.19",
};

struct altdis {
	bool tried;
	void *dl;
	llvm_disasm dc;
	disasm_fn disasm;
	dispose_fn dispose;
};

struct altdis *altdis_new(void)
{
	return calloc(1, sizeof(struct altdis));
}

void altdis_free(struct altdis *a)
{
	if (!a)
		return;
	if (a->dc)
		a->dispose(a->dc);
	if (a->dl)
		dlclose(a->dl);
	free(a);
}

static void load(struct altdis *a)
{
	init_fn info, mc, dis;
	create_fn create;
	options_fn options;
	size_t i;

	a->tried = true;
	for (i = 0; i < sizeof(libs) / sizeof(libs[0]) && !a->dl; i++)
		a->dl = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
	if (!a->dl)
		return;
	info = (init_fn)dlsym(a->dl, "LLVMInitializeX86TargetInfo");
	mc = (init_fn)dlsym(a->dl, "LLVMInitializeX86TargetMC");
	dis = (init_fn)dlsym(a->dl, "LLVMInitializeX86Disassembler");
	create = (create_fn)dlsym(a->dl, "LLVMCreateDisasm");
	options = (options_fn)dlsym(a->dl, "LLVMSetDisasmOptions");
	a->disasm = (disasm_fn)dlsym(a->dl, "LLVMDisasmInstruction");
	a->dispose = (dispose_fn)dlsym(a->dl, "LLVMDisasmDispose");
	if (!info || !mc || !dis || !create || !options || !a->disasm ||
	    !a->dispose)
		goto fail;
	info();
	mc();
	dis();
	a->dc = create("x86_64-unknown-linux-gnu", NULL, 0, NULL, NULL);
	if (!a->dc)
		goto fail;
	options(a->dc, LLVM_OPT_PRINT_IMM_HEX);
	return;
fail:
	dlclose(a->dl);
	a->dl = NULL;
}

unsigned altdis_decode(struct altdis *a, const uint8_t *code, size_t size,
		       uint64_t addr, char *mnem, size_t mnemsz, char *ops,
		       size_t opssz)
{
	uint8_t buf[16];
	char text[256], *p, *tab;
	size_t n;

	if (!a)
		return 0;
	if (!a->tried)
		load(a);
	if (!a->dc)
		return 0;
	if (size > sizeof(buf))
		size = sizeof(buf);
	memcpy(buf, code, size);
	n = a->disasm(a->dc, buf, size, addr, text, sizeof(text));
	if (!n || n > size)
		return 0;
	/* "\tMNEMONIC\tOPERANDS" */
	for (p = text; *p == '\t' || *p == ' '; p++)
		;
	tab = strchr(p, '\t');
	if (tab)
		*tab++ = '\0';
	if (mnem)
		snprintf(mnem, mnemsz, "%s", p);
	if (ops)
		snprintf(ops, opssz, "%s", tab ? tab : "");
	return (unsigned)n;
}
