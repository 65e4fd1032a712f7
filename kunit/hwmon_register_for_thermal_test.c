// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite hwmon_thermal: hwmon_device_register_for_thermal() and
 * HWMON_C_REGISTER_TZ without a firmware node.
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

MODULE_IMPORT_NS(HWMON_THERMAL);

static void register_for_thermal_creates_a_named_device(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;
	const char *dir;
	int drvdata;

	hwdev = hwmon_device_register_for_thermal(parent, "thermal_zone",
						  &drvdata);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	hwmon_test_expect_attr(test, hwdev, "name", "thermal_zone\n");
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 0);
	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(hwdev), (void *)&drvdata);
	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);
	hwmon_device_unregister(hwdev);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
}

static void register_for_thermal_also_gets_the_parent_label(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("label", "zone board"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct device *hwdev;

	hwdev = hwmon_device_register_for_thermal(parent, "tz", NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_test_expect_attr(test, hwdev, "label", "zone board\n");
	hwmon_test_expect_attr(test, hwdev, "name", "tz\n");
	hwmon_device_unregister(hwdev);
}

static void register_for_thermal_rejects_a_null_name(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);

	hwmon_test_expect_rejected(test, hwmon_device_register_for_thermal(parent, NULL, NULL),
				   -EINVAL);
}

static void register_for_thermal_rejects_a_null_parent(struct kunit *test)
{
	hwmon_test_expect_rejected(test, hwmon_device_register_for_thermal(NULL, "tz", NULL),
				   -EINVAL);
}

static void register_tz_without_firmware_node_still_registers(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;
	char buf[HWMON_TEST_BUF_SIZE];

	hwmon_fake_chip_set_channels(chip, hwmon_chip, 1, HWMON_C_REGISTER_TZ);
	hwmon_fake_chip_set_channels(chip, hwmon_temp, 2, HWMON_T_INPUT);
	chip->value[hwmon_temp][hwmon_temp_input][1] = 45000;
	hwdev = hwmon_test_register_chip(test, chip, "tz");

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, hwdev, "temp2_input", buf,
					       sizeof(buf)), 6);
	KUNIT_EXPECT_STREQ(test, buf, "45000\n");
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 2);
}

static void register_tz_without_firmware_node_adds_no_thermal_zone(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct hwmon_sysfs_entry *entries;
	int before, after;

	before = hwmon_sysfs_list(test, "class/thermal", &entries);
	KUNIT_ASSERT_GE(test, before, 0);
	hwmon_fake_chip_set_channels(chip, hwmon_chip, 1, HWMON_C_REGISTER_TZ);
	hwmon_fake_chip_set_channels(chip, hwmon_temp, 2, HWMON_T_INPUT);
	hwmon_test_register_chip(test, chip, "tz");

	after = hwmon_sysfs_list(test, "class/thermal", &entries);
	KUNIT_EXPECT_EQ(test, after, before);
	KUNIT_EXPECT_EQ(test, chip->total_reads, 0u);
}

static struct kunit_case hwmon_thermal_cases[] = {
	KUNIT_CASE(register_for_thermal_creates_a_named_device),
	KUNIT_CASE(register_for_thermal_also_gets_the_parent_label),
	KUNIT_CASE(register_for_thermal_rejects_a_null_name),
	KUNIT_CASE(register_for_thermal_rejects_a_null_parent),
	KUNIT_CASE(register_tz_without_firmware_node_still_registers),
	KUNIT_CASE(register_tz_without_firmware_node_adds_no_thermal_zone),
	{}
};

static struct kunit_suite hwmon_thermal_suite = {
	.name = "hwmon_thermal",
	.test_cases = hwmon_thermal_cases,
};

kunit_test_suites(&hwmon_thermal_suite);
