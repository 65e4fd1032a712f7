// SPDX-License-Identifier: GPL-2.0
/*
 * `blockrange record --engine=qemu`: run the program under qemu-x86_64 with
 * the recorder plugin, then turn its recording directory into perf.data,
 * perf-script text or a .brprof.  See qemu_rec.h and docs/record.md; the
 * files the plugin writes are described in qrec_wire.h.
 */
#define _GNU_SOURCE

#include "record/qemu_rec.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/perf_event.h>

/* the plugin's, below every layer of the CLI like the library's */
#include "common/qexec.h"
#include "format/qrec_wire.h"

#include "base/grow.h"
#include "base/status.h"
#include "input/brprof.h"
#include "resolve/dso.h"
#include "collect/annot.h"
#include "output/brprof_write.h"
#include "output/perfdata_write.h"
#include "output/pswrite.h"
#include "record/recout.h"

#define STATUS_SIZE 4096

/* An executable segment of a mapping, as the kernel would have mapped it. */
struct qseg {
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
};

struct qmap {
	bool present;
	uint32_t id;
	uint64_t start;
	uint64_t end;
	uint64_t pgoff;
	uint32_t maj;
	uint32_t min;
	uint64_t ino;
	char *path;		/* "//anon" for anonymous code */
	struct qseg segs[4];
	unsigned nsegs;		/* 0: the whole mapping */
	bool refined;
};

/* A process image: the program, a forked child, or an exec'ed program. */
struct qimage {
	int32_t pid;
	int32_t ppid;
	uint32_t image;		/* N of its files */
	uint32_t flags;		/* QREC_H_* */
	uint64_t t0;
	struct qmap *maps;	/* by id */
	size_t nr_maps;
	bool ended;		/* its QREC_END was read */
	uint32_t how;		/* QREC_END_* */
	int64_t status;
};

/* A file of the recording: a thread's records, or its trace table. */
struct qfile {
	char *name;		/* its path, for messages */
	const uint8_t *buf;
	size_t len;
	bool table;		/* a .qtab */
	int32_t pid;
	uint32_t image;		/* N */
	uint32_t seq;
	size_t img;		/* index of its image */
	struct qrec_header h;	/* records files */
	size_t end;		/* where its records end */
	bool running;		/* its thread never finished (killed) */
};

/* A record of a file, in the order of the output. */
struct qref {
	uint64_t time;
	uint32_t file;
	uint32_t type;
	size_t off;		/* of the record's payload */
};

struct qtotals {
	uint64_t insns;
	uint64_t taken;
	uint64_t samples;
	uint64_t signals;
	uint64_t breaks;
	uint64_t threads;
	uint64_t processes;
	uint64_t maps;
	uint64_t traces;
	uint64_t edges;
	uint64_t decode_misses;
};

struct qrec {
	const struct qrec_opts *o;
	char *err;
	size_t errsz;
	char qemu[PATH_MAX];
	char plugin[PATH_MAX];
	char prog[PATH_MAX];	/* argv[0] as found in PATH */
	struct qexec qx;
	char dir[PATH_MAX];	/* the recording directory */
	char *status;		/* its status page (mapped) */
	int root_status;	/* wait status of the program */
	struct qfile *files;
	size_t nr_files;
	struct qimage *images;	/* in the order they began */
	size_t nr_images;
	uint64_t t0;
	struct qtotals tot;
	/* sampled output */
	struct recout out;
	struct dso_registry *reg;	/* the mapped files' build-ids */
	uint64_t last_time;
};

static int qfail(struct qrec *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int qfail(struct qrec *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, r->errsz, fmt, ap);
	va_end(ap);
	return BR_ESYS;
}

/* ---- finding qemu, the plugin and the program ---------------------------- */

/* @name as execvp(3) finds it (a name with '/' as it is) into @out. */
static bool find_exec(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(name, '/'))
		return snprintf(out, size, "%s", name) < (int)size &&
		       !access(out, X_OK);
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; ) {
		size_t n = strcspn(p, ":");
		struct stat st;

		if (snprintf(out, size, "%.*s%s%s", (int)n, p, n ? "/" : "",
			     name) < (int)size && !access(out, X_OK) &&
		    !stat(out, &st) && S_ISREG(st.st_mode))
			return true;
		if (!p[n])
			return false;
		p += n + 1;
	}
}

/* Does the ELF file @path export the dynamic symbol @sym? */
static bool exports(const char *path, const char *sym)
{
	bool found = false;
	Elf_Scn *scn = NULL;
	Elf *e;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && !found && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM ||
		    !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n && !found; i++) {
			GElf_Sym s;
			const char *nm;

			if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF)
				continue;
			nm = elf_strptr(e, sh.sh_link, s.st_name);
			found = nm && !strcmp(nm, sym);
		}
	}
	elf_end(e);
	close(fd);
	return found;
}

static int find_qemu(struct qrec *r)
{
	const char *env = getenv("BLOCKRANGE_QEMU");

	if (env && *env) {
		if (!find_exec(env, r->qemu, sizeof(r->qemu)))
			return qfail(r, "BLOCKRANGE_QEMU=%s: not an executable file", env);
	} else if (!find_exec("qemu-x86_64", r->qemu, sizeof(r->qemu))) {
		return qfail(r, "qemu-x86_64 not found in PATH: install Debian's qemu-user (apt-get install qemu-user), or record with --engine=ptrace");
	}
	if (!exports(r->qemu, "qemu_plugin_register_vcpu_tb_exec_cb"))
		return qfail(r, "%s cannot load TCG plugins (a static build such as qemu-user-static's?): install Debian's qemu-user (apt-get install qemu-user), or set BLOCKRANGE_QEMU",
			     r->qemu);
	return 0;
}

/*
 * --cpu MODEL must be one of `qemu-x86_64 -cpu help` ("x86 NAME ..."
 * lines): QEMU would say so only after the plugin is loaded.
 */
