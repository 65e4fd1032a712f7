// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the hwmon core: allocation failures during registration.
 *
 * With the "ignore-gfp-wait" knobs of failslab and fail_page_alloc off,
 * current->fail_nth = N makes the N-th slab or page allocation of the
 * current task fail. Each case registers a
 * device with N = 1, 2, ... until the registration no longer reaches the
 * N-th allocation. Every failed attempt must return an error pointer and
 * leave no class device, no hwmon directory under the parent and no id in
 * use behind it; memory leaks are caught by kmemleak in the debug run.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fault-inject.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hwmon.h>
#include <linux/mount.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "hwmon_fake_chip.h"
#include "hwmon_sysfs_util.h"

/* Give up (and fail) if a registration needs more allocations than this. */
#define HWMON_FAULT_MAX_NTH	1000

/**
 * struct hwmon_fault_range - the failure points one parameter sweeps
 * @first: first allocation to fail (1-based)
 * @last: last allocation to fail
 */
struct hwmon_fault_range {
	int first;
	int last;
};

/*
 * Each case sweeps in chunks of 125 failure points, one KUnit parameter
 * each: on the debug kernel (KASAN, lockdep, kmemleak) a whole sweep of the
 * all-types chip takes longer than KUnit's fixed 300 s per case.
 */
static const struct hwmon_fault_range hwmon_fault_ranges[] = {
	{ 1, 125 }, { 126, 250 }, { 251, 375 }, { 376, 500 },
	{ 501, 625 }, { 626, 750 }, { 751, 875 }, { 876, HWMON_FAULT_MAX_NTH },
};

static void hwmon_fault_range_desc(const struct hwmon_fault_range *r,
				   char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "allocations %d-%d", r->first,
		 r->last);
}

KUNIT_ARRAY_PARAM(hwmon_fault, hwmon_fault_ranges, hwmon_fault_range_desc);

/**
 * struct hwmon_fault_knob - a fault-injection debugfs knob a case changes
 * @path: file under debugfs
 * @size: size of the variable behind it (bool, u32 or unsigned long)
 */
struct hwmon_fault_knob {
	const char *path;
	size_t size;
};

/*
 * Knobs set to 0 while a case runs: do not ignore sleeping allocations, no
 * stack dump per failure, page allocations of every order. The single
 * block our core allocates per device is larger than a slab for big chips,
 * so the page allocator is armed too; fail_nth counts both.
 */
static const struct hwmon_fault_knob hwmon_fault_knobs[] = {
	{ "failslab/ignore-gfp-wait", sizeof(bool) },
	{ "failslab/verbose", sizeof(unsigned long) },
	{ "fail_page_alloc/ignore-gfp-wait", sizeof(bool) },
	{ "fail_page_alloc/min-order", sizeof(u32) },
	{ "fail_page_alloc/verbose", sizeof(unsigned long) },
};

/**
 * struct hwmon_fault_saved - knob variables and their values before a case
 * @var: the variable behind each knob of hwmon_fault_knobs
 * @old: its value before the case
 */
struct hwmon_fault_saved {
	void *var[ARRAY_SIZE(hwmon_fault_knobs)];
	unsigned long old[ARRAY_SIZE(hwmon_fault_knobs)];
};

/*
 * debugfs attribute files refuse kernel_write(), but their inode's
 * i_private is the variable itself.
 */
static void *hwmon_debugfs_var(struct kunit *test, struct vfsmount *mnt,
			       const char *path)
{
	struct file *f;
	void *var;

	f = file_open_root_mnt(mnt, path, O_RDONLY, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "cannot open debugfs %s: %ld",
			       path, PTR_ERR(f));
	var = file_inode(f)->i_private;
	fput(f);
	KUNIT_ASSERT_NOT_NULL(test, var);
	return var;
}

static void hwmon_knob_set(void *var, size_t size, unsigned long val)
{
	if (size == sizeof(bool))
		*(bool *)var = val;
	else if (size == sizeof(u32))
		*(u32 *)var = val;
	else
		*(unsigned long *)var = val;
}

static unsigned long hwmon_knob_get(const void *var, size_t size)
{
	if (size == sizeof(bool))
		return *(const bool *)var;
	if (size == sizeof(u32))
		return *(const u32 *)var;
	return *(const unsigned long *)var;
}

static void hwmon_fault_restore(void *data)
{
	struct hwmon_fault_saved *saved = data;
	size_t i;

	current->fail_nth = 0;
	for (i = 0; i < ARRAY_SIZE(hwmon_fault_knobs); i++)
		hwmon_knob_set(saved->var[i], hwmon_fault_knobs[i].size,
			       saved->old[i]);
}

