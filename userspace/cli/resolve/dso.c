// SPDX-License-Identifier: GPL-2.0
/*
 * DSO registry and file lookup.  See dso.h for the lookup order.
 *
 * elfutils does the standard debug-file search (build-id under the debug
 * directory, .gnu_debuglink with its CRC, debuginfod) and the DWARF line
 * tables; libdebuginfod is asked directly for executables.  perf's own
 * build-id cache layout (BUILDID_DIR/.build-id/xx/yyyy.../{elf,debug}) and
 * --symfs are ours.
 */
#define _GNU_SOURCE

#include "resolve/dso.h"

#include "base/grow.h"
#include "base/status.h"
#include "common/search.h"

#include <elfutils/debuginfod.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct bid_note {
	char *path;
	uint8_t id[BR_BUILD_ID_MAX];
	uint8_t size;
	bool kernel;
};

struct dso_registry {
	struct dso_opts o;
	char *buildid_dir;
	char *debug_path;	/* dwfl's debuginfo_path string */
	struct dso **dsos;
	size_t nr;
	size_t cap;
	struct bid_note *notes;
	size_t nr_notes;
	size_t cap_notes;
	Dwfl *dwfl;
	Dwfl_Callbacks cb;
	debuginfod_client *dbgd;
	/* the cache debug file of the module being reported (callback) */
	const char *pending_debug;
	/* dso_load() may be called by several threads (par.h) */
	pthread_mutex_t lock;
};

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * perf's cache callback handed to elfutils: the cache's debug file first,
 * then the standard search.
 */
static debuginfod_client *dbgd(struct dso_registry *r);

/*
 * The debug-file search handed to elfutils: perf's cache first, then the
 * standard search (build-id under the debug directory, .gnu_debuglink),
 * then debuginfod.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata,
			  const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct dso_registry *r = *userdata;
	const unsigned char *bits;
	GElf_Addr vaddr;
	int fd, n;

	if (r && r->pending_debug) {
		fd = open(r->pending_debug, O_RDONLY);
		if (fd >= 0) {
			*debuginfo_file_name = strdup(r->pending_debug);
			return fd;
		}
	}
	fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base,
					  file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (fd >= 0 || !r || !dbgd(r))
		return fd;
	n = dwfl_module_build_id(mod, &bits, &vaddr);
	if (n <= 0)
		return fd;
	return debuginfod_find_debuginfo(r->dbgd, bits, n,
					 debuginfo_file_name);
}

struct dso_registry *dso_registry_new(const struct dso_opts *o)
{
	struct dso_registry *r = calloc(1, sizeof(*r));
	const char *dir, *home;

	if (!r)
		return NULL;
	if (pthread_mutex_init(&r->lock, NULL)) {
		free(r);
		return NULL;
	}
	r->o = *o;
	dir = o->buildid_dir ? o->buildid_dir : getenv("PERF_BUILDID_DIR");
	if (dir && *dir) {
		r->buildid_dir = strdup(dir);
	} else {
		home = getenv("HOME");
		if (asprintf(&r->buildid_dir, "%s/.debug",
			     home && *home ? home : "/") < 0)
			r->buildid_dir = NULL;
	}
	if (asprintf(&r->debug_path, "+:.debug:%s%s",
		     o->symfs ? o->symfs : "",
		     o->debug_dir ? o->debug_dir : "/usr/lib/debug") < 0)
		r->debug_path = NULL;
	if (!r->buildid_dir || !r->debug_path) {
		dso_registry_free(r);
		return NULL;
	}
	r->cb.find_elf = dwfl_build_id_find_elf;
	r->cb.find_debuginfo = find_debuginfo;
	r->cb.section_address = dwfl_offline_section_address;
	r->cb.debuginfo_path = &r->debug_path;
	return r;
}

static void dso_free(struct dso *d)
{
	size_t i;

	if (d->state == DSO_READY)
		eb_close(&d->bin);
	for (i = 0; i < d->nr_ksyms; i++)
		free(d->ksyms[i].name);
	free(d->ksyms);
	free(d->path);
	free(d->why);
	free(d->file);
	free(d->debug_file);
	free(d);
}

void dso_registry_free(struct dso_registry *r)
{
	size_t i;

	if (!r)
		return;
	pthread_mutex_destroy(&r->lock);
	for (i = 0; i < r->nr; i++)
		dso_free(r->dsos[i]);
	for (i = 0; i < r->nr_notes; i++)
		free(r->notes[i].path);
	if (r->dwfl)
		dwfl_end(r->dwfl);
	if (r->dbgd)
		debuginfod_end(r->dbgd);
	free(r->notes);
	free(r->dsos);
	free(r->buildid_dir);
	free(r->debug_path);
	free(r);
}

const char *dso_buildid_dir(const struct dso_registry *r)
{
	return r->buildid_dir;
}

size_t dso_count(const struct dso_registry *r)
{
	return r->nr;
}

struct dso *dso_at(const struct dso_registry *r, size_t i)
{
	return i < r->nr ? r->dsos[i] : NULL;
}

static int note_locked(struct dso_registry *r, const char *path,
		       const uint8_t *id, size_t id_size, bool kernel)
{
	struct bid_note *n;

	if (!id_size || id_size > BR_BUILD_ID_MAX)
		return 0;
	if (br_grow_from((void **)&r->notes, &r->cap_notes, r->nr_notes + 1,
			 sizeof(*r->notes), 16))
		return BR_ESYS;
	n = &r->notes[r->nr_notes];
	n->path = strdup(path);
	if (!n->path)
		return BR_ESYS;
	memcpy(n->id, id, id_size);
	n->size = (uint8_t)id_size;
	n->kernel = kernel;
	r->nr_notes++;
	return 0;
}

static const struct bid_note *noted_id(const struct dso_registry *r,
				       const char *path, bool kernel)
{
	size_t i;

	/* The last entry for a path wins (a rebuilt file). */
	for (i = r->nr_notes; i-- > 0;) {
		const struct bid_note *n = &r->notes[i];

		if (n->kernel == kernel && !strcmp(n->path, path))
			return n;
	}
	return NULL;
}

