// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite hwmon_write: writing an attribute file parses a base 10
 * long and calls the driver's write().
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

static struct hwmon_test_rw_fixture *writable_chip(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = hwmon_test_rw_chip(test);

	f->chip->value[hwmon_temp][hwmon_temp_max][0] = 77;
	return f;
}

static void expect_write(struct kunit *test, struct hwmon_test_rw_fixture *f,
			 const char *str, long expected)
{
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp1_max", str),
			(int)strlen(str));
	KUNIT_EXPECT_EQ(test, f->chip->writes[hwmon_temp][hwmon_temp_max][0], 1u);
	KUNIT_EXPECT_EQ(test, f->chip->value[hwmon_temp][hwmon_temp_max][0],
			expected);
}

static void expect_rejected(struct kunit *test, struct hwmon_test_rw_fixture *f,
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
	struct hwmon_test_rw_fixture *f = writable_chip(test);

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp3_max", "5"),
			1);
	KUNIT_EXPECT_EQ(test, f->chip->writes[hwmon_temp][hwmon_temp_max][2], 1u);
	KUNIT_EXPECT_EQ(test, f->chip->total_writes, 1u);
	KUNIT_EXPECT_EQ(test, f->chip->value[hwmon_temp][hwmon_temp_max][2], 5L);
	KUNIT_EXPECT_PTR_EQ(test, f->chip->last_dev, f->hwdev);
}

static void written_value_reads_back(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = writable_chip(test);

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp2_max",
						"-12\n"), 4);
	hwmon_test_expect_read(test, f, "temp2_max", "-12\n");
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
	struct hwmon_test_rw_fixture *f = writable_chip(test);

	f->chip->write_error[hwmon_temp][hwmon_temp_max] = -EIO;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp1_max", "1"),
			-EIO);
	KUNIT_EXPECT_EQ(test, f->chip->writes[hwmon_temp][hwmon_temp_max][0], 1u);
}

static void write_error_enodata_reaches_the_writer(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = writable_chip(test);

	f->chip->write_error[hwmon_temp][hwmon_temp_max] = -ENODATA;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp1_max", "1"),
			-ENODATA);
}

static void write_does_not_call_read(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = writable_chip(test);

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp1_max", "1"),
			1);
	KUNIT_EXPECT_EQ(test, f->chip->total_reads, 0u);
	KUNIT_EXPECT_EQ(test, f->chip->total_read_strings, 0u);
}

static void write_is_traced_with_the_index_name_and_value(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = writable_chip(test);
	struct hwmon_test_trace *trace = hwmon_test_trace_attach(test);

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp2_max",
						"-12\n"), 4);
	KUNIT_EXPECT_EQ(test, trace->store.count, 1u);
	KUNIT_EXPECT_EQ(test, trace->store.index, 2);
	KUNIT_EXPECT_STREQ(test, trace->store.attr_name, "temp2_max");
	KUNIT_EXPECT_EQ(test, trace->store.val, -12LL);
	KUNIT_EXPECT_EQ(test, trace->show.count, 0u);
}

static void failed_write_is_not_traced(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = writable_chip(test);
	struct hwmon_test_trace *trace = hwmon_test_trace_attach(test);

	f->chip->write_error[hwmon_temp][hwmon_temp_max] = -EIO;
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp1_max", "5"),
			-EIO);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, f->hwdev, "temp1_max", "x"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, trace->store.count, 0u);
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
	KUNIT_CASE(write_is_traced_with_the_index_name_and_value),
	KUNIT_CASE(failed_write_is_not_traced),
	{}
};

static struct kunit_suite hwmon_write_suite = {
	.name = "hwmon_write",
	.test_cases = hwmon_write_cases,
};

kunit_test_suites(&hwmon_write_suite);
