// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for CONFIG_HWMON_NEWER_API, our core's opt-in API of newer
 * kernels: the static visibility of struct hwmon_ops (upstream 6.13),
 * devm_hwmon_device_register_with_info() without a name (upstream 6.14),
 * -EINVAL from hwmon_sanitize_name(NULL) (upstream 7.0), the chip attribute
 * update_interval_us and the hwmon_lock guard (upstream 7.2), and the
 * sample driver. Every case skips when the option is off (the stock cores,
 * and our core as make kunit builds it); make kunit-newer-api turns it on.
 *
 * Each addition rejects what upstream rejects, with the same error: no ops,
 * no visibility at all, a mode whose callback is missing, an unknown sensor
 * type or attribute, no parent, no chip.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/hwmon.h>
#include <linux/kthread.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hwmon_fake_chip.h"
#include "hwmon_sysfs_util.h"

#define BUF_SIZE	128

#define SKIP_UNLESS_NEWER_API(test)					\
	do {								\
		if (!IS_ENABLED(CONFIG_HWMON_NEWER_API))		\
			kunit_skip(test, "CONFIG_HWMON_NEWER_API is off"); \
	} while (0)

#ifdef CONFIG_HWMON_NEWER_API

/* @ptr (a device or a name) is ERR_PTR(@err). */
static void expect_rejected(struct kunit *test, const void *ptr, int err)
{
	KUNIT_EXPECT_TRUE(test, IS_ERR(ptr));
	if (IS_ERR(ptr))
		KUNIT_EXPECT_EQ(test, PTR_ERR(ptr), (long)err);
}

static void expect_attr(struct kunit *test, struct device *hwdev,
			const char *attr, const char *expected)
{
	char buf[BUF_SIZE];

	KUNIT_EXPECT_EQ_MSG(test, hwmon_sysfs_read(test, hwdev, attr, buf,
						   sizeof(buf)),
			    (int)strlen(expected), "%s", attr);
	KUNIT_EXPECT_STREQ_MSG(test, buf, expected, "%s", attr);
}

static void expect_mode(struct kunit *test, struct device *hwdev,
			const char *attr, umode_t expected)
{
	umode_t mode = 0;

	KUNIT_EXPECT_EQ_MSG(test, hwmon_sysfs_mode(test, hwdev, attr, &mode), 0,
			    "%s missing", attr);
	KUNIT_EXPECT_EQ_MSG(test, mode, expected, "%s", attr);
}

static int count_class_devices(struct kunit *test)
{
	struct hwmon_sysfs_entry *entries;
	int n = hwmon_sysfs_list(test, "class/hwmon", &entries);

	KUNIT_ASSERT_GE(test, n, 0);
	return n;
}

/*
 * The chip description of @chip with a copy of its operations that has the
 * static visibility @visible, and no is_visible() if @drop_is_visible.
 */
static struct hwmon_chip_info *static_chip(struct kunit *test,
					   struct hwmon_fake_chip *chip,
					   umode_t visible,
					   bool drop_is_visible)
{
	const struct hwmon_ops *base = hwmon_fake_chip_info(chip)->ops;
	const struct hwmon_ops ops = {
		.visible = visible,
		.is_visible = drop_is_visible ? NULL : base->is_visible,
		.read = base->read,
		.read_string = base->read_string,
		.write = base->write,
	};
	struct hwmon_chip_info *info;
	void *copy;

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	copy = kunit_kzalloc(test, sizeof(ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, copy);
	memcpy(copy, &ops, sizeof(ops));
	*info = *hwmon_fake_chip_info(chip);
	info->ops = copy;
	return info;
}

static struct hwmon_fake_chip *temp_chip(struct kunit *test, u32 config)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 2, config);
	return chip;
}

/* hwmon_newer_api: struct hwmon_ops.visible */

