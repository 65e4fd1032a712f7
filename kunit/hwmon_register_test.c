// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite hwmon_register: hwmon_device_register_with_info() and
 * hwmon_device_unregister(): argument checks, the name attribute, driver
 * data and parent, extra groups and device ids.
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

static char *saved_name(struct kunit *test, struct device *dev)
{
	char *name = kunit_kzalloc(test, 32, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, name);
	strscpy(name, dev_name(dev), 32);
	return name;
}

/* hwmon_register: hwmon_device_register_with_info() */

static void registered_device_is_a_hwmon_class_device(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "fake");
	unsigned int id;

	KUNIT_EXPECT_STREQ(test, hwdev->class->name, "hwmon");
	KUNIT_EXPECT_EQ(test, strncmp(dev_name(hwdev), "hwmon", 5), 0);
	KUNIT_EXPECT_EQ(test, kstrtouint(dev_name(hwdev) + 5, 10, &id), 0);
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "uevent"));
}

static void registered_device_sits_below_its_parent(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;
	char path[HWMON_SYSFS_PATH_MAX];

	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);

	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);
	snprintf(path, sizeof(path), "%s/hwmon/%s/temp1_input",
		 hwmon_sysfs_kobj_path(test, parent), dev_name(hwdev));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_exists(test, path));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "device"));
}

static void driver_data_is_attached_to_the_hwmon_device(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "fake");

	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(hwdev), (void *)chip);
}

static void name_attribute_reads_the_name(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "fake_chip");

	hwmon_test_expect_attr(test, hwdev, "name", "fake_chip\n");
}

static void name_attribute_is_read_only(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "fake");

	hwmon_test_expect_mode(test, hwdev, "name", 0444);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "name", "x"),
			-EACCES);
}

struct bad_name {
	const char *name;
	const char *desc;
};

static const struct bad_name bad_names[] = {
	{ "bad-name", "dash" },
	{ "bad*name", "asterisk" },
	{ "bad name", "space" },
	{ "bad\tname", "tab" },
	{ "bad\nname", "newline" },
};

static void bad_name_desc(const struct bad_name *bad, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", bad->desc);
}

KUNIT_ARRAY_PARAM(bad_name, bad_names, bad_name_desc);

static void name_with_a_bad_character_warns_but_registers(struct kunit *test)
{
	const struct bad_name *bad = test->param_value;
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	u64 mark = hwmon_test_log_mark();
	struct device *hwdev = hwmon_test_register_chip(test, chip, bad->name);
	char expected[32];

	KUNIT_EXPECT_TRUE(test, hwmon_test_log_has(test, mark, HWMON_TEST_NAME_WARNING));
	snprintf(expected, sizeof(expected), "%s\n", bad->name);
	hwmon_test_expect_attr(test, hwdev, "name", expected);
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
}

static void empty_name_warns_but_registers(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	u64 mark = hwmon_test_log_mark();
	struct device *hwdev = hwmon_test_register_chip(test, chip, "");

	KUNIT_EXPECT_TRUE(test, hwmon_test_log_has(test, mark, HWMON_TEST_NAME_WARNING));
	hwmon_test_expect_attr(test, hwdev, "name", "\n");
}

static void valid_name_registers_without_a_warning(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	u64 mark = hwmon_test_log_mark();
	struct device *hwdev = hwmon_test_register_chip(test, chip, "fake_1");

	KUNIT_EXPECT_FALSE(test, hwmon_test_log_has(test, mark, HWMON_TEST_NAME_WARNING));
	hwmon_test_expect_attr(test, hwdev, "name", "fake_1\n");
}

static void null_name_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, NULL, chip,
							    hwmon_fake_chip_info(chip), NULL),
				   -EINVAL);
	KUNIT_EXPECT_EQ(test, chip->total_visible_calls, 0u);
}

static void null_parent_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);

	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, NULL, "fake", chip,
							    hwmon_fake_chip_info(chip), NULL),
				   -EINVAL);
}

static void null_ops_are_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct hwmon_chip_info info = *hwmon_fake_chip_info(chip);

	info.ops = NULL;
	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "fake", chip, &info,
							    NULL),
				   -EINVAL);
}

static void null_channel_list_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct hwmon_chip_info info = *hwmon_fake_chip_info(chip);

	info.info = NULL;
	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "fake", chip, &info,
							    NULL),
				   -EINVAL);
}

static void missing_is_visible_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	chip->missing_ops |= HWMON_FAKE_NO_IS_VISIBLE;
	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "fake", chip,
							    hwmon_fake_chip_info(chip), NULL),
				   -EINVAL);
}

