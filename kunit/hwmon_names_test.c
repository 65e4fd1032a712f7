// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite hwmon_names: the file each attribute bit of a chip
 * description creates, its name, index and mode.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/hwmon.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/string.h>

#include "hwmon_fake_chip.h"
#include "hwmon_suite_util.h"
#include "hwmon_sysfs_util.h"

static void each_attribute_bit_creates_its_abi_file_with_the_visible_mode(struct kunit *test)
{
	const struct hwmon_fake_attr *desc = test->param_value;
	struct hwmon_fake_chip *chip;
	struct device *hwdev;
	char name[64];

	chip = hwmon_fake_chip_new(test);
	hwmon_fake_chip_set_channels(chip, desc->type, 1, desc->bit);
	hwdev = hwmon_test_register_chip(test, chip, "names");

	if (!desc->name) {
		KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 0);
		return;
	}
	KUNIT_ASSERT_EQ(test, hwmon_fake_attr_file_name(desc, 0, name,
							sizeof(name)), 0);
	hwmon_test_expect_mode(test, hwdev, name, desc->mode);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 1);
}

static void channel_files_are_numbered_from_the_type_index_base(struct kunit *test)
{
	const struct hwmon_fake_attr *desc = test->param_value;
	int base = hwmon_fake_attr_index_base(desc->type);
	struct hwmon_fake_chip *chip;
	struct device *hwdev;
	char name[64];
	int c;

	chip = hwmon_fake_chip_new(test);
	hwmon_fake_chip_set_channels(chip, desc->type, 3, desc->bit);
	hwdev = hwmon_test_register_chip(test, chip, "numbering");

	for (c = 0; c < 3; c++) {
		KUNIT_ASSERT_EQ(test, hwmon_fake_attr_file_name(desc, c, name,
								sizeof(name)), 0);
		KUNIT_EXPECT_TRUE_MSG(test, hwmon_sysfs_has(test, hwdev, name),
				      "%s missing", name);
	}
	/* one below the base and one past the last channel do not exist */
	KUNIT_ASSERT_EQ(test, hwmon_fake_attr_file_name(desc, 3, name,
							sizeof(name)), 0);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, name));
	if (base == 1) {
		KUNIT_ASSERT_EQ(test, hwmon_fake_attr_file_name(desc, -1, name,
								sizeof(name)), 0);
		KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, name));
	}
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 3);
}

/* The first file-creating bit of each channel type. */
static const void *hwmon_type_gen(const void *prev, char *desc)
{
	const struct hwmon_fake_attr *next = prev;
	enum hwmon_sensor_types last = next ? next->type : hwmon_chip;

	do {
		next = hwmon_test_attr_file_gen(next, desc);
	} while (next && next->type == last);
	return next;
}

static void in_channels_are_numbered_from_zero(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_in, 2, HWMON_I_INPUT);
	hwdev = hwmon_test_register_chip(test, chip, "in");

	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "in0_input"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "in1_input"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "in2_input"));
}

static void intrusion_channels_are_numbered_from_zero(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_intrusion, 2,
				     HWMON_INTRUSION_ALARM);
	hwdev = hwmon_test_register_chip(test, chip, "intrusion");

	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "intrusion0_alarm"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "intrusion1_alarm"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "intrusion2_alarm"));
}

static void temp_channels_are_numbered_from_one(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 2, HWMON_T_INPUT);
	hwdev = hwmon_test_register_chip(test, chip, "temp");

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp0_input"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp2_input"));
}

static void pwm_input_file_has_no_suffix(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_pwm, 2,
				     HWMON_PWM_INPUT | HWMON_PWM_ENABLE);
	hwdev = hwmon_test_register_chip(test, chip, "pwm");

	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "pwm1"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "pwm2"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "pwm1_input"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "pwm2_enable"));
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 4);
}

static void chip_attributes_have_no_index(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_chip, 1,
				     HWMON_C_UPDATE_INTERVAL | HWMON_C_ALARMS);
	hwdev = hwmon_test_register_chip(test, chip, "chip");

	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "update_interval"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "alarms"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "update_interval1"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "chip1_alarms"));
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 2);
}

static void chip_register_tz_creates_no_file(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_chip, 1,
				     HWMON_C_REGISTER_TZ | HWMON_C_UPDATE_INTERVAL);
	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1, HWMON_T_INPUT);
	hwdev = hwmon_test_register_chip(test, chip, "tz");

	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "update_interval"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "register_tz"));
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 2);
}

static void channels_of_one_type_can_have_different_attributes(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 2, HWMON_T_INPUT);
	chip->config[hwmon_temp][1] = HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_LABEL;
	hwdev = hwmon_test_register_chip(test, chip, "mixed");

	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp1_max"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp1_label"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp2_input"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp2_max"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp2_label"));
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 4);
}