int dso_note_build_id(struct dso_registry *r, const char *path,
		      const uint8_t *id, size_t id_size, bool kernel)
{
	int ret;

	pthread_mutex_lock(&r->lock);
	ret = note_locked(r, path, id, id_size, kernel);
	pthread_mutex_unlock(&r->lock);
	return ret;
}

size_t dso_noted_build_id(struct dso_registry *r, const char *base,
			  uint8_t id[BR_BUILD_ID_MAX])
{
	size_t i, size = 0;

	pthread_mutex_lock(&r->lock);
	for (i = r->nr_notes; i-- > 0;) {
		const struct bid_note *n = &r->notes[i];
		const char *slash = strrchr(n->path, '/');

		if (!n->kernel && !strcmp(slash ? slash + 1 : n->path, base)) {
			memcpy(id, n->id, n->size);
			size = n->size;
			break;
		}
	}
	pthread_mutex_unlock(&r->lock);
	return size;
}

static struct dso *get_locked(struct dso_registry *r, const char *path,
			      const uint8_t *id, size_t id_size, bool kernel)
{
	struct dso *d;
	size_t i;

	if (id_size > BR_BUILD_ID_MAX)
		id_size = 0;
	if (!id_size) {
		const struct bid_note *n = noted_id(r, path, kernel);

		if (n) {
			id = n->id;
			id_size = n->size;
		}
	}
	for (i = 0; i < r->nr; i++) {
		d = r->dsos[i];
		if (d->kernel != kernel)
			continue;
		if (id_size ? d->build_id_size == id_size &&
			      !memcmp(d->build_id, id, id_size) :
			      !d->build_id_size && !strcmp(d->path, path))
			return d;
	}
	if (br_grow_from((void **)&r->dsos, &r->cap, r->nr + 1,
			 sizeof(*r->dsos), 16))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->path = strdup(path);
	if (!d->path) {
		free(d);
		return NULL;
	}
	d->short_name = base_of(d->path);
	if (id_size)
		memcpy(d->build_id, id, id_size);
	d->build_id_size = (uint8_t)id_size;
	d->kernel = kernel;
	d->idx = (unsigned)r->nr;
	r->dsos[r->nr++] = d;
	return d;
}

