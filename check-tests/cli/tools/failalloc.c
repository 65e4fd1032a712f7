// SPDX-License-Identifier: GPL-2.0
/*
 * failalloc.so: out of memory on demand, for the CLI's allocation-failure
 * tests (test_oom.c).  Preloaded (LD_PRELOAD) into blockrange, it stands
 * in for malloc, calloc, realloc, strdup, strndup, asprintf and vasprintf
 * and tells the allocations the program itself makes (the caller's
 * address is in the executable's code) from those of the libraries.
 *
 *   FAILALLOC_LIST=FILE  at exit, write every call site of the program,
 *                        in the order of the first call of each, one per
 *                        line
 *   FAILALLOC_SITE=SITE  the first call from that site fails (NULL, errno
 *                        ENOMEM); every other call is served
 *
 * A site is "0xAT/0xFROM": AT the return address of the allocation call,
 * FROM the return address of the call of the function that allocates (0
 * when that caller is not in the program), both as offsets in the
 * executable.  So every place of the program that allocates gets its own
 * failure, once per place that calls it: a helper that allocates for many
 * callers fails under each of them, and each caller's handling is tried.
 * The library calls are never failed (their handling of it is theirs).
 * Under AddressSanitizer the real functions are ASan's
 * (ASAN_OPTIONS=verify_asan_link_order=0).
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <unwind.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SITES 8192

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);

struct site {
	uintptr_t at, from;
};

static uintptr_t exe_lo, exe_hi, exe_base;
static struct site fail_site;		/* at 0: none */
static int failed;
static struct site sites[MAX_SITES];
static size_t nr_sites;
static unsigned short index_of[4 * MAX_SITES];	/* 1 + index; 0: free */
static __thread int unwinding __attribute__((tls_model("initial-exec")));
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* dlsym() allocates: serve those calls from here until it returns. */
static char boot[4096];
static size_t boot_used;
static int resolving;

static void *boot_alloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (boot_used + n > sizeof(boot))
		return NULL;
	p = boot + boot_used;
	boot_used += n;
	return p;
}

static int is_boot(const void *p)
{
	return (const char *)p >= boot && (const char *)p < boot + sizeof(boot);
}

/* The executable's code: its PT_LOAD with PF_X (the first object). */
static int find_exe(struct dl_phdr_info *info, size_t size, void *arg)
{
	int i;

	(void)size;
	(void)arg;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			exe_base = info->dlpi_addr;
			exe_lo = info->dlpi_addr + ph->p_vaddr;
			exe_hi = exe_lo + ph->p_memsz;
			break;
		}
	}
	return 1;	/* the main program only */
}

static void resolve(void)
{
	const char *s;

	if (real_malloc || resolving)
		return;
	resolving = 1;
	real_malloc = dlsym(RTLD_NEXT, "malloc");
	real_calloc = dlsym(RTLD_NEXT, "calloc");
	real_realloc = dlsym(RTLD_NEXT, "realloc");
	real_free = dlsym(RTLD_NEXT, "free");
	dl_iterate_phdr(find_exe, NULL);
	s = getenv("FAILALLOC_SITE");
	if (s && *s) {
		char *end;

		fail_site.at = (uintptr_t)strtoull(s, &end, 0);
		if (*end == '/')
			fail_site.from = (uintptr_t)strtoull(end + 1, NULL, 0);
	}
	resolving = 0;
}

static int in_exe(uintptr_t a)
{
	return a >= exe_lo && a < exe_hi;
}

/* Walking the stack up to the frame after @ret's. */
struct walk {
	uintptr_t ret;
	int found;
	uintptr_t from;
};

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg)
{
	struct walk *w = arg;
	uintptr_t ip = (uintptr_t)_Unwind_GetIP(ctx);

	if (!w->found) {
		w->found = ip == w->ret;
		return _URC_NO_REASON;
	}
	w->from = in_exe(ip) ? ip - exe_base : 0;
	return _URC_END_OF_STACK;
}

/* The return address of the call of the function that called from @ret. */
static uintptr_t caller_of(uintptr_t ret)
{
	struct walk w = { ret, 0, 0 };

	if (unwinding)
		return 0;
	unwinding = 1;
	_Unwind_Backtrace(step, &w);
	unwinding = 0;
	return w.from;
}

/* Whether the call from @ret fails; notes its site either way. */
static int should_fail(uintptr_t ret)
{
	struct site site;
	size_t i;
	int fail = 0;

	if (!in_exe(ret))
		return 0;
	site.at = ret - exe_base;
	site.from = caller_of(ret);
	pthread_mutex_lock(&lock);
	i = ((site.at * 0x9e3779b97f4a7c15ull) ^ site.from) % (4 * MAX_SITES);
	while (index_of[i] && (sites[index_of[i] - 1].at != site.at ||
			       sites[index_of[i] - 1].from != site.from))
		i = (i + 1) % (4 * MAX_SITES);
	if (!index_of[i] && nr_sites < MAX_SITES) {
		sites[nr_sites++] = site;
		index_of[i] = (unsigned short)nr_sites;
	}
	if (site.at == fail_site.at && site.from == fail_site.from &&
	    !failed) {
		failed = 1;
		fail = 1;
	}
	pthread_mutex_unlock(&lock);
	if (fail)
		errno = ENOMEM;
	return fail;
}

#define RET ((uintptr_t)__builtin_return_address(0))

void *malloc(size_t n)
{
	resolve();
	if (!real_malloc)
		return boot_alloc(n);
	return should_fail(RET) ? NULL : real_malloc(n);
}

void *calloc(size_t n, size_t m)
{
	resolve();
	if (!real_calloc)
		return boot_alloc(n * m);	/* zeroed: static storage */
	return should_fail(RET) ? NULL : real_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
	resolve();
	if (is_boot(p)) {
		void *q = real_malloc ? real_malloc(n) : boot_alloc(n);

		if (q)
			memcpy(q, p, n);
		return q;
	}
	return should_fail(RET) ? NULL : real_realloc(p, n);
}

void free(void *p)
{
	if (!p || is_boot(p))
		return;
	resolve();
	real_free(p);
}

static char *dup_n(const char *s, size_t n)
{
	char *d = real_malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

char *strdup(const char *s)
{
	resolve();
	return should_fail(RET) ? NULL : dup_n(s, strlen(s));
}

char *strndup(const char *s, size_t n)
{
	resolve();
	return should_fail(RET) ? NULL : dup_n(s, strnlen(s, n));
}

static int vas(char **out, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return -1;
	*out = real_malloc((size_t)n + 1);
	if (!*out)
		return -1;
	return vsnprintf(*out, (size_t)n + 1, fmt, ap);
}

int vasprintf(char **out, const char *fmt, va_list ap)
{
	resolve();
	if (should_fail(RET))
		return -1;
	return vas(out, fmt, ap);
}

int asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	resolve();
	if (should_fail(RET))
		return -1;
	va_start(ap, fmt);
	n = vas(out, fmt, ap);
	va_end(ap);
	return n;
}

__attribute__((destructor)) static void write_list(void)
{
	const char *path = getenv("FAILALLOC_LIST");
	FILE *f;
	size_t i;

	if (!path || !*path)
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	for (i = 0; i < nr_sites; i++)
		fprintf(f, "0x%lx/0x%lx\n", (unsigned long)sites[i].at,
			(unsigned long)sites[i].from);
	fclose(f);
}