static void all_types_chip_creates_every_expected_file(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	const struct hwmon_fake_attr *desc;
	bool stock = hwmon_test_core_is_stock(test);
	struct device *hwdev;
	char name[64];
	size_t i;
	int c;

	hwmon_fake_chip_set_all(chip, 2);
	hwdev = hwmon_test_register_chip(test, chip, "all");

	for (i = 0; i < hwmon_fake_attr_count; i++) {
		desc = &hwmon_fake_attrs[i];
		if (!desc->name)
			continue;
		for (c = 0; chip->config[desc->type][c]; c++) {
			hwmon_fake_attr_file_name(desc, c, name, sizeof(name));
			/* the stock core's names of the two are checked elsewhere */
			if (desc->stock_differs && stock)
				continue;
			hwmon_test_expect_mode(test, hwdev, name, desc->mode);
		}
	}
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev),
			hwmon_fake_chip_file_count(chip));
}

static void power_average_interval_limits_use_the_abi_names(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	struct device *hwdev;
	char buf[HWMON_TEST_BUF_SIZE];

	if (hwmon_test_core_is_stock(test))
		kunit_skip(test,
			   "the stock cores create power1_interval_max/_min instead of the ABI names (intended difference)");
	chip = hwmon_fake_chip_new(test);
	hwmon_fake_chip_set_channels(chip, hwmon_power, 2,
				     HWMON_P_AVERAGE_INTERVAL_MAX |
				     HWMON_P_AVERAGE_INTERVAL_MIN);
	hwmon_fake_chip_set_mode(chip, hwmon_power,
				 hwmon_power_average_interval_min, -1, 0644);
	chip->value[hwmon_power][hwmon_power_average_interval_max][1] = 60000;
	hwdev = hwmon_test_register_chip(test, chip, "power");

	hwmon_test_expect_mode(test, hwdev, "power1_average_interval_max", 0444);
	hwmon_test_expect_mode(test, hwdev, "power1_average_interval_min", 0644);
	hwmon_test_expect_mode(test, hwdev, "power2_average_interval_max", 0444);
	hwmon_test_expect_mode(test, hwdev, "power2_average_interval_min", 0644);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "power1_interval_max"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "power1_interval_min"));
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 4);

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, hwdev,
					       "power2_average_interval_max",
					       buf, sizeof(buf)), 6);
	KUNIT_EXPECT_STREQ(test, buf, "60000\n");
	KUNIT_EXPECT_EQ(test,
			chip->reads[hwmon_power][hwmon_power_average_interval_max][1],
			1u);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev,
						"power2_average_interval_min",
						"100"), 3);
	KUNIT_EXPECT_EQ(test,
			chip->writes[hwmon_power][hwmon_power_average_interval_min][1],
			1u);
	KUNIT_EXPECT_EQ(test,
			chip->value[hwmon_power][hwmon_power_average_interval_min][1],
			100L);
	KUNIT_EXPECT_EQ(test, chip->total_reads + chip->total_writes, 2u);
}

/*
 * The attribute bits 6.12 added. The parameterized cases above cover each
 * of them on 6.12; these cases make a tree without them say so (skip).
 */
static void beep_attributes_have_their_abi_names(struct kunit *test)
{
#ifdef HWMON_C_BEEP_ENABLE
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_chip, 1, HWMON_C_BEEP_ENABLE);
	hwmon_fake_chip_set_channels(chip, hwmon_temp, 2, HWMON_T_BEEP);
	hwmon_fake_chip_set_channels(chip, hwmon_in, 1, HWMON_I_BEEP);
	hwmon_fake_chip_set_channels(chip, hwmon_curr, 1, HWMON_C_BEEP);
	hwmon_fake_chip_set_channels(chip, hwmon_fan, 1, HWMON_F_BEEP);
	hwdev = hwmon_test_register_chip(test, chip, "beep");

	hwmon_test_expect_mode(test, hwdev, "beep_enable", 0644);
	hwmon_test_expect_mode(test, hwdev, "temp1_beep", 0644);
	hwmon_test_expect_mode(test, hwdev, "temp2_beep", 0644);
	hwmon_test_expect_mode(test, hwdev, "in0_beep", 0644);
	hwmon_test_expect_mode(test, hwdev, "curr1_beep", 0644);
	hwmon_test_expect_mode(test, hwdev, "fan1_beep", 0644);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 6);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "temp2_beep", "1"), 1);
	KUNIT_EXPECT_EQ(test, chip->writes[hwmon_temp][hwmon_temp_beep][1], 1u);
	KUNIT_EXPECT_EQ(test, chip->value[hwmon_temp][hwmon_temp_beep][1], 1);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "beep_enable", "0"), 1);
	KUNIT_EXPECT_EQ(test, chip->writes[hwmon_chip][hwmon_chip_beep_enable][0], 1u);
	KUNIT_EXPECT_EQ(test, chip->total_writes, 2u);
