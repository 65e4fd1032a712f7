// SPDX-License-Identifier: GPL-2.0-only
/*
 * A KUnit-hosted benchmark of the hwmon core. It reports figures, it does
 * not judge them: the only assertions are that the registrations and reads
 * it measures succeed.
 *
 * Times. For each size (1, 16, 256 and 1024 channels spread over every
 * sensor type, every attribute bit of each type) two operations are timed:
 * register + unregister on a parent that exists before and after, and the
 * same with a parent of its own that is created and removed inside the
 * timed window (a core that allocates with devm on the parent frees only
 * then). One repetition times both operations at every size, rotating the
 * order of the sizes and of the two operations; bench_reps repetitions
 * are interleaved that way, so that a load that changes during the boot
 * weighs on every figure alike. Before each operation rcu_barrier() runs
 * the RCU callbacks the previous one left (6.12 frees kernfs nodes that
 * way), so that they do not land in the next one's window. bench_reps is the module parameter
 * hwmon_kunit.bench_reps: 5 by default; the test kernel's guests of make
 * check boot with 1 (scripts/check-kernel.sh), make bench-hwmon with 100. Each figure is printed as
 *
 *	bench-hwmon: <key>=<median> min=<min> max=<max> runs=<n> q1=<q1> q3=<q3>
 *
 * and its samples as "bench-hwmon-samples: <key> <first>: v,v,..." lines.
 *
 * Counts. The same operations once more, counted instead of timed, each
 * three times (a count is a property of the code path: the three must
 * agree), in two halves: the registration (with the parent's creation for
 * the second operation) and the unregistration (with the parent's
 * removal). They are taken in the task that runs the case only, from hooks
 * that exist whatever the core, so that the stock core is counted without
 * a change to it:
 *  - slab allocations and their bytes: the kmem tracepoints (kmalloc, with
 *    the bytes of its size class; kmem_cache_alloc, with the cache's object
 *    size); frees of objects (kfree, kmem_cache_free; frees deferred to RCU
 *    callbacks run elsewhere and are not seen); the change of the pages
 *    vmalloc() holds;
 *  - kernfs nodes (sysfs files, directories, links): every node gets the
 *    next inode number of its kernfs root, so the numbers of two fence
 *    files created around a half tell how many nodes it created;
 *  - is_visible() calls: the bench chip's own callback;
 *  - with CONFIG_FUNCTION_TRACER (the counts kernel of make bench-hwmon,
 *    kunit/counts.kunitconfig): calls of the sleeping-lock functions
 *    (mutex_lock*, down_read*, down_write*) and of kernfs_find_ns(), the
 *    name lookup in a kernfs directory. The KUnit kernels are
 *    uniprocessor, so spin locks are no more than preemption toggles and
 *    are not counted.
 * Each half is printed as
 *
 *	bench-hwmon-count: <half>_<size> <name>=<value> ...
 *
 * with <half> register, unregister, parent_register or parent_unregister.
 *
 * Memory: the slab page counters of the node statistics (kmalloc_large()
 * pages are accounted there too) plus the pages vmalloc() holds, around
 * the registration of BENCH_NDEV all-types devices, divided by BENCH_NDEV.
 * bytes_per_file_floor is what sysfs alone costs per file (kernfs node and
 * name copy), whatever the core: a group of that many attributes, made
 * beforehand, added to a plain device. Times come from ktime_get_ns().
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/hwmon.h>
#include <linux/kernel.h>
#include <linux/kernfs.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/sysfs.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>
#include <trace/events/kmem.h>

#include "hwmon_fake_chip.h"
#include "hwmon_sysfs_util.h"

/* Devices registered at once for a memory figure. */
#define BENCH_NDEV		32
/* Repetitions of each memory figure. */
#define BENCH_MEM_RUNS		5
/* Batches of reads, and reads per batch. */
#define BENCH_READ_RUNS		15
#define BENCH_READ_BATCH	200
/* Repetitions of each count. */
#define BENCH_COUNT_RUNS	3
/* Samples per "bench-hwmon-samples" line. */
#define BENCH_SAMPLES_PER_LINE	25

static unsigned int bench_reps = 5;
module_param(bench_reps, uint, 0444);
MODULE_PARM_DESC(bench_reps,
		 "bench_hwmon: interleaved repetitions of each timed figure");

/*
 * Every device the memory figure registers stays until the end of the case:
 * devices unregistered between runs would leave slab objects that the next
 * run reuses without new pages.
 */
