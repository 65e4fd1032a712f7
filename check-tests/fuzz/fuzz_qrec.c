// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the reader of QEMU recording directories
 * (userspace/cli/input/qrec.c, the wire format of
 * userspace/format/qrec_wire.h).  Built by `make fuzz-qrec` (with
 * BLOCKRANGE_FUZZ_LIBFUZZER: the LLVMFuzzerTestOneInput entry point) and
 * into the CLI's Check runner, which replays the corpus through
 * qrec_fuzz_one() and converts each directory through the whole writer.
 *
 * The input is a small container of files, so that the fuzzer mutates
 * headers, records and tables rather than a directory:
 *
 *   byte 0         bit 0: the reader expects an exact recording (else
 *                  sampled)
 *   then up to QF_MAX_FILES entries, to the end of the input:
 *     u8 kind      bit 0: a table (.qtab; else records, .qrec)
 *                  bit 1: the content's first bytes are the header (the
 *                         struct qrec_header of a records file, padded
 *                         with zeros to its 4096-byte page; the 64 bytes
 *                         of a table's), the rest follows it
 *                  bit 2: stamp the header: magic, version, size, pid,
 *                         image and mode of a records file agree with
 *                         its name and the mode expected; a table's magic
 *     u8 pid       the file is named (100 + pid).IMAGE.SEQ.qrec or .qtab
 *     u8 image
 *     u8 seq
 *     u16 len      little-endian: the bytes of content that follow (fewer
 *                  if the input ends first)
 *
 * For any input, qrec_read() on that directory:
 *  - returns 0, BR_EINPUT or BR_ESYS; an error comes with one line of
 *    printable text, and BR_EINPUT's names the directory or a file of it;
 *  - on success describes a consistent recording: every file's image
 *    exists, images in the order they began, every record of
 *    qrec_order() inside its file and in time order, every MAP's mapping
 *    known, every sample within the branch limit (and its call stack
 *    within QREC_STACK_MAX frames, inside its record), every image's traces
 *    readable;
 *  - leaks no memory and no file descriptor;
 *  - reads the same directory again with the same status, message and
 *    description (a digest of all the above).
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/status.h"
#include "common/hash.h"
#include "input/qrec.h"

#include "fuzz_check.h"

#define QF_MAX_FILES 8
#define QF_MAX_BRANCHES 64
#define QF_ERR 4608

/* Write @n bytes of @p to @path (created or truncated). */
static void put(const char *path, const uint8_t *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	CHECK(fd >= 0);
	CHECK(n == 0 || write(fd, p, n) == (ssize_t)n);
	close(fd);
}

/*
 * The content @p of @n bytes as the file's bytes in a new buffer of *@len:
 * with @pad, its first @head bytes are the header, padded with zeros to
 * @hsize; at least @min bytes.
 */
static uint8_t *lay_out(const uint8_t *p, size_t n, bool pad, size_t head,
			size_t hsize, size_t min, size_t *len)
{
	size_t body = pad ? (n > head ? n - head : 0) : n;
	size_t at = pad ? hsize : 0;
	uint8_t *buf;

	*len = at + body > min ? at + body : min;
	buf = calloc(1, *len + 1);
	CHECK(buf);
	if (pad)
		memcpy(buf, p, n < head ? n : head);
	memcpy(buf + at, p + (n - body), body);
	return buf;
}