static void static_visibility_gives_every_attribute_its_mode(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	struct device *hwdev;

	SKIP_UNLESS_NEWER_API(test);
	chip = temp_chip(test, HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_LABEL);
	hwdev = hwmon_test_register_info(test, hwmon_test_parent(test, NULL),
					 "static", chip,
					 static_chip(test, chip, 0644, true),
					 NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);

	expect_mode(test, hwdev, "temp1_input", 0644);
	expect_mode(test, hwdev, "temp2_max", 0644);
	expect_mode(test, hwdev, "temp2_label", 0644);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 6);
	/* the fake chip's value: 1000 * type + 10 * attr + channel */
	expect_attr(test, hwdev, "temp2_input", "1011\n");
	expect_attr(test, hwdev, "temp1_label", "fake temp\n");
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "temp1_max", "42"),
			2);
	KUNIT_EXPECT_EQ(test, chip->value[hwmon_temp][hwmon_temp_max][0], 42);
	KUNIT_EXPECT_EQ(test, chip->total_visible_calls, 0U);
}

static void static_visibility_overrides_is_visible(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	struct device *hwdev;

	SKIP_UNLESS_NEWER_API(test);
	chip = temp_chip(test, HWMON_T_INPUT | HWMON_T_MAX);
	/* is_visible() would hide temp1_input and make temp1_max writable */
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_input, -1, 0);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_max, -1, 0644);
	hwdev = hwmon_test_register_info(test, hwmon_test_parent(test, NULL),
					 "static", chip,
					 static_chip(test, chip, 0444, false),
					 NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);

	expect_mode(test, hwdev, "temp1_input", 0444);
	expect_mode(test, hwdev, "temp2_max", 0444);
	KUNIT_EXPECT_EQ(test, chip->total_visible_calls, 0U);
}

static void zero_static_visibility_asks_is_visible(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	struct device *hwdev;

	SKIP_UNLESS_NEWER_API(test);
	chip = temp_chip(test, HWMON_T_INPUT | HWMON_T_MAX);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_max, 1, 0);
	hwdev = hwmon_test_register_info(test, hwmon_test_parent(test, NULL),
					 "dynamic", chip,
					 static_chip(test, chip, 0, false),
					 NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);

	expect_mode(test, hwdev, "temp1_max", 0644);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp2_max"));
	KUNIT_EXPECT_EQ(test, chip->total_visible_calls, 4U);
}

static void chip_without_any_visibility_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	int before;

	SKIP_UNLESS_NEWER_API(test);
	chip = temp_chip(test, HWMON_T_INPUT);
	before = count_class_devices(test);
	expect_rejected(test,
			hwmon_test_register_info(test,
						 hwmon_test_parent(test, NULL),
						 "none", chip,
						 static_chip(test, chip, 0, true),
						 NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

/* A static mode needs the callbacks an is_visible() mode would need. */
static void static_visibility_needs_the_callbacks_of_its_mode(struct kunit *test)
{
	static const struct {
		u32 config;
		umode_t mode;
		unsigned int missing;
		const char *what;
	} cases[] = {
		{ HWMON_T_INPUT, 0444, HWMON_FAKE_NO_READ, "0444 without read" },
		{ HWMON_T_LABEL, 0444, HWMON_FAKE_NO_READ_STRING,
		  "label without read_string" },
		{ HWMON_T_MAX, 0644, HWMON_FAKE_NO_WRITE, "0644 without write" },
		{ HWMON_T_MAX, 0200, HWMON_FAKE_NO_WRITE, "0200 without write" },
	};
	struct hwmon_fake_chip *chip;
	struct device *hwdev;
	int i;

	SKIP_UNLESS_NEWER_API(test);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		chip = temp_chip(test, cases[i].config);
		chip->missing_ops = cases[i].missing;
		hwdev = hwmon_test_register_info(test,
						 hwmon_test_parent(test, NULL),
						 "static", chip,
						 static_chip(test, chip,
							     cases[i].mode, true),
						 NULL);
		KUNIT_EXPECT_TRUE_MSG(test, IS_ERR(hwdev), "%s", cases[i].what);
		if (IS_ERR(hwdev))
			KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(hwdev), (long)-EINVAL,
					    "%s", cases[i].what);
	}

	/* write-only needs no read, read-only no write */
	chip = temp_chip(test, HWMON_T_RESET_HISTORY);
	chip->missing_ops = HWMON_FAKE_NO_READ | HWMON_FAKE_NO_READ_STRING;
	hwdev = hwmon_test_register_info(test, hwmon_test_parent(test, NULL),
					 "static", chip,
					 static_chip(test, chip, 0200, true),
					 NULL);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(hwdev));
	chip = temp_chip(test, HWMON_T_INPUT);
	chip->missing_ops = HWMON_FAKE_NO_WRITE;
	hwdev = hwmon_test_register_info(test, hwmon_test_parent(test, NULL),
					 "static", chip,
					 static_chip(test, chip, 0444, true),
					 NULL);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(hwdev));
}