static int check_cpu(struct qrec *r)
{
	char line[256], cmd[PATH_MAX + 32];
	bool found = false;
	FILE *f;

	if (!r->o->cpu)
		return 0;
	if (snprintf(cmd, sizeof(cmd), "'%s' -cpu help", r->qemu) >= (int)sizeof(cmd) ||
	    strchr(r->qemu, '\''))
		return qfail(r, "%s: path not usable", r->qemu);
	f = popen(cmd, "re");
	if (!f)
		return qfail(r, "%s -cpu help: %s", r->qemu, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char name[128];

		if (sscanf(line, "x86 %127s", name) == 1 && !strcmp(name, r->o->cpu))
			found = true;
	}
	pclose(f);
	if (!found)
		return qfail(r, "expected --cpu MODEL of `%s -cpu help`, got '%s'",
			     r->qemu, r->o->cpu);
	return 0;
}

static int find_plugin(struct qrec *r)
{
	const char *env = getenv("BLOCKRANGE_QEMU_PLUGIN");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env) {
		if (snprintf(r->plugin, sizeof(r->plugin), "%s", env) >=
		    (int)sizeof(r->plugin) || access(r->plugin, R_OK))
			return qfail(r, "BLOCKRANGE_QEMU_PLUGIN=%s: cannot read it", env);
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return qfail(r, "cannot find the blockrange binary (/proc/self/exe): %s",
			     strerror(errno));
	self[n] = '\0';
	slash = strrchr(self, '/');
	*slash = '\0';
	if (snprintf(r->plugin, sizeof(r->plugin), "%s/%s", self,
		     QREC_PLUGIN_REL) >= (int)sizeof(r->plugin))
		return qfail(r, "%s: path too long", self);
	if (access(r->plugin, R_OK)) {
		char *real = realpath(self, NULL);

		qfail(r, "the recorder's QEMU plugin is missing (%s/%s): build it (make cli) or install blockrange (make install), or set BLOCKRANGE_QEMU_PLUGIN",
		      real ? real : self, QREC_PLUGIN_REL);
		free(real);
		return BR_ESYS;
	}
	/* an absolute path without "..": the plugin reruns itself by it */
	{
		char *real = realpath(r->plugin, NULL);

		if (real) {
			snprintf(r->plugin, sizeof(r->plugin), "%s", real);
			free(real);
		}
	}
	return 0;
}

static int find_program(struct qrec *r)
{
	const char *name = r->o->argv[0];
	int res;

	errno = ENOENT;
	if (!find_exec(name, r->prog, sizeof(r->prog)))
		return qfail(r, "cannot run %s: %s", name,
			     strerror(strchr(name, '/') ? errno : ENOENT));
	res = qexec_resolve(r->prog, name, &r->qx);
	switch (res) {
	case QEXEC_ELF:
		return 0;
	case QEXEC_ERRNO:
		return qfail(r, "cannot run %s: %s", r->prog,
			     strerror(r->qx.err_no));
	case QEXEC_FOREIGN:
		return qfail(r, "%s: not an x86-64 program (%s): the qemu engine records x86-64 programs only",
			     r->prog, r->qx.why);
	case QEXEC_LOOP:
		return qfail(r, "%s: more than %d levels of #! interpreters",
			     r->prog, QEXEC_DEPTH);
	default:
		return qfail(r, "%s: neither an ELF program nor a #! script",
			     r->prog);
	}
}

/* ---- running it ----------------------------------------------------------- */

/*
 * The program's process while record waits for it: SIGTERM and SIGHUP to
 * record go to it, so that record still writes what was recorded and
 * removes its directory.  (A signal handler has no argument: a static.)
 */
static volatile pid_t waited_child;

static void forward(int sig)
{
	if (waited_child > 0)
		kill(waited_child, sig);
}

/* Append ",KEY=VALUE" to @spec, commas doubled as QEMU's options want. */
static bool spec_add(char *spec, size_t size, const char *key,
		     const char *val)
{
	size_t n = strlen(spec);
	int k = snprintf(spec + n, size - n, ",%s=", key);

	if (k < 0 || (size_t)k >= size - n)
		return false;
	n += (size_t)k;
	for (; *val; val++) {
		if (n + 3 > size)
			return false;
		spec[n++] = *val;
		if (*val == ',')
			spec[n++] = ',';
	}
	spec[n] = '\0';
	return true;
}

static bool spec_add_u64(char *spec, size_t size, const char *key,
			 uint64_t v)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRIu64, v);
	return spec_add(spec, size, key, num);
}

/* The recording directory, beside the output (or in $TMPDIR for -). */
static int make_dir(struct qrec *r)
{
	const char *out = r->o->output;
	char base[PATH_MAX];
	int fd;

	if (!strcmp(out, "-")) {
		const char *t = getenv("TMPDIR");

		snprintf(base, sizeof(base), "%s", t && *t ? t : "/tmp");
	} else {
		const char *slash = strrchr(out, '/');

		if (!slash)
			snprintf(base, sizeof(base), ".");
		else if (slash == out)
			snprintf(base, sizeof(base), "/");
		else
			snprintf(base, sizeof(base), "%.*s", (int)(slash - out), out);
	}
	if (snprintf(r->dir, sizeof(r->dir), "%s/.blockrange-record.XXXXXX",
		     base) >= (int)sizeof(r->dir))
		return qfail(r, "%s: path too long", base);
	if (!mkdtemp(r->dir)) {
		int e = errno;

		r->dir[0] = '\0';
		return qfail(r, "cannot create a recording directory in %s: %s",
			     base, strerror(e));
	}
	/* the status page: one line from the plugin if recording failed */
	{
		char path[PATH_MAX + 16];
		static const char zero[STATUS_SIZE];

		snprintf(path, sizeof(path), "%s/status", r->dir);
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 || write(fd, zero, sizeof(zero)) != sizeof(zero)) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			return qfail(r, "%s: %s", path, strerror(e));
		}
		r->status = mmap(NULL, STATUS_SIZE, PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		if (r->status == MAP_FAILED) {
			r->status = NULL;
			return qfail(r, "%s: %s", path, strerror(errno));
		}
	}
	return 0;
}

static void remove_dir(struct qrec *r)
{
	DIR *d;
	struct dirent *e;

	if (!r->dir[0])
		return;
	d = opendir(r->dir);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
	rmdir(r->dir);
}

static const char *cpu_model(const struct qrec *r)
{
	return r->o->cpu ? r->o->cpu : QREC_DEFAULT_CPU;
}

