// SPDX-License-Identifier: GPL-2.0
/*
 * System calls: before each one and after it returned, what it means for
 * the recording: mappings changed (maps.c), a signal handler installed
 * (blocks.c), rt_sigreturn (pair.c restores the interrupted context),
 * clone, fork, execve (execve.c), exit, exit_group and prctl(PR_SET_NAME).
 * Calls execve.c, image.c, threads.c, maps.c, blocks.c, output.c,
 * guest.c and context.c.
 */
#define _GNU_SOURCE

#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "qemu-plugin/plugin.h"

void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num,
		uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
		uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
	struct th *t = cur ? cur : th_start();
	char path[PATH_MAX];

	(void)id;
	(void)vcpu;
	(void)a6;
	(void)a7;
	(void)a8;
	t->sys = num;
	t->sa[0] = a1;
	t->sa[1] = a2;
	t->sa[2] = a3;
	switch (num) {
	case SYS_rt_sigreturn:
		t->sigreturn = true;
		stack_sigreturn(t);
		break;
	case SYS_rt_sigaction: {
		uint64_t handler;

		if (a2 && guest_read(&handler, a2, sizeof(handler)))
			add_handler(handler);
		break;
	}
	case SYS_clone:
		t->clone_flags = a1;
		if (a1 & CLONE_VM)
			g.cloner = t->tid;
		break;
	case SYS_clone3:
		if (!guest_read(&t->clone_flags, a1, sizeof(t->clone_flags)))
			t->clone_flags = 0;
		if (t->clone_flags & CLONE_VM)
			g.cloner = t->tid;
		break;
	case SYS_fork:
	case SYS_vfork:
		t->clone_flags = 0;
		break;
	case SYS_execve:
		if (guest_str(path, sizeof(path), a1))
			follow_exec(t, path, a2, a3);
		break;
	case SYS_execveat:
		follow_execveat(t, a1, a2, a3, a4, a5);
		break;
	case SYS_exit: {
		bool last;

		pthread_mutex_lock(&g.lock);
		last = g.threads == t && !t->next;
		if (last) {
			/* the last thread: the process exits with it */
			g.exit_status = (int64_t)a1;
			g.exit_seen = true;
		} else {
			th_finish(t, true);
		}
		pthread_mutex_unlock(&g.lock);
		if (last)
			image_finish(t, QREC_END_EXIT);
		th_unlink(t);
		th_free(t);
		cur = NULL;
		break;
	}
	case SYS_exit_group:
		g.exit_status = (int64_t)a1;
		g.exit_seen = true;
		break;
	case SYS_prctl:
		if (a1 == PR_SET_NAME && a2) {
			char name[QREC_COMM_LEN];

			memset(name, 0, sizeof(name));
			if (!guest_str(name, sizeof(name), a2))
				/* 16 bytes, the last one not NUL: cut it */
				guest_read(name, a2, sizeof(name) - 1);
			pthread_mutex_lock(&g.lock);
			rec_comm(t, name, false);
			pthread_mutex_unlock(&g.lock);
		}
		break;
	default:
		break;
	}
	(void)a4;
}

void on_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu, int64_t num,
		    int64_t ret)
{
	struct th *t = cur;
	uint64_t a1, a2, a3;

	(void)id;
	(void)vcpu;
	if (!t || num != t->sys)
		return;
	a1 = t->sa[0];
	a2 = t->sa[1];
	a3 = t->sa[2];
	switch (num) {
	case SYS_mmap:
		if (ret >= 0 || ret < -4095)
			maps_touched((uint64_t)ret, (uint64_t)ret + a2);
		break;
	case SYS_munmap:
	case SYS_mprotect:
	case SYS_pkey_mprotect:
	case SYS_remap_file_pages:
		maps_touched(a1, a1 + a2);
		break;
	case SYS_mremap:
		maps_touched(a1, a1 + a2);
		if (ret >= 0 || ret < -4095)
			maps_touched((uint64_t)ret, (uint64_t)ret + a3);
		break;
	case SYS_shmat:
	case SYS_shmdt:
		maps_touched(0, UINT64_MAX);
		break;
	case SYS_clone:
	case SYS_clone3:
	case SYS_fork:
	case SYS_vfork:
		if (ret == 0 && !(t->clone_flags & CLONE_VM))
			child_after_fork(t);
		break;
	default:
		break;
	}
}