#define BENCH_MEM_DEVS		(BENCH_NDEV * (2 * BENCH_MEM_RUNS + 1))

struct bench_devs {
	struct device *dev[BENCH_MEM_DEVS];
	int n;
};

static int bench_cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

/* Prints the samples of @key as they were taken, then their summary. */
static void bench_report(struct kunit *test, const char *key, s64 *v, int n)
{
	char line[BENCH_SAMPLES_PER_LINE * 12 + 1];
	int i, len;

	for (i = 0; i < n; i += BENCH_SAMPLES_PER_LINE) {
		int j, end = min(n, i + BENCH_SAMPLES_PER_LINE);

		len = 0;
		for (j = i; j < end; j++)
			len += scnprintf(line + len, sizeof(line) - len, "%s%lld",
					 j > i ? "," : "", v[j]);
		kunit_info(test, "bench-hwmon-samples: %s %d: %s\n", key, i,
			   line);
	}
	sort(v, n, sizeof(*v), bench_cmp_s64, NULL);
	kunit_info(test,
		   "bench-hwmon: %s=%lld min=%lld max=%lld runs=%d q1=%lld q3=%lld\n",
		   key, v[n / 2], v[0], v[n - 1], n, v[n / 4], v[(3 * n) / 4]);
}

/* Bytes held by the slab allocators (with large kmallocs) and vmalloc. */
static s64 bench_slab_bytes(void)
{
	unsigned long pages;

	pages = global_node_page_state_pages(NR_SLAB_UNRECLAIMABLE_B) +
		global_node_page_state_pages(NR_SLAB_RECLAIMABLE_B) +
		vmalloc_nr_pages();
	return (s64)pages * PAGE_SIZE;
}

static void bench_devs_unregister(void *data)
{
	struct bench_devs *devs = data;

	while (devs->n > 0)
		hwmon_device_unregister(devs->dev[--devs->n]);
}

/*
 * Registers BENCH_NDEV devices of @chip under @parent (unregistered when the
 * case ends). Return: bytes the registered devices took, per device.
 */
static s64 bench_mem_per_device(struct kunit *test, struct bench_devs *devs,
				struct device *parent,
				struct hwmon_fake_chip *chip)
{
	const struct hwmon_chip_info *info = hwmon_fake_chip_info(chip);
	struct device *hwdev;
	s64 before, after;
	int i;