/* The plugin's one line when recording failed (its status page). */
static int plugin_status(struct qrec *r)
{
	if (r->status && r->status[0] && r->status[1])
		return qfail(r, "%.*s", STATUS_SIZE - 9, r->status + 8);
	return 0;
}

static int run_program(struct qrec *r)
{
	const struct qrec_opts *o = r->o;
	static char spec[4 * PATH_MAX + 512];
	struct sigaction ign, fwd, old_int, old_quit, old_term, old_hup;
	char comm[QREC_COMM_LEN];
	const char *base = strrchr(r->prog, '/');
	char **args;
	size_t nargs = 0, i, k = 0;
	bool ok;
	pid_t pid, w;
	int st;

	for (i = 1; o->argv[i]; i++)
		nargs++;
	snprintf(comm, sizeof(comm), "%.15s", base ? base + 1 : r->prog);
	snprintf(spec, sizeof(spec), "%s", r->plugin);
	ok = spec_add(spec, sizeof(spec), "out", r->dir) &&
	     spec_add(spec, sizeof(spec), "mode", o->exact ? "exact" : "sampled") &&
	     spec_add_u64(spec, sizeof(spec), "depth", o->depth) &&
	     spec_add_u64(spec, sizeof(spec), "period", o->period) &&
	     spec_add_u64(spec, sizeof(spec), "jitter", o->jitter) &&
	     spec_add_u64(spec, sizeof(spec), "seed", 1) &&
	     spec_add(spec, sizeof(spec), "qemu", r->qemu) &&
	     spec_add(spec, sizeof(spec), "cpu", cpu_model(r)) &&
	     spec_add(spec, sizeof(spec), "exe", r->qx.exe) &&
	     spec_add(spec, sizeof(spec), "comm", comm);
	if (!ok)
		return qfail(r, "the plugin's options are too long (paths of more than %d bytes)",
			     PATH_MAX);
	args = calloc(nargs + (size_t)r->qx.nhead + 10, sizeof(*args));
	if (!args)
		return qfail(r, "out of memory");
	args[k++] = r->qemu;
	args[k++] = "-cpu";
	args[k++] = (char *)cpu_model(r);
	args[k++] = "-plugin";
	args[k++] = spec;
	args[k++] = "-0";
	args[k++] = (char *)r->qx.head[0];
	args[k++] = r->qx.exe;
	for (i = 1; i < (size_t)r->qx.nhead; i++)
		args[k++] = (char *)r->qx.head[i];
	for (i = 1; o->argv[i]; i++)
		args[k++] = o->argv[i];
	args[k] = NULL;

	/* orphans of the program (daemons, background children) come to us */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(args);
		return qfail(r, "fork: %s", strerror(errno));
	}
	if (!pid) {
		if (!strcmp(o->output, "-") && !o->exact &&
		    o->format == RECORD_PERFDATA && dup2(2, 1) < 0)
			_exit(127);
		execv(r->qemu, args);
		dprintf(2, "blockrange record: %s: %s\n", r->qemu,
			strerror(errno));
		_exit(127);
	}
	free(args);
	/*
	 * ^C goes to the program; record writes what it got.  A file size
	 * limit makes writes fail (EFBIG) instead of killing record.
	 */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	sigaction(SIGXFSZ, &ign, NULL);
	memset(&fwd, 0, sizeof(fwd));
	fwd.sa_handler = forward;
	waited_child = pid;
	sigaction(SIGTERM, &fwd, &old_term);
	sigaction(SIGHUP, &fwd, &old_hup);
	r->root_status = -1;
	for (;;) {
		w = waitpid(-1, &st, 0);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break;
		if (w == pid)
			r->root_status = st;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	waited_child = 0;
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	return plugin_status(r);
}

/* ---- reading the recording -------------------------------------------------- */

static int bad(struct qrec *r, const struct qfile *f, size_t off,
	       const char *what)
{
	qfail(r, "%s: offset %zu: expected %s", f->name, off, what);
	return BR_EINPUT;
}

static int add_map(struct qrec *r, const struct qfile *f, size_t off,
		   const struct qrec_map *m, const char *path)
{
	struct qimage *im = &r->images[f->img];
	struct qmap *q;

	if (!m->id || m->id > 1u << 24 || m->start >= m->end)
		return bad(r, f, off, "a mapping with an id and a range");
	if (m->id >= im->nr_maps) {
		size_t n = (size_t)m->id + 16;
		struct qmap *v = realloc(im->maps, n * sizeof(*v));

		if (!v)
			return qfail(r, "out of memory");
		memset(v + im->nr_maps, 0, (n - im->nr_maps) * sizeof(*v));
		im->maps = v;
		im->nr_maps = n;
	}
	q = &im->maps[m->id];
	if (q->present) {
		/* a forked child restates what it inherited: the same */
		if (q->start != m->start || q->end != m->end)
			return bad(r, f, off, "a mapping id described once");
		return 0;
	}
	q->present = true;
	q->id = m->id;
	q->start = m->start;
	q->end = m->end;
	q->pgoff = m->pgoff;
	q->maj = m->maj;
	q->min = m->min;
	q->ino = m->ino;
	q->path = m->path_len ? strndup(path, m->path_len) : strdup("//anon");
	if (!q->path)
		return qfail(r, "out of memory");
	r->tot.maps++;
	return 0;
}

/* The image of @f (made from its header if it is the first file of it). */
static int image_of(struct qrec *r, struct qfile *f)
{
	struct qimage *v;
	size_t i;

	for (i = 0; i < r->nr_images; i++)
		if (r->images[i].pid == f->pid && r->images[i].image == f->image) {
			f->img = i;
			return 0;
		}
	v = realloc(r->images, (r->nr_images + 1) * sizeof(*v));
	if (!v)
		return qfail(r, "out of memory");
	r->images = v;
	f->img = r->nr_images++;
	memset(&v[f->img], 0, sizeof(v[f->img]));
	v[f->img].pid = f->pid;
	v[f->img].image = f->image;
	return 0;
}