static void readable_attribute_without_read_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	chip->missing_ops |= HWMON_FAKE_NO_READ;
	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "fake", chip,
							    hwmon_fake_chip_info(chip), NULL),
				   -EINVAL);
}

static void label_without_read_string_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1,
				     HWMON_T_INPUT | HWMON_T_LABEL);
	chip->missing_ops |= HWMON_FAKE_NO_READ_STRING;
	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "fake", chip,
							    hwmon_fake_chip_info(chip), NULL),
				   -EINVAL);
}

static void writable_attribute_without_write_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1,
				     HWMON_T_INPUT | HWMON_T_MAX);
	chip->missing_ops |= HWMON_FAKE_NO_WRITE;
	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "fake", chip,
							    hwmon_fake_chip_info(chip), NULL),
				   -EINVAL);
}

static void write_only_attribute_needs_no_read(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1, HWMON_T_RESET_HISTORY);
	chip->missing_ops |= HWMON_FAKE_NO_READ;
	chip->missing_ops |= HWMON_FAKE_NO_READ_STRING;
	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev,
						"temp1_reset_history", "1"), 1);
	KUNIT_EXPECT_EQ(test, chip->total_writes, 1u);
}

static void read_only_attribute_needs_no_write(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	chip->missing_ops |= HWMON_FAKE_NO_WRITE;
	chip->missing_ops |= HWMON_FAKE_NO_READ_STRING;
	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_test_expect_attr(test, hwdev, "temp1_input", "1010\n");
}

static void label_needs_read_string_but_no_read(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1, HWMON_T_LABEL);
	chip->missing_ops |= HWMON_FAKE_NO_READ;
	chip->missing_ops |= HWMON_FAKE_NO_WRITE;
	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_test_expect_attr(test, hwdev, "temp1_label", "fake temp\n");
}

static void hidden_attribute_needs_no_callback(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1,
				     HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_LABEL);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_input, -1, 0);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_max, -1, 0);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_label, -1, 0);
	chip->missing_ops |= HWMON_FAKE_NO_READ;
	chip->missing_ops |= HWMON_FAKE_NO_READ_STRING;
	chip->missing_ops |= HWMON_FAKE_NO_WRITE;
	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 0);
}

static void rejected_registration_leaves_no_device(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = hwmon_test_count_class_devices(test);
	char path[HWMON_SYSFS_PATH_MAX];

	chip->missing_ops |= HWMON_FAKE_NO_READ;
	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "fake", chip,
							    hwmon_fake_chip_info(chip), NULL),
				   -EINVAL);
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
	snprintf(path, sizeof(path), "%s/hwmon",
		 hwmon_sysfs_kobj_path(test, parent));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, path));
}

static void chip_without_channels_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "empty", chip,
							    hwmon_fake_chip_info(chip), NULL),
				   -EINVAL);
	KUNIT_EXPECT_EQ(test, chip->total_visible_calls, 0u);
}

static umode_t read_only(const void *drvdata, enum hwmon_sensor_types type,
			 u32 attr, int channel)
{
	return 0444;
}

static int read_zero(struct device *dev, enum hwmon_sensor_types type,
		     u32 attr, int channel, long *val)
{
	*val = 0;
	return 0;
}

static const struct hwmon_ops read_only_ops = {
	.is_visible = read_only,
	.read = read_zero,
};

/* Registers one channel of @type with @config; must fail with -EINVAL. */
static void expect_channel_rejected(struct kunit *test,
				    enum hwmon_sensor_types type, u32 config)
{
	const u32 cfg[] = { config, 0 };
	const struct hwmon_channel_info channel = {
		.type = type, .config = cfg,
	};
	const struct hwmon_channel_info *list[] = { &channel, NULL };
	const struct hwmon_chip_info info = {
		.ops = &read_only_ops, .info = list,
	};
	int before = hwmon_test_count_class_devices(test);

	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, hwmon_test_parent(test, NULL),
							    "bad", NULL, &info, NULL),
				   -EINVAL);
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
}

static void unknown_sensor_type_is_rejected(struct kunit *test)
{
	expect_channel_rejected(test, hwmon_max, BIT(0));
}

/*
 * An attribute bit above the last attribute of the type: stock 6.1 refuses
 * the registration (-EINVAL); stock 6.12 leaves the bit out and registers
 * the rest. The 6.12 header is the one that defines HWMON_C_PEC.
 */