/* The file of one entry, its header placed and stamped as asked. */
static void put_entry(const char *dir, const uint8_t *e, uint32_t mode,
		      const uint8_t *p, size_t n)
{
	bool table = e[0] & 1, pad = e[0] & 2, stamp = e[0] & 4;
	unsigned pid = 100u + e[1], image = e[2], seq = e[3];
	size_t head = table ? sizeof(struct qrec_table) :
		      sizeof(struct qrec_header);
	char path[PATH_MAX];
	uint8_t *buf;
	size_t len;

	buf = lay_out(p, n, pad, head, table ? head : QREC_HEADER_SIZE,
		      stamp ? head : 0, &len);
	if (stamp && table) {
		memcpy(buf, QREC_TABLE_MAGIC, 8);
	} else if (stamp) {
		struct qrec_header h;

		memcpy(&h, buf, sizeof(h));
		memcpy(h.magic, QREC_MAGIC, sizeof(h.magic));
		h.version = QREC_VERSION;
		h.size = QREC_HEADER_SIZE;
		h.pid = (int32_t)pid;
		h.image = image;
		h.mode = mode;
		memcpy(buf, &h, sizeof(h));
	}
	snprintf(path, sizeof(path), "%s/%u.%u.%u.%s", dir, pid, image, seq,
		 table ? "qtab" : "qrec");
	put(path, buf, len);
	free(buf);
}

/* Remove every file of @dir (the directory stays). */
static void empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	CHECK(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			CHECK(!unlinkat(dirfd(d), e->d_name, 0));
	closedir(d);
}

int qrec_fuzz_dir(const uint8_t *data, size_t size, const char *dir,
		  uint32_t *mode);

/*
 * Make the files of the container @data in the (empty) directory @dir;
 * *@mode: the mode the reader is to expect.  Returns the files made.
 */
int qrec_fuzz_dir(const uint8_t *data, size_t size, const char *dir,
		  uint32_t *mode)
{
	size_t at = 1;
	int files = 0;

	*mode = size && (data[0] & 1) ? QREC_EXACT : QREC_SAMPLED;
	while (files < QF_MAX_FILES && at + 6 <= size) {
		const uint8_t *e = data + at;
		size_t n = (size_t)e[4] | (size_t)e[5] << 8;

		at += 6;
		if (n > size - at)
			n = size - at;
		put_entry(dir, e, *mode, data + at, n);
		at += n;
		files++;
	}
	return files;
}

/* The lowest free file descriptor. */
static int lowest_fd(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	CHECK(fd >= 0);
	close(fd);
	return fd;
}

static void check_message(const char *err, int ret, const char *dir)
{
	size_t i;

	CHECK(err[0]);
	for (i = 0; err[i]; i++)
		CHECK(err[i] >= 0x20 && err[i] < 0x7f);
	CHECK(i < QF_ERR - 1);
	if (ret == BR_EINPUT)
		CHECK(!strncmp(err, dir, strlen(dir)));
}

/* The records in time order, each decoded and checked, into @h. */
static uint64_t walk_records(const struct qrec_recording *rec, uint64_t h)
{
	struct qrec_ref *refs;
	char err[QF_ERR];
	size_t nr, i;
	uint32_t k;

	CHECK(!qrec_order(rec, &refs, &nr, err, sizeof(err)));
	for (i = 0; i < nr; i++) {
		const struct qrec_file *f = &rec->files[refs[i].file];
		struct qrec_item it;

		CHECK(refs[i].file < rec->nr_files && !f->table);
		CHECK(refs[i].off >= QREC_HEADER_SIZE && refs[i].off <= f->end);
		CHECK(!i || refs[i - 1].time <= refs[i].time);
		qrec_item_at(rec, &refs[i], &it);
		CHECK(it.type == refs[i].type && it.img < rec->nr_images);
		h = br_hash2(h, refs[i].time ^ (uint64_t)it.type << 56);
		if (it.type == QREC_MAP) {
			const struct qrec_mapping *m =
				qrec_mapping_of(&rec->images[it.img], it.u.map.id);

			CHECK(m && m->path && m->m.id == it.u.map.id);
			h = br_hash2(h, m->m.start ^ m->m.end ^ strlen(m->path));
		} else if (it.type == QREC_SAMPLE) {
			CHECK(it.u.sample.nr <= QF_MAX_BRANCHES);
			for (k = 0; k < it.u.sample.nr; k++) {
				struct qrec_branch b;

				qrec_item_branch(&it, k, &b);
				h = br_hash2(h, b.from ^ b.to);
			}
			/* the call stack (version 2), inside its record */
			CHECK(QREC_STACK_FRAMES(it.u.sample.stack) <= QREC_STACK_MAX);
			for (k = 0; k < QREC_STACK_FRAMES(it.u.sample.stack); k++)
				h = br_hash2(h, qrec_item_frame(&it, k));
		}
	}
	free(refs);
	return h;
}