	KUNIT_ASSERT_LE(test, devs->n + BENCH_NDEV, BENCH_MEM_DEVS);
	rcu_barrier();
	before = bench_slab_bytes();
	for (i = 0; i < BENCH_NDEV; i++) {
		hwdev = hwmon_device_register_with_info(parent, "bench", chip,
							info, NULL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
		devs->dev[devs->n++] = hwdev;
	}
	after = bench_slab_bytes();
	return div_s64(after - before, BENCH_NDEV);
}

static void bench_hwmon_memory(struct kunit *test)
{
	struct hwmon_fake_chip *small = hwmon_fake_chip_new(test);
	struct hwmon_fake_chip *big = hwmon_fake_chip_new(test);
	s64 dev_small[BENCH_MEM_RUNS], dev_big[BENCH_MEM_RUNS];
	s64 per_attr[BENCH_MEM_RUNS], attrs[2];
	struct bench_devs *devs;
	struct device *parent;
	int i;

	devs = kunit_kzalloc(test, sizeof(*devs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, devs);
	KUNIT_ASSERT_EQ(test, hwmon_test_defer(test, bench_devs_unregister,
					       devs), 0);
	parent = hwmon_test_parent(test, NULL);

	hwmon_fake_chip_set_all(small, 1);
	hwmon_fake_chip_set_all(big, HWMON_FAKE_MAX_CHANNELS);
	attrs[0] = hwmon_fake_chip_file_count(small);
	attrs[1] = hwmon_fake_chip_file_count(big);
	KUNIT_ASSERT_GT(test, attrs[1], attrs[0]);

	/* Warm up: caches and ids the first registration creates. */
	bench_mem_per_device(test, devs, parent, big);

	for (i = 0; i < BENCH_MEM_RUNS; i++) {
		dev_small[i] = bench_mem_per_device(test, devs, parent, small);
		dev_big[i] = bench_mem_per_device(test, devs, parent, big);
		per_attr[i] = div_s64(dev_big[i] - dev_small[i],
				      attrs[1] - attrs[0]);
	}

	kunit_info(test, "bench-hwmon: attrs_all1=%lld min=%lld max=%lld runs=1\n",
		   attrs[0], attrs[0], attrs[0]);
	kunit_info(test, "bench-hwmon: attrs_all%d=%lld min=%lld max=%lld runs=1\n",
		   HWMON_FAKE_MAX_CHANNELS, attrs[1], attrs[1], attrs[1]);
	bench_report(test, "bytes_per_device_all1", dev_small, BENCH_MEM_RUNS);
	bench_report(test, "bytes_per_device_all4", dev_big, BENCH_MEM_RUNS);
	bench_report(test, "bytes_per_attr", per_attr, BENCH_MEM_RUNS);
}

/* Files of the sysfs floor figure, and its repetitions. */
#define BENCH_FLOOR_FILES	512
#define BENCH_FLOOR_RUNS	5

static ssize_t bench_floor_show(struct device *dev,
				struct device_attribute *da, char *buf)
{
	return sysfs_emit(buf, "0\n");
}

static void bench_floor_free(void *data)
{
	struct device_attribute *das = data;
	int i;

	for (i = 0; i < BENCH_FLOOR_FILES; i++)
		kfree(das[i].attr.name);
	kfree(das);
}

static void bench_hwmon_sysfs_floor(struct kunit *test)
{
	struct attribute **ptrs;
	struct device_attribute *das;
	struct attribute_group grp = { .name = NULL };
	s64 per_file[BENCH_FLOOR_RUNS], before, after;
	struct device *parents[BENCH_FLOOR_RUNS];
	int i;

	das = kcalloc(BENCH_FLOOR_FILES, sizeof(*das), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, das);
	KUNIT_ASSERT_EQ(test, hwmon_test_defer(test, bench_floor_free, das), 0);
	ptrs = kunit_kcalloc(test, BENCH_FLOOR_FILES + 1, sizeof(*ptrs),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ptrs);
	for (i = 0; i < BENCH_FLOOR_FILES; i++) {
		/* generated names, as a core generates them */
		das[i].attr.name = kasprintf(GFP_KERNEL, "temp%d_input", i + 1);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, das[i].attr.name);
		sysfs_attr_init(&das[i].attr);
		das[i].attr.mode = 0444;
		das[i].show = bench_floor_show;
		ptrs[i] = &das[i].attr;
	}
	grp.attrs = ptrs;
	/*
	 * One parent per run, all kept until the end: a group removed and
	 * created again would reuse the slab objects it just freed.
	 */
	for (i = 0; i < BENCH_FLOOR_RUNS; i++)
		parents[i] = hwmon_test_parent(test, NULL);

	for (i = 0; i < BENCH_FLOOR_RUNS; i++) {
		rcu_barrier();
		before = bench_slab_bytes();
		KUNIT_ASSERT_EQ(test, sysfs_create_group(&parents[i]->kobj, &grp),
				0);
		after = bench_slab_bytes();
		per_file[i] = div_s64(after - before, BENCH_FLOOR_FILES);
	}
	for (i = 0; i < BENCH_FLOOR_RUNS; i++)
		sysfs_remove_group(&parents[i]->kobj, &grp);
	bench_report(test, "bytes_per_file_floor", per_file, BENCH_FLOOR_RUNS);
}

/*
 * The chips of the registration figures: the sizes' channels dealt out in
 * turn to every sensor type (energy64, where the tree has it, excepted: its
 * files have the names of energy's), each channel with every attribute bit
 * of its type that has a file, plus one channel of chip attributes. Every
 * file is read-only; labels are strings.
 */

static const int bench_sizes[] = { 1, 16, 256, 1024 };

#define BENCH_NSIZES	ARRAY_SIZE(bench_sizes)

static const enum hwmon_sensor_types bench_types[] = {
	hwmon_temp, hwmon_in, hwmon_curr, hwmon_power, hwmon_energy,
	hwmon_humidity, hwmon_fan, hwmon_pwm, hwmon_intrusion,
};

#define BENCH_NTYPES	ARRAY_SIZE(bench_types)

/**
 * struct bench_chip - a chip of one size
 * @channels: sensor channels (the size)
 * @files: attribute files the chip asks for
 * @config: configuration words, zero terminated, per entry of @infos
 * @channel_info: channel descriptions
 * @infos: NULL terminated list of @channel_info
 * @chip: what is registered
 */
struct bench_chip {
	int channels;
	int files;
	u32 *config[BENCH_NTYPES + 1];
	struct hwmon_channel_info channel_info[BENCH_NTYPES + 1];
	const struct hwmon_channel_info *infos[BENCH_NTYPES + 2];
	struct hwmon_chip_info chip;
};

/* is_visible() calls while counting (see bench_count_begin()). */
static unsigned long bench_visible_calls;
static struct task_struct *bench_count_task;

static umode_t bench_is_visible(const void *drvdata,
				enum hwmon_sensor_types type, u32 attr,
				int channel)
{
	if (READ_ONCE(bench_count_task) == current)
		bench_visible_calls++;
	return 0444;
}

static int bench_read(struct device *dev, enum hwmon_sensor_types type,
		      u32 attr, int channel, long *val)
{
	*val = channel;
	return 0;
}

static int bench_read_string(struct device *dev, enum hwmon_sensor_types type,
			     u32 attr, int channel, const char **str)
{
	*str = "bench";
	return 0;
}

static const struct hwmon_ops bench_ops = {
	.is_visible = bench_is_visible,
	.read = bench_read,
	.read_string = bench_read_string,
};

/* Every bit of @type that has a file on any parent. */
static u32 bench_type_bits(enum hwmon_sensor_types type)
{
	u32 bits = 0;
	size_t i;

	for (i = 0; i < hwmon_fake_attr_count; i++)
		if (hwmon_fake_attrs[i].type == type && hwmon_fake_attrs[i].name)
			bits |= hwmon_fake_attrs[i].bit;
	return bits;
}

static void bench_chip_init(struct kunit *test, struct bench_chip *bc,
			    int channels)
{
	int t, c, n, k = 0;

	bc->channels = channels;
	for (t = 0; t <= BENCH_NTYPES; t++) {
		enum hwmon_sensor_types type;
		u32 bits;

		if (t == BENCH_NTYPES) {
			type = hwmon_chip;
			n = 1;
		} else {
			type = bench_types[t];
			n = channels / BENCH_NTYPES +
			    (t < channels % BENCH_NTYPES);
		}
		if (!n)
			continue;
		bits = bench_type_bits(type);
		bc->config[k] = kunit_kcalloc(test, n + 1, sizeof(u32),
					      GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, bc->config[k]);
		for (c = 0; c < n; c++)
			bc->config[k][c] = bits;
		bc->files += n * hweight32(bits);
		bc->channel_info[k].type = type;
		bc->channel_info[k].config = bc->config[k];
		bc->infos[k] = &bc->channel_info[k];
		k++;
	}
	bc->infos[k] = NULL;
	bc->chip.ops = &bench_ops;
	bc->chip.info = bc->infos;
}

/* The two timed operations, and their keys. */
enum bench_op { BENCH_REG_UNREG, BENCH_REG_PARENT, BENCH_NOPS };
static const char * const bench_op_key[BENCH_NOPS] = {
	[BENCH_REG_UNREG] = "reg_unreg",
	[BENCH_REG_PARENT] = "reg_parent",
};

/*
 * Runs one operation on @bc. BENCH_REG_UNREG registers and unregisters
 * under @parent; BENCH_REG_PARENT also creates the parent first and
 * removes it last. *ns gets the time of the whole, *reg_ns that of the
 * first half, up to the return of the registration (either may be NULL).
 */
static void bench_op_run(struct kunit *test, enum bench_op op,
			 struct bench_chip *bc, struct device *parent, s64 *ns,
			 s64 *reg_ns)
{
	struct device *hwdev;
	u64 t0, t1;

	t0 = ktime_get_ns();
	if (op == BENCH_REG_PARENT)
		parent = hwmon_test_parent(test, NULL);
	hwdev = hwmon_device_register_with_info(parent, "bench", NULL,
						&bc->chip, NULL);
	t1 = ktime_get_ns();
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_device_unregister(hwdev);
	if (op == BENCH_REG_PARENT)
		hwmon_test_remove_parent(test, parent);
	if (ns)
		*ns = ktime_get_ns() - t0;
	if (reg_ns)
		*reg_ns = t1 - t0;
}

/*
 * Samples of each operation and size: the whole operation (ns), and the
 * registration alone (reg_ns); the unregistration is their difference.
 */
struct bench_reg {
	struct bench_chip chips[BENCH_NSIZES];
	s64 *ns[BENCH_NOPS][BENCH_NSIZES];
	s64 *reg_ns[BENCH_NOPS][BENCH_NSIZES];
};

static void bench_hwmon_register(struct kunit *test)
{
	struct bench_reg *br;
	unsigned int reps = max(bench_reps, 1U), r;
	char key[32];
	int s, o, k;

	br = kunit_kzalloc(test, sizeof(*br), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, br);
	for (s = 0; s < BENCH_NSIZES; s++) {
		bench_chip_init(test, &br->chips[s], bench_sizes[s]);
		for (o = 0; o < BENCH_NOPS; o++) {
			br->ns[o][s] = kunit_kcalloc(test, reps, sizeof(s64),
						     GFP_KERNEL);
			br->reg_ns[o][s] = kunit_kcalloc(test, reps,
							 sizeof(s64),
							 GFP_KERNEL);
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, br->ns[o][s]);
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, br->reg_ns[o][s]);
		}
	}

	/* Warm up: caches, ids and the parent driver of the first use. */
	for (s = 0; s < BENCH_NSIZES; s++)
		for (o = 0; o < BENCH_NOPS; o++) {
			struct device *parent = hwmon_test_parent(test, NULL);

			bench_op_run(test, o, &br->chips[s], parent, NULL,
				     NULL);
			hwmon_test_remove_parent(test, parent);
		}

	/*
	 * Repetition r starts at size r % BENCH_NSIZES and alternates which
	 * operation comes first. BENCH_REG_UNREG gets a parent of its own
	 * that is created before and removed after the timed window: memory
	 * a core leaves on the parent is freed then, untimed, and does not
	 * pile up over the repetitions.
	 */
	for (r = 0; r < reps; r++) {
		for (k = 0; k < BENCH_NSIZES; k++) {
			s = (r + k) % BENCH_NSIZES;
			for (o = 0; o < BENCH_NOPS; o++) {
				enum bench_op op = (o + r) % BENCH_NOPS;
				struct device *parent = NULL;

				if (op == BENCH_REG_UNREG)
					parent = hwmon_test_parent(test, NULL);
				/*
				 * Deferred frees of the last operation (RCU
				 * callbacks: kernfs nodes on 6.12) run now,
				 * not in this one's window.
				 */
				rcu_barrier();
				bench_op_run(test, op, &br->chips[s], parent,
					     &br->ns[op][s][r],
					     &br->reg_ns[op][s][r]);
				if (parent)
					hwmon_test_remove_parent(test, parent);
			}
		}
		cond_resched();
	}

	for (s = 0; s < BENCH_NSIZES; s++) {
		kunit_info(test,
			   "bench-hwmon: files_%d=%d min=%d max=%d runs=1\n",
			   bench_sizes[s], br->chips[s].files,
			   br->chips[s].files, br->chips[s].files);
		for (o = 0; o < BENCH_NOPS; o++) {
			snprintf(key, sizeof(key), "%s_ns_%d", bench_op_key[o],
				 bench_sizes[s]);
			bench_report(test, key, br->ns[o][s], reps);
			snprintf(key, sizeof(key), "%s_first_half_ns_%d",
				 bench_op_key[o], bench_sizes[s]);
			bench_report(test, key, br->reg_ns[o][s], reps);
		}
	}
}