static int read_zero(struct device *dev, enum hwmon_sensor_types type,
		     u32 attr, int channel, long *val)
{
	*val = 0;
	return 0;
}

/* What upstream rejects with a static visibility: the same as without. */
static void static_visibility_rejects_bad_channel_lists(struct kunit *test)
{
	static const u32 temp_cfg[] = { HWMON_T_INPUT, 0 };
	static const u32 no_channel_cfg[] = { 0 };
	static const struct hwmon_ops ops = {
		.visible = 0444,
		.read = read_zero,
	};
	const struct hwmon_channel_info bad_type = {
		.type = hwmon_max, .config = temp_cfg,
	};
	const struct hwmon_channel_info no_channel = {
		.type = hwmon_temp, .config = no_channel_cfg,
	};
	const struct hwmon_channel_info *bad_type_list[] = { &bad_type, NULL };
	const struct hwmon_channel_info *no_channel_list[] = {
		&no_channel, NULL
	};
	struct hwmon_chip_info info = { .ops = &ops };
	struct device *parent = hwmon_test_parent(test, NULL);
	int before;

	SKIP_UNLESS_NEWER_API(test);
	before = count_class_devices(test);
	info.info = bad_type_list;
	expect_rejected(test, hwmon_test_register_info(test, parent, "bad",
						       NULL, &info, NULL),
			-EINVAL);
#ifndef HWMON_C_PEC
	/* 6.1: an attribute bit the type does not have (6.12 leaves it out) */
	{
		static const u32 bad_bit_cfg[] = { BIT(31), 0 };
		const struct hwmon_channel_info bad_bit = {
			.type = hwmon_temp, .config = bad_bit_cfg,
		};
		const struct hwmon_channel_info *bad_bit_list[] = {
			&bad_bit, NULL
		};

		info.info = bad_bit_list;
		expect_rejected(test,
				hwmon_test_register_info(test, parent, "bad",
							 NULL, &info, NULL),
				-EINVAL);
	}
#endif
	info.info = no_channel_list;
	expect_rejected(test, hwmon_test_register_info(test, parent, "bad",
						       NULL, &info, NULL),
			-EINVAL);
	info.info = NULL;
	expect_rejected(test, hwmon_test_register_info(test, parent, "bad",
						       NULL, &info, NULL),
			-EINVAL);
	expect_rejected(test, hwmon_test_register_info(test, parent, "bad",
						       NULL, NULL, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

/* hwmon_newer_api: devm_hwmon_device_register_with_info() without a name */

/* dev_name(@dev) with every character a hwmon name refuses replaced. */
static char *expected_fallback_name(struct kunit *test, struct device *dev)
{
	char *name = kunit_kzalloc(test, strlen(dev_name(dev)) + 2, GFP_KERNEL);
	char *p;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, name);
	strcpy(name, dev_name(dev));
	for (p = name; *p; p++)
		if (strchr("-* \t\n", *p))
			*p = '_';
	strcat(name, "\n");
	return name;
}

static void devm_null_name_is_the_sanitized_parent_name(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	struct device *parent, *hwdev;

	SKIP_UNLESS_NEWER_API(test);
	chip = temp_chip(test, HWMON_T_INPUT);
	parent = hwmon_test_parent(test, NULL);
	/* a platform device with an automatic id: "<name>.<n>.auto" */
	KUNIT_ASSERT_NOT_NULL(test, strchr(dev_name(parent), '-'));
	hwdev = devm_hwmon_device_register_with_info(parent, NULL, chip,
						     hwmon_fake_chip_info(chip),
						     NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	expect_attr(test, hwdev, "name", expected_fallback_name(test, parent));
	expect_attr(test, hwdev, "temp1_input", "1010\n");
}

static void devm_null_name_device_goes_with_its_parent(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	struct device *parent, *hwdev;
	int before;

	SKIP_UNLESS_NEWER_API(test);
	chip = temp_chip(test, HWMON_T_INPUT);
	before = count_class_devices(test);
	parent = hwmon_test_parent(test, NULL);
	hwdev = devm_hwmon_device_register_with_info(parent, NULL, chip,
						     hwmon_fake_chip_info(chip),
						     NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before + 1);
	hwmon_test_remove_parent(test, parent);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

static void devm_null_name_rejects_what_a_named_one_rejects(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	struct hwmon_chip_info info;
	struct device *parent;
	int before;

	SKIP_UNLESS_NEWER_API(test);
	chip = temp_chip(test, HWMON_T_INPUT);
	parent = hwmon_test_parent(test, NULL);
	before = count_class_devices(test);

	expect_rejected(test,
			devm_hwmon_device_register_with_info(NULL, NULL, chip,
							     hwmon_fake_chip_info(chip),
							     NULL),
			-EINVAL);
	expect_rejected(test,
			devm_hwmon_device_register_with_info(parent, NULL, chip,
							     NULL, NULL),
			-EINVAL);
	info = *hwmon_fake_chip_info(chip);
	info.ops = NULL;
	expect_rejected(test,
			devm_hwmon_device_register_with_info(parent, NULL, chip,
							     &info, NULL),
			-EINVAL);
	expect_rejected(test,
			devm_hwmon_device_register_with_info(parent, NULL, chip,
							     static_chip(test, chip, 0, true),
							     NULL),
			-EINVAL);
	chip->missing_ops = HWMON_FAKE_NO_READ;
	expect_rejected(test,
			devm_hwmon_device_register_with_info(parent, NULL, chip,
							     hwmon_fake_chip_info(chip),
							     NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

static void null_name_without_devm_is_still_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip;

	SKIP_UNLESS_NEWER_API(test);
	chip = temp_chip(test, HWMON_T_INPUT);
	expect_rejected(test,
			hwmon_test_register_info(test,
						 hwmon_test_parent(test, NULL),
						 NULL, chip,
						 hwmon_fake_chip_info(chip),
						 NULL),
			-EINVAL);
}

/* hwmon_newer_api: guard(hwmon_lock) and scoped_guard(hwmon_lock, ...) */

/**
 * struct lock_probe - a kthread that reads one attribute once
 * @file: the attribute file, opened by the test
 * @ret: what the read returned
 * @done: completed when the read returned
 */
struct lock_probe {
	struct file *file;
	ssize_t ret;
	struct completion done;
};

static int lock_probe_fn(void *data)
{
	struct lock_probe *p = data;
	char buf[32];
	loff_t pos = 0;

	p->ret = kernel_read(p->file, buf, sizeof(buf), &pos);
	complete(&p->done);
	return 0;
}

/*
 * Starts a reader of temp1_input of @hwdev while the caller holds the lock
 * and gives it 50 ms; lock_probe_finish() waits for its read once the
 * caller released the lock.
 */
static struct lock_probe *lock_probe_start(struct kunit *test,
					   struct device *hwdev)
{
	struct lock_probe *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	p->file = hwmon_sysfs_open(test, hwmon_sysfs_dev_path(test, hwdev,
							      "temp1_input"),
				   O_RDONLY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->file));
	init_completion(&p->done);
	t = kthread_run(lock_probe_fn, p, "hwmon_guard_probe");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	msleep(50);
	return p;
}

static void lock_probe_finish(struct kunit *test, struct lock_probe *p)
{
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&p->done,
							    10 * HZ) > 0);
	KUNIT_EXPECT_EQ(test, p->ret, 5);	/* "1010\n" */
}

/* Holds the lock with guard() until it returns. */
static unsigned int read_count_under_guard(struct kunit *test,
					   struct device *hwdev,
					   struct hwmon_fake_chip *chip,
					   struct lock_probe **probe)
{
	guard(hwmon_lock)(hwdev);
	*probe = lock_probe_start(test, hwdev);
	return chip->total_reads;
}

static void guard_holds_the_lock_to_the_end_of_the_scope(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	struct lock_probe *probe;
	struct device *hwdev;
	unsigned int reads;

	SKIP_UNLESS_NEWER_API(test);
	chip = temp_chip(test, HWMON_T_INPUT);
	hwdev = hwmon_test_register_chip(test, chip, "guard");

	reads = read_count_under_guard(test, hwdev, chip, &probe);
	/* the read waited for the guard's scope to end */
	KUNIT_EXPECT_EQ(test, reads, 0U);
	lock_probe_finish(test, probe);
	KUNIT_EXPECT_EQ(test, chip->total_reads, 1U);
	/* and the lock is free again: this read would hang otherwise */
	expect_attr(test, hwdev, "temp2_input", "1011\n");
}

static void scoped_guard_holds_the_lock_for_its_block(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	struct lock_probe *probe = NULL;
	struct device *hwdev;
	unsigned int reads = UINT_MAX;

	SKIP_UNLESS_NEWER_API(test);
	chip = temp_chip(test, HWMON_T_INPUT);
	hwdev = hwmon_test_register_chip(test, chip, "guard");

	scoped_guard(hwmon_lock, hwdev) {
		probe = lock_probe_start(test, hwdev);
		reads = chip->total_reads;
	}
	KUNIT_EXPECT_EQ(test, reads, 0U);
	lock_probe_finish(test, probe);
	KUNIT_EXPECT_EQ(test, chip->total_reads, 1U);
	expect_attr(test, hwdev, "temp2_input", "1011\n");
}

/* hwmon_newer_api: the sample driver */

#define SAMPLE_NAME	"hwmon-newer-api-sample"

static int match_hwmon_class(struct device *dev, void *data)
{
	return dev->class && !strcmp(dev->class->name, "hwmon");
}

static void sample_pdev_unregister(void *data)
{
	platform_device_unregister(data);
}

/* Creates a sample device and returns its hwmon device. */
static struct device *sample_hwmon_device(struct kunit *test,
					  struct platform_device **pdevp)
{
	struct platform_device *pdev;
	struct device *hwdev;

	if (!IS_BUILTIN(CONFIG_SENSORS_NEWER_API_SAMPLE))
		kunit_skip(test, "CONFIG_SENSORS_NEWER_API_SAMPLE is not built in");
	pdev = platform_device_register_simple(SAMPLE_NAME, PLATFORM_DEVID_AUTO,
					       NULL, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(pdev));
	KUNIT_ASSERT_EQ(test, hwmon_test_defer(test, sample_pdev_unregister,
					       pdev), 0);
	KUNIT_ASSERT_NOT_NULL_MSG(test, pdev->dev.driver,
				  "the sample driver did not bind");
	hwdev = device_find_child(&pdev->dev, NULL, match_hwmon_class);
	KUNIT_ASSERT_NOT_NULL(test, hwdev);
	put_device(hwdev);	/* the device lives as long as pdev */
	if (pdevp)
		*pdevp = pdev;
	return hwdev;
}

static void sample_driver_is_named_after_its_device(struct kunit *test)
{
	struct platform_device *pdev;
	struct device *hwdev;

	SKIP_UNLESS_NEWER_API(test);
	hwdev = sample_hwmon_device(test, &pdev);
	expect_attr(test, hwdev, "name",
		    expected_fallback_name(test, &pdev->dev));
}

static void sample_driver_files_are_read_only(struct kunit *test)
{
	struct device *hwdev;

	SKIP_UNLESS_NEWER_API(test);
	hwdev = sample_hwmon_device(test, NULL);
	expect_mode(test, hwdev, "temp1_input", 0444);
	expect_mode(test, hwdev, "temp2_label", 0444);
	expect_mode(test, hwdev, "in0_input", 0444);
	expect_attr(test, hwdev, "temp1_input", "40000\n");
	expect_attr(test, hwdev, "temp2_input", "45000\n");
	expect_attr(test, hwdev, "temp1_label", "board\n");
	expect_attr(test, hwdev, "temp2_label", "cpu\n");
	expect_attr(test, hwdev, "in0_input", "3300\n");
	/* two temperature channels, the voltage and samples */
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 6);
}

static void sample_driver_counts_samples_under_the_lock(struct kunit *test)
{
	struct device *hwdev;
	char buf[BUF_SIZE];

	SKIP_UNLESS_NEWER_API(test);
	hwdev = sample_hwmon_device(test, NULL);
	expect_attr(test, hwdev, "samples", "0\n");
	KUNIT_EXPECT_GT(test, hwmon_sysfs_read(test, hwdev, "temp1_input", buf,
					       sizeof(buf)), 0);
	KUNIT_EXPECT_GT(test, hwmon_sysfs_read(test, hwdev, "in0_input", buf,
					       sizeof(buf)), 0);
	KUNIT_EXPECT_GT(test, hwmon_sysfs_read(test, hwdev, "temp2_label", buf,
					       sizeof(buf)), 0);
	expect_attr(test, hwdev, "samples", "2\n");

	/* samples_show() takes the lock: it waits while a driver holds it */
	hwmon_lock(hwdev);
	hwmon_unlock(hwdev);
	expect_attr(test, hwdev, "samples", "2\n");
}

/* hwmon_newer_api: hwmon_sanitize_name(NULL) (upstream 7.0) */

static void sanitize_of_null_fails_with_einval(struct kunit *test)
{
	expect_rejected(test, hwmon_sanitize_name(NULL), -EINVAL);
}

static void devm_sanitize_of_null_fails_with_einval(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);

	expect_rejected(test, devm_hwmon_sanitize_name(parent, NULL), -EINVAL);
	expect_rejected(test, devm_hwmon_sanitize_name(NULL, NULL), -EINVAL);
}

/* hwmon_newer_api: the chip attribute update_interval_us (upstream 7.2) */

static void update_interval_us_is_a_chip_file_of_its_own(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_chip(test, HWMON_T_INPUT);
	const u32 us = hwmon_chip_update_interval_us;
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_chip, 1,
				     HWMON_C_UPDATE_INTERVAL |
				     HWMON_C_UPDATE_INTERVAL_US);
	chip->value[hwmon_chip][hwmon_chip_update_interval][0] = 2;
	chip->value[hwmon_chip][us][0] = 1500;
	hwdev = hwmon_test_register_info(test, hwmon_test_parent(test, NULL),
					 "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);

	expect_mode(test, hwdev, "update_interval_us", 0644);
	expect_attr(test, hwdev, "update_interval_us", "1500\n");
	expect_attr(test, hwdev, "update_interval", "2\n");
	KUNIT_EXPECT_EQ(test, chip->reads[hwmon_chip][us][0], 1U);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev,
						"update_interval_us", "250"),
			3);
	KUNIT_EXPECT_EQ(test, chip->value[hwmon_chip][us][0], 250);
	KUNIT_EXPECT_EQ(test, chip->writes[hwmon_chip][us][0], 1U);
	KUNIT_EXPECT_EQ(test,
			chip->value[hwmon_chip][hwmon_chip_update_interval][0],
			2);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev,
						 "update_interval_us1"));
	KUNIT_EXPECT_EQ(test, chip->bad_calls, 0U);
}

