// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite hwmon_label: the label attribute that comes from the
 * parent's firmware node, for every registration function.
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

static void label_attribute_comes_from_the_parent_label_property(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("label", "board sensor"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *hwdev;

	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_test_expect_attr(test, hwdev, "label", "board sensor\n");
	hwmon_test_expect_attr(test, hwdev, "name", "fake\n");
}

static void label_attribute_is_read_only(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("label", "board"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *hwdev;

	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_test_expect_mode(test, hwdev, "label", 0444);
}

static void no_label_attribute_without_the_property(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("not-label", "board"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *hwdev;

	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "label"));
}

static void no_label_attribute_without_firmware_node(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "fake");

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "label"));
}

static void label_attribute_is_also_created_for_group_registrations(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("label", "legacy board"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct device *hwdev;

	hwdev = hwmon_test_register_groups(test, parent, "legacy", NULL,
					   hwmon_test_extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_test_expect_attr(test, hwdev, "label", "legacy board\n");
}

/*
 * The stock 6.1 core fails such a registration with -ENOMEM (not -EINVAL):
 * that is the oracle's behaviour, so it is what a core has to match.
 */
static void label_attribute_is_also_created_for_the_deprecated_register(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("label", "old board"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct device *hwdev = hwmon_device_register(parent);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_test_expect_attr(test, hwdev, "label", "old board\n");
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "name"));
	hwmon_device_unregister(hwdev);
}

static void label_property_that_is_not_a_string_fails_registration(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_U32("label", 7),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	int before = hwmon_test_count_class_devices(test);

	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "fake", chip,
							    hwmon_fake_chip_info(chip), NULL),
				   -ENOMEM);
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
}

static struct kunit_case hwmon_label_cases[] = {
	KUNIT_CASE(label_attribute_comes_from_the_parent_label_property),
	KUNIT_CASE(label_attribute_is_read_only),
	KUNIT_CASE(no_label_attribute_without_the_property),
	KUNIT_CASE(no_label_attribute_without_firmware_node),
	KUNIT_CASE(label_attribute_is_also_created_for_group_registrations),
	KUNIT_CASE(label_attribute_is_also_created_for_the_deprecated_register),
	KUNIT_CASE(label_property_that_is_not_a_string_fails_registration),
	{}
};

static struct kunit_suite hwmon_label_suite = {
	.name = "hwmon_label",
	.test_cases = hwmon_label_cases,
};

kunit_test_suites(&hwmon_label_suite);
