// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite hwmon_read: reading an attribute file calls the driver's
 * read() or read_string() and prints what it returns.
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

/* hwmon_read: reading a file calls read() or read_string() and prints */

static void read_prints_the_value_as_a_decimal_line(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = 25000;
	hwmon_test_expect_read(test, f, "temp1_input", "25000\n");
}

static void read_prints_a_negative_value(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = -40500;
	hwmon_test_expect_read(test, f, "temp1_input", "-40500\n");
}

static void read_prints_zero(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = 0;
	hwmon_test_expect_read(test, f, "temp1_input", "0\n");
}

static void read_prints_long_max(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = LONG_MAX;
	hwmon_test_expect_read(test, f, "temp1_input", "9223372036854775807\n");
}

static void read_prints_long_min(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = LONG_MIN;
	hwmon_test_expect_read(test, f, "temp1_input", "-9223372036854775808\n");
}

static void read_calls_the_driver_every_time(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = 1;
	hwmon_test_expect_read(test, f, "temp1_input", "1\n");
	f->chip->value[hwmon_temp][hwmon_temp_input][0] = 2;
	hwmon_test_expect_read(test, f, "temp1_input", "2\n");
	KUNIT_EXPECT_EQ(test, f->chip->reads[hwmon_temp][hwmon_temp_input][0], 2u);
}

static void read_passes_type_attribute_and_channel(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_max][2] = 85000;
	hwmon_test_expect_read(test, f, "temp3_max", "85000\n");
	KUNIT_EXPECT_EQ(test, f->chip->reads[hwmon_temp][hwmon_temp_max][2], 1u);
	KUNIT_EXPECT_EQ(test, f->chip->total_reads, 1u);
	KUNIT_EXPECT_EQ(test, f->chip->bad_calls, 0u);
}

static void read_of_in0_passes_channel_0(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->value[hwmon_in][hwmon_in_input][0] = 3300;
	hwmon_test_expect_read(test, f, "in0_input", "3300\n");
	KUNIT_EXPECT_EQ(test, f->chip->reads[hwmon_in][hwmon_in_input][0], 1u);
	KUNIT_EXPECT_EQ(test, f->chip->total_reads, 1u);
}

static void read_passes_the_hwmon_device(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][0] = 7;
	hwmon_test_expect_read(test, f, "temp1_input", "7\n");
	KUNIT_EXPECT_PTR_EQ(test, f->chip->last_dev, f->hwdev);
}

static void each_device_reads_from_its_own_driver(struct kunit *test)
{
	struct hwmon_test_rw_fixture *a = hwmon_test_rw_chip(test);
	struct hwmon_test_rw_fixture *b = hwmon_test_rw_chip(test);

	a->chip->value[hwmon_temp][hwmon_temp_input][0] = 111;
	b->chip->value[hwmon_temp][hwmon_temp_input][0] = 222;
	hwmon_test_expect_read(test, b, "temp1_input", "222\n");
	hwmon_test_expect_read(test, a, "temp1_input", "111\n");
	KUNIT_EXPECT_EQ(test, a->chip->total_reads, 1u);
	KUNIT_EXPECT_EQ(test, b->chip->total_reads, 1u);
	KUNIT_EXPECT_PTR_EQ(test, a->chip->last_dev, a->hwdev);
	KUNIT_EXPECT_PTR_EQ(test, b->chip->last_dev, b->hwdev);
}

static void read_error_eio_reaches_the_reader(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->read_error[hwmon_temp][hwmon_temp_input] = -EIO;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, f->hwdev, "temp1_input",
					       f->buf, sizeof(f->buf)), -EIO);
	KUNIT_EXPECT_EQ(test, f->chip->reads[hwmon_temp][hwmon_temp_input][0], 1u);
}

static void read_error_enodata_reaches_the_reader(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->read_error[hwmon_temp][hwmon_temp_input] = -ENODATA;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, f->hwdev, "temp1_input",
					       f->buf, sizeof(f->buf)), -ENODATA);
}

