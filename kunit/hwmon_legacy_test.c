// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite hwmon_legacy: the deprecated hwmon_device_register() and
 * hwmon_device_register_with_groups().
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

static void deprecated_register_creates_a_device_without_name(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev = hwmon_device_register(parent);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_STREQ(test, hwdev->class->name, "hwmon");
	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "uevent"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "name"));
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 0);
	hwmon_device_unregister(hwdev);
}

static void deprecated_register_accepts_no_parent(struct kunit *test)
{
	struct device *hwdev = hwmon_device_register(NULL);
	char path[HWMON_SYSFS_PATH_MAX];

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_NULL(test, hwdev->parent);
	snprintf(path, sizeof(path), "devices/virtual/hwmon/%s/uevent",
		 dev_name(hwdev));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_exists(test, path));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "name"));
	hwmon_device_unregister(hwdev);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, path));
}

static void deprecated_register_is_undone_by_unregister(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev = hwmon_device_register(parent);
	const char *dir;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	hwmon_device_unregister(hwdev);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
}

static void register_with_groups_creates_name_and_group_files(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;
	char expected[64];
	int drvdata;

	hwdev = hwmon_test_register_groups(test, parent, "legacy", &drvdata,
					   hwmon_test_extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_test_expect_attr(test, hwdev, "name", "legacy\n");
	snprintf(expected, sizeof(expected), "extra of %s\n", dev_name(hwdev));
	hwmon_test_expect_attr(test, hwdev, "extra", expected);
	hwmon_test_expect_attr(test, hwdev, "other", "other\n");
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 2);
	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(hwdev), (void *)&drvdata);
	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);
}

static void unregister_removes_a_group_registration_and_its_files(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = hwmon_test_count_class_devices(test);
	const char *dir, *attr;
	struct device *hwdev;

	hwdev = hwmon_test_register_groups(test, parent, "legacy", NULL,
					   hwmon_test_extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	attr = hwmon_sysfs_dev_path(test, hwdev, "other");
	KUNIT_ASSERT_TRUE(test, hwmon_sysfs_exists(test, attr));

	hwmon_test_unregister(test, hwdev);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, attr));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
}

static void register_with_groups_accepts_no_groups(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwdev = hwmon_test_register_groups(test, parent, "legacy", NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_test_expect_attr(test, hwdev, "name", "legacy\n");
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 0);
}

static void register_with_groups_accepts_no_parent(struct kunit *test)
{
	struct device *hwdev;
	char path[HWMON_SYSFS_PATH_MAX];

	hwdev = hwmon_test_register_groups(test, NULL, "orphan", NULL,
					   hwmon_test_extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_NULL(test, hwdev->parent);
	hwmon_test_expect_attr(test, hwdev, "name", "orphan\n");
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "device"));
	snprintf(path, sizeof(path), "devices/virtual/hwmon/%s/name",
		 dev_name(hwdev));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_exists(test, path));
}

static void register_with_groups_rejects_a_null_name(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);

	hwmon_test_expect_rejected(test,
				   hwmon_test_register_groups(test, parent, NULL, NULL,
							      hwmon_test_extra_groups),
				   -EINVAL);
}

static void register_with_groups_warns_about_a_bad_name_but_registers(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	u64 mark = hwmon_test_log_mark();
	struct device *hwdev;

	hwdev = hwmon_test_register_groups(test, parent, "bad-name", NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_TRUE(test, hwmon_test_log_has(test, mark,
						   HWMON_TEST_NAME_WARNING));
	hwmon_test_expect_attr(test, hwdev, "name", "bad-name\n");
}

static struct kunit_case hwmon_legacy_cases[] = {
	KUNIT_CASE(deprecated_register_creates_a_device_without_name),
	KUNIT_CASE(deprecated_register_accepts_no_parent),
	KUNIT_CASE(deprecated_register_is_undone_by_unregister),
	KUNIT_CASE(register_with_groups_creates_name_and_group_files),
	KUNIT_CASE(unregister_removes_a_group_registration_and_its_files),
	KUNIT_CASE(register_with_groups_accepts_no_groups),
	KUNIT_CASE(register_with_groups_accepts_no_parent),
	KUNIT_CASE(register_with_groups_rejects_a_null_name),
	KUNIT_CASE(register_with_groups_warns_about_a_bad_name_but_registers),
	{}
};

static struct kunit_suite hwmon_legacy_suite = {
	.name = "hwmon_legacy",
	.test_cases = hwmon_legacy_cases,
};

kunit_test_suites(&hwmon_legacy_suite);