/* Counting */

/*
 * Functions counted with the function tracer: the sleeping locks (the KUnit
 * kernels are uniprocessor, spin locks cost nothing there) and the kernfs
 * name lookup. A function the tree does not have (or the compiler inlined)
 * cannot be filtered on and is reported as -1.
 */
static const char * const bench_count_fns[] = {
	"mutex_lock", "mutex_lock_interruptible", "mutex_lock_killable",
	"down_read", "down_write", "down_read_killable", "down_write_killable",
	"kernfs_find_ns",
};

/* What one operation did in the counting task. */
enum bench_count_field {
	BC_SLAB_ALLOCS,		/* kmalloc() and kmem_cache_alloc() calls */
	BC_SLAB_BYTES,		/* their size class or object size */
	BC_VMALLOC_PAGES,	/* change of the pages vmalloc() holds */
	BC_KERNFS_NODES,	/* kernfs nodes created */
	BC_IS_VISIBLE,		/* is_visible() calls */
	BC_FREES,		/* kfree() and kmem_cache_free() of objects */
	BC_FN,			/* calls of bench_count_fns[] from here on */
	BC_NFIELDS = BC_FN + ARRAY_SIZE(bench_count_fns),
};

static const char * const bench_count_names[BC_FN] = {
	[BC_SLAB_ALLOCS] = "slab_allocs",
	[BC_SLAB_BYTES] = "slab_bytes",
	[BC_VMALLOC_PAGES] = "vmalloc_pages",
	[BC_KERNFS_NODES] = "kernfs_nodes",
	[BC_IS_VISIBLE] = "is_visible",
	[BC_FREES] = "frees",
};