#else
	kunit_skip(test, "the tree's <linux/hwmon.h> has no beep attributes (6.1)");
#endif
}

static void in_fault_and_humidity_limit_alarms_have_their_abi_names(struct kunit *test)
{
#if defined(HWMON_I_FAULT) && defined(HWMON_H_MIN_ALARM)
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;
	char buf[HWMON_TEST_BUF_SIZE];

	hwmon_fake_chip_set_channels(chip, hwmon_in, 2, HWMON_I_FAULT);
	hwmon_fake_chip_set_channels(chip, hwmon_humidity, 1,
				     HWMON_H_MIN_ALARM | HWMON_H_MAX_ALARM);
	chip->value[hwmon_in][hwmon_in_fault][1] = 1;
	hwdev = hwmon_test_register_chip(test, chip, "alarms");

	hwmon_test_expect_mode(test, hwdev, "in0_fault", 0444);
	hwmon_test_expect_mode(test, hwdev, "in1_fault", 0444);
	hwmon_test_expect_mode(test, hwdev, "humidity1_min_alarm", 0444);
	hwmon_test_expect_mode(test, hwdev, "humidity1_max_alarm", 0444);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 4);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, hwdev, "in1_fault", buf,
					       sizeof(buf)), 2);
	KUNIT_EXPECT_STREQ(test, buf, "1\n");
	KUNIT_EXPECT_EQ(test, chip->reads[hwmon_in][hwmon_in_fault][1], 1u);
#else
	kunit_skip(test,
		   "the tree's <linux/hwmon.h> has no HWMON_I_FAULT / HWMON_H_MIN_ALARM / HWMON_H_MAX_ALARM (6.1)");
#endif
}

static void energy64_files_are_named_like_energy_files(struct kunit *test)
{
#ifdef HWMON_TEST_HAVE_ENERGY64
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_energy64, 2,
				     HWMON_E_ENABLE | HWMON_E_INPUT |
				     HWMON_E_LABEL);
	hwdev = hwmon_test_register_chip(test, chip, "energy64");

	hwmon_test_expect_mode(test, hwdev, "energy1_enable", 0644);
	hwmon_test_expect_mode(test, hwdev, "energy1_input", 0444);
	hwmon_test_expect_mode(test, hwdev, "energy1_label", 0444);
	hwmon_test_expect_mode(test, hwdev, "energy2_input", 0444);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 6);
	KUNIT_EXPECT_EQ(test, chip->visible_calls[hwmon_energy64][hwmon_energy_input][1],
			1u);
#else
	kunit_skip(test, "the tree's <linux/hwmon.h> has no hwmon_energy64 (6.1)");
#endif
}

static struct kunit_case hwmon_names_cases[] = {
	KUNIT_CASE_PARAM(each_attribute_bit_creates_its_abi_file_with_the_visible_mode,
			 hwmon_test_attr_gen),
	KUNIT_CASE_PARAM(channel_files_are_numbered_from_the_type_index_base,
			 hwmon_type_gen),
	KUNIT_CASE(in_channels_are_numbered_from_zero),
	KUNIT_CASE(intrusion_channels_are_numbered_from_zero),
	KUNIT_CASE(temp_channels_are_numbered_from_one),
	KUNIT_CASE(pwm_input_file_has_no_suffix),
	KUNIT_CASE(chip_attributes_have_no_index),
	KUNIT_CASE(chip_register_tz_creates_no_file),
	KUNIT_CASE(channels_of_one_type_can_have_different_attributes),
	KUNIT_CASE(all_types_chip_creates_every_expected_file),
	KUNIT_CASE(power_average_interval_limits_use_the_abi_names),
	KUNIT_CASE(beep_attributes_have_their_abi_names),
	KUNIT_CASE(in_fault_and_humidity_limit_alarms_have_their_abi_names),
	KUNIT_CASE(energy64_files_are_named_like_energy_files),
	{}
};

static struct kunit_suite hwmon_names_suite = {
	.name = "hwmon_names",
	.test_cases = hwmon_names_cases,
};

kunit_test_suites(&hwmon_names_suite);

MODULE_DESCRIPTION("KUnit suites for the hwmon core");
MODULE_LICENSE("GPL");