static void update_interval_us_follows_update_interval(struct kunit *test)
{
	/* upstream's numbering: a module built for 7.2 sets the same bits */
	KUNIT_EXPECT_EQ(test, hwmon_chip_update_interval_us,
			hwmon_chip_update_interval + 1);
	KUNIT_EXPECT_EQ(test, hwmon_chip_alarms,
			hwmon_chip_update_interval + 2);
	KUNIT_EXPECT_EQ(test, HWMON_C_UPDATE_INTERVAL_US,
			BIT(hwmon_chip_update_interval + 1));
}

#else /* !CONFIG_HWMON_NEWER_API */

#define SKIPPED_CASE(name)						\
	static void name(struct kunit *test)				\
	{								\
		SKIP_UNLESS_NEWER_API(test);				\
	}

SKIPPED_CASE(static_visibility_gives_every_attribute_its_mode)
SKIPPED_CASE(static_visibility_overrides_is_visible)
SKIPPED_CASE(zero_static_visibility_asks_is_visible)
SKIPPED_CASE(chip_without_any_visibility_is_rejected)
SKIPPED_CASE(static_visibility_needs_the_callbacks_of_its_mode)
SKIPPED_CASE(static_visibility_rejects_bad_channel_lists)
SKIPPED_CASE(devm_null_name_is_the_sanitized_parent_name)
SKIPPED_CASE(devm_null_name_device_goes_with_its_parent)
SKIPPED_CASE(devm_null_name_rejects_what_a_named_one_rejects)
SKIPPED_CASE(null_name_without_devm_is_still_rejected)
SKIPPED_CASE(guard_holds_the_lock_to_the_end_of_the_scope)
SKIPPED_CASE(scoped_guard_holds_the_lock_for_its_block)
SKIPPED_CASE(sample_driver_is_named_after_its_device)
SKIPPED_CASE(sample_driver_files_are_read_only)
SKIPPED_CASE(sample_driver_counts_samples_under_the_lock)
SKIPPED_CASE(sanitize_of_null_fails_with_einval)
SKIPPED_CASE(devm_sanitize_of_null_fails_with_einval)
SKIPPED_CASE(update_interval_us_is_a_chip_file_of_its_own)
SKIPPED_CASE(update_interval_us_follows_update_interval)

