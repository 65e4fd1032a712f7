/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of QEMU's TCG plugin API the recorder uses, declared here from
 * QEMU's documentation of the API (docs/devel/tcg-plugins.rst and the
 * API reference it includes): Debian ships QEMU's binaries but no
 * qemu-plugin.h.
 *
 * API version 1, what QEMU 7.2 (Debian 12's qemu-user) implements: a
 * plugin exports its version as the int `qemu_plugin_version`, and QEMU
 * refuses to load one whose version is outside [info->version.min,
 * info->version.cur] (7.2: [0, 1]; version 2 removed the inline
 * operations this version has and is refused by 7.2).  The plugin checks
 * the range again in qemu_plugin_install().
 *
 * Every handle (tb, insn) is valid only during the callback that passed
 * it; the plugin copies what it keeps.  In user-mode emulation every guest
 * thread is a vCPU running on a host thread of its own, and its callbacks
 * run on that thread.
 */
#ifndef BLOCKRANGE_QEMU_API_H
#define BLOCKRANGE_QEMU_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QAPI_VERSION 1

#define QAPI_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

/* What QEMU tells the plugin when loading it. */
typedef struct {
	const char *target_name;	/* "x86_64" */
	struct {
		int min;		/* oldest API version QEMU accepts */
		int cur;		/* newest */
	} version;
	bool system_emulation;		/* false in user mode */
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

/* Opaque handles, valid during the callback only. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* Whether a callback reads or writes the vCPU's registers. */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS = 0,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

typedef void (*qapi_tb_trans_cb)(qemu_plugin_id_t id,
				 struct qemu_plugin_tb *tb);
typedef void (*qapi_vcpu_udata_cb)(unsigned int vcpu_index, void *userdata);
typedef void (*qapi_syscall_cb)(qemu_plugin_id_t id, unsigned int vcpu_index,
				int64_t num, uint64_t a1, uint64_t a2,
				uint64_t a3, uint64_t a4, uint64_t a5,
				uint64_t a6, uint64_t a7, uint64_t a8);
typedef void (*qapi_syscall_ret_cb)(qemu_plugin_id_t id,
				    unsigned int vcpu_index, int64_t num,
				    int64_t ret);
typedef void (*qapi_udata_cb)(qemu_plugin_id_t id, void *userdata);

/* A memory access: its size, sign, endianness and direction (unused). */
typedef uint32_t qemu_plugin_meminfo_t;
/* Which accesses of an instruction call a memory callback. */
enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};
typedef void (*qapi_mem_cb)(unsigned int vcpu_index,
			    qemu_plugin_meminfo_t info, uint64_t vaddr,
			    void *userdata);

/* Exported by the plugin. */
extern QAPI_EXPORT int qemu_plugin_version;
QAPI_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				    const qemu_info_t *info, int argc,
				    char **argv);

/* A block was translated (before it first runs): instrument it here. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qapi_tb_trans_cb cb);
/* From the translation callback: call @cb every time @tb runs. */
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qapi_vcpu_udata_cb cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
/*
 * From the translation callback: call @cb after every access of @insn of
 * the kind @rw, with the guest's virtual address it accessed.
 */
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qapi_mem_cb cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw,
				      void *userdata);
/* User mode: before every system call, and after it returned. */
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id,
					  qapi_syscall_cb cb);
void qemu_plugin_register_vcpu_syscall_ret_cb(qemu_plugin_id_t id,
					      qapi_syscall_ret_cb cb);
/* When QEMU exits (user mode: exit_group, or a signal that ends it). */
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qapi_udata_cb cb,
				    void *userdata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
/* The instruction's bytes as translated, and how many. */
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

/* User mode: where the guest program's (not its loader's) code starts. */
uint64_t qemu_plugin_start_code(void);

/* Was the access a store? */
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);

/* Print through QEMU's log (stderr unless -D). */
void qemu_plugin_outs(const char *string);

#endif /* BLOCKRANGE_QEMU_API_H */
