// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for the attribute files the hwmon core generates from a chip
 * description: their names and modes, visibility, and how reads and writes
 * of the sysfs files reach the driver callbacks.
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
#include "hwmon_sysfs_util.h"

#define BUF_SIZE	128

/*
 * Every attribute bit except those a stock core handles differently from
 * the ABI (stock_differs): KUnit reports a skipped parameter as "ok", so
 * they are covered by cases of their own,
 * power_average_interval_limits_use_the_abi_names() and
 * energy64_label_is_read_with_read_string().
 */
static const void *hwmon_attr_gen(const void *prev, char *desc)
{
	const struct hwmon_fake_attr *next = prev;

	do {
		next = next ? next + 1 : hwmon_fake_attrs;
		if (next >= hwmon_fake_attrs + hwmon_fake_attr_count)
			return NULL;
	} while (next->stock_differs);
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", next->macro);
	return next;
}

/* Like hwmon_attr_gen(), but only the bits that create a file. */
static const void *hwmon_attr_file_gen(const void *prev, char *desc)
{
	const struct hwmon_fake_attr *next = prev;

	do {
		next = hwmon_attr_gen(next, desc);
	} while (next && !next->name);
	return next;
}

static const char *file_name(struct kunit *test, enum hwmon_sensor_types type,
			     u32 attr, int channel)
{
	const struct hwmon_fake_attr *desc = hwmon_fake_attr_find(type, attr);
	char *name = kunit_kzalloc(test, 64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, name);
	KUNIT_ASSERT_EQ(test, hwmon_fake_attr_file_name(desc, channel, name, 64), 0);
	return name;
}

static void expect_file_mode(struct kunit *test, struct device *hwdev,
			     const char *name, umode_t expected)
{
	umode_t mode = 0;

	KUNIT_EXPECT_EQ_MSG(test, hwmon_sysfs_mode(test, hwdev, name, &mode), 0,
			    "%s missing", name);
	KUNIT_EXPECT_EQ_MSG(test, mode, expected, "%s mode %o", name, mode);
}

/* hwmon_names: which file each attribute bit creates */

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
	expect_file_mode(test, hwdev, name, desc->mode);
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
		next = hwmon_attr_file_gen(next, desc);
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
			expect_file_mode(test, hwdev, name, desc->mode);
		}
	}
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev),
			hwmon_fake_chip_file_count(chip));
}

static void power_average_interval_limits_use_the_abi_names(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	struct device *hwdev;
	char buf[BUF_SIZE];

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

	expect_file_mode(test, hwdev, "power1_average_interval_max", 0444);
	expect_file_mode(test, hwdev, "power1_average_interval_min", 0644);
	expect_file_mode(test, hwdev, "power2_average_interval_max", 0444);
	expect_file_mode(test, hwdev, "power2_average_interval_min", 0644);
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

	expect_file_mode(test, hwdev, "beep_enable", 0644);
	expect_file_mode(test, hwdev, "temp1_beep", 0644);
	expect_file_mode(test, hwdev, "temp2_beep", 0644);
	expect_file_mode(test, hwdev, "in0_beep", 0644);
	expect_file_mode(test, hwdev, "curr1_beep", 0644);
	expect_file_mode(test, hwdev, "fan1_beep", 0644);
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
	char buf[BUF_SIZE];

	hwmon_fake_chip_set_channels(chip, hwmon_in, 2, HWMON_I_FAULT);
	hwmon_fake_chip_set_channels(chip, hwmon_humidity, 1,
				     HWMON_H_MIN_ALARM | HWMON_H_MAX_ALARM);
	chip->value[hwmon_in][hwmon_in_fault][1] = 1;
	hwdev = hwmon_test_register_chip(test, chip, "alarms");

	expect_file_mode(test, hwdev, "in0_fault", 0444);
	expect_file_mode(test, hwdev, "in1_fault", 0444);
	expect_file_mode(test, hwdev, "humidity1_min_alarm", 0444);
	expect_file_mode(test, hwdev, "humidity1_max_alarm", 0444);
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

	expect_file_mode(test, hwdev, "energy1_enable", 0644);
	expect_file_mode(test, hwdev, "energy1_input", 0444);
	expect_file_mode(test, hwdev, "energy1_label", 0444);
	expect_file_mode(test, hwdev, "energy2_input", 0444);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 6);
	KUNIT_EXPECT_EQ(test, chip->visible_calls[hwmon_energy64][hwmon_energy_input][1],
			1u);
