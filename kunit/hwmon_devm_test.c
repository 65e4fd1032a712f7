// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite hwmon_devm: device managed registrations go away with
 * their parent.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/hwmon.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/property.h>
#include <linux/string.h>

#include "hwmon_fake_chip.h"
#include "hwmon_suite_util.h"
#include "hwmon_sysfs_util.h"

static void devm_register_with_info_is_undone_when_the_parent_goes(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	const char *dir, *kobj;
	struct device *hwdev;
	int before = hwmon_test_count_class_devices(test);

	hwdev = devm_hwmon_device_register_with_info(parent, "devm", chip,
						     hwmon_fake_chip_info(chip),
						     NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	kobj = hwmon_sysfs_kobj_path(test, hwdev);
	hwmon_test_expect_attr(test, hwdev, "name", "devm\n");
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(hwdev), (void *)chip);
	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before + 1);

	hwmon_test_remove_parent(test, parent);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, kobj));
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
}

static void devm_register_with_groups_is_undone_when_the_parent_goes(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = hwmon_test_count_class_devices(test);
	struct device *hwdev;
	const char *dir;

	hwdev = devm_hwmon_device_register_with_groups(parent, "devm", &before,
						       hwmon_test_extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	hwmon_test_expect_attr(test, hwdev, "other", "other\n");
	hwmon_test_expect_attr(test, hwdev, "name", "devm\n");
	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(hwdev), (void *)&before);
	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);

	hwmon_test_remove_parent(test, parent);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
}

static void devm_register_with_info_rejects_a_null_parent(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);

	hwmon_test_expect_rejected(test,
				   devm_hwmon_device_register_with_info(NULL, "devm", chip,
									hwmon_fake_chip_info(chip),
									NULL),
				   -EINVAL);
}

static void devm_register_with_groups_rejects_a_null_parent(struct kunit *test)
{
	hwmon_test_expect_rejected(test,
				   devm_hwmon_device_register_with_groups(NULL, "devm", NULL,
									  hwmon_test_extra_groups),
				   -EINVAL);
}

static void devm_register_with_info_rejects_a_null_name(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent;

	if (IS_ENABLED(CONFIG_HWMON_NEWER_API))
		kunit_skip(test,
			   "CONFIG_HWMON_NEWER_API: a NULL name is the parent's (suite hwmon_newer_api)");
	parent = hwmon_test_parent(test, NULL);

	hwmon_test_expect_rejected(test,
				   devm_hwmon_device_register_with_info(parent, NULL, chip,
									hwmon_fake_chip_info(chip),
									NULL),
				   -EINVAL);
}

static void devm_register_with_groups_rejects_a_null_name(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);

	hwmon_test_expect_rejected(test,
				   devm_hwmon_device_register_with_groups(parent, NULL, NULL,
									  hwmon_test_extra_groups),
				   -EINVAL);
}

static void devm_registrations_on_one_parent_all_go_with_it(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = hwmon_test_count_class_devices(test);
	struct device *a, *b;
	const char *a_dir, *b_dir;

	a = devm_hwmon_device_register_with_info(parent, "a", chip,
						 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = devm_hwmon_device_register_with_groups(parent, "b", NULL,
						   hwmon_test_extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	a_dir = hwmon_sysfs_dev_path(test, a, NULL);
	b_dir = hwmon_sysfs_dev_path(test, b, NULL);
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before + 2);

	hwmon_test_remove_parent(test, parent);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, a_dir));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, b_dir));
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
}

static void devm_register_with_info_passes_errors_on(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = hwmon_test_count_class_devices(test);

	chip->missing_ops |= HWMON_FAKE_NO_READ;
	hwmon_test_expect_rejected(test,
				   devm_hwmon_device_register_with_info(parent, "devm", chip,
									hwmon_fake_chip_info(chip),
									NULL),
				   -EINVAL);
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
}

static void devm_unregister_removes_the_device_at_once(struct kunit *test)
{
#ifdef HWMON_TEST_HAVE_DEVM_UNREGISTER
	struct hwmon_fake_chip *chip;
	struct device *parent, *hwdev;
	const char *dir;
	int before;

	/* Detect first: devm_hwmon_device_unregister() WARNs on stock. */
	if (hwmon_test_core_is_stock(test))
		kunit_skip(test,
			   "stock 6.1 devm_hwmon_device_unregister() matches the wrong pointer and leaves the device (intended difference)");

	chip = hwmon_test_temp_input_chip(test);
	parent = hwmon_test_parent(test, NULL);
	before = hwmon_test_count_class_devices(test);
	hwdev = devm_hwmon_device_register_with_info(parent, "devm", chip,
						     hwmon_fake_chip_info(chip),
						     NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);

	devm_hwmon_device_unregister(hwdev);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
	/* removing the parent later must not unregister it a second time */
	hwmon_test_remove_parent(test, parent);
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
#else
	kunit_skip(test,
		   "the tree's <linux/hwmon.h> has no devm_hwmon_device_unregister() (6.12)");
#endif
}

static struct kunit_case hwmon_devm_cases[] = {
	KUNIT_CASE(devm_register_with_info_is_undone_when_the_parent_goes),
	KUNIT_CASE(devm_register_with_groups_is_undone_when_the_parent_goes),
	KUNIT_CASE(devm_register_with_info_rejects_a_null_parent),
	KUNIT_CASE(devm_register_with_groups_rejects_a_null_parent),
	KUNIT_CASE(devm_register_with_info_rejects_a_null_name),
	KUNIT_CASE(devm_register_with_groups_rejects_a_null_name),
	KUNIT_CASE(devm_registrations_on_one_parent_all_go_with_it),
	KUNIT_CASE(devm_register_with_info_passes_errors_on),
	KUNIT_CASE(devm_unregister_removes_the_device_at_once),
	{}
};

static struct kunit_suite hwmon_devm_suite = {
	.name = "hwmon_devm",
	.test_cases = hwmon_devm_cases,
};

kunit_test_suites(&hwmon_devm_suite);
