// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's mappings: a block in an address range not seen before makes
 * translation read /proc/self/maps for the mapping that holds it (the
 * guest's mappings are the host's, guest_base is 0, but QEMU's own
 * libraries are there too: a mapping is recorded only once guest code runs
 * in it), recorded as a MAP record; the system calls that change mappings
 * drop what they touch, so that a new mapping at a reused address is seen
 * afresh.  Calls output.c and context.c.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin/plugin.h"

/*
 * The live mapping holding @addr, the newest if several do, or NULL
 * (g.lock held).  Mappings are few and this runs at translation only.
 */
struct map *map_find(uint64_t addr)
{
	struct map *best = NULL;
	size_t i;

	for (i = 0; i < g.nr_maps; i++) {
		struct map *m = &g.maps[i];

		if (m->live && m->start <= addr && addr < m->end &&
		    (!best || m->id > best->id))
			best = m;
	}
	return best;
}

/* Parse one /proc/self/maps line; the path (or NULL) stays in @line. */
static bool parse_maps_line(char *line, struct map *m)
{
	unsigned long long s, e, off, ino;
	unsigned maj, min;
	int pos = 0;
	char *p;

	if (sscanf(line, "%llx-%llx %*4s %llx %x:%x %llu %n", &s, &e, &off,
		   &maj, &min, &ino, &pos) < 6)
		return false;
	memset(m, 0, sizeof(*m));
	m->start = s;
	m->end = e;
	m->pgoff = off;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	p = line + pos;
	p[strcspn(p, "\n")] = '\0';
	m->path = *p ? p : NULL;
	return true;
}

/*
 * The mapping holding @addr, read from /proc/self/maps; a mapping seen
 * before keeps its id.  0 if there is none (g.lock held).
 */
uint32_t map_discover(struct th *t, uint64_t addr)
{
	char line[PATH_MAX + 128];
	struct map m, *k;
	bool found = false;
	size_t i;
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (!f)
		fatal("cannot read /proc/self/maps: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (parse_maps_line(line, &m) && m.start <= addr && addr < m.end) {
			found = true;
			break;
		}
	fclose(f);
	if (!found)
		return 0;
	for (i = 0; i < g.nr_maps; i++) {
		k = &g.maps[i];
		if (k->start == m.start && k->end == m.end &&
		    k->pgoff == m.pgoff && k->ino == m.ino &&
		    k->maj == m.maj && k->min == m.min &&
		    !strcmp(k->path ? k->path : "", m.path ? m.path : "")) {
			k->live = true;
			return k->id;
		}
	}
	if (g.nr_maps == g.cap_maps) {
		size_t cap = g.cap_maps ? 2 * g.cap_maps : 64;
		struct map *n = realloc(g.maps, cap * sizeof(*n));

		if (!n)
			fatal("out of memory");
		g.maps = n;
		g.cap_maps = cap;
	}
	m.path = m.path ? strdup(m.path) : NULL;
	m.id = ++g.next_map;
	m.live = true;
	g.maps[g.nr_maps++] = m;
	rec_map(t, &m);
	return m.id;
}

/* Forget the live mappings that meet [start, end) (g.lock not held). */
void maps_touched(uint64_t start, uint64_t end)
{
	size_t i;

	pthread_mutex_lock(&g.lock);
	for (i = 0; i < g.nr_maps; i++)
		if (g.maps[i].start < end && start < g.maps[i].end)
			g.maps[i].live = false;
	pthread_mutex_unlock(&g.lock);
}

void maps_free(void)
{
	size_t i;

	for (i = 0; i < g.nr_maps; i++)
		free(g.maps[i].path);
	free(g.maps);
}