#else
	kunit_skip(test, "the tree's <linux/hwmon.h> has no hwmon_energy64 (6.1)");
#endif
}

static struct kunit_case hwmon_names_cases[] = {
	KUNIT_CASE_PARAM(each_attribute_bit_creates_its_abi_file_with_the_visible_mode,
			 hwmon_attr_gen),
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

/* hwmon_visibility: is_visible() decides which files exist and their mode */

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
	expect_file_mode(test, register_temp_input_with_mode(test, 0444),
			 "temp1_input", 0444);
}

static void read_write_mode_is_used_as_returned(struct kunit *test)
{
	expect_file_mode(test, register_temp_input_with_mode(test, 0644),
			 "temp1_input", 0644);
}

static void write_only_mode_is_used_as_returned(struct kunit *test)
{
	expect_file_mode(test, register_temp_input_with_mode(test, 0200),
			 "temp1_input", 0200);
}

static void owner_read_only_mode_is_used_as_returned(struct kunit *test)
{
	expect_file_mode(test, register_temp_input_with_mode(test, 0400),
			 "temp1_input", 0400);
}

static void owner_read_write_mode_is_used_as_returned(struct kunit *test)
{
	expect_file_mode(test, register_temp_input_with_mode(test, 0600),
			 "temp1_input", 0600);
}

