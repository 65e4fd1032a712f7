// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite hwmon_visibility: is_visible() decides which attribute
 * files exist and with which mode, and is asked only at registration.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/hwmon.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#include "hwmon_fake_chip.h"
#include "hwmon_suite_util.h"
#include "hwmon_sysfs_util.h"

static struct device *register_temp_input_with_mode(struct kunit *test,
						    umode_t mode)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1, HWMON_T_INPUT);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_input, -1, mode);
	return hwmon_test_register_chip(test, chip, "mode");
}

static void attribute_with_mode_0_has_no_file(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1,
				     HWMON_T_INPUT | HWMON_T_MAX);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_max, -1, 0);
	hwdev = hwmon_test_register_chip(test, chip, "hidden");

	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp1_max"));
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 1);
}

static void read_only_mode_is_used_as_returned(struct kunit *test)
{
	hwmon_test_expect_mode(test, register_temp_input_with_mode(test, 0444),
			       "temp1_input", 0444);
}

static void read_write_mode_is_used_as_returned(struct kunit *test)
{
	hwmon_test_expect_mode(test, register_temp_input_with_mode(test, 0644),
			       "temp1_input", 0644);
}

static void write_only_mode_is_used_as_returned(struct kunit *test)
{
	hwmon_test_expect_mode(test, register_temp_input_with_mode(test, 0200),
			       "temp1_input", 0200);
}

static void owner_read_only_mode_is_used_as_returned(struct kunit *test)
{
	hwmon_test_expect_mode(test, register_temp_input_with_mode(test, 0400),
			       "temp1_input", 0400);
}

static void owner_read_write_mode_is_used_as_returned(struct kunit *test)
{
	hwmon_test_expect_mode(test, register_temp_input_with_mode(test, 0600),
			       "temp1_input", 0600);
}

static void group_writable_mode_is_used_as_returned(struct kunit *test)
{
	hwmon_test_expect_mode(test, register_temp_input_with_mode(test, 0664),
			       "temp1_input", 0664);
}

static void visibility_is_decided_per_channel(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 3, HWMON_T_INPUT);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_input, 1, 0);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_input, 2, 0644);
	hwdev = hwmon_test_register_chip(test, chip, "perchannel");

	hwmon_test_expect_mode(test, hwdev, "temp1_input", 0444);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp2_input"));
	hwmon_test_expect_mode(test, hwdev, "temp3_input", 0644);
}

static void is_visible_gets_the_driver_data(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1, HWMON_T_INPUT);
	hwmon_test_register_chip(test, chip, "drvdata");

	KUNIT_EXPECT_GT(test, chip->total_visible_calls, 0u);
	KUNIT_EXPECT_PTR_EQ(test, chip->last_drvdata, (const void *)chip);
}

static void is_visible_is_asked_about_each_configured_attribute_and_channel(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	const struct hwmon_fake_attr *desc;
	unsigned int asked;
	size_t i;
	int c;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 2,
				     HWMON_T_INPUT | HWMON_T_MAX);
	hwmon_fake_chip_set_channels(chip, hwmon_in, 1, HWMON_I_INPUT);
	hwmon_test_register_chip(test, chip, "asked");

	KUNIT_EXPECT_EQ(test, chip->bad_calls, 0u);
	for (i = 0; i < hwmon_fake_attr_count; i++) {
		desc = &hwmon_fake_attrs[i];
		for (c = 0; c < HWMON_FAKE_MAX_CHANNELS; c++) {
			asked = chip->visible_calls[desc->type][desc->attr][c];
			if (chip->config[desc->type][c] & desc->bit)
				KUNIT_EXPECT_GT_MSG(test, asked, 0u, "%s channel %d",
						    desc->macro, c);
			else
				KUNIT_EXPECT_EQ_MSG(test, asked, 0u, "%s channel %d",
						    desc->macro, c);
		}
	}
}

static void is_visible_is_only_asked_at_registration(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;
	unsigned int asked;
	char buf[HWMON_TEST_BUF_SIZE];

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1,
				     HWMON_T_INPUT | HWMON_T_MAX);
	hwdev = hwmon_test_register_chip(test, chip, "asked");
	asked = chip->total_visible_calls;

	KUNIT_EXPECT_GT(test, hwmon_sysfs_read(test, hwdev, "temp1_input", buf,
					       sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "temp1_max", "1"), 1);
	KUNIT_EXPECT_EQ(test, chip->total_visible_calls, asked);
}

static void registration_reads_and_writes_nothing(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);

	hwmon_fake_chip_set_all(chip, 2);
	hwmon_test_register_chip(test, chip, "quiet");

	KUNIT_EXPECT_EQ(test, chip->total_reads, 0u);
	KUNIT_EXPECT_EQ(test, chip->total_read_strings, 0u);
	KUNIT_EXPECT_EQ(test, chip->total_writes, 0u);
}

static void read_only_file_cannot_be_opened_for_writing(struct kunit *test)
{
	struct device *hwdev = register_temp_input_with_mode(test, 0444);

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "temp1_input", "1"),
			-EACCES);
}

static void write_only_file_cannot_be_opened_for_reading(struct kunit *test)
{
	struct device *hwdev = register_temp_input_with_mode(test, 0200);
	char buf[HWMON_TEST_BUF_SIZE];

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, hwdev, "temp1_input", buf,
					       sizeof(buf)), -EACCES);
}

static struct kunit_case hwmon_visibility_cases[] = {
	KUNIT_CASE(attribute_with_mode_0_has_no_file),
	KUNIT_CASE(read_only_mode_is_used_as_returned),
	KUNIT_CASE(read_write_mode_is_used_as_returned),
	KUNIT_CASE(write_only_mode_is_used_as_returned),
	KUNIT_CASE(owner_read_only_mode_is_used_as_returned),
	KUNIT_CASE(owner_read_write_mode_is_used_as_returned),
	KUNIT_CASE(group_writable_mode_is_used_as_returned),
	KUNIT_CASE(visibility_is_decided_per_channel),
	KUNIT_CASE(is_visible_gets_the_driver_data),
	KUNIT_CASE(is_visible_is_asked_about_each_configured_attribute_and_channel),
	KUNIT_CASE(is_visible_is_only_asked_at_registration),
	KUNIT_CASE(registration_reads_and_writes_nothing),
	KUNIT_CASE(read_only_file_cannot_be_opened_for_writing),
	KUNIT_CASE(write_only_file_cannot_be_opened_for_reading),
	{}
};

static struct kunit_suite hwmon_visibility_suite = {
	.name = "hwmon_visibility",
	.test_cases = hwmon_visibility_cases,
};

kunit_test_suites(&hwmon_visibility_suite);
