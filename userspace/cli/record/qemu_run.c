// SPDX-License-Identifier: GPL-2.0
/*
 * The QEMU engine's launching: find qemu-x86_64, the plugin and the
 * program, make the recording directory, run the program under QEMU and
 * wait for all of it, remove the directory.  See qemu_run.h and
 * docs/record.md.
 */
#define _GNU_SOURCE

#include "record/qemu_run.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* the plugin's, below every layer of the CLI like the library's */
#include "format/qrec_wire.h"

#include "base/status.h"
#include "record/recout.h"

#define STATUS_SIZE 4096

/* A launch under way: its state, its options, its error buffer. */
struct qr {
	struct qemu_run *q;
	const struct qrec_opts *o;
	char *err;
	size_t errsz;
};

static int qfail(struct qr *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int qfail(struct qr *r, const char *fmt, ...)
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

static int find_qemu(struct qr *r)
{
	const char *env = getenv("BLOCKRANGE_QEMU");

	if (env && *env) {
		if (!find_exec(env, r->q->qemu, sizeof(r->q->qemu)))
			return qfail(r, "BLOCKRANGE_QEMU=%s: not an executable file", env);
	} else if (!find_exec("qemu-x86_64", r->q->qemu, sizeof(r->q->qemu))) {
		return qfail(r, "qemu-x86_64 not found in PATH: install Debian's qemu-user (apt-get install qemu-user), or record with --engine=ptrace");
	}
	if (!exports(r->q->qemu, "qemu_plugin_register_vcpu_tb_exec_cb"))
		return qfail(r, "%s cannot load TCG plugins (a static build such as qemu-user-static's?): install Debian's qemu-user (apt-get install qemu-user), or set BLOCKRANGE_QEMU",
			     r->q->qemu);
	return 0;
}

/*
 * --cpu MODEL must be one of `qemu-x86_64 -cpu help` ("x86 NAME ..."
 * lines): QEMU would say so only after the plugin is loaded.
 */
static int check_cpu(struct qr *r)
{
	char line[256], cmd[PATH_MAX + 32];
	bool found = false;
	FILE *f;

	if (!r->o->cpu)
		return 0;
	if (snprintf(cmd, sizeof(cmd), "'%s' -cpu help", r->q->qemu) >= (int)sizeof(cmd) ||
	    strchr(r->q->qemu, '\''))
		return qfail(r, "%s: path not usable", r->q->qemu);
	f = popen(cmd, "re");
	if (!f)
		return qfail(r, "%s -cpu help: %s", r->q->qemu, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char name[128];

		if (sscanf(line, "x86 %127s", name) == 1 && !strcmp(name, r->o->cpu))
			found = true;
	}
	pclose(f);
	if (!found)
		return qfail(r, "expected --cpu MODEL of `%s -cpu help`, got '%s'",
			     r->q->qemu, r->o->cpu);
	return 0;
}

static int find_plugin(struct qr *r)
{
	const char *env = getenv("BLOCKRANGE_QEMU_PLUGIN");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env) {
		if (snprintf(r->q->plugin, sizeof(r->q->plugin), "%s", env) >=
		    (int)sizeof(r->q->plugin) || access(r->q->plugin, R_OK))
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
	if (snprintf(r->q->plugin, sizeof(r->q->plugin), "%s/%s", self,
		     QREC_PLUGIN_REL) >= (int)sizeof(r->q->plugin))
		return qfail(r, "%s: path too long", self);
	if (access(r->q->plugin, R_OK)) {
		char *real = realpath(self, NULL);

		qfail(r, "the recorder's QEMU plugin is missing (%s/%s): build it (make cli) or install blockrange (make install), or set BLOCKRANGE_QEMU_PLUGIN",
		      real ? real : self, QREC_PLUGIN_REL);
		free(real);
		return BR_ESYS;
	}
	/* an absolute path without "..": the plugin reruns itself by it */
	{
		char *real = realpath(r->q->plugin, NULL);

		if (real) {
			snprintf(r->q->plugin, sizeof(r->q->plugin), "%s", real);
			free(real);
		}
	}
	return 0;
}

static int find_program(struct qr *r)
{
	const char *name = r->o->argv[0];
	int res;

	errno = ENOENT;
	if (!find_exec(name, r->q->prog, sizeof(r->q->prog)))
		return qfail(r, "cannot run %s: %s", name,
			     strerror(strchr(name, '/') ? errno : ENOENT));
	res = qexec_resolve(r->q->prog, name, &r->q->qx);
	switch (res) {
	case QEXEC_ELF:
		return 0;
	case QEXEC_ERRNO:
		return qfail(r, "cannot run %s: %s", r->q->prog,
			     strerror(r->q->qx.err_no));
	case QEXEC_FOREIGN:
		return qfail(r, "%s: not an x86-64 program (%s): the qemu engine records x86-64 programs only",
			     r->q->prog, r->q->qx.why);
	case QEXEC_LOOP:
		return qfail(r, "%s: more than %d levels of #! interpreters",
			     r->q->prog, QEXEC_DEPTH);
	default:
		return qfail(r, "%s: neither an ELF program nor a #! script",
			     r->q->prog);
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
static int make_dir(struct qr *r)
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
	if (snprintf(r->q->dir, sizeof(r->q->dir), "%s/.blockrange-record.XXXXXX",
		     base) >= (int)sizeof(r->q->dir))
		return qfail(r, "%s: path too long", base);
	if (!mkdtemp(r->q->dir)) {
		int e = errno;

		r->q->dir[0] = '\0';
		return qfail(r, "cannot create a recording directory in %s: %s",
			     base, strerror(e));
	}
	/* the status page: one line from the plugin if recording failed */
	{
		char path[PATH_MAX + 16];
		static const char zero[STATUS_SIZE];

		snprintf(path, sizeof(path), "%s/status", r->q->dir);
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 || write(fd, zero, sizeof(zero)) != sizeof(zero)) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			return qfail(r, "%s: %s", path, strerror(e));
		}
		r->q->status = mmap(NULL, STATUS_SIZE, PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		if (r->q->status == MAP_FAILED) {
			r->q->status = NULL;
			return qfail(r, "%s: %s", path, strerror(errno));
		}
	}
	return 0;
}

static void remove_dir(const char *dir)
{
	DIR *d;
	struct dirent *e;

	if (!dir[0])
		return;
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

const char *qemu_run_cpu(const struct qrec_opts *o)
{
	return o->cpu ? o->cpu : QREC_DEFAULT_CPU;
}

/* The plugin's one line when recording failed (its status page). */
static int plugin_status(struct qr *r)
{
	if (r->q->status && r->q->status[0] && r->q->status[1])
		return qfail(r, "%.*s", STATUS_SIZE - 9, r->q->status + 8);
	return 0;
}

static int run_program(struct qr *r)
{
	const struct qrec_opts *o = r->o;
	static char spec[4 * PATH_MAX + 512];
	struct sigaction ign, fwd, old_int, old_quit, old_term, old_hup;
	char comm[QREC_COMM_LEN];
	const char *base = strrchr(r->q->prog, '/');
	char **args;
	size_t nargs = 0, i, k = 0;
	bool ok;
	pid_t pid, w;
	int st;

	for (i = 1; o->argv[i]; i++)
		nargs++;
	snprintf(comm, sizeof(comm), "%.15s", base ? base + 1 : r->q->prog);
	snprintf(spec, sizeof(spec), "%s", r->q->plugin);
	ok = spec_add(spec, sizeof(spec), "out", r->q->dir) &&
	     spec_add(spec, sizeof(spec), "mode", o->exact ? "exact" : "sampled") &&
	     spec_add_u64(spec, sizeof(spec), "depth", o->depth) &&
	     spec_add_u64(spec, sizeof(spec), "period", o->period) &&
	     spec_add_u64(spec, sizeof(spec), "jitter", o->jitter) &&
	     spec_add_u64(spec, sizeof(spec), "stack", o->call_graph) &&
	     spec_add_u64(spec, sizeof(spec), "seed", 1) &&
	     spec_add(spec, sizeof(spec), "qemu", r->q->qemu) &&
	     spec_add(spec, sizeof(spec), "cpu", qemu_run_cpu(o)) &&
	     spec_add(spec, sizeof(spec), "exe", r->q->qx.exe) &&
	     spec_add(spec, sizeof(spec), "comm", comm);
	if (!ok)
		return qfail(r, "the plugin's options are too long (paths of more than %d bytes)",
			     PATH_MAX);
	args = calloc(nargs + (size_t)r->q->qx.nhead + 10, sizeof(*args));
	if (!args)
		return qfail(r, "out of memory");
	args[k++] = r->q->qemu;
	args[k++] = "-cpu";
	args[k++] = (char *)qemu_run_cpu(o);
	args[k++] = "-plugin";
	args[k++] = spec;
	args[k++] = "-0";
	args[k++] = (char *)r->q->qx.head[0];
	args[k++] = r->q->qx.exe;
	for (i = 1; i < (size_t)r->q->qx.nhead; i++)
		args[k++] = (char *)r->q->qx.head[i];
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
		execv(r->q->qemu, args);
		dprintf(2, "blockrange record: %s: %s\n", r->q->qemu,
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
	r->q->root_status = -1;
	for (;;) {
		w = waitpid(-1, &st, 0);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break;
		if (w == pid)
			r->q->root_status = st;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	waited_child = 0;
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	return plugin_status(r);
}



/*
 * Before the program runs: can the output be written?  (A directory, a
 * missing directory or no permission is said now, not after the run.)
 */
static int check_output(struct qr *r)
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


int qemu_run_prepare(struct qemu_run *q, const struct qrec_opts *o,
		     char *err, size_t errsz)
{
	struct qr r = { q, o, err, errsz };
	int ret;

	memset(q, 0, sizeof(*q));
	q->root_status = -1;
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
	return ret;
}

int qemu_run_program(struct qemu_run *q, const struct qrec_opts *o,
		     char *err, size_t errsz)
{
	struct qr r = { q, o, err, errsz };

	return run_program(&r);
}

void qemu_run_end(struct qemu_run *q)
{
	if (q->status)
		munmap(q->status, STATUS_SIZE);
	q->status = NULL;
	remove_dir(q->dir);
}