struct bench_counts {
	s64 v[BC_NFIELDS];
};

static struct bench_counts bench_cnt;

static bool bench_counting(void)
{
	return READ_ONCE(bench_count_task) == current && in_task();
}

static void bench_probe_kmalloc(void *data, unsigned long call_site,
				const void *ptr, size_t bytes_req,
				size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	if (ptr && bench_counting()) {
		bench_cnt.v[BC_SLAB_ALLOCS]++;
		bench_cnt.v[BC_SLAB_BYTES] += bytes_alloc;
	}
}

static void bench_probe_cache_alloc(void *data, unsigned long call_site,
				    const void *ptr, struct kmem_cache *s,
				    gfp_t gfp_flags, int node)
{
	if (ptr && bench_counting()) {
		bench_cnt.v[BC_SLAB_ALLOCS]++;
		bench_cnt.v[BC_SLAB_BYTES] += s ? kmem_cache_size(s) : 0;
	}
}

static void bench_probe_kfree(void *data, unsigned long call_site,
			      const void *ptr)
{
	if (!ZERO_OR_NULL_PTR(ptr) && bench_counting())
		bench_cnt.v[BC_FREES]++;
}

static void bench_probe_cache_free(void *data, unsigned long call_site,
				   const void *ptr, const struct kmem_cache *s)
{
	if (ptr && bench_counting())
		bench_cnt.v[BC_FREES]++;
}