struct dso *dso_get(struct dso_registry *r, const char *path,
		    const uint8_t *id, size_t id_size, bool kernel)
{
	struct dso *d;

	pthread_mutex_lock(&r->lock);
	d = get_locked(r, path, id, id_size, kernel);
	pthread_mutex_unlock(&r->lock);
	return d;
}

void dso_set_kernel_text(struct dso_registry *r, struct dso *d, uint64_t text)
{
	pthread_mutex_lock(&r->lock);
	d->kernel_text = text;
	pthread_mutex_unlock(&r->lock);
}

static void set_why(struct dso *d, enum dso_state st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_why(struct dso *d, enum dso_state st, const char *fmt, ...)
{
	va_list ap;

	d->state = st;
	free(d->why);
	va_start(ap, fmt);
	if (vasprintf(&d->why, fmt, ap) < 0)
		d->why = NULL;
	va_end(ap);
}

/*
 * Open the binary of @d with eb_open_ex(): 0, or the state of a DSO whose
 * file it refused: out of memory, or a file that is not a usable binary.
 */
static enum dso_state open_binary(struct dso *d, const char *path,
				  const struct eb_open_opts *eo, char *err,
				  size_t errsz)
{
	int r;

	errno = 0;
	r = eb_open_ex(path, eo, &d->bin, err, errsz);
	if (!r)
		return DSO_UNLOADED;
	return r == BR_ESYS && errno == ENOMEM ? DSO_NO_MEMORY : DSO_UNUSABLE;
}

/* perf's cache: BUILDID_DIR/.build-id/xx/yyyy.../NAME */
static char *cache_path(const struct dso_registry *r, const struct dso *d,
			const char *name)
{
	char hex[BR_BUILD_ID_HEX], *p;

	if (!d->build_id_size)
		return NULL;
	br_build_id_hex(d->build_id, d->build_id_size, hex);
	if (asprintf(&p, "%s/.build-id/%.2s/%s/%s", r->buildid_dir, hex,
		     hex + 2, name) < 0)
		return NULL;
	return p;
}

/*
 * The file's build-id matches the recorded one (or none was recorded);
 * else what it has, for "FILE has ...": "build-id HEX", "no build-id" or
 * "no build-id (not ELF)".
 */
static int id_check(const struct dso *d, const char *file, char *got,
		    size_t gotsz)
{
	uint8_t id[BR_BUILD_ID_MAX];
	char hex[BR_BUILD_ID_HEX];
	int n;

	if (!d->build_id_size)
		return 1;
	n = eb_file_build_id(file, id);
	if (n == (int)d->build_id_size && !memcmp(id, d->build_id, n))
		return 1;
	if (n > 0) {
		br_build_id_hex(id, (size_t)n, hex);
		snprintf(got, gotsz, "build-id %s", hex);
	} else {
		snprintf(got, gotsz, "%s", n < 0 ? "no build-id (not ELF)" :
			 "no build-id");
	}
	return 0;
}

static debuginfod_client *dbgd(struct dso_registry *r)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	if (!r->o.debuginfod || !urls || !*urls)
		return NULL;
	if (!r->dbgd)
		r->dbgd = debuginfod_begin();
	return r->dbgd;
}

/*
 * Find the code file of a user DSO.  Returns a malloc'ed path, or NULL with
 * d->state set (NOT_FOUND / MISMATCH).
 */
