// SPDX-License-Identifier: GPL-2.0
/*
 * A thread's files and the records written to them.  Every thread writes
 * its own files through shared mappings (see qrec_wire.h): whatever it
 * wrote is in the page cache, and survives the process being killed.  No
 * file descriptor stays open (the program could close it or reuse its
 * number); mappings are not inherited by a forked child (MADV_DONTFORK),
 * which starts files of its own.  Calls context.c only.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "qemu-plugin/plugin.h"

void file_path(char *buf, size_t size, uint32_t seq, const char *ext)
{
	snprintf(buf, size, "%s/%d.%u.%u.%s", g.dir, (int)g.pid, g.image, seq,
		 ext);
}

/* Room for [@off, @off + @len) in the file @fd (@path for messages). */
void file_room(int fd, const char *path, uint64_t off, uint64_t len)
{
	int e = posix_fallocate(fd, (off_t)off, (off_t)len);

	if (e)
		fatal("writing %s: %s", path, strerror(e));
}

void *file_map(int fd, const char *path, uint64_t off, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       (off_t)off);

	if (p == MAP_FAILED)
		fatal("mapping %s: %s", path, strerror(errno));
	madvise(p, len, MADV_DONTFORK);
	return p;
}

/*
 * The records file of @t, number @t->seq of the image.  The image's first
 * thread (seq 0) also takes the image's number: the first N free.
 */
void stream_open(struct th *t)
{
	char path[PATH_MAX + 64];
	struct qrec_header *h;
	int fd;

	for (;;) {
		file_path(path, sizeof(path), t->seq, "qrec");
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST || t->seq)
			break;
		g.image++;
	}
	if (fd < 0)
		fatal("cannot create %s: %s", path, strerror(errno));
	file_room(fd, path, 0, QREC_HEADER_SIZE + WIN_MIN);
	t->hdr = file_map(fd, path, 0, QREC_HEADER_SIZE);
	t->win = file_map(fd, path, QREC_HEADER_SIZE, WIN_MIN);
	close(fd);
	t->win_off = QREC_HEADER_SIZE;
	t->win_len = WIN_MIN;
	t->at = 0;
	h = t->hdr;
	memcpy(h->magic, QREC_MAGIC, sizeof(h->magic));
	h->version = QREC_VERSION;
	h->size = QREC_HEADER_SIZE;
	h->mode = g.exact ? QREC_EXACT : QREC_SAMPLED;
	h->depth = g.depth;
	h->period = g.period;
	h->jitter = g.jitter;
	h->pid = g.pid;
	h->ppid = g.ppid;
	h->tid = t->tid;
	h->image = g.image;
	h->flags = g.flags;
	h->state = QREC_RUNNING;
	h->time = g.t0;
	t->cnt = &h->counts;
}

/* The next window of @t's file, with room for @need bytes. */
static void stream_advance(struct th *t, size_t need)
{
	char path[PATH_MAX + 64];
	size_t left = t->win_len - t->at, len;
	int fd;

	if (left) {
		struct qrec_rec *pad = (struct qrec_rec *)(t->win + t->at);

		pad->type = QREC_PAD;
		pad->size = (uint32_t)left;
	}
	munmap(t->win, t->win_len);
	t->win_off += t->win_len;
	len = t->win_len < WIN_MAX ? 2 * t->win_len : WIN_MAX;
	while (len < need)
		len *= 2;
	file_path(path, sizeof(path), t->seq, "qrec");
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fatal("cannot reopen %s: %s", path, strerror(errno));
	file_room(fd, path, t->win_off, len);
	t->win = file_map(fd, path, t->win_off, len);
	close(fd);
	t->win_len = len;
	t->at = 0;
}

/* The thread is done: mark it, give back the room it did not use. */
void stream_close(struct th *t)
{
	char path[PATH_MAX + 64];
	int fd;

	if (!t->hdr)
		return;
	t->n.taken = t->pos - t->taken0;
	t->hdr->counts = t->n;
	t->hdr->state = QREC_FINISHED;
	file_path(path, sizeof(path), t->seq, "qrec");
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		/* on failure the zero-filled room reads as the end anyway */
		(void)!ftruncate(fd, (off_t)(t->win_off + t->at));
		close(fd);
	}
	munmap(t->win, t->win_len);
	munmap(t->hdr, QREC_HEADER_SIZE);
	t->win = NULL;
	t->hdr = NULL;
	t->cnt = NULL;
}

/* Room for a record of @size bytes (its header included) in @t's file. */
void *rec_begin(struct th *t, uint32_t type, size_t size)
{
	struct qrec_rec *r;

	size = (size + 7) & ~(size_t)7;
	if (t->at + size > t->win_len)
		stream_advance(t, size);
	r = (struct qrec_rec *)(t->win + t->at);
	memset(r + 1, 0, size - sizeof(*r));
	r->size = (uint32_t)size;
	t->at += size;
	/* the type last: a record is complete once it has one */
	__atomic_store_n(&r->type, type, __ATOMIC_RELEASE);
	return r + 1;
}

void rec_comm(struct th *t, const char *comm, bool exec)
{
	struct qrec_comm *c = rec_begin(t, QREC_COMM, sizeof(struct qrec_rec) +
					sizeof(*c));

	c->time = now();
	c->pid = g.pid;
	c->tid = t->tid;
	c->exec = exec;
	strncpy(c->comm, comm, sizeof(c->comm) - 1);
}

void rec_task(struct th *t, uint32_t type, int32_t ppid, int32_t tid,
	      int32_t ptid)
{
	struct qrec_task *k = rec_begin(t, type, sizeof(struct qrec_rec) +
					sizeof(*k));

	k->time = now();
	k->pid = g.pid;
	k->ppid = ppid;
	k->tid = tid;
	k->ptid = ptid;
}

void rec_map(struct th *t, const struct map *m)
{
	size_t len = m->path ? strlen(m->path) : 0;
	struct qrec_map *r = rec_begin(t, QREC_MAP, sizeof(struct qrec_rec) +
				       sizeof(*r) + len);

	r->time = now();
	r->id = m->id;
	r->path_len = (uint32_t)len;
	r->start = m->start;
	r->end = m->end;
	r->pgoff = m->pgoff;
	r->maj = m->maj;
	r->min = m->min;
	r->ino = m->ino;
	if (len)
		memcpy(r + 1, m->path, len);
}

/* The totals into the header page, where a kill leaves them. */
void counts_sync(struct th *t)
{
	t->n.taken = t->pos - t->taken0;
	if (t->cnt)
		*t->cnt = t->n;
}

void rec_exec(struct th *t, const char *path)
{
	struct qrec_exec *e;
	size_t len = strlen(path);

	e = rec_begin(t, QREC_EXEC, sizeof(struct qrec_rec) + sizeof(*e) +
		      len);
	e->time = now();
	e->pid = g.pid;
	e->tid = t->tid;
	e->path_len = (uint32_t)len;
	memcpy(e + 1, path, len);
}

void rec_end(struct th *t, uint32_t how)
{
	struct qrec_end *e = rec_begin(t, QREC_END, sizeof(struct qrec_rec) +
				       sizeof(*e));

	e->time = now();
	e->pid = g.pid;
	e->how = how;
	e->status = g.exit_status;
	e->decode_misses = g.decode_misses;
	e->maps = g.next_map;
}