#endif /* CONFIG_HWMON_NEWER_API */

static struct kunit_case hwmon_newer_api_cases[] = {
	KUNIT_CASE(static_visibility_gives_every_attribute_its_mode),
	KUNIT_CASE(static_visibility_overrides_is_visible),
	KUNIT_CASE(zero_static_visibility_asks_is_visible),
	KUNIT_CASE(chip_without_any_visibility_is_rejected),
	KUNIT_CASE(static_visibility_needs_the_callbacks_of_its_mode),
	KUNIT_CASE(static_visibility_rejects_bad_channel_lists),
	KUNIT_CASE(devm_null_name_is_the_sanitized_parent_name),
	KUNIT_CASE(devm_null_name_device_goes_with_its_parent),
	KUNIT_CASE(devm_null_name_rejects_what_a_named_one_rejects),
	KUNIT_CASE(null_name_without_devm_is_still_rejected),
	KUNIT_CASE(guard_holds_the_lock_to_the_end_of_the_scope),
	KUNIT_CASE(scoped_guard_holds_the_lock_for_its_block),
	KUNIT_CASE(sample_driver_is_named_after_its_device),
	KUNIT_CASE(sample_driver_files_are_read_only),
	KUNIT_CASE(sample_driver_counts_samples_under_the_lock),
	KUNIT_CASE(sanitize_of_null_fails_with_einval),
	KUNIT_CASE(devm_sanitize_of_null_fails_with_einval),
	KUNIT_CASE(update_interval_us_is_a_chip_file_of_its_own),
	KUNIT_CASE(update_interval_us_follows_update_interval),
	{}
};

static struct kunit_suite hwmon_newer_api_suite = {
	.name = "hwmon_newer_api",
	.test_cases = hwmon_newer_api_cases,
};

kunit_test_suite(hwmon_newer_api_suite);
