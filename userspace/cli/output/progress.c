// SPDX-License-Identifier: GPL-2.0
/* The progress line.  See progress.h. */
#define _GNU_SOURCE

#include "output/progress.h"

#include <unistd.h>

void progress_init(struct progress *pr, FILE *f)
{
	pr->f = f;
	pr->tty = isatty(fileno(f));
	clock_gettime(CLOCK_MONOTONIC, &pr->t0);
	pr->last = pr->t0;
}

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

void progress_show(void *arg, uint64_t bytes, uint64_t total,
		   uint64_t samples, bool last)
{
	struct progress *pr = arg;
	struct timespec now;
	double t, rate, mb = (double)bytes / 1e6;
	char eta[32] = "";

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!last && since(&pr->last, &now) < (pr->tty ? 0.25 : 1.0))
		return;
	pr->last = now;
	t = since(&pr->t0, &now);
	rate = t > 0 ? (double)samples / t : 0;
	if (total && bytes && t > 0 && bytes < total) {
		double left = t * (double)(total - bytes) / (double)bytes;

		snprintf(eta, sizeof(eta), ", %d:%02d left", (int)left / 60,
			 (int)left % 60);
	}
	if (total)
		fprintf(pr->f, "%sblockrange: %.1f of %.1f MB (%.0f%%), %.0f samples/s%s%s",
			pr->tty ? "\r" : "", mb, (double)total / 1e6,
			100.0 * (double)bytes / (double)total, rate, eta,
			pr->tty ? "\033[K" : "\n");
	else
		fprintf(pr->f, "%sblockrange: %.1f MB, %.0f samples/s%s",
			pr->tty ? "\r" : "", mb, rate, pr->tty ? "\033[K" : "\n");
	if (last && pr->tty)
		fputs("\r\033[K", pr->f);
}