/* The header page of a records file. */
static int scan_header(struct qrec *r, struct qfile *f)
{
	struct qimage *im;

	if (f->len < QREC_HEADER_SIZE)
		return bad(r, f, 0, "a header page of 4096 bytes (the file is cut short)");
	memcpy(&f->h, f->buf, sizeof(f->h));
	if (memcmp(f->h.magic, QREC_MAGIC, sizeof(f->h.magic)) ||
	    f->h.version != QREC_VERSION || f->h.size != QREC_HEADER_SIZE)
		return bad(r, f, 0, "the recorder's header, version 1");
	if (f->h.pid != f->pid || f->h.image != f->image)
		return bad(r, f, 0, "the pid and image number of the file's name");
	if (f->h.mode != (r->o->exact ? QREC_EXACT : QREC_SAMPLED))
		return bad(r, f, 0, r->o->exact ? "an exact recording" :
			   "a sampled recording");
	if (image_of(r, f))
		return BR_ESYS;
	im = &r->images[f->img];
	if (!f->seq || !im->t0) {
		im->ppid = f->h.ppid;
		im->flags = f->h.flags;
		im->t0 = f->h.time;
	}
	f->running = f->h.state != QREC_FINISHED;
	r->tot.insns += f->h.counts.insns;
	r->tot.taken += f->h.counts.taken;
	r->tot.samples += f->h.counts.samples;
	r->tot.signals += f->h.counts.signals;
	r->tot.breaks += f->h.counts.breaks;
	return 0;
}

/* Check every record of the records file @f, note its mappings and end. */
static int scan_records(struct qrec *r, struct qfile *f)
{
	size_t off = QREC_HEADER_SIZE;

	while (off + sizeof(struct qrec_rec) <= f->len) {
		struct qrec_rec rec;
		const uint8_t *p = f->buf + off + sizeof(rec);
		size_t body;

		memcpy(&rec, f->buf + off, sizeof(rec));
		if (!rec.type)
			break;		/* room the thread did not use */
		if (rec.size < sizeof(rec) || rec.size % 8 ||
		    rec.size > f->len - off)
			return bad(r, f, off, "a record size that is a multiple of 8, inside the file");
		body = rec.size - sizeof(rec);
		switch (rec.type) {
		case QREC_MAP: {
			struct qrec_map m;
			int e;

			if (body < sizeof(m))
				return bad(r, f, off, "a whole mapping record");
			memcpy(&m, p, sizeof(m));
			if (m.path_len > body - sizeof(m))
				return bad(r, f, off, "a path inside the record");
			e = add_map(r, f, off, &m, (const char *)p + sizeof(m));
			if (e)
				return e;
			break;
		}
		case QREC_COMM:
		case QREC_FORK:
		case QREC_EXIT:
			if (body < (rec.type == QREC_COMM ? sizeof(struct qrec_comm) :
				    sizeof(struct qrec_task)))
				return bad(r, f, off, "a whole task record");
			break;
		case QREC_SAMPLE: {
			struct qrec_sample s;

			if (body < sizeof(s))
				return bad(r, f, off, "a whole sample record");
			memcpy(&s, p, sizeof(s));
			if (s.nr > (body - sizeof(s)) / sizeof(struct qrec_branch) ||
			    s.nr > PDW_MAX_BRANCHES)
				return bad(r, f, off, "the sample's branches inside the record");
			break;
		}
		case QREC_TRACES: {
			struct qrec_traces t;

			if (body < sizeof(t))
				return bad(r, f, off, "a whole traces record");
			memcpy(&t, p, sizeof(t));
			if (t.nr != (body - sizeof(t)) / sizeof(struct qrec_trace))
				return bad(r, f, off, "the traces filling the record");
			break;
		}
		case QREC_PAD:
			break;
		case QREC_EXEC:
			if (body < sizeof(struct qrec_exec))
				return bad(r, f, off, "a whole exec record");
			break;
		case QREC_END: {
			struct qimage *im = &r->images[f->img];
			struct qrec_end e;

			if (body < sizeof(e))
				return bad(r, f, off, "a whole end record");
			if (im->ended)
				return bad(r, f, off, "one end record per image");
			memcpy(&e, p, sizeof(e));
			im->ended = true;
			im->how = e.how;
			im->status = e.status;
			r->tot.decode_misses += e.decode_misses;
			break;
		}
		default:
			return bad(r, f, off, "a record type of 1..9");
		}
		off += rec.size;
	}
	f->end = off;
	return 0;
}

/* A table file: its header (its slots are read by the exact output). */
static int scan_table(struct qrec *r, struct qfile *f)
{
	struct qrec_table t;

	if (f->len < sizeof(t))
		return bad(r, f, 0, "a table header of 64 bytes");
	memcpy(&t, f->buf, sizeof(t));
	if (memcmp(t.magic, QREC_TABLE_MAGIC, sizeof(t.magic)) ||
	    t.cap > (f->len - sizeof(t)) / sizeof(struct qrec_trace))
		return bad(r, f, 0, "a trace table whose slots fill the file");
	return image_of(r, f);
}

static int file_cmp(const void *a, const void *b)
{
	const struct qfile *x = a, *y = b;

	if (x->table != y->table)
		return x->table ? 1 : -1;	/* records files first */
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int image_cmp(const void *a, const void *b)
{
	const struct qimage *x = a, *y = b;

	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->image < y->image ? -1 : x->image > y->image;
}

static int map_file(struct qrec *r, struct qfile *f)
{
	struct stat st;
	int fd = open(f->name, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return qfail(r, "%s: %s", f->name, strerror(e));
	}
	f->len = (size_t)st.st_size;
	f->buf = f->len ? mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, fd, 0) :
			  NULL;
	close(fd);
	if (f->buf == MAP_FAILED) {
		f->buf = NULL;
		return qfail(r, "%s: %s", f->name, strerror(errno));
	}
	return 0;
}