static void hwmon_fault_arm(struct kunit *test)
{
	struct file_system_type *type = get_fs_type("debugfs");
	struct hwmon_fault_saved *saved;
	struct vfsmount *mnt;
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, type);
	mnt = vfs_kern_mount(type, 0, "debugfs", NULL);
	put_filesystem(type);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mnt));

	saved = kunit_kzalloc(test, sizeof(*saved), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, saved);
	for (i = 0; i < ARRAY_SIZE(hwmon_fault_knobs); i++) {
		saved->var[i] = hwmon_debugfs_var(test, mnt,
						  hwmon_fault_knobs[i].path);
		saved->old[i] = hwmon_knob_get(saved->var[i],
					       hwmon_fault_knobs[i].size);
	}
	kern_unmount(mnt);

	KUNIT_ASSERT_EQ(test, hwmon_test_defer(test, hwmon_fault_restore, saved),
			0);
	for (i = 0; i < ARRAY_SIZE(hwmon_fault_knobs); i++)
		hwmon_knob_set(saved->var[i], hwmon_fault_knobs[i].size, 0);
}

static int hwmon_class_count(struct kunit *test)
{
	struct hwmon_sysfs_entry *entries;
	int n = hwmon_sysfs_list(test, "class/hwmon", &entries);

	KUNIT_ASSERT_GE(test, n, 0);
	return n;
}

static int hwmon_dev_id(struct device *hwdev)
{
	int id;

	if (sscanf(dev_name(hwdev), "hwmon%d", &id) != 1)
		return -1;
	return id;
}

/**
 * struct hwmon_fault_case - one registration API under fault injection
 * @name: what is registered (for messages)
 * @reg: registers a device on @parent; returns it or an ERR_PTR
 * @unreg: undoes a successful @reg
 */
struct hwmon_fault_case {
	const char *name;
	struct device *(*reg)(struct device *parent, void *drvdata);
	void (*unreg)(struct device *parent, struct device *hwdev);
};

static struct device *reg_info(struct device *parent, void *chip)
{
	return hwmon_device_register_with_info(parent, "fault", chip,
					       hwmon_fake_chip_info(chip),
					       NULL);
}

static struct device *reg_devm_info(struct device *parent, void *chip)
{
	return devm_hwmon_device_register_with_info(parent, "fault", chip,
						    hwmon_fake_chip_info(chip),
						    NULL);
}

static struct device *reg_groups(struct device *parent, void *chip)
{
	return hwmon_device_register_with_groups(parent, "fault", chip, NULL);
}

static struct device *reg_devm_groups(struct device *parent, void *chip)
{
	return devm_hwmon_device_register_with_groups(parent, "fault", chip,
						      NULL);
}

static struct device *reg_thermal(struct device *parent, void *chip)
{
	return hwmon_device_register_for_thermal(parent, "fault", chip);
}

/* The deprecated registration without name or attributes. */
static struct device *reg_legacy(struct device *parent, void *chip)
{
	return hwmon_device_register(parent);
}

static void unreg_plain(struct device *parent, struct device *hwdev)
{
	hwmon_device_unregister(hwdev);
}

/* devm devices go away with their parent: unbind it. */
static void unreg_none(struct device *parent, struct device *hwdev)
{
}

/*
 * Register with the first, first + 1, ... allocation of @range failing until
 * the registration completes without reaching the failing allocation.
 * Returns the number of injected failures of the whole sweep if it ended in
 * @range, 0 if it had ended before, -1 if every attempt in @range failed.
 */
static int hwmon_fault_sweep(struct kunit *test, const struct hwmon_fault_case *fc,
			     bool devm, const struct hwmon_fault_range *range)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent, *hwdev;
	int before, base_id, id, nth;
	unsigned int left;

	hwmon_fake_chip_set_all(chip, 1);

	/* The id a successful registration gets now: the lowest free one. */
	parent = hwmon_test_parent(test, NULL);
	hwdev = fc->reg(parent, chip);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	base_id = hwmon_dev_id(hwdev);
	if (devm)
		hwmon_test_remove_parent(test, parent);
	else
		fc->unreg(parent, hwdev);
	before = hwmon_class_count(test);

	hwmon_fault_arm(test);
	for (nth = range->first; nth <= range->last; nth++) {
		parent = hwmon_test_parent(test, NULL);

		current->fail_nth = nth;
		hwdev = fc->reg(parent, chip);
		left = current->fail_nth;
		current->fail_nth = 0;

		if (!IS_ERR(hwdev)) {
			/* Nothing failed, or a failure was tolerated. */
			KUNIT_EXPECT_NOT_NULL(test, hwdev);
			id = hwmon_dev_id(hwdev);
			KUNIT_EXPECT_EQ_MSG(test, id, base_id,
					    "%s: id leaked after failing allocation %d",
					    fc->name, nth - 1);
			if (devm)
				hwmon_test_remove_parent(test, parent);
			else
				fc->unreg(parent, hwdev);
			KUNIT_EXPECT_EQ(test, hwmon_class_count(test), before);
			if (left)
				return nth == range->first ? 0 : nth - 1;
			continue;
		}

		KUNIT_EXPECT_EQ_MSG(test, left, 0u,
				    "%s: error %ld without an injected failure",
				    fc->name, PTR_ERR(hwdev));
		KUNIT_EXPECT_EQ_MSG(test, hwmon_class_count(test), before,
				    "%s: class device left after failing allocation %d",
				    fc->name, nth);
		KUNIT_EXPECT_FALSE_MSG(test,
				       hwmon_sysfs_exists(test,
							  hwmon_sysfs_dev_path(test, parent,
									       "hwmon")),
				       "%s: parent's hwmon directory left after failing allocation %d",
				       fc->name, nth);
		hwmon_test_remove_parent(test, parent);
	}
	return -1;
}