#if defined(CONFIG_FUNCTION_TRACER) && defined(CONFIG_DYNAMIC_FTRACE)

struct bench_fn_ops {
	struct ftrace_ops ops;
	int index;
	bool armed;
};

static struct bench_fn_ops bench_fn_ops[ARRAY_SIZE(bench_count_fns)];

static void bench_fn_hit(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct bench_fn_ops *fo = container_of(op, struct bench_fn_ops, ops);

	if (bench_counting())
		bench_cnt.v[BC_FN + fo->index]++;
}

static void bench_fns_arm(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(bench_count_fns); i++) {
		struct bench_fn_ops *fo = &bench_fn_ops[i];
		unsigned char *name = (unsigned char *)bench_count_fns[i];

		memset(fo, 0, sizeof(*fo));
		fo->index = i;
		fo->ops.func = bench_fn_hit;
		if (ftrace_set_filter(&fo->ops, name, strlen(bench_count_fns[i]), 1))
			continue;
		fo->armed = !register_ftrace_function(&fo->ops);
	}
}

static void bench_fns_disarm(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(bench_count_fns); i++) {
		if (bench_fn_ops[i].armed)
			unregister_ftrace_function(&bench_fn_ops[i].ops);
		ftrace_free_filter(&bench_fn_ops[i].ops);
		bench_fn_ops[i].armed = false;
	}
}

static bool bench_fn_armed(int i)
{
	return bench_fn_ops[i].armed;
}

#else

static void bench_fns_arm(void)
{
}

static void bench_fns_disarm(void)
{
}

static bool bench_fn_armed(int i)
{
	return false;
}

#endif /* CONFIG_FUNCTION_TRACER && CONFIG_DYNAMIC_FTRACE */

static void bench_count_disarm(void *data)
{
	WRITE_ONCE(bench_count_task, NULL);
	unregister_trace_kmalloc(bench_probe_kmalloc, NULL);
	unregister_trace_kmem_cache_alloc(bench_probe_cache_alloc, NULL);
	unregister_trace_kfree(bench_probe_kfree, NULL);
	unregister_trace_kmem_cache_free(bench_probe_cache_free, NULL);
	tracepoint_synchronize_unregister();
	bench_fns_disarm();
}

static ssize_t bench_fence_show(struct device *dev, struct device_attribute *da,
				char *buf)
{
	return sysfs_emit(buf, "0\n");
}

static struct device_attribute bench_fence_attr =
	__ATTR(bench_fence, 0444, bench_fence_show, NULL);

/*
 * Inode number of a kernfs node created now: kernfs gives every new node of
 * a root the next number, so two fences bracket the nodes created between.
 */
