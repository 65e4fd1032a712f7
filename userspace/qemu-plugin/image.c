// SPDX-License-Identifier: GPL-2.0
/*
 * A process image's beginning and end: a forked child starts an image of
 * its own (it drops its copy of the parent's unwritten data and opens its
 * own files); at exit every thread's last straight lines and the END
 * record are written, and everything is freed.  Calls threads.c, exact.c,
 * ring.c, maps.c, blocks.c, output.c and context.c.
 */
#define _GNU_SOURCE

#include <string.h>
#include <unistd.h>

#include "qemu-plugin/plugin.h"

/*
 * In a forked child: a new image of its own.  The parent's mappings are
 * not here (MADV_DONTFORK) and its threads' data is the parent's.
 */
void child_after_fork(struct th *t)
{
	struct th *o, *nx;
	size_t i;

	g.ppid = g.pid;
	g.pid = (int32_t)getpid();
	g.image = 0;
	g.next_seq = 0;
	g.flags = QREC_H_FORKED;
	g.t0 = now();
	g.decode_misses = 0;
	g.exit_seen = false;
	g.ended = false;
	for (o = g.threads; o; o = nx) {
		nx = o->next;
		if (o != t)
			th_free(o);
	}
	g.threads = t;
	t->next = NULL;
	t->tid = gettid_();
	t->hdr = NULL;
	t->win = NULL;
	t->cnt = NULL;
	t->tabh = NULL;
	t->tab = NULL;
	t->tab_cap = 0;
	t->tab_nr = 0;
	rents_forget(t);
	t->nsig = 0;
	t->sigreturn = false;
	t->prev = &k_start;	/* fork's return: a new straight line */
	memset(&t->n, 0, sizeof(t->n));
	t->taken0 = t->pos;
	ring_reset(t);
	pthread_mutex_lock(&g.lock);
	t->seq = g.next_seq++;
	stream_open(t);
	counts_sync(t);
	rec_task(t, QREC_FORK, g.ppid, t->tid, t->tid);
	rec_comm(t, g.comm, false);
	/* the mappings it inherited, the live ones last (they win) */
	for (i = 0; i < g.nr_maps; i++)
		if (!g.maps[i].live)
			rec_map(t, &g.maps[i]);
	for (i = 0; i < g.nr_maps; i++)
		if (g.maps[i].live)
			rec_map(t, &g.maps[i]);
	pthread_mutex_unlock(&g.lock);
}

/*
 * The image ends (g.lock not held): at exit every thread is stopped and
 * finishes; at an exec only @self does (the others are ended by the exec,
 * their data is in their files already).  The end record goes to @self.
 */
void image_finish(struct th *self, uint32_t how)
{
	struct th *t;

	pthread_mutex_lock(&g.lock);
	if (how != QREC_END_EXEC)
		for (t = g.threads; t; t = t->next)
			if (t != self)
				th_finish(t, true);
	th_close_ranges(self);
	rec_end(self, how);
	th_finish(self, how != QREC_END_EXEC);
	g.ended = true;
	pthread_mutex_unlock(&g.lock);
}

void on_atexit(qemu_plugin_id_t id, void *udata)
{
	struct th *t, *nx, *self = cur;

	(void)id;
	(void)udata;
	if (g.failed || g.ended)
		return;
	if (!self)
		self = th_alloc(gettid_());
	image_finish(self, g.exit_seen ? QREC_END_EXIT : QREC_END_SIGNAL);
	for (t = g.threads; t; t = nx) {
		nx = t->next;
		th_free(t);
	}
	g.threads = NULL;
	cur = NULL;
	blocks_free();
	maps_free();
}