static void group_writable_mode_is_used_as_returned(struct kunit *test)
{
	expect_file_mode(test, register_temp_input_with_mode(test, 0664),
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

	expect_file_mode(test, hwdev, "temp1_input", 0444);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp2_input"));
	expect_file_mode(test, hwdev, "temp3_input", 0644);
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
	char buf[BUF_SIZE];

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
	char buf[BUF_SIZE];

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

/* hwmon_read: reading a file calls read() or read_string() and prints */

struct read_fixture {
	struct hwmon_fake_chip *chip;
	struct device *hwdev;
	char buf[BUF_SIZE];
};

static struct read_fixture *temp_chip(struct kunit *test)
{
	struct read_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	f->chip = hwmon_fake_chip_new(test);
	hwmon_fake_chip_set_channels(f->chip, hwmon_temp, 3,
				     HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_LABEL);
	hwmon_fake_chip_set_channels(f->chip, hwmon_in, 2,
				     HWMON_I_INPUT | HWMON_I_LABEL);
	f->hwdev = hwmon_test_register_chip(test, f->chip, "fake");
	return f;
}

static void expect_read(struct kunit *test, struct read_fixture *f,
			const char *attr, const char *expected)
{
	int n = hwmon_sysfs_read(test, f->hwdev, attr, f->buf, sizeof(f->buf));

	KUNIT_EXPECT_EQ(test, n, (int)strlen(expected));
	KUNIT_EXPECT_STREQ(test, f->buf, expected);
}

static void read_prints_the_value_as_a_decimal_line(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = 25000;
	expect_read(test, f, "temp1_input", "25000\n");
}

static void read_prints_a_negative_value(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = -40500;
	expect_read(test, f, "temp1_input", "-40500\n");
}

static void read_prints_zero(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = 0;
	expect_read(test, f, "temp1_input", "0\n");
}

static void read_prints_long_max(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = LONG_MAX;
	expect_read(test, f, "temp1_input", "9223372036854775807\n");
}

static void read_prints_long_min(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = LONG_MIN;
	expect_read(test, f, "temp1_input", "-9223372036854775808\n");
}

static void read_calls_the_driver_every_time(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = 1;
	expect_read(test, f, "temp1_input", "1\n");
	f->chip->value[hwmon_temp][hwmon_temp_input][0] = 2;
	expect_read(test, f, "temp1_input", "2\n");
	KUNIT_EXPECT_EQ(test, f->chip->reads[hwmon_temp][hwmon_temp_input][0], 2u);
}

static void read_passes_type_attribute_and_channel(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_max][2] = 85000;
	expect_read(test, f, "temp3_max", "85000\n");
	KUNIT_EXPECT_EQ(test, f->chip->reads[hwmon_temp][hwmon_temp_max][2], 1u);
	KUNIT_EXPECT_EQ(test, f->chip->total_reads, 1u);
	KUNIT_EXPECT_EQ(test, f->chip->bad_calls, 0u);
}

static void read_of_in0_passes_channel_0(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->value[hwmon_in][hwmon_in_input][0] = 3300;
	expect_read(test, f, "in0_input", "3300\n");
	KUNIT_EXPECT_EQ(test, f->chip->reads[hwmon_in][hwmon_in_input][0], 1u);
	KUNIT_EXPECT_EQ(test, f->chip->total_reads, 1u);
}

static void read_passes_the_hwmon_device(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = 7;
	expect_read(test, f, "temp1_input", "7\n");
	KUNIT_EXPECT_PTR_EQ(test, f->chip->last_dev, f->hwdev);
}

static void each_device_reads_from_its_own_driver(struct kunit *test)
{
	struct read_fixture *a = temp_chip(test);
	struct read_fixture *b = temp_chip(test);

	a->chip->value[hwmon_temp][hwmon_temp_input][0] = 111;
	b->chip->value[hwmon_temp][hwmon_temp_input][0] = 222;
	expect_read(test, b, "temp1_input", "222\n");
	expect_read(test, a, "temp1_input", "111\n");
	KUNIT_EXPECT_EQ(test, a->chip->total_reads, 1u);
	KUNIT_EXPECT_EQ(test, b->chip->total_reads, 1u);
	KUNIT_EXPECT_PTR_EQ(test, a->chip->last_dev, a->hwdev);
	KUNIT_EXPECT_PTR_EQ(test, b->chip->last_dev, b->hwdev);
}

static void read_error_eio_reaches_the_reader(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->read_error[hwmon_temp][hwmon_temp_input] = -EIO;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, f->hwdev, "temp1_input",
					       f->buf, sizeof(f->buf)), -EIO);
	KUNIT_EXPECT_EQ(test, f->chip->reads[hwmon_temp][hwmon_temp_input][0], 1u);
}

static void read_error_enodata_reaches_the_reader(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->read_error[hwmon_temp][hwmon_temp_input] = -ENODATA;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, f->hwdev, "temp1_input",
					       f->buf, sizeof(f->buf)), -ENODATA);
}

static void read_error_of_one_attribute_leaves_the_others_readable(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->read_error[hwmon_temp][hwmon_temp_max] = -EIO;
	f->chip->value[hwmon_temp][hwmon_temp_input][1] = 30000;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, f->hwdev, "temp2_max",
					       f->buf, sizeof(f->buf)), -EIO);
	expect_read(test, f, "temp2_input", "30000\n");
}

static void label_is_read_with_read_string_and_ends_with_a_newline(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->label[hwmon_temp][1] = "CPU";
	expect_read(test, f, "temp2_label", "CPU\n");
	KUNIT_EXPECT_EQ(test, f->chip->read_strings[hwmon_temp][hwmon_temp_label][1],
			1u);
	KUNIT_EXPECT_EQ(test, f->chip->total_reads, 0u);
}

static void label_of_in0_passes_channel_0(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->label[hwmon_in][0] = "Vcore";
	expect_read(test, f, "in0_label", "Vcore\n");
	KUNIT_EXPECT_EQ(test, f->chip->read_strings[hwmon_in][hwmon_in_label][0],
			1u);
}