static u32 bench_fence(struct kunit *test, struct device *dev)
{
	struct kernfs_node *kn;
	u32 ino;

	KUNIT_ASSERT_EQ(test, device_create_file(dev, &bench_fence_attr), 0);
	kn = kernfs_find_and_get(dev->kobj.sd, bench_fence_attr.attr.name);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, kn);
	ino = (u32)kn->id;
	kernfs_put(kn);
	device_remove_file(dev, &bench_fence_attr);
	return ino;
}

/* Starts counting in this task: the kernfs fence, vmalloc pages, counters. */
static void bench_count_start(struct kunit *test, struct device *fence_dev,
			      u32 *ino, unsigned long *vm)
{
	memset(&bench_cnt, 0, sizeof(bench_cnt));
	bench_visible_calls = 0;
	*ino = bench_fence(test, fence_dev);
	*vm = vmalloc_nr_pages();
	WRITE_ONCE(bench_count_task, current);
}

static void bench_count_stop(struct kunit *test, struct device *fence_dev,
			     u32 ino0, unsigned long vm0,
			     struct bench_counts *out)
{
	u32 ino1;

	WRITE_ONCE(bench_count_task, NULL);
	bench_cnt.v[BC_VMALLOC_PAGES] = (s64)vmalloc_nr_pages() - (s64)vm0;
	ino1 = bench_fence(test, fence_dev);
	bench_cnt.v[BC_KERNFS_NODES] = (s64)(u32)(ino1 - ino0) - 1;
	bench_cnt.v[BC_IS_VISIBLE] = bench_visible_calls;
	*out = bench_cnt;
}

/*
 * Counts @op on @bc in two halves: the registration (with the parent's
 * creation for BENCH_REG_PARENT) into @reg, the unregistration (with the
 * parent's removal) into @unreg.
 */
static void bench_count_op(struct kunit *test, enum bench_op op,
			   struct bench_chip *bc, struct device *fence_dev,
			   struct bench_counts *reg, struct bench_counts *unreg)
{
	struct device *parent = NULL, *hwdev;
	unsigned long vm;
	u32 ino;

	if (op == BENCH_REG_UNREG)
		parent = hwmon_test_parent(test, NULL);
	rcu_barrier();

	bench_count_start(test, fence_dev, &ino, &vm);
	if (op == BENCH_REG_PARENT)
		parent = hwmon_test_parent(test, NULL);
	hwdev = hwmon_device_register_with_info(parent, "bench", NULL,
						&bc->chip, NULL);
	bench_count_stop(test, fence_dev, ino, vm, reg);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);

	bench_count_start(test, fence_dev, &ino, &vm);
	hwmon_device_unregister(hwdev);
	if (op == BENCH_REG_PARENT)
		hwmon_test_remove_parent(test, parent);
	bench_count_stop(test, fence_dev, ino, vm, unreg);

	if (op == BENCH_REG_UNREG)
		hwmon_test_remove_parent(test, parent);
}

/*
 * Prints one "bench-hwmon-count:" line: each count, or min..max when the
 * runs disagree; -1 for a function the function tracer could not count.
 */
static void bench_count_report(struct kunit *test, const char *key,
			       const struct bench_counts *c, int runs)
{
	char line[512];
	int len = 0, f, i;

	for (f = 0; f < BC_NFIELDS; f++) {
		const char *name = f < BC_FN ? bench_count_names[f] :
				   bench_count_fns[f - BC_FN];
		s64 lo = c[0].v[f], hi = c[0].v[f];

		for (i = 1; i < runs; i++) {
			lo = min(lo, c[i].v[f]);
			hi = max(hi, c[i].v[f]);
		}
		if (f >= BC_FN && !bench_fn_armed(f - BC_FN)) {
			lo = -1;
			hi = -1;
		}
		if (lo == hi)
			len += scnprintf(line + len, sizeof(line) - len,
					 " %s=%lld", name, lo);
		else
			len += scnprintf(line + len, sizeof(line) - len,
					 " %s=%lld..%lld", name, lo, hi);
	}
	kunit_info(test, "bench-hwmon-count: %s%s\n", key, line);
}

/* Keys of the counted halves, per operation: registration, unregistration. */
static const char * const bench_count_keys[BENCH_NOPS][2] = {
	[BENCH_REG_UNREG] = { "register", "unregister" },
	[BENCH_REG_PARENT] = { "parent_register", "parent_unregister" },
};