static char *find_code(struct dso_registry *r, struct dso *d)
{
	char hex[BR_BUILD_ID_HEX], got[64] = "", *p = NULL;
	char *mismatch = NULL, *tried = NULL;
	const char *cand[3];
	char *own[3] = { NULL, NULL, NULL };
	size_t n = 0, i;

	br_build_id_hex(d->build_id, d->build_id_size, hex);
	if (r->o.symfs && asprintf(&own[0], "%s%s", r->o.symfs, d->path) >= 0)
		cand[n++] = own[0];
	own[1] = cache_path(r, d, "elf");
	if (own[1])
		cand[n++] = own[1];
	if (d->path[0] == '/')
		cand[n++] = d->path;
	for (i = 0; i < n; i++) {
		if (!is_file(cand[i]))
			continue;
		if (id_check(d, cand[i], got, sizeof(got))) {
			p = strdup(cand[i]);
			goto out;
		}
		if (!mismatch && asprintf(&mismatch, "%s has %s",
					  cand[i], got) < 0)
			mismatch = NULL;
	}
	if (d->build_id_size && dbgd(r)) {
		char *path = NULL;
		int fd = debuginfod_find_executable(r->dbgd, d->build_id,
						    d->build_id_size, &path);

		if (fd >= 0) {
			close(fd);
			p = path;
			goto out;
		}
		free(path);
	}
	if (mismatch) {
		set_why(d, DSO_MISMATCH, "%s, the profile recorded %s",
			mismatch, hex);
		goto out;
	}
	for (i = 0; i < n; i++) {
		char *t;

		if (asprintf(&t, "%s%s%s", tried ? tried : "",
			     tried ? ", " : "", cand[i]) < 0)
			break;
		free(tried);
		tried = t;
	}
	if (d->build_id_size)
		set_why(d, DSO_NOT_FOUND,
			"%s (build-id %s): no such file (looked for %s%s)",
			d->path, hex, tried ? tried : "nothing",
			dbgd(r) ? ", debuginfod" : "");
	else
		set_why(d, DSO_NOT_FOUND, "%s: no such file (looked for %s)",
			d->path, tried ? tried : "nothing");
out:
	free(tried);
	free(mismatch);
	for (i = 0; i < 3; i++)
		free(own[i]);
	return p;
}

/*
 * The separate debug file for @code (NULL if none), through elfutils; the
 * module is kept for source lines.
 */
static char *find_debug(struct dso_registry *r, struct dso *d,
			const char *code)
{
	char *cached = cache_path(r, d, "debug"), *ret = NULL;
	const char *mainfile = NULL, *debugfile = NULL;
	char got[64];
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	void **ud;

	if (cached && (!is_file(cached) || !id_check(d, cached, got,
						     sizeof(got)))) {
		free(cached);
		cached = NULL;
	}
	if (!r->dwfl) {
		r->dwfl = dwfl_begin(&r->cb);
		if (!r->dwfl)
			goto out;
	}
	dwfl_report_begin_add(r->dwfl);
	mod = dwfl_report_offline(r->dwfl, d->short_name, code, -1);
	dwfl_report_end(r->dwfl, NULL, NULL);
	if (!mod)
		goto out;
	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	*ud = r;
	r->pending_debug = cached;
	/*
	 * The symbol table alone, found in the file or else in its debug
	 * file, unless source lines are wanted: opening the DWARF
	 * decompresses every .debug_* section of the debug file (for
	 * libc6-dbg's libc, about half of a whole run's start-up).
	 */
	if (r->o.source)
		dwfl_module_getdwarf(mod, &bias);
	dwfl_module_getsymtab(mod);
	r->pending_debug = NULL;
	d->dwfl_mod = mod;
	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
			 &debugfile);
	if (debugfile && (!mainfile || strcmp(debugfile, mainfile))) {
		ret = strdup(debugfile);
	} else if (!debugfile && dbgd(r)) {
		/*
		 * elfutils may have fetched the debug file from debuginfod
		 * itself without telling its name; the client's cache does.
		 */
		uint8_t id[BR_BUILD_ID_MAX];
		int n = eb_file_build_id(code, id), fd = -1;
		char *path = NULL;

		if (n > 0)
			fd = debuginfod_find_debuginfo(r->dbgd, id, n, &path);
		if (fd >= 0) {
			close(fd);
			ret = path;
		} else {
			free(path);
		}
	}
out:
	free(cached);
	return ret;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct kallsym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* /proc/kallsyms text: "ADDR TYPE NAME [MODULE]", text symbols only. */