static void label_is_printed_verbatim(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->label[hwmon_temp][0] = "Package id 0: 100% \"hot\"";
	expect_read(test, f, "temp1_label", "Package id 0: 100% \"hot\"\n");
}

static void label_with_its_own_newline_gets_a_second_one(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->label[hwmon_temp][0] = "GPU\n";
	expect_read(test, f, "temp1_label", "GPU\n\n");
}

static void empty_label_reads_as_a_newline(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->label[hwmon_temp][0] = "";
	expect_read(test, f, "temp1_label", "\n");
}

static void read_string_error_reaches_the_reader(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->read_error[hwmon_temp][hwmon_temp_label] = -ENODATA;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, f->hwdev, "temp1_label",
					       f->buf, sizeof(f->buf)), -ENODATA);
	KUNIT_EXPECT_EQ(test, f->chip->total_read_strings, 1u);
}

static void each_attribute_file_reaches_its_callbacks_with_its_channel(struct kunit *test)
{
	const struct hwmon_fake_attr *desc = test->param_value;
	int channel = desc->type == hwmon_chip ? 0 : 1;
	struct hwmon_fake_chip *chip;
	const char *name;
	struct device *hwdev;
	char buf[BUF_SIZE];
	char expected[32];

	chip = hwmon_fake_chip_new(test);
	hwmon_fake_chip_set_channels(chip, desc->type, channel + 1, desc->bit);
	hwmon_fake_chip_set_mode(chip, desc->type, desc->attr, -1,
				 desc->string ? 0444 : 0644);
	chip->value[desc->type][desc->attr][channel] = -1234567;
	chip->label[desc->type][channel] = "the label";
	hwdev = hwmon_test_register_chip(test, chip, "route");
	name = file_name(test, desc->type, desc->attr, channel);

	KUNIT_EXPECT_GT(test, hwmon_sysfs_read(test, hwdev, name, buf,
					       sizeof(buf)), 0);
	if (desc->string) {
		KUNIT_EXPECT_STREQ(test, buf, "the label\n");
		KUNIT_EXPECT_EQ(test,
				chip->read_strings[desc->type][desc->attr][channel],
				1u);
		KUNIT_EXPECT_EQ(test, chip->total_reads, 0u);
		KUNIT_EXPECT_EQ(test, chip->total_read_strings, 1u);
		return;
	}
	KUNIT_EXPECT_STREQ(test, buf, "-1234567\n");
	KUNIT_EXPECT_EQ(test, chip->reads[desc->type][desc->attr][channel], 1u);
	KUNIT_EXPECT_EQ(test, chip->total_reads, 1u);
	KUNIT_EXPECT_EQ(test, chip->total_read_strings, 0u);

	snprintf(expected, sizeof(expected), "%d\n", 4321 + channel);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, name, expected),
			(int)strlen(expected));
	KUNIT_EXPECT_EQ(test, chip->writes[desc->type][desc->attr][channel], 1u);
	KUNIT_EXPECT_EQ(test, chip->total_writes, 1u);
	KUNIT_EXPECT_EQ(test, chip->value[desc->type][desc->attr][channel],
			4321L + channel);
	KUNIT_EXPECT_EQ(test, chip->bad_calls, 0u);
}