static int read_files(struct qrec *r)
{
	DIR *d = opendir(r->dir);
	struct dirent *e;
	size_t i;

	if (!d)
		return qfail(r, "%s: %s", r->dir, strerror(errno));
	while ((e = readdir(d))) {
		struct qfile *f, *v;
		int pid, n = 0;
		unsigned image, seq;
		char ext[8];

		if (sscanf(e->d_name, "%d.%u.%u.%4[a-z]%n", &pid, &image, &seq,
			   ext, &n) != 4 || (size_t)n != strlen(e->d_name) ||
		    (strcmp(ext, "qrec") && strcmp(ext, "qtab")))
			continue;
		v = realloc(r->files, (r->nr_files + 1) * sizeof(*v));
		if (!v) {
			closedir(d);
			return qfail(r, "out of memory");
		}
		r->files = v;
		f = &r->files[r->nr_files];
		memset(f, 0, sizeof(*f));
		if (asprintf(&f->name, "%s/%s", r->dir, e->d_name) < 0) {
			f->name = NULL;
			closedir(d);
			return qfail(r, "out of memory");
		}
		r->nr_files++;
		f->pid = pid;
		f->image = image;
		f->seq = seq;
		f->table = !strcmp(ext, "qtab");
		n = map_file(r, f);
		if (n) {
			closedir(d);
			return n;
		}
	}
	closedir(d);
	if (!r->nr_files)
		return qfail(r, "%s did not record anything (it could not load the plugin %s: see the message above)",
			     r->qemu, r->plugin);
	qsort(r->files, r->nr_files, sizeof(*r->files), file_cmp);
	for (i = 0; i < r->nr_files; i++) {
		struct qfile *f = &r->files[i];
		int e = f->table ? scan_table(r, f) : scan_header(r, f);

		if (!e && !f->table)
			e = scan_records(r, f);
		if (e)
			return e;
	}
	/* images in the order they began; files point at them by index */
	{
		struct qimage *old = r->images;
		size_t *where = calloc(r->nr_images, sizeof(*where));
		struct qimage *sorted = malloc(r->nr_images * sizeof(*sorted));

		if (!where || !sorted) {
			free(where);
			free(sorted);
			return qfail(r, "out of memory");
		}
		memcpy(sorted, old, r->nr_images * sizeof(*sorted));
		qsort(sorted, r->nr_images, sizeof(*sorted), image_cmp);
		for (i = 0; i < r->nr_images; i++) {
			size_t k;

			for (k = 0; k < r->nr_images; k++)
				if (sorted[k].pid == old[i].pid &&
				    sorted[k].image == old[i].image)
					where[i] = k;
		}
		for (i = 0; i < r->nr_files; i++)
			r->files[i].img = where[r->files[i].img];
		free(old);
		free(where);
		r->images = sorted;
	}
	for (i = 0; i < r->nr_images; i++)
		if (!r->images[i].t0) {
			qfail(r, "%s: a table of process %d without its records",
			      r->dir, (int)r->images[i].pid);
			return BR_EINPUT;
		}
	r->t0 = r->images[0].t0;
	return 0;
}

static void free_files(struct qrec *r)
{
	size_t i, k;

	for (i = 0; i < r->nr_files; i++) {
		struct qfile *f = &r->files[i];

		if (f->buf)
			munmap((void *)f->buf, f->len);
		free(f->name);
	}
	free(r->files);
	r->files = NULL;
	r->nr_files = 0;
	for (i = 0; i < r->nr_images; i++) {
		for (k = 0; k < r->images[i].nr_maps; k++)
			free(r->images[i].maps[k].path);
		free(r->images[i].maps);
	}
	free(r->images);
	r->images = NULL;
	r->nr_images = 0;
}

/*
 * The executable PT_LOAD segments of @m's file inside the mapping, as the
 * dynamic loader (or the kernel) maps them: QEMU maps a guest's code
 * readable only, so the host mapping may span several segments.  A file
 * that is gone, changed or no ELF keeps the whole mapping.
 */
static void refine(struct qmap *m)
{
	GElf_Ehdr eh;
	struct stat st;
	size_t i, n;
	Elf *e;
	int fd;

	m->refined = true;
	m->nsegs = 0;
	if (m->path[0] != '/' || elf_version(EV_CURRENT) == EV_NONE)
		return;
	fd = open(m->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || st.st_ino != m->ino) {
		close(fd);
		return;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && gelf_getehdr(e, &eh) && !elf_getphdrnum(e, &n)) {
		for (i = 0; i < n && m->nsegs < 4; i++) {
			GElf_Phdr ph;
			uint64_t lo, hi, vlo, vhi;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    !(ph.p_flags & PF_X) || !ph.p_filesz)
				continue;
			lo = ph.p_offset & ~(uint64_t)4095;
			hi = (ph.p_offset + ph.p_filesz + 4095) & ~(uint64_t)4095;
			vlo = lo > m->pgoff ? lo : m->pgoff;
			vhi = m->pgoff + (m->end - m->start);
			if (hi < vhi)
				vhi = hi;
			if (vlo >= vhi)
				continue;
			m->segs[m->nsegs].start = m->start + (vlo - m->pgoff);
			m->segs[m->nsegs].len = vhi - vlo;
			m->segs[m->nsegs].pgoff = vlo;
			m->nsegs++;
		}
	}
	elf_end(e);
	close(fd);
}

/* ---- sampled: perf.data and text ------------------------------------------------ */

/* A record's time: ns since the recording began, strictly increasing. */
static uint64_t out_time(struct qrec *r, uint64_t t)
{
	t = t >= r->t0 ? t - r->t0 + 1 : 1;
	if (t <= r->last_time)
		t = r->last_time + 1;
	r->last_time = t;
	return t;
}

/* The build-id of the file @path, as the registry reads it. */
static int out_build_id(struct qrec *r, const char *path)
{
	/* the files as they are: no build-id caches, no debuginfod */
	const struct dso_opts reg_opts = { .debuginfod = false };
	struct dso *d;

	if (path[0] != '/')
		return 0;
	if (!r->reg)
		r->reg = dso_registry_new(&reg_opts);
	d = r->reg ? dso_get(r->reg, path, NULL, 0, false) : NULL;
	if (!d || dso_load(r->reg, d) == DSO_NO_MEMORY)
		return qfail(r, "out of memory");
	if (d->state != DSO_READY)
		return 0;
	return recout_build_id(&r->out, path, d->bin.build_id,
			       d->bin.build_id_size);
}