static int load_kallsyms(struct dso *d, const char *path, uint64_t *text)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	size_t cap = 0, u = 0, i;
	unsigned long lineno = 0;

	*text = 0;
	if (!f) {
		/* named on the command line: unusable, said with its name */
		set_why(d, DSO_UNUSABLE, "%s: %s", path, strerror(errno));
		return BR_ESYS;
	}
	while (fgets(line, sizeof(line), f)) {
		char type, name[512];
		unsigned long long a;
		struct kallsym *k;

		lineno++;
		if (sscanf(line, "%llx %c %511s", &a, &type, name) != 3) {
			set_why(d, DSO_UNUSABLE,
				"%s:%lu: expected 'ADDRESS TYPE NAME', got '%.48s'",
				path, lineno, line);
			fclose(f);
			return BR_EINPUT;
		}
		if (!strcmp(name, "_text"))
			*text = a;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (br_grow_from((void **)&d->ksyms, &cap, d->nr_ksyms + 1,
				 sizeof(*d->ksyms), 4096))
			goto oom;
		k = &d->ksyms[d->nr_ksyms];
		k->start = a;
		k->end = 0;
		k->name = strdup(name);
		if (!k->name)
			goto oom;
		d->nr_ksyms++;
	}
	fclose(f);
	if (!d->nr_ksyms) {
		set_why(d, DSO_UNUSABLE,
			"%s: expected kernel text symbols, got none", path);
		return BR_EINPUT;
	}
	qsort(d->ksyms, d->nr_ksyms, sizeof(*d->ksyms), cmp_ksym);
	for (i = 0; i < d->nr_ksyms; i++) {
		if (u && d->ksyms[u - 1].start == d->ksyms[i].start) {
			free(d->ksyms[i].name);
			continue;
		}
		d->ksyms[u++] = d->ksyms[i];
	}
	d->nr_ksyms = u;
	for (i = 0; i + 1 < u; i++)
		d->ksyms[i].end = d->ksyms[i + 1].start;
	/* The last symbol: a page, as nothing bounds it. */
	d->ksyms[u - 1].end = d->ksyms[u - 1].start + 4096;
	return 0;
oom:
	fclose(f);
	set_why(d, DSO_NO_MEMORY, "out of memory");
	return BR_ESYS;
}

struct symbol_value {
	const char *name;
	uint64_t v;
};

static int symbol_value_of(void *arg, Elf *elf, const GElf_Shdr *symtab,
			   const GElf_Sym *s)
{
	struct symbol_value *sv = arg;
	const char *nm = elf_strptr(elf, symtab->sh_link, s->st_name);

	if (!nm || strcmp(nm, sv->name))
		return 0;
	sv->v = s->st_value;
	return 1;
}

/* The value of the symbol @name in the ELF file's .symtab, 0 if none. */
static uint64_t elf_symbol(const char *path, const char *name)
{
	int fd = open(path, O_RDONLY);
	struct symbol_value sv = { name, 0 };
	Elf *elf;

	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		eb_each_symtab_sym(elf, symbol_value_of, &sv);
		elf_end(elf);
	}
	close(fd);
	return sv.v;
}

static enum dso_state load_kernel(struct dso_registry *r, struct dso *d)
{
	char err[1024], got[64], hex[BR_BUILD_ID_HEX];
	struct eb_open_opts eo = {
		.code_set = r->o.code_set,
		.threads = r->o.threads,
	};
	enum dso_state st;

	br_build_id_hex(d->build_id, d->build_id_size, hex);
	if (r->o.vmlinux) {
		uint64_t text;

		if (!is_file(r->o.vmlinux)) {
			set_why(d, DSO_UNUSABLE, "%s: no such file",
				r->o.vmlinux);
			return d->state;
		}
		if (!id_check(d, r->o.vmlinux, got, sizeof(got))) {
			set_why(d, DSO_MISMATCH,
				"%s has %s, the profile recorded %s for the kernel",
				r->o.vmlinux, got, hex);
			return d->state;
		}
		st = open_binary(d, r->o.vmlinux, &eo, err, sizeof(err));
		if (st != DSO_UNLOADED) {
			set_why(d, st, "%s", err);
			return d->state;
		}
		d->file = strdup(r->o.vmlinux);
		text = elf_symbol(r->o.vmlinux, "_text");
		if (d->kernel_text && text)
			d->reloc = d->kernel_text - text;
		d->state = DSO_READY;
		return d->state;
	}
	if (r->o.kallsyms) {
		uint64_t text;

		if (load_kallsyms(d, r->o.kallsyms, &text))
			return d->state;
		if (d->kernel_text && text && text != d->kernel_text) {
			set_why(d, DSO_MISMATCH,
				"%s has _text at 0x%" PRIx64 ", the profile's kernel at 0x%" PRIx64 " (another boot?)",
				r->o.kallsyms, text, d->kernel_text);
			return d->state;
		}
		d->file = strdup(r->o.kallsyms);
		d->state = DSO_SYMS_ONLY;
		return d->state;
	}
	set_why(d, DSO_NO_KERNEL, "kernel samples need --vmlinux FILE or --kallsyms FILE");
	return d->state;
}