static void energy64_values_are_printed_with_64_bits(struct kunit *test)
{
#ifdef HWMON_TEST_HAVE_ENERGY64
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;
	char buf[BUF_SIZE];

	hwmon_fake_chip_set_channels(chip, hwmon_energy64, 3, HWMON_E_INPUT);
	chip->value[hwmon_energy64][hwmon_energy_input][0] = 0x123456789abLL;
	chip->value[hwmon_energy64][hwmon_energy_input][1] = S64_MAX;
	chip->value[hwmon_energy64][hwmon_energy_input][2] = -5000000000LL;
	hwdev = hwmon_test_register_chip(test, chip, "energy64");

	KUNIT_EXPECT_GT(test, hwmon_sysfs_read(test, hwdev, "energy1_input",
					       buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "1250999896491\n");
	KUNIT_EXPECT_GT(test, hwmon_sysfs_read(test, hwdev, "energy2_input",
					       buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "9223372036854775807\n");
	KUNIT_EXPECT_GT(test, hwmon_sysfs_read(test, hwdev, "energy3_input",
					       buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "-5000000000\n");
	KUNIT_EXPECT_EQ(test, chip->reads[hwmon_energy64][hwmon_energy_input][2],
			1u);
	KUNIT_EXPECT_EQ(test, chip->total_reads, 3u);
#else
	kunit_skip(test, "the tree's <linux/hwmon.h> has no hwmon_energy64 (6.1)");
#endif
}

static void energy64_label_is_read_with_read_string(struct kunit *test)
{
#ifdef HWMON_TEST_HAVE_ENERGY64
	struct hwmon_fake_chip *chip;
	struct device *hwdev;
	char buf[BUF_SIZE];

	if (hwmon_test_core_is_stock(test))
		kunit_skip(test,
			   "the stock 6.12 core reads energyN_label of energy64 channels with read() and prints a number (intended difference)");
	chip = hwmon_fake_chip_new(test);
	hwmon_fake_chip_set_channels(chip, hwmon_energy64, 2,
				     HWMON_E_INPUT | HWMON_E_LABEL);
	chip->label[hwmon_energy64][1] = "Package";
	hwdev = hwmon_test_register_chip(test, chip, "energy64");

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, hwdev, "energy2_label", buf,
					       sizeof(buf)), 8);
	KUNIT_EXPECT_STREQ(test, buf, "Package\n");
	KUNIT_EXPECT_EQ(test,
			chip->read_strings[hwmon_energy64][hwmon_energy_label][1],
			1u);
	KUNIT_EXPECT_EQ(test, chip->total_reads, 0u);
	/* without read_string() the label cannot be registered */
	chip = hwmon_fake_chip_new(test);
	hwmon_fake_chip_set_channels(chip, hwmon_energy64, 1, HWMON_E_LABEL);
	chip->missing_ops |= HWMON_FAKE_NO_READ_STRING;
	KUNIT_EXPECT_EQ(test,
			PTR_ERR(hwmon_test_register_info(test,
							 hwmon_test_parent(test, NULL),
							 "energy64", chip,
							 hwmon_fake_chip_info(chip),
							 NULL)),
			-EINVAL);
#else
	kunit_skip(test, "the tree's <linux/hwmon.h> has no hwmon_energy64 (6.1)");
#endif
}

static struct kunit_case hwmon_read_cases[] = {
	KUNIT_CASE(read_prints_the_value_as_a_decimal_line),
	KUNIT_CASE(read_prints_a_negative_value),
	KUNIT_CASE(read_prints_zero),
	KUNIT_CASE(read_prints_long_max),
	KUNIT_CASE(read_prints_long_min),
	KUNIT_CASE(read_calls_the_driver_every_time),
	KUNIT_CASE(read_passes_type_attribute_and_channel),
	KUNIT_CASE(read_of_in0_passes_channel_0),
	KUNIT_CASE(read_passes_the_hwmon_device),
	KUNIT_CASE(each_device_reads_from_its_own_driver),
	KUNIT_CASE(read_error_eio_reaches_the_reader),
	KUNIT_CASE(read_error_enodata_reaches_the_reader),
	KUNIT_CASE(read_error_of_one_attribute_leaves_the_others_readable),
	KUNIT_CASE(label_is_read_with_read_string_and_ends_with_a_newline),
	KUNIT_CASE(label_of_in0_passes_channel_0),
	KUNIT_CASE(label_is_printed_verbatim),
	KUNIT_CASE(label_with_its_own_newline_gets_a_second_one),
	KUNIT_CASE(empty_label_reads_as_a_newline),
	KUNIT_CASE(read_string_error_reaches_the_reader),
	KUNIT_CASE_PARAM(each_attribute_file_reaches_its_callbacks_with_its_channel,
			 hwmon_attr_file_gen),
	KUNIT_CASE(energy64_values_are_printed_with_64_bits),
	KUNIT_CASE(energy64_label_is_read_with_read_string),
	{}
};

static struct kunit_suite hwmon_read_suite = {
	.name = "hwmon_read",
	.test_cases = hwmon_read_cases,
};

/* hwmon_write: writing a file parses a base 10 long and calls write() */

static struct read_fixture *writable_chip(struct kunit *test)
{
	struct read_fixture *f = temp_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_max][0] = 77;
	return f;
}