static void attribute_bit_the_type_does_not_have(struct kunit *test)
{
#ifdef HWMON_C_PEC
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1,
				     HWMON_T_INPUT | BIT(31));
	hwdev = hwmon_test_register_info(test, hwmon_test_parent(test, NULL),
					 "bad", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 1);
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
#else
	expect_channel_rejected(test, hwmon_temp, HWMON_T_INPUT | BIT(31));
	expect_channel_rejected(test, hwmon_intrusion, BIT(31));
	expect_channel_rejected(test, hwmon_chip, BIT(31));
#endif
}

static void null_chip_info_is_rejected(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);

	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "nochip", NULL, NULL,
							    NULL),
				   -EINVAL);
}

static void null_chip_info_is_rejected_even_with_extra_groups(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = hwmon_test_count_class_devices(test);

	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "nochip", NULL, NULL,
							    hwmon_test_extra_groups),
				   -EINVAL);
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
}

static void extra_groups_appear_next_to_generated_attributes(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;
	char expected[64];

	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), hwmon_test_extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);

	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
	snprintf(expected, sizeof(expected), "extra of %s\n", dev_name(hwdev));
	hwmon_test_expect_attr(test, hwdev, "extra", expected);
	hwmon_test_expect_attr(test, hwdev, "other", "other\n");
	hwmon_test_expect_attr(test, hwdev, "name", "fake\n");
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 3);
}

static void devices_get_distinct_ids(struct kunit *test)
{
	struct device *a = hwmon_test_register_chip(test, hwmon_test_temp_input_chip(test), "a");
	struct device *b = hwmon_test_register_chip(test, hwmon_test_temp_input_chip(test), "b");

	KUNIT_EXPECT_STRNEQ(test, dev_name(a), dev_name(b));
	hwmon_test_expect_attr(test, a, "name", "a\n");
	hwmon_test_expect_attr(test, b, "name", "b\n");
}

static void freed_id_is_reused(struct kunit *test)
{
	struct device *a = hwmon_test_register_chip(test, hwmon_test_temp_input_chip(test), "a");
	struct device *b = hwmon_test_register_chip(test, hwmon_test_temp_input_chip(test), "b");
	struct device *c = hwmon_test_register_chip(test, hwmon_test_temp_input_chip(test), "c");
	char *b_name = saved_name(test, b);
	struct device *d;

	hwmon_test_unregister(test, b);
	d = hwmon_test_register_chip(test, hwmon_test_temp_input_chip(test), "d");

	KUNIT_EXPECT_STREQ(test, dev_name(d), b_name);
	KUNIT_EXPECT_STRNEQ(test, dev_name(d), dev_name(a));
	KUNIT_EXPECT_STRNEQ(test, dev_name(d), dev_name(c));
	hwmon_test_expect_attr(test, d, "name", "d\n");
}

static void rejected_registration_does_not_use_up_an_id(struct kunit *test)
{
	struct device *a = hwmon_test_register_chip(test, hwmon_test_temp_input_chip(test), "a");
	struct hwmon_fake_chip *bad = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	char *a_name = saved_name(test, a);
	struct device *b;

	hwmon_test_unregister(test, a);
	bad->missing_ops |= HWMON_FAKE_NO_READ;
	hwmon_test_expect_rejected(test,
				   hwmon_test_register_info(test, parent, "bad", bad,
							    hwmon_fake_chip_info(bad), NULL),
				   -EINVAL);
	b = hwmon_test_register_chip(test, hwmon_test_temp_input_chip(test), "b");
	KUNIT_EXPECT_STREQ(test, dev_name(b), a_name);
}

static void device_is_listed_in_the_hwmon_class_directory(struct kunit *test)
{
	struct device *hwdev =
		hwmon_test_register_chip(test, hwmon_test_temp_input_chip(test), "listed");
	struct hwmon_sysfs_entry *entries;
	int n, i, found = 0;

	n = hwmon_sysfs_list(test, "class/hwmon", &entries);
	KUNIT_ASSERT_GT(test, n, 0);
	for (i = 0; i < n; i++)
		if (!strcmp(entries[i].name, dev_name(hwdev))) {
			KUNIT_EXPECT_EQ(test, entries[i].type, (unsigned int)DT_LNK);
			found++;
		}
	KUNIT_EXPECT_EQ(test, found, 1);
}

static void unregister_leaves_other_devices_alone(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *a = hwmon_test_register_chip(test, hwmon_test_temp_input_chip(test), "a");
	struct device *b = hwmon_test_register_chip(test, chip, "b");

	chip->value[hwmon_temp][hwmon_temp_input][0] = 99;
	hwmon_test_unregister(test, a);
	hwmon_test_expect_attr(test, b, "name", "b\n");
	hwmon_test_expect_attr(test, b, "temp1_input", "99\n");
}