static enum dso_state load_locked(struct dso_registry *r, struct dso *d);

enum dso_state dso_load(struct dso_registry *r, struct dso *d)
{
	if (atomic_load_explicit(&d->loaded, memory_order_acquire))
		return d->state;
	pthread_mutex_lock(&r->lock);
	if (!atomic_load_explicit(&d->loaded, memory_order_relaxed)) {
		load_locked(r, d);
		atomic_store_explicit(&d->loaded, true, memory_order_release);
	}
	pthread_mutex_unlock(&r->lock);
	return d->state;
}

static enum dso_state load_locked(struct dso_registry *r, struct dso *d)
{
	struct eb_open_opts eo = {
		.code_set = r->o.code_set,
		.threads = r->o.threads,
	};
	enum dso_state st;
	char err[1024];
	char *code;

	if (d->state != DSO_UNLOADED)
		return d->state;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		set_why(d, DSO_UNUSABLE, "libelf: %s", elf_errmsg(-1));
		return d->state;
	}
	if (d->kernel)
		return load_kernel(r, d);
	code = find_code(r, d);
	if (!code) {
		if (d->state == DSO_UNLOADED)
			set_why(d, DSO_NO_MEMORY, "out of memory");
		return d->state;
	}
	d->file = code;
	d->debug_file = find_debug(r, d, code);
	eo.sym_path = d->debug_file;
	st = open_binary(d, code, &eo, err, sizeof(err));
	if (st != DSO_UNLOADED) {
		set_why(d, st, "%s", err);
		return d->state;
	}
	/* A debug file without a .symtab of its own does not count. */
	if (d->debug_file && d->bin.sym_path != d->bin.sym_path_buf) {
		free(d->debug_file);
		d->debug_file = NULL;
	}
	d->state = DSO_READY;
	return d->state;
}

bool dso_addr(const struct dso *d, uint64_t off_or_addr, uint64_t *vaddr)
{
	if (d->kernel) {
		*vaddr = off_or_addr - d->reloc;
		return true;
	}
	if (d->state != DSO_READY)
		return false;
	return eb_off_to_vaddr(&d->bin, off_or_addr, vaddr);
}

const struct kallsym *dso_ksym_at(const struct dso *d, uint64_t addr)
{
	size_t lo = br_count_le(d->ksyms, d->nr_ksyms, sizeof(*d->ksyms),
				offsetof(struct kallsym, start), addr);

	if (lo && addr < d->ksyms[lo - 1].end)
		return &d->ksyms[lo - 1];
	return NULL;
}

const void *dso_sym_at(const struct dso *d, uint64_t vaddr, size_t *idx)
{
	if (d->state == DSO_READY) {
		const struct eb_sym *s = eb_sym_at(&d->bin, vaddr);

		if (s)
			*idx = (size_t)(s - d->bin.syms);
		return s;
	}
	if (d->state == DSO_SYMS_ONLY) {
		const struct kallsym *k = dso_ksym_at(d, vaddr);

		if (k)
			*idx = (size_t)(k - d->ksyms);
		return k;
	}
	return NULL;
}

bool dso_source_line(struct dso_registry *r, struct dso *d, uint64_t vaddr,
		     const char **file, int *line)
{
	Dwfl_Line *l;
	const char *src;
	Dwarf_Addr bias = 0;

	(void)r;
	if (!d->dwfl_mod)
		return false;
	/* elfutils places offline modules at addresses of its own. */
	if (!dwfl_module_getelf(d->dwfl_mod, &bias))
		return false;
	l = dwfl_module_getsrc(d->dwfl_mod, vaddr + bias);
	if (!l)
		return false;
	src = dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL);
	/* libdwfl's int: a line past INT_MAX comes out negative, none */
	if (!src || *line < 0)
		return false;
	*file = src;
	return true;
}