static void expect_write(struct kunit *test, struct read_fixture *f,
			 const char *str, long expected)
{
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp1_max", str),
			(int)strlen(str));
	KUNIT_EXPECT_EQ(test, f->chip->writes[hwmon_temp][hwmon_temp_max][0], 1u);
	KUNIT_EXPECT_EQ(test, f->chip->value[hwmon_temp][hwmon_temp_max][0],
			expected);
}

static void expect_rejected(struct kunit *test, struct read_fixture *f,
			    const char *str, int err)
{
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp1_max", str),
			err);
	KUNIT_EXPECT_EQ(test, f->chip->total_writes, 0u);
	KUNIT_EXPECT_EQ(test, f->chip->value[hwmon_temp][hwmon_temp_max][0], 77L);
}

static void write_passes_the_parsed_value(struct kunit *test)
{
	expect_write(test, writable_chip(test), "85000\n", 85000);
}

static void write_accepts_a_value_without_newline(struct kunit *test)
{
	expect_write(test, writable_chip(test), "85000", 85000);
}

static void write_accepts_a_negative_value(struct kunit *test)
{
	expect_write(test, writable_chip(test), "-273150\n", -273150);
}

static void write_accepts_a_plus_sign(struct kunit *test)
{
	expect_write(test, writable_chip(test), "+42\n", 42);
}

static void write_reads_leading_zeros_as_decimal(struct kunit *test)
{
	expect_write(test, writable_chip(test), "010\n", 10);
}

static void write_accepts_long_max(struct kunit *test)
{
	expect_write(test, writable_chip(test), "9223372036854775807\n", LONG_MAX);
}

static void write_accepts_long_min(struct kunit *test)
{
	expect_write(test, writable_chip(test), "-9223372036854775808\n",
		     LONG_MIN);
}

static void write_passes_type_attribute_and_channel(struct kunit *test)
{
	struct read_fixture *f = writable_chip(test);

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp3_max", "5"),
			1);
	KUNIT_EXPECT_EQ(test, f->chip->writes[hwmon_temp][hwmon_temp_max][2], 1u);
	KUNIT_EXPECT_EQ(test, f->chip->total_writes, 1u);
	KUNIT_EXPECT_EQ(test, f->chip->value[hwmon_temp][hwmon_temp_max][2], 5L);
	KUNIT_EXPECT_PTR_EQ(test, f->chip->last_dev, f->hwdev);
}

static void written_value_reads_back(struct kunit *test)
{
	struct read_fixture *f = writable_chip(test);

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp2_max",
						"-12\n"), 4);
	expect_read(test, f, "temp2_max", "-12\n");
}

static void write_rejects_a_word(struct kunit *test)
{
	expect_rejected(test, writable_chip(test), "hot\n", -EINVAL);
}

static void write_rejects_hexadecimal(struct kunit *test)
{
	expect_rejected(test, writable_chip(test), "0x10\n", -EINVAL);
}

static void write_rejects_trailing_garbage(struct kunit *test)
{
	expect_rejected(test, writable_chip(test), "12abc\n", -EINVAL);
}

static void write_rejects_a_leading_space(struct kunit *test)
{
	expect_rejected(test, writable_chip(test), " 12\n", -EINVAL);
}

static void write_rejects_a_trailing_space(struct kunit *test)
{
	expect_rejected(test, writable_chip(test), "12 ", -EINVAL);
}

static void write_rejects_two_newlines(struct kunit *test)
{
	expect_rejected(test, writable_chip(test), "12\n\n", -EINVAL);
}