static void read_error_of_one_attribute_leaves_the_others_readable(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->read_error[hwmon_temp][hwmon_temp_max] = -EIO;
	f->chip->value[hwmon_temp][hwmon_temp_input][1] = 30000;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, f->hwdev, "temp2_max",
					       f->buf, sizeof(f->buf)), -EIO);
	hwmon_test_expect_read(test, f, "temp2_input", "30000\n");
}

static void label_is_read_with_read_string_and_ends_with_a_newline(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->label[hwmon_temp][1] = "CPU";
	hwmon_test_expect_read(test, f, "temp2_label", "CPU\n");
	KUNIT_EXPECT_EQ(test, f->chip->read_strings[hwmon_temp][hwmon_temp_label][1],
			1u);
	KUNIT_EXPECT_EQ(test, f->chip->total_reads, 0u);
}

static void label_of_in0_passes_channel_0(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->label[hwmon_in][0] = "Vcore";
	hwmon_test_expect_read(test, f, "in0_label", "Vcore\n");
	KUNIT_EXPECT_EQ(test, f->chip->read_strings[hwmon_in][hwmon_in_label][0],
			1u);
}

static void label_is_printed_verbatim(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->label[hwmon_temp][0] = "Package id 0: 100% \"hot\"";
	hwmon_test_expect_read(test, f, "temp1_label", "Package id 0: 100% \"hot\"\n");
}

static void label_with_its_own_newline_gets_a_second_one(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->label[hwmon_temp][0] = "GPU\n";
	hwmon_test_expect_read(test, f, "temp1_label", "GPU\n\n");
}

static void empty_label_reads_as_a_newline(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->label[hwmon_temp][0] = "";
	hwmon_test_expect_read(test, f, "temp1_label", "\n");
}

static void read_string_error_reaches_the_reader(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->read_error[hwmon_temp][hwmon_temp_label] = -ENODATA;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, f->hwdev, "temp1_label",
					       f->buf, sizeof(f->buf)), -ENODATA);
	KUNIT_EXPECT_EQ(test, f->chip->total_read_strings, 1u);
}

static void read_is_traced_with_the_index_of_the_file_name(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);
	struct hwmon_test_trace *trace = hwmon_test_trace_attach(test);

	f->chip->value[hwmon_temp][hwmon_temp_input][1] = 25000;
	hwmon_test_expect_read(test, f, "temp2_input", "25000\n");
	KUNIT_EXPECT_EQ(test, trace->show.count, 1u);
	KUNIT_EXPECT_EQ(test, trace->show.index, 2);
	KUNIT_EXPECT_STREQ(test, trace->show.attr_name, "temp2_input");
	KUNIT_EXPECT_EQ(test, trace->show.val, 25000LL);

	f->chip->value[hwmon_in][hwmon_in_input][1] = -7;
	hwmon_test_expect_read(test, f, "in1_input", "-7\n");
	KUNIT_EXPECT_EQ(test, trace->show.count, 2u);
	KUNIT_EXPECT_EQ(test, trace->show.index, 1);
	KUNIT_EXPECT_STREQ(test, trace->show.attr_name, "in1_input");
	KUNIT_EXPECT_EQ(test, trace->show.val, -7LL);
	KUNIT_EXPECT_EQ(test, trace->show_string.count, 0u);
	KUNIT_EXPECT_EQ(test, trace->store.count, 0u);
}

/* A chip whose one attribute, update_interval, reads 500. */
static struct device *register_update_interval(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);

	hwmon_fake_chip_set_channels(chip, hwmon_chip, 1, HWMON_C_UPDATE_INTERVAL);
	chip->value[hwmon_chip][hwmon_chip_update_interval][0] = 500;
	return hwmon_test_register_chip(test, chip, "chip");
}

/*
 * Chip attribute files carry no index; the events give their channel (0)
 * plus 1, as for every type but in and intrusion.
 */