static void unregister_removes_the_device_and_its_files(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	const char *dir, *attr, *kobj;
	char glue[HWMON_SYSFS_PATH_MAX];
	int before = hwmon_test_count_class_devices(test);
	struct device *hwdev;

	hwdev = hwmon_test_register_info(test, parent, "gone", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	attr = hwmon_sysfs_dev_path(test, hwdev, "temp1_input");
	kobj = hwmon_sysfs_kobj_path(test, hwdev);
	snprintf(glue, sizeof(glue), "%s/hwmon",
		 hwmon_sysfs_kobj_path(test, parent));
	KUNIT_ASSERT_TRUE(test, hwmon_sysfs_exists(test, attr));
	KUNIT_ASSERT_TRUE(test, hwmon_sysfs_exists(test, kobj));
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before + 1);

	hwmon_test_unregister(test, hwdev);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, attr));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, kobj));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, glue));
	KUNIT_EXPECT_EQ(test, hwmon_test_count_class_devices(test), before);
}

static void file_open_across_unregister_no_longer_reaches_the_driver(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_test_temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "gone");
	struct file *file;
	char buf[HWMON_TEST_BUF_SIZE];
	loff_t pos = 0;

	file = hwmon_sysfs_open(test, hwmon_sysfs_dev_path(test, hwdev,
							   "temp1_input"),
				O_RDONLY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
	hwmon_test_unregister(test, hwdev);

	KUNIT_EXPECT_EQ(test, kernel_read(file, buf, sizeof(buf), &pos),
			(ssize_t)-ENODEV);
	KUNIT_EXPECT_EQ(test, chip->total_reads, 0u);
}

static struct kunit_case hwmon_register_cases[] = {
	KUNIT_CASE(registered_device_is_a_hwmon_class_device),
	KUNIT_CASE(registered_device_sits_below_its_parent),
	KUNIT_CASE(driver_data_is_attached_to_the_hwmon_device),
	KUNIT_CASE(name_attribute_reads_the_name),
	KUNIT_CASE(name_attribute_is_read_only),
	KUNIT_CASE_PARAM(name_with_a_bad_character_warns_but_registers,
			 bad_name_gen_params),
	KUNIT_CASE(empty_name_warns_but_registers),
	KUNIT_CASE(valid_name_registers_without_a_warning),
	KUNIT_CASE(null_name_is_rejected),
	KUNIT_CASE(null_parent_is_rejected),
	KUNIT_CASE(null_ops_are_rejected),
	KUNIT_CASE(null_channel_list_is_rejected),
	KUNIT_CASE(missing_is_visible_is_rejected),
	KUNIT_CASE(readable_attribute_without_read_is_rejected),
	KUNIT_CASE(label_without_read_string_is_rejected),
	KUNIT_CASE(writable_attribute_without_write_is_rejected),
	KUNIT_CASE(write_only_attribute_needs_no_read),
	KUNIT_CASE(read_only_attribute_needs_no_write),
	KUNIT_CASE(label_needs_read_string_but_no_read),
	KUNIT_CASE(hidden_attribute_needs_no_callback),
	KUNIT_CASE(rejected_registration_leaves_no_device),
	KUNIT_CASE(chip_without_channels_is_rejected),
	KUNIT_CASE(unknown_sensor_type_is_rejected),
	KUNIT_CASE(attribute_bit_the_type_does_not_have),
	KUNIT_CASE(null_chip_info_is_rejected),
	KUNIT_CASE(null_chip_info_is_rejected_even_with_extra_groups),
	KUNIT_CASE(extra_groups_appear_next_to_generated_attributes),
	KUNIT_CASE(devices_get_distinct_ids),
	KUNIT_CASE(freed_id_is_reused),
	KUNIT_CASE(rejected_registration_does_not_use_up_an_id),
	KUNIT_CASE(device_is_listed_in_the_hwmon_class_directory),
	KUNIT_CASE(unregister_leaves_other_devices_alone),
	KUNIT_CASE(unregister_removes_the_device_and_its_files),
	KUNIT_CASE(file_open_across_unregister_no_longer_reaches_the_driver),
	{}
};

static struct kunit_suite hwmon_register_suite = {
	.name = "hwmon_register",
	.test_cases = hwmon_register_cases,
};

kunit_test_suites(&hwmon_register_suite);