static void write_accepts_minus_zero(struct kunit *test)
{
	expect_write(test, writable_chip(test), "-0\n", 0);
}

static void write_rejects_a_decimal_point(struct kunit *test)
{
	expect_rejected(test, writable_chip(test), "1.5\n", -EINVAL);
}

static void write_rejects_a_lone_newline(struct kunit *test)
{
	expect_rejected(test, writable_chip(test), "\n", -EINVAL);
}

static void write_rejects_a_lone_minus(struct kunit *test)
{
	expect_rejected(test, writable_chip(test), "-\n", -EINVAL);
}

static void write_rejects_a_value_above_long_max(struct kunit *test)
{
	expect_rejected(test, writable_chip(test), "9223372036854775808\n",
			-ERANGE);
}

static void write_rejects_a_value_below_long_min(struct kunit *test)
{
	expect_rejected(test, writable_chip(test), "-9223372036854775809\n",
			-ERANGE);
}

static void write_error_eio_reaches_the_writer(struct kunit *test)
{
	struct read_fixture *f = writable_chip(test);

	f->chip->write_error[hwmon_temp][hwmon_temp_max] = -EIO;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp1_max", "1"),
			-EIO);
	KUNIT_EXPECT_EQ(test, f->chip->writes[hwmon_temp][hwmon_temp_max][0], 1u);
}

static void write_error_enodata_reaches_the_writer(struct kunit *test)
{
	struct read_fixture *f = writable_chip(test);

	f->chip->write_error[hwmon_temp][hwmon_temp_max] = -ENODATA;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp1_max", "1"),
			-ENODATA);
}

static void write_does_not_call_read(struct kunit *test)
{
	struct read_fixture *f = writable_chip(test);

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp1_max", "1"),
			1);
	KUNIT_EXPECT_EQ(test, f->chip->total_reads, 0u);
	KUNIT_EXPECT_EQ(test, f->chip->total_read_strings, 0u);
}

static struct kunit_case hwmon_write_cases[] = {
	KUNIT_CASE(write_passes_the_parsed_value),
	KUNIT_CASE(write_accepts_a_value_without_newline),
	KUNIT_CASE(write_accepts_a_negative_value),
	KUNIT_CASE(write_accepts_a_plus_sign),
	KUNIT_CASE(write_reads_leading_zeros_as_decimal),
	KUNIT_CASE(write_accepts_long_max),
	KUNIT_CASE(write_accepts_long_min),
	KUNIT_CASE(write_passes_type_attribute_and_channel),
	KUNIT_CASE(written_value_reads_back),
	KUNIT_CASE(write_rejects_a_word),
	KUNIT_CASE(write_rejects_hexadecimal),
	KUNIT_CASE(write_rejects_trailing_garbage),
	KUNIT_CASE(write_rejects_a_leading_space),
	KUNIT_CASE(write_rejects_a_trailing_space),
	KUNIT_CASE(write_rejects_two_newlines),
	KUNIT_CASE(write_accepts_minus_zero),
	KUNIT_CASE(write_rejects_a_decimal_point),
	KUNIT_CASE(write_rejects_a_lone_newline),
	KUNIT_CASE(write_rejects_a_lone_minus),
	KUNIT_CASE(write_rejects_a_value_above_long_max),
	KUNIT_CASE(write_rejects_a_value_below_long_min),
	KUNIT_CASE(write_error_eio_reaches_the_writer),
	KUNIT_CASE(write_error_enodata_reaches_the_writer),
	KUNIT_CASE(write_does_not_call_read),
	{}
};

static struct kunit_suite hwmon_write_suite = {
	.name = "hwmon_write",
	.test_cases = hwmon_write_cases,
};

kunit_test_suites(&hwmon_names_suite, &hwmon_visibility_suite,
		  &hwmon_read_suite, &hwmon_write_suite);

MODULE_DESCRIPTION("KUnit suites for the hwmon core");
MODULE_LICENSE("GPL");