static void chip_attribute_read_is_traced_with_index_1(struct kunit *test)
{
	struct device *hwdev = register_update_interval(test);
	struct hwmon_test_trace *trace = hwmon_test_trace_attach(test);

	hwmon_test_expect_attr(test, hwdev, "update_interval", "500\n");
	KUNIT_EXPECT_EQ(test, trace->show.count, 1u);
	KUNIT_EXPECT_EQ(test, trace->show.index, 1);
	KUNIT_EXPECT_EQ(test, trace->show.val, 500LL);
}

static void chip_attribute_read_is_traced_with_its_file_name(struct kunit *test)
{
	struct hwmon_test_trace *trace;
	struct device *hwdev;

	if (hwmon_test_core_is_stock(test))
		kunit_skip(test,
			   "the stock cores trace chip attributes with an empty name (intended difference)");
	hwdev = register_update_interval(test);
	trace = hwmon_test_trace_attach(test);

	hwmon_test_expect_attr(test, hwdev, "update_interval", "500\n");
	KUNIT_EXPECT_EQ(test, trace->show.count, 1u);
	KUNIT_EXPECT_STREQ(test, trace->show.attr_name, "update_interval");
}

static void label_read_is_traced_with_the_index_and_the_string(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);
	struct hwmon_test_trace *trace = hwmon_test_trace_attach(test);

	f->chip->label[hwmon_temp][2] = "SoC";
	hwmon_test_expect_read(test, f, "temp3_label", "SoC\n");
	KUNIT_EXPECT_EQ(test, trace->show_string.count, 1u);
	KUNIT_EXPECT_EQ(test, trace->show_string.index, 3);
	KUNIT_EXPECT_STREQ(test, trace->show_string.attr_name, "temp3_label");
	KUNIT_EXPECT_STREQ(test, trace->show_string.s, "SoC");
	KUNIT_EXPECT_EQ(test, trace->show.count, 0u);
}

static void failed_read_is_not_traced(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);
	struct hwmon_test_trace *trace = hwmon_test_trace_attach(test);

	f->chip->read_error[hwmon_temp][hwmon_temp_input] = -EIO;
	f->chip->read_error[hwmon_temp][hwmon_temp_label] = -ENODATA;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, f->hwdev, "temp1_input",
					       f->buf, sizeof(f->buf)), -EIO);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, f->hwdev, "temp1_label",
					       f->buf, sizeof(f->buf)), -ENODATA);
	KUNIT_EXPECT_EQ(test, trace->show.count, 0u);
	KUNIT_EXPECT_EQ(test, trace->show_string.count, 0u);
}

static void each_attribute_file_reaches_its_callbacks_with_its_channel(struct kunit *test)
{
	const struct hwmon_fake_attr *desc = test->param_value;
	int channel = desc->type == hwmon_chip ? 0 : 1;
	struct hwmon_fake_chip *chip;
	const char *name;
	struct device *hwdev;
	char buf[HWMON_TEST_BUF_SIZE];
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
	char buf[HWMON_TEST_BUF_SIZE];

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
	char buf[HWMON_TEST_BUF_SIZE];

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
	KUNIT_CASE(read_is_traced_with_the_index_of_the_file_name),
	KUNIT_CASE(chip_attribute_read_is_traced_with_index_1),
	KUNIT_CASE(chip_attribute_read_is_traced_with_its_file_name),
	KUNIT_CASE(label_read_is_traced_with_the_index_and_the_string),
	KUNIT_CASE(failed_read_is_not_traced),
	KUNIT_CASE_PARAM(each_attribute_file_reaches_its_callbacks_with_its_channel,
			 hwmon_test_attr_file_gen),
	KUNIT_CASE(energy64_values_are_printed_with_64_bits),
	KUNIT_CASE(energy64_label_is_read_with_read_string),
	{}
};

static struct kunit_suite hwmon_read_suite = {
	.name = "hwmon_read",
	.test_cases = hwmon_read_cases,
};

kunit_test_suites(&hwmon_read_suite);