static void bench_hwmon_count(struct kunit *test)
{
	struct bench_counts *reg, *unreg;
	struct bench_chip *chips;
	struct device *fence_dev;
	char key[40];
	int s, o, i;

	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		kunit_skip(test, "no kmem tracepoints (CONFIG_TRACEPOINTS off)");

	chips = kunit_kcalloc(test, BENCH_NSIZES, sizeof(*chips), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, chips);
	reg = kunit_kcalloc(test, BENCH_COUNT_RUNS, sizeof(*reg), GFP_KERNEL);
	unreg = kunit_kcalloc(test, BENCH_COUNT_RUNS, sizeof(*unreg),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, reg);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, unreg);
	for (s = 0; s < BENCH_NSIZES; s++)
		bench_chip_init(test, &chips[s], bench_sizes[s]);
	fence_dev = hwmon_test_parent(test, NULL);

	/* Warm up: the first use of every path allocates caches and ids. */
	for (s = 0; s < BENCH_NSIZES; s++)
		for (o = 0; o < BENCH_NOPS; o++) {
			struct device *parent = hwmon_test_parent(test, NULL);

			bench_op_run(test, o, &chips[s], parent, NULL, NULL);
			hwmon_test_remove_parent(test, parent);
		}

	KUNIT_ASSERT_EQ(test, register_trace_kmalloc(bench_probe_kmalloc,
						     NULL), 0);
	KUNIT_ASSERT_EQ(test,
			register_trace_kmem_cache_alloc(bench_probe_cache_alloc,
							NULL), 0);
	KUNIT_ASSERT_EQ(test, register_trace_kfree(bench_probe_kfree, NULL), 0);
	KUNIT_ASSERT_EQ(test,
			register_trace_kmem_cache_free(bench_probe_cache_free,
						       NULL), 0);
	bench_fns_arm();
	KUNIT_ASSERT_EQ(test, hwmon_test_defer(test, bench_count_disarm, NULL),
			0);

	for (s = 0; s < BENCH_NSIZES; s++)
		for (o = 0; o < BENCH_NOPS; o++) {
			for (i = 0; i < BENCH_COUNT_RUNS; i++)
				bench_count_op(test, o, &chips[s], fence_dev,
					       &reg[i], &unreg[i]);
			snprintf(key, sizeof(key), "%s_%d",
				 bench_count_keys[o][0], bench_sizes[s]);
			bench_count_report(test, key, reg, BENCH_COUNT_RUNS);
			snprintf(key, sizeof(key), "%s_%d",
				 bench_count_keys[o][1], bench_sizes[s]);
			bench_count_report(test, key, unreg, BENCH_COUNT_RUNS);
		}
}

static void bench_hwmon_read(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	s64 ns[BENCH_READ_RUNS];
	unsigned int reads;
	struct device *hwdev;
	struct file *file;
	char buf[32];
	ssize_t n;
	loff_t pos;
	int i, j;
	u64 t0;

	hwmon_fake_chip_set_all(chip, 1);
	hwdev = hwmon_test_register_chip(test, chip, "bench");
	file = hwmon_sysfs_open(test, hwmon_sysfs_dev_path(test, hwdev,
							   "temp1_input"),
				O_RDONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));

	reads = chip->total_reads;
	for (i = 0; i < BENCH_READ_RUNS; i++) {
		t0 = ktime_get_ns();
		for (j = 0; j < BENCH_READ_BATCH; j++) {
			pos = 0;
			n = kernel_read(file, buf, sizeof(buf), &pos);
			KUNIT_ASSERT_GT(test, n, 0);
		}
		ns[i] = div_s64(ktime_get_ns() - t0, BENCH_READ_BATCH);
	}
	/* Every read went through the core to the chip. */
	KUNIT_EXPECT_EQ(test, chip->total_reads - reads,
			BENCH_READ_RUNS * BENCH_READ_BATCH);
	bench_report(test, "read_ns", ns, BENCH_READ_RUNS);
}

static struct kunit_case bench_hwmon_cases[] = {
	KUNIT_CASE(bench_hwmon_memory),
	KUNIT_CASE(bench_hwmon_sysfs_floor),
	KUNIT_CASE(bench_hwmon_count),
	KUNIT_CASE(bench_hwmon_register),
	KUNIT_CASE(bench_hwmon_read),
	{}
};

static struct kunit_suite bench_hwmon_suite = {
	.name = "bench_hwmon",
	.test_cases = bench_hwmon_cases,
};

kunit_test_suite(bench_hwmon_suite);