static int out_map(struct qrec *r, const struct qimage *im, struct qmap *m,
		   uint64_t time)
{
	struct pdw_mmap mm;
	unsigned i, n;

	if (!m->refined)
		refine(m);
	n = m->nsegs ? m->nsegs : 1;
	for (i = 0; i < n; i++) {
		memset(&mm, 0, sizeof(mm));
		mm.pid = im->pid;
		mm.tid = im->pid;
		mm.start = m->nsegs ? m->segs[i].start : m->start;
		mm.len = m->nsegs ? m->segs[i].len : m->end - m->start;
		mm.pgoff = m->nsegs ? m->segs[i].pgoff : m->pgoff;
		mm.prot = PROT_READ | PROT_EXEC;
		mm.flags = MAP_PRIVATE;
		mm.maj = m->maj;
		mm.min = m->min;
		mm.ino = m->ino;
		mm.path = m->path;
		mm.cpumode = PERF_RECORD_MISC_USER;
		mm.time = out_time(r, time);
		if (recout_mmap(&r->out, &mm))
			return BR_ESYS;
	}
	return out_build_id(r, m->path);
}

static int ref_cmp(const void *a, const void *b)
{
	const struct qref *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Every record of the output, in time order. */
static int collect_refs(struct qrec *r, struct qref **out, size_t *nr)
{
	struct qref *v = NULL;
	size_t n = 0, cap = 0, i;

	for (i = 0; i < r->nr_files; i++) {
		const struct qfile *f = &r->files[i];
		size_t off = QREC_HEADER_SIZE;

		if (f->table)
			continue;
		while (off < f->end) {
			struct qrec_rec rec;
			uint64_t t;

			memcpy(&rec, f->buf + off, sizeof(rec));
			switch (rec.type) {
			case QREC_MAP: case QREC_COMM: case QREC_FORK:
			case QREC_EXIT: case QREC_SAMPLE:
				memcpy(&t, f->buf + off + sizeof(rec), sizeof(t));
				if (br_grow_from((void **)&v, &cap, n + 1,
						 sizeof(*v), 4096)) {
					free(v);
					return qfail(r, "out of memory");
				}
				v[n].time = t;
				v[n].file = (uint32_t)i;
				v[n].type = rec.type;
				v[n].off = off + sizeof(rec);
				n++;
				break;
			default:
				break;
			}
			off += rec.size;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), ref_cmp);
	*out = v;
	*nr = n;
	return 0;
}

static int emit_ref(struct qrec *r, const struct qref *q)
{
	struct qfile *f = &r->files[q->file];
	const uint8_t *p = f->buf + q->off;

	switch (q->type) {
	case QREC_MAP: {
		struct qrec_map m;

		memcpy(&m, p, sizeof(m));
		return out_map(r, &r->images[f->img],
			       &r->images[f->img].maps[m.id], m.time);
	}
	case QREC_COMM: {
		struct qrec_comm c;
		char comm[QREC_COMM_LEN + 1];
		uint64_t t;

		memcpy(&c, p, sizeof(c));
		memcpy(comm, c.comm, QREC_COMM_LEN);
		comm[QREC_COMM_LEN] = '\0';
		t = out_time(r, c.time);
		return recout_comm(&r->out, c.pid, c.tid, comm, c.exec, t);
	}
	case QREC_FORK:
	case QREC_EXIT: {
		struct qrec_task tk;
		bool exit = q->type == QREC_EXIT;
		uint64_t t;

		memcpy(&tk, p, sizeof(tk));
		t = out_time(r, tk.time);
		return recout_task(&r->out, exit, tk.pid, tk.ppid, tk.tid,
				   tk.ptid, t);
	}
	default: {
		static struct perf_branch_entry br[PDW_MAX_BRANCHES];
		struct qrec_sample s;
		struct pdw_sample ps;
		uint32_t i;

		memcpy(&s, p, sizeof(s));
		memset(&ps, 0, sizeof(ps));
		for (i = 0; i < s.nr; i++) {
			struct qrec_branch b;

			memcpy(&b, p + sizeof(s) + i * sizeof(b), sizeof(b));
			memset(&br[i], 0, sizeof(br[i]));
			br[i].from = b.from;
			br[i].to = b.to;
		}
		ps.cpumode = PERF_RECORD_MISC_USER;
		ps.ip = s.nr ? br[0].from : 0;
		ps.pid = s.pid;
		ps.tid = s.tid;
		ps.time = out_time(r, s.time);
		ps.period = r->o->period;
		ps.hw_idx = UINT64_MAX;
		ps.br = br;
		ps.nr = s.nr;
		return recout_sample(&r->out, &ps);
	}
	}
}

static int write_sampled(struct qrec *r)
{
	const struct qrec_opts *o = r->o;
	char version[96];
	struct recout_opts ro = {
		.output = o->output, .format = o->format,
		.script_copy = o->script_copy, .fields = o->fields,
		.task_events = o->task_events, .period = o->period,
		.version = version, .cmd_argc = o->cmd_argc,
		.cmd_argv = o->cmd_argv,
	};
	struct qref *refs = NULL;
	size_t nr = 0, i;
	int ret;

	snprintf(version, sizeof(version), "blockrange record (qemu, cpu %s)",
		 cpu_model(r));
	if (collect_refs(r, &refs, &nr))
		return BR_ESYS;
	ret = recout_open(&r->out, &ro, r->err, r->errsz);
	for (i = 0; !ret && i < nr; i++)
		ret = emit_ref(r, &refs[i]);
	free(refs);
	ret = recout_close(&r->out, ret);
	dso_registry_free(r->reg);
	r->reg = NULL;
	return ret;
}

/* ---- exact: a .brprof ------------------------------------------------------------ */

/* The mapping @id of @im as the collector's mmap event(s). */
static int feed_map(struct qrec *r, struct annot *an, struct qimage *im,
		    uint32_t id)
{
	struct qmap *m;
	unsigned i, n;

	if (!id || id >= im->nr_maps || !im->maps[id].present) {
		qfail(r, "%s: process %d: a trace names mapping %u, which no record described",
		      r->dir, (int)im->pid, id);
		return BR_EINPUT;
	}
	m = &im->maps[id];
	if (!m->refined)
		refine(m);
	n = m->nsegs ? m->nsegs : 1;
	for (i = 0; i < n; i++) {
		struct ev_mmap ev;
		int ret;

		memset(&ev, 0, sizeof(ev));
		ev.pid = im->pid;
		ev.tid = im->pid;
		ev.cpumode = EV_CPU_USER;
		ev.start = m->nsegs ? m->segs[i].start : m->start;
		ev.len = m->nsegs ? m->segs[i].len : m->end - m->start;
		ev.pgoff = m->nsegs ? m->segs[i].pgoff : m->pgoff;
		ev.path = m->path;
		ev.exec = true;
		ev.has_prot = true;
		ev.prot = PROT_READ | PROT_EXEC;
		ev.flags = MAP_PRIVATE;
		ev.has_dev = true;
		ev.maj = m->maj;
		ev.min = m->min;
		ev.ino = m->ino;
		ev.pos.name = r->dir;
		ret = resolver_mmap(&an->s, &ev, r->err, r->errsz);
		if (ret)
			return ret;
	}
	return 0;
}

static int trace_cmp(const void *a, const void *b)
{
	const struct qrec_trace *x = a, *y = b;

	if (x->map != y->map)
		return x->map < y->map ? -1 : 1;
	if (x->from_map != y->from_map)
		return x->from_map < y->from_map ? -1 : 1;
	return 0;
}

struct tvec {
	struct qrec_trace *v;
	size_t n;
	size_t cap;
};

static int tvec_add(struct tvec *t, const void *e, size_t n)
{
	if (br_grow_from((void **)&t->v, &t->cap, t->n + n, sizeof(*t->v),
			 4096))
		return BR_ESYS;
	memcpy(t->v + t->n, e, n * sizeof(*t->v));
	t->n += n;
	return 0;
}

/* The traces of image @img: TRACES records and valid tables. */
static int image_traces(struct qrec *r, size_t img, struct tvec *t)
{
	size_t i;

	t->n = 0;
	for (i = 0; i < r->nr_files; i++) {
		const struct qfile *f = &r->files[i];

		if (f->img != img)
			continue;
		if (f->table) {
			struct qrec_table h;
			size_t k;

			memcpy(&h, f->buf, sizeof(h));
			if (!h.valid)
				continue;
			for (k = 0; k < h.cap; k++) {
				struct qrec_trace e;

				memcpy(&e, f->buf + sizeof(h) + k * sizeof(e),
				       sizeof(e));
				if (e.count && tvec_add(t, &e, 1))
					return qfail(r, "out of memory");
			}
			continue;
		}
		for (size_t off = QREC_HEADER_SIZE; off < f->end;) {
			struct qrec_rec rec;

			memcpy(&rec, f->buf + off, sizeof(rec));
			if (rec.type == QREC_TRACES) {
				struct qrec_traces h;

				memcpy(&h, f->buf + off + sizeof(rec), sizeof(h));
				if (tvec_add(t, f->buf + off + sizeof(rec) +
					     sizeof(h), h.nr))
					return qfail(r, "out of memory");
			}
			off += rec.size;
		}
	}
	r->tot.traces += t->n;
	return 0;
}

/* Every trace of image @img, grouped by its mappings, into the collector. */
static int feed_image(struct qrec *r, struct annot *an, size_t img,
		      struct tvec *tv)
{
	struct qimage *im = &r->images[img];
	uint32_t cur_map = 0, cur_from = UINT32_MAX;
	size_t i;
	int ret = image_traces(r, img, tv);

	if (ret)
		return ret;
	if (tv->n)
		qsort(tv->v, tv->n, sizeof(*tv->v), trace_cmp);
	{
		/* the image's address space starts empty */
		struct ev_comm c = { .pid = im->pid, .tid = im->pid, .comm = "",
				     .exec = true, .pos = { r->dir, 0, 0 } };

		ret = resolver_comm(&an->s, &c, r->err, r->errsz);
		if (ret)
			return ret;
	}
	for (i = 0; i < tv->n; i++) {
		const struct qrec_trace *t = &tv->v[i];
		struct ev_branch br[2];
		struct ev_sample s;

		if (t->map != cur_map || t->from_map != cur_from) {
			if (t->from_map && t->from_map != t->map)
				ret = feed_map(r, an, im, t->from_map);
			if (!ret)
				ret = feed_map(r, an, im, t->map);
			if (ret)
				return ret;
			cur_map = t->map;
			cur_from = t->from_map;
		}
		memset(br, 0, sizeof(br));
		memset(&s, 0, sizeof(s));
		/* newest first: the range's end (no branch known from it) */
		br[0].from = t->end;
		br[1].from = t->from;
		br[1].to = t->start;
		s.pid = im->pid;
		s.tid = im->pid;
		s.cpumode = EV_CPU_USER;
		s.cpu = UINT32_MAX;
		s.period = 1;
		s.event = QREC_EXACT_EVENT;
		s.repeat = t->count;
		s.has_brstack = true;
		s.br = br;
		s.nr = 2;
		s.exact_range = true;
		s.pos.name = r->dir;
		ret = annot_sample(an, &s, r->err, r->errsz);
		if (ret)
			return ret;
	}
	return 0;
}

static int write_exact(struct qrec *r)
{
	struct resolver_opts so;
	struct annot_cfg cfg;
	struct annot an;
	struct tvec tv = { 0 };
	size_t bytes = 0, i;
	int ret = 0;

	memset(&so, 0, sizeof(so));
	memset(&cfg, 0, sizeof(cfg));
	cfg.parts = ANNOT_BLOCKS | ANNOT_PROFGEN | ANNOT_BOLT;
	cfg.engine = ANNOT_ENGINE_BATCH;
	ret = annot_init(&an, r->o->output, &so, &cfg, r->err, r->errsz);
	if (ret)
		return ret;
	an.s.exact = true;
	for (i = 0; i < r->nr_images && !ret; i++)
		ret = feed_image(r, &an, i, &tv);
	free(tv.v);
	for (i = 0; !ret && i < an.nr_per; i++)
		if (an.per[i])
			r->tot.edges += an.per[i]->edges.nr;
	if (!ret)
		ret = brprof_write(&an, r->o->output, &bytes, r->err, r->errsz);
	annot_free(&an);
	return ret;
}

/* ---- the whole -------------------------------------------------------------------- */

/*
 * Before the program runs: can the output be written?  (A directory, a
 * missing directory or no permission is said now, not after the run.)
 */
static int check_output(struct qrec *r)
{
	const char *out = r->o->output;
	char tmp[PATH_MAX + 8];
	struct stat st;
	int fd;

	if (!strcmp(out, "-"))
		return 0;
	if (!stat(out, &st) && S_ISDIR(st.st_mode))
		return qfail(r, "%s: %s", out, strerror(EISDIR));
	recout_tmp_name(out, tmp, sizeof(tmp));
	fd = open(tmp[0] ? tmp : out, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return qfail(r, "%s: %s", out, strerror(errno));
	close(fd);
	if (tmp[0])
		unlink(tmp);
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Distinct processes (pids) and threads (pid, tid) of the recording. */
static int count_tasks(struct qrec *r)
{
	uint64_t *ids = malloc((r->nr_files + 1) * sizeof(*ids));
	size_t n = 0, i;

	if (!ids)
		return qfail(r, "out of memory");
	for (i = 0; i < r->nr_files; i++)
		if (!r->files[i].table)
			ids[n++] = (uint64_t)(uint32_t)r->files[i].h.pid << 32 |
				   (uint32_t)r->files[i].h.tid;
	qsort(ids, n, sizeof(*ids), u64_cmp);
	r->tot.threads = 0;
	r->tot.processes = 0;
	for (i = 0; i < n; i++) {
		r->tot.threads += !i || ids[i] != ids[i - 1];
		r->tot.processes += !i || ids[i] >> 32 != ids[i - 1] >> 32;
	}
	free(ids);
	return 0;
}

/*
 * The first process killed before its image ended (a thread that never
 * finished, in an image without its end record), or -1.
 */
static int32_t cut_pid(const struct qrec *r)
{
	size_t i;

	for (i = 0; i < r->nr_files; i++)
		if (!r->files[i].table && r->files[i].running &&
		    !r->images[r->files[i].img].ended)
			return r->files[i].pid;
	return -1;
}

static void summary(struct qrec *r)
{
	const struct qrec_opts *o = r->o;
	char how[128], what[256], cut[160] = "";
	int st = r->root_status;
	int32_t pid = cut_pid(r);

	if (WIFEXITED(st))
		snprintf(how, sizeof(how), "exited with status %d",
			 WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(how, sizeof(how), "was killed by signal %d (%s)",
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(how, sizeof(how), "ended");
	if (pid >= 0)
		snprintf(cut, sizeof(cut),
			 " (process %d was killed: what it ran since its threads' last samples or ranges is missing)",
			 (int)pid);
	if (o->exact)
		snprintf(what, sizeof(what),
			 "%" PRIu64 " ranges and %" PRIu64 " distinct taken edges counted exactly",
			 r->tot.traces, r->tot.edges);
	else
		snprintf(what, sizeof(what),
			 "%" PRIu64 " samples of %u branches every %" PRIu64 "%s taken branches",
			 r->tot.samples, o->depth, o->period,
			 o->jitter ? " (+-jitter)" : "");
	fprintf(stderr,
		"blockrange record: %s %s%s; qemu, cpu %s: %" PRIu64 " instructions, %" PRIu64 " taken branches, %" PRIu64 " thread%s in %" PRIu64 " process%s, %" PRIu64 " mapping%s; %s written to %s\n",
		o->argv[0], how, cut, cpu_model(r), r->tot.insns, r->tot.taken,
		r->tot.threads, r->tot.threads == 1 ? "" : "s",
		r->tot.processes, r->tot.processes == 1 ? "" : "es",
		r->tot.maps, r->tot.maps == 1 ? "" : "s", what,
		strcmp(o->output, "-") ? o->output : "stdout");
}

/*
 * Did any guest code run?  QEMU can stop before, after the plugin: then
 * the plugin still ends the image (at QEMU's exit), with no instruction
 * counted, as when QEMU cannot load an ELF file that claims to be x86-64.
 */
static bool ran(const struct qrec *r)
{
	return r->tot.insns > 0;
}

/* Read the directory and write the output; 0 or -1 with a message. */
static int convert(struct qrec *r)
{
	int ret = read_files(r);

	if (!ret && r->root_status != -1 && !ran(r))
		ret = qfail(r, "%s stopped before %s ran (status %d): see its message above",
			    r->qemu, r->o->argv[0],
			    WIFEXITED(r->root_status) ? WEXITSTATUS(r->root_status) :
			    128 + WTERMSIG(r->root_status));
	if (!ret)
		ret = count_tasks(r);
	if (!ret)
		ret = r->o->exact ? write_exact(r) : write_sampled(r);
	return ret;
}

static void qrec_free(struct qrec *r)
{
	free_files(r);
	if (r->status)
		munmap(r->status, STATUS_SIZE);
}

int qrec_record(const struct qrec_opts *o, int *status, char *err,
		size_t errsz)
{
	struct qrec r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.err = err;
	r.errsz = errsz;
	r.root_status = -1;
	ret = find_qemu(&r);
	if (!ret)
		ret = check_cpu(&r);
	if (!ret)
		ret = find_plugin(&r);
	if (!ret)
		ret = find_program(&r);
	if (!ret)
		ret = check_output(&r);
	if (!ret)
		ret = make_dir(&r);
	if (!ret)
		ret = run_program(&r);
	if (!ret && r.root_status == -1)
		ret = qfail(&r, "%s could not be started", r.qemu);
	if (!ret)
		ret = convert(&r);
	if (!ret) {
		if (!o->quiet)
			summary(&r);
		*status = WIFEXITED(r.root_status) ?
			  WEXITSTATUS(r.root_status) :
			  128 + WTERMSIG(r.root_status);
	}
	qrec_free(&r);
	remove_dir(&r);
	return ret;
}

int qrec_convert(const struct qrec_opts *o, const char *dir, char *err,
		 size_t errsz)
{
	struct qrec r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.err = err;
	r.errsz = errsz;
	snprintf(r.qemu, sizeof(r.qemu), "qemu-x86_64");
	snprintf(r.plugin, sizeof(r.plugin), "the recorder plugin");
	if (snprintf(r.dir, sizeof(r.dir), "%s", dir) >= (int)sizeof(r.dir))
		return qfail(&r, "%s: path too long", dir);
	ret = convert(&r);
	qrec_free(&r);
	return ret;
}
