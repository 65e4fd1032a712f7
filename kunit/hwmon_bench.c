// SPDX-License-Identifier: GPL-2.0-only
/*
 * A KUnit-hosted benchmark of the hwmon core. It reports
 * figures, it does not judge them: the only assertions are that the
 * registrations and reads it measures succeed.
 *
 * Each figure is printed as one line
 *
 *	bench-hwmon: <key>=<median> min=<min> max=<max> runs=<runs>
 *
 * which scripts/bench-hwmon.mk picks out of the test log of each core.
 *
 * Memory is counted by the allocators: the slab page counters of the node
 * statistics (kmalloc_large() pages are accounted there too) plus the pages
 * vmalloc() holds, around the registration of BENCH_NDEV devices, divided
 * by BENCH_NDEV. bytes_per_file_floor is what sysfs alone costs per file
 * (kernfs node and name copy), whatever the core: a group of that many
 * attributes, made beforehand, added to a plain device. Times come from
 * ktime_get_ns() on whatever CPU the test runs.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/hwmon.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/sysfs.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>

#include "hwmon_fake_chip.h"
#include "hwmon_sysfs_util.h"

/* Devices registered at once for a memory figure. */
#define BENCH_NDEV		32
/* Repetitions of each memory figure. */
#define BENCH_MEM_RUNS		5
/* Register + unregister cycles per channel count. */
#define BENCH_REG_RUNS		15
/* Batches of reads, and reads per batch. */
#define BENCH_READ_RUNS		15
#define BENCH_READ_BATCH	200
/* Most temperature channels of the registration figure. */
#define BENCH_MAX_CHANNELS	256

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

/* Sorts @v and prints its median, minimum and maximum under @key. */
static void bench_report(struct kunit *test, const char *key, s64 *v, int n)
{
	sort(v, n, sizeof(*v), bench_cmp_s64, NULL);
	kunit_info(test, "bench-hwmon: %s=%lld min=%lld max=%lld runs=%d\n",
		   key, v[n / 2], v[0], v[n - 1], n);
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

static umode_t bench_is_visible(const void *drvdata,
				enum hwmon_sensor_types type, u32 attr,
				int channel)
{
	return 0444;
}

static int bench_read(struct device *dev, enum hwmon_sensor_types type,
		      u32 attr, int channel, long *val)
{
	*val = channel;
	return 0;
}

static const struct hwmon_ops bench_ops = {
	.is_visible = bench_is_visible,
	.read = bench_read,
};

static void bench_hwmon_register(struct kunit *test)
{
	static const int counts[] = { 1, 16, BENCH_MAX_CHANNELS };
	const struct hwmon_channel_info *infos[2];
	struct hwmon_channel_info temp;
	struct hwmon_chip_info chip;
	s64 ns[BENCH_REG_RUNS];
	struct device *parent, *own;
	struct device *hwdev;
	char key[32];
	u32 *config;
	int i, c, k;
	u64 t0;

	config = kunit_kcalloc(test, BENCH_MAX_CHANNELS + 1, sizeof(*config),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, config);
	temp.type = hwmon_temp;
	temp.config = config;
	infos[0] = &temp;
	infos[1] = NULL;
	chip.ops = &bench_ops;
	chip.info = infos;
	parent = hwmon_test_parent(test, NULL);

	for (k = 0; k < ARRAY_SIZE(counts); k++) {
		for (c = 0; c <= BENCH_MAX_CHANNELS; c++)
			config[c] = c < counts[k] ?
				    HWMON_T_INPUT | HWMON_T_MAX : 0;
		for (i = 0; i < BENCH_REG_RUNS; i++) {
			t0 = ktime_get_ns();
			hwdev = hwmon_device_register_with_info(parent, "bench",
								NULL, &chip,
								NULL);
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
			hwmon_device_unregister(hwdev);
			ns[i] = ktime_get_ns() - t0;
		}
		snprintf(key, sizeof(key), "reg_unreg_ns_%d", counts[k]);
		bench_report(test, key, ns, BENCH_REG_RUNS);

		/*
		 * The same with a parent of its own that is removed in the
		 * timed cycle: a core that allocates with devm on the parent
		 * frees then, not at unregistration.
		 */
		for (i = 0; i < BENCH_REG_RUNS; i++) {
			t0 = ktime_get_ns();
			own = hwmon_test_parent(test, NULL);
			hwdev = hwmon_device_register_with_info(own, "bench",
								NULL, &chip,
								NULL);
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
			hwmon_device_unregister(hwdev);
			hwmon_test_remove_parent(test, own);
			ns[i] = ktime_get_ns() - t0;
		}
		snprintf(key, sizeof(key), "reg_parent_ns_%d", counts[k]);
		bench_report(test, key, ns, BENCH_REG_RUNS);
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
	KUNIT_CASE(bench_hwmon_register),
	KUNIT_CASE(bench_hwmon_read),
	{}
};

static struct kunit_suite bench_hwmon_suite = {
	.name = "bench_hwmon",
	.test_cases = bench_hwmon_cases,
};

kunit_test_suite(bench_hwmon_suite);