/* Every image and its traces, checked, into @h. */
static uint64_t walk_images(const struct qrec_recording *rec, uint64_t h)
{
	struct qrec_tracev tv = { 0 };
	char err[QF_ERR];
	size_t i, k;

	CHECK(rec->nr_images && rec->t0 == rec->images[0].t0);
	CHECK(rec->processes <= rec->threads && rec->threads <= rec->nr_files);
	for (i = 0; i < rec->nr_files; i++)
		CHECK(rec->files[i].img < rec->nr_images);
	for (i = 0; i < rec->nr_images; i++) {
		const struct qrec_image *im = &rec->images[i];

		CHECK(im->t0 && (!i || rec->images[i - 1].t0 <= im->t0));
		CHECK(qrec_image_traces(rec, i, &tv, err, sizeof(err)) == 0);
		h = br_hash2(h, (uint64_t)im->pid << 32 ^ im->image ^ tv.n);
		for (k = 0; k < tv.n; k++) {
			const struct qrec_mapping *m =
				qrec_mapping_of(im, tv.v[k].map);

			CHECK(!m || m->m.id == tv.v[k].map);
			h = br_hash2(h, tv.v[k].count ^ tv.v[k].start ^ !m);
		}
		for (k = 0; k < im->nr_maps; k++)
			CHECK(qrec_mapping_of(im, im->maps[k].m.id) ==
			      &im->maps[k]);
	}
	free(tv.v);
	return br_hash2(h, (uint64_t)(int64_t)qrec_cut_pid(rec));
}

/* Read @dir: its status, its message, a digest of what it describes. */
static int read_once(const char *dir, uint32_t mode, char *err,
		     uint64_t *digest)
{
	const struct qrec_read_opts o = { mode, QF_MAX_BRANCHES };
	struct qrec_recording rec;
	int fd0 = lowest_fd(), ret;

	err[0] = '\0';
	ret = qrec_read(&rec, dir, &o, err, QF_ERR);
	CHECK(ret == 0 || ret == BR_EINPUT || ret == BR_ESYS);
	*digest = 0;
	if (ret) {
		check_message(err, ret, dir);
	} else if (rec.nr_files) {
		*digest = walk_images(&rec, walk_records(&rec, rec.counts.insns));
		*digest = br_hash2(*digest, rec.maps ^ rec.threads << 20);
	}
	qrec_recording_free(&rec);
	CHECK(lowest_fd() == fd0);
	return ret;
}

static char qf_dir[PATH_MAX];

static void remove_qf_dir(void)
{
	empty_dir(qf_dir);
	rmdir(qf_dir);
}

int qrec_fuzz_one(const uint8_t *data, size_t size);

int qrec_fuzz_one(const uint8_t *data, size_t size)
{
	char ea[QF_ERR], eb[QF_ERR];
	uint64_t da, db;
	uint32_t mode;
	int ra, rb;

	if (!qf_dir[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(qf_dir, sizeof(qf_dir), "%s/qrec-fuzz.XXXXXX",
			 t && *t ? t : "/tmp");
		CHECK(mkdtemp(qf_dir));
		atexit(remove_qf_dir);
	}
	qrec_fuzz_dir(data, size, qf_dir, &mode);
	ra = read_once(qf_dir, mode, ea, &da);
	rb = read_once(qf_dir, mode, eb, &db);
	CHECK(ra == rb && !strcmp(ea, eb) && da == db);
	empty_dir(qf_dir);
	return 0;
}

#ifdef BLOCKRANGE_FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return qrec_fuzz_one(data, size);
}
#endif