static const struct hwmon_fault_case fault_info = {
	"register_with_info", reg_info, unreg_plain
};

static const struct hwmon_fault_case fault_devm_info = {
	"devm_register_with_info", reg_devm_info, unreg_none
};

static const struct hwmon_fault_case fault_groups = {
	"register_with_groups", reg_groups, unreg_plain
};

static const struct hwmon_fault_case fault_devm_groups = {
	"devm_register_with_groups", reg_devm_groups, unreg_none
};

static const struct hwmon_fault_case fault_thermal = {
	"register_for_thermal", reg_thermal, unreg_plain
};

static const struct hwmon_fault_case fault_legacy = {
	"register (legacy)", reg_legacy, unreg_plain
};

static void check_sweep(struct kunit *test, const struct hwmon_fault_case *fc,
			bool devm)
{
	const struct hwmon_fault_range *range = test->param_value;
	int points = hwmon_fault_sweep(test, fc, devm, range);

	if (points > 0)
		kunit_info(test, "%s: %d allocation failure points exercised\n",
			   fc->name, points);
	else if (!points)
		kunit_info(test, "%s: the sweep ended before allocation %d\n",
			   fc->name, range->first);
	/* The first allocation of every registration can fail. */
	if (range->first == 1)
		KUNIT_EXPECT_NE(test, points, 0);
	if (range->last == HWMON_FAULT_MAX_NTH && points < 0)
		KUNIT_FAIL(test, "%s: still failing after %d injected failures",
			   fc->name, HWMON_FAULT_MAX_NTH);
}

static void every_failing_allocation_of_info_registration_unwinds(struct kunit *test)
{
	check_sweep(test, &fault_info, false);
}

static void every_failing_allocation_of_devm_info_registration_unwinds(struct kunit *test)
{
	check_sweep(test, &fault_devm_info, true);
}

static void every_failing_allocation_of_groups_registration_unwinds(struct kunit *test)
{
	check_sweep(test, &fault_groups, false);
}

static void every_failing_allocation_of_devm_groups_registration_unwinds(struct kunit *test)
{
	check_sweep(test, &fault_devm_groups, true);
}

static void every_failing_allocation_of_thermal_registration_unwinds(struct kunit *test)
{
	check_sweep(test, &fault_thermal, false);
}

static void every_failing_allocation_of_legacy_registration_unwinds(struct kunit *test)
{
	check_sweep(test, &fault_legacy, false);
}

static void failing_sanitize_name_returns_enomem(struct kunit *test)
{
	char *name;

	hwmon_fault_arm(test);
	current->fail_nth = 1;
	name = hwmon_sanitize_name("a-b");
	current->fail_nth = 0;
	KUNIT_EXPECT_TRUE(test, IS_ERR(name));
	if (IS_ERR(name))
		KUNIT_EXPECT_EQ(test, PTR_ERR(name), -ENOMEM);
	else
		kfree(name);
}

static struct kunit_case hwmon_fault_cases[] = {
	KUNIT_CASE_PARAM(every_failing_allocation_of_info_registration_unwinds,
			 hwmon_fault_gen_params),
	KUNIT_CASE_PARAM(every_failing_allocation_of_devm_info_registration_unwinds,
			 hwmon_fault_gen_params),
	KUNIT_CASE_PARAM(every_failing_allocation_of_groups_registration_unwinds,
			 hwmon_fault_gen_params),
	KUNIT_CASE_PARAM(every_failing_allocation_of_devm_groups_registration_unwinds,
			 hwmon_fault_gen_params),
	KUNIT_CASE_PARAM(every_failing_allocation_of_thermal_registration_unwinds,
			 hwmon_fault_gen_params),
	KUNIT_CASE_PARAM(every_failing_allocation_of_legacy_registration_unwinds,
			 hwmon_fault_gen_params),
	KUNIT_CASE(failing_sanitize_name_returns_enomem),
	{}
};

static struct kunit_suite hwmon_fault_suite = {
	.name = "hwmon_fault",
	.test_cases = hwmon_fault_cases,
};

kunit_test_suite(hwmon_fault_suite);

MODULE_LICENSE("GPL");
