// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for hwmon_notify_event(), hwmon_sanitize_name() and
 * devm_hwmon_sanitize_name(), and the demo case that prints the sysfs
 * directory of the all-types fake chip.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/hwmon.h>
#include <linux/kernel.h>
#include <linux/poll.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "hwmon_fake_chip.h"
#include "hwmon_sysfs_util.h"

#define BUF_SIZE	128

/* hwmon_notify: what hwmon_notify_event() makes visible to user space */

static struct device *notify_chip(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);

	hwmon_fake_chip_set_channels(chip, hwmon_chip, 1, HWMON_C_ALARMS);
	hwmon_fake_chip_set_channels(chip, hwmon_temp, 2,
				     HWMON_T_INPUT | HWMON_T_MAX_ALARM);
	hwmon_fake_chip_set_channels(chip, hwmon_in, 1, HWMON_I_INPUT);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_max_alarm, 1, 0);
	return hwmon_test_register_chip(test, chip, "notify");
}

/*
 * Open an attribute file and read it once, as a poll()ing user does: from
 * then on poll() reports EPOLLPRI only after a sysfs_notify() on the file.
 */
static struct file *armed_file(struct kunit *test, struct device *hwdev,
			       const char *attr)
{
	struct file *file;
	char buf[BUF_SIZE];
	loff_t pos = 0;

	file = hwmon_sysfs_open(test, hwmon_sysfs_dev_path(test, hwdev, attr),
				O_RDONLY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
	KUNIT_ASSERT_GT(test, kernel_read(file, buf, sizeof(buf), &pos), 0);
	KUNIT_ASSERT_FALSE_MSG(test, vfs_poll(file, NULL) & EPOLLPRI,
			       "%s signalled before any event", attr);
	return file;
}

static bool woken(struct file *file)
{
	return vfs_poll(file, NULL) & EPOLLPRI;
}

static void notify_wakes_a_poll_on_the_attribute_file(struct kunit *test)
{
	struct device *hwdev = notify_chip(test);
	struct file *file = armed_file(test, hwdev, "temp1_input");

	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_temp,
						 hwmon_temp_input, 0), 0);
	KUNIT_EXPECT_TRUE(test, woken(file));
}

static void notify_does_not_wake_another_attribute(struct kunit *test)
{
	struct device *hwdev = notify_chip(test);
	struct file *input = armed_file(test, hwdev, "temp1_input");
	struct file *alarm = armed_file(test, hwdev, "temp1_max_alarm");

	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_temp,
						 hwmon_temp_max_alarm, 0), 0);
	KUNIT_EXPECT_TRUE(test, woken(alarm));
	KUNIT_EXPECT_FALSE(test, woken(input));
}

static void notify_wakes_the_file_of_the_given_channel(struct kunit *test)
{
	struct device *hwdev = notify_chip(test);
	struct file *first = armed_file(test, hwdev, "temp1_input");
	struct file *second = armed_file(test, hwdev, "temp2_input");

	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_temp,
						 hwmon_temp_input, 1), 0);
	KUNIT_EXPECT_TRUE(test, woken(second));
	KUNIT_EXPECT_FALSE(test, woken(first));
}

static void notify_on_in_channel_0_wakes_in0(struct kunit *test)
{
	struct device *hwdev = notify_chip(test);
	struct file *file = armed_file(test, hwdev, "in0_input");

	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_in,
						 hwmon_in_input, 0), 0);
	KUNIT_EXPECT_TRUE(test, woken(file));
}

static void notify_on_a_chip_attribute_wakes_the_file_without_index(struct kunit *test)
{
	struct device *hwdev = notify_chip(test);
	struct file *file = armed_file(test, hwdev, "alarms");

	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_chip,
						 hwmon_chip_alarms, 0), 0);
	KUNIT_EXPECT_TRUE(test, woken(file));
}

static void notify_sends_a_change_uevent_naming_the_attribute(struct kunit *test)
{
	struct socket *sock = hwmon_uevent_listen(test);
	struct device *hwdev = notify_chip(test);
	static const char *const keys[] = {
		"ACTION=change", "SUBSYSTEM=hwmon", "NAME=temp2_input", NULL
	};

	hwmon_uevent_flush(test, sock);

	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_temp,
						 hwmon_temp_input, 1), 0);
	KUNIT_EXPECT_EQ(test, hwmon_uevent_count(test, sock, hwdev, keys), 1);
}

static void notify_uevent_uses_the_index_base_of_the_type(struct kunit *test)
{
	struct socket *sock = hwmon_uevent_listen(test);
	struct device *hwdev = notify_chip(test);
	static const char *const keys[] = { "ACTION=change", "NAME=in0_input", NULL };

	hwmon_uevent_flush(test, sock);
	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_in,
						 hwmon_in_input, 0), 0);
	KUNIT_EXPECT_EQ(test, hwmon_uevent_count(test, sock, hwdev, keys), 1);
}

static void notify_uevent_of_a_chip_attribute_has_no_index(struct kunit *test)
{
	struct socket *sock = hwmon_uevent_listen(test);
	struct device *hwdev = notify_chip(test);
	static const char *const keys[] = { "ACTION=change", "NAME=alarms", NULL };

	hwmon_uevent_flush(test, sock);
	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_chip,
						 hwmon_chip_alarms, 0), 0);
	KUNIT_EXPECT_EQ(test, hwmon_uevent_count(test, sock, hwdev, keys), 1);
}

static void notify_sends_one_uevent_per_call(struct kunit *test)
{
	struct socket *sock = hwmon_uevent_listen(test);
	struct device *hwdev = notify_chip(test);
	static const char *const keys[] = { "ACTION=change", "NAME=temp1_input", NULL };

	hwmon_uevent_flush(test, sock);
	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_temp,
						 hwmon_temp_input, 0), 0);
	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_temp,
						 hwmon_temp_input, 0), 0);
	KUNIT_EXPECT_EQ(test, hwmon_uevent_count(test, sock, hwdev, keys), 2);
}

static void notify_on_a_hidden_attribute_still_succeeds(struct kunit *test)
{
	struct socket *sock = hwmon_uevent_listen(test);
	struct device *hwdev = notify_chip(test);
	static const char *const keys[] = { "ACTION=change", "NAME=temp2_max_alarm",
				     NULL };

	KUNIT_ASSERT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp2_max_alarm"));
	hwmon_uevent_flush(test, sock);
	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_temp,
						 hwmon_temp_max_alarm, 1), 0);
	KUNIT_EXPECT_EQ(test, hwmon_uevent_count(test, sock, hwdev, keys), 1);
}

static void notify_works_for_a_device_registered_with_groups(struct kunit *test)
{
	static const char *const keys[] = { "ACTION=change", "NAME=temp1_input",
					    NULL };
	struct socket *sock = hwmon_uevent_listen(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwdev = hwmon_test_register_groups(test, parent, "groups", NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_uevent_flush(test, sock);
	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_temp,
						 hwmon_temp_input, 0), 0);
	KUNIT_EXPECT_EQ(test, hwmon_uevent_count(test, sock, hwdev, keys), 1);
}

static void notify_rejects_an_unknown_type(struct kunit *test)
{
	struct socket *sock = hwmon_uevent_listen(test);
	struct device *hwdev = notify_chip(test);
	static const char *const keys[] = { "ACTION=change", NULL };

	hwmon_uevent_flush(test, sock);
	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_max, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, hwmon_uevent_count(test, sock, hwdev, keys), 0);
}

/* The last temperature attribute of the tree's header. */
#ifdef HWMON_T_BEEP
#define HWMON_TEST_TEMP_LAST	hwmon_temp_beep
#else
#define HWMON_TEST_TEMP_LAST	hwmon_temp_rated_max
#endif

static void notify_rejects_an_unknown_attribute(struct kunit *test)
{
	struct socket *sock = hwmon_uevent_listen(test);
	struct device *hwdev = notify_chip(test);
	static const char *const keys[] = { "ACTION=change", NULL };

	hwmon_uevent_flush(test, sock);
	KUNIT_EXPECT_EQ(test, hwmon_notify_event(hwdev, hwmon_temp,
						 HWMON_TEST_TEMP_LAST + 1, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, hwmon_uevent_count(test, sock, hwdev, keys), 0);
}

static struct kunit_case hwmon_notify_cases[] = {
	KUNIT_CASE(notify_wakes_a_poll_on_the_attribute_file),
	KUNIT_CASE(notify_does_not_wake_another_attribute),
	KUNIT_CASE(notify_wakes_the_file_of_the_given_channel),
	KUNIT_CASE(notify_on_in_channel_0_wakes_in0),
	KUNIT_CASE(notify_on_a_chip_attribute_wakes_the_file_without_index),
	KUNIT_CASE(notify_sends_a_change_uevent_naming_the_attribute),
	KUNIT_CASE(notify_uevent_uses_the_index_base_of_the_type),
	KUNIT_CASE(notify_uevent_of_a_chip_attribute_has_no_index),
	KUNIT_CASE(notify_sends_one_uevent_per_call),
	KUNIT_CASE(notify_on_a_hidden_attribute_still_succeeds),
	KUNIT_CASE(notify_works_for_a_device_registered_with_groups),
	KUNIT_CASE(notify_rejects_an_unknown_type),
	KUNIT_CASE(notify_rejects_an_unknown_attribute),
	{}
};

static struct kunit_suite hwmon_notify_suite = {
	.name = "hwmon_notify",
	.test_cases = hwmon_notify_cases,
};

/* hwmon_sanitize: hwmon_sanitize_name() and devm_hwmon_sanitize_name() */

struct bad_char {
	char ch;
	const char *desc;
};

static const struct bad_char bad_chars[] = {
	{ '-', "dash" },
	{ '*', "asterisk" },
	{ ' ', "space" },
	{ '\t', "tab" },
	{ '\n', "newline" },
};

static void bad_char_desc(const struct bad_char *bad, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", bad->desc);
}

KUNIT_ARRAY_PARAM(bad_char, bad_chars, bad_char_desc);

static void kfree_action(void *data)
{
	kfree(data);
}

static char *sanitized(struct kunit *test, const char *name)
{
	char *result = hwmon_sanitize_name(name);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, result);
	hwmon_test_defer(test, kfree_action, result);
	return result;
}

static void sanitize_replaces_each_bad_character_with_underscore(struct kunit *test)
{
	const struct bad_char *bad = test->param_value;
	char name[] = "lm?75";

	name[2] = bad->ch;
	KUNIT_EXPECT_STREQ(test, sanitized(test, name), "lm_75");
}

static void sanitize_replaces_every_bad_character(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, sanitized(test, "-a*b c\td\ne-"),
			   "_a_b_c_d_e_");
}

static void sanitize_keeps_a_valid_name(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, sanitized(test, "nct6775_isa.0290"),
			   "nct6775_isa.0290");
}

static void sanitize_returns_a_new_string(struct kunit *test)
{
	static const char name[] = "lm75";
	char *result = sanitized(test, name);

	KUNIT_EXPECT_PTR_NE(test, (const char *)result, (const char *)name);
	result[0] = 'x';
	KUNIT_EXPECT_STREQ(test, name, "lm75");
}

static void sanitize_leaves_its_argument_alone(struct kunit *test)
{
	static const char name[] = "i2c-1-48";

	KUNIT_EXPECT_STREQ(test, sanitized(test, name), "i2c_1_48");
	KUNIT_EXPECT_STREQ(test, name, "i2c-1-48");
}

static void sanitize_accepts_an_empty_name(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, sanitized(test, ""), "");
}

static void sanitize_of_null_fails_with_enomem(struct kunit *test)
{
	char *result;

	if (IS_ENABLED(CONFIG_HWMON_NEWER_API))
		kunit_skip(test,
			   "CONFIG_HWMON_NEWER_API: -EINVAL (hwmon_newer_api checks it)");
	result = hwmon_sanitize_name(NULL);

	KUNIT_EXPECT_TRUE(test, IS_ERR(result));
	if (IS_ERR(result))
		KUNIT_EXPECT_EQ(test, PTR_ERR(result), (long)-ENOMEM);
	else
		kfree(result);
}

static void devm_sanitize_replaces_bad_characters(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	static const char name[] = "acpi-thermal zone*0";
	char *result = devm_hwmon_sanitize_name(parent, name);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, result);
	KUNIT_EXPECT_STREQ(test, result, "acpi_thermal_zone_0");
	KUNIT_EXPECT_PTR_NE(test, (const char *)result, (const char *)name);
	KUNIT_EXPECT_STREQ(test, name, "acpi-thermal zone*0");
}

static void devm_sanitize_name_can_be_registered(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;
	char buf[BUF_SIZE];
	char *name;

	name = devm_hwmon_sanitize_name(parent, dev_name(parent));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, name);
	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1, HWMON_T_INPUT);
	hwdev = hwmon_test_register_info(test, parent, name, chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_GT(test, hwmon_sysfs_read(test, hwdev, "name", buf,
					       sizeof(buf)), 0);
	KUNIT_EXPECT_NULL(test, strpbrk(buf, "-* \t"));
	KUNIT_EXPECT_STREQ(test, strchr(buf, '\n'), "\n");
}

static void devm_sanitize_without_device_fails_with_einval(struct kunit *test)
{
	char *result = devm_hwmon_sanitize_name(NULL, "lm75");

	KUNIT_EXPECT_TRUE(test, IS_ERR(result));
	if (IS_ERR(result))
		KUNIT_EXPECT_EQ(test, PTR_ERR(result), (long)-EINVAL);
}

static struct kunit_case hwmon_sanitize_cases[] = {
	KUNIT_CASE_PARAM(sanitize_replaces_each_bad_character_with_underscore,
			 bad_char_gen_params),
	KUNIT_CASE(sanitize_replaces_every_bad_character),
	KUNIT_CASE(sanitize_keeps_a_valid_name),
	KUNIT_CASE(sanitize_returns_a_new_string),
	KUNIT_CASE(sanitize_leaves_its_argument_alone),
	KUNIT_CASE(sanitize_accepts_an_empty_name),
	KUNIT_CASE(sanitize_of_null_fails_with_enomem),
	KUNIT_CASE(devm_sanitize_replaces_bad_characters),
	KUNIT_CASE(devm_sanitize_name_can_be_registered),
	KUNIT_CASE(devm_sanitize_without_device_fails_with_einval),
	{}
};

static struct kunit_suite hwmon_sanitize_suite = {
	.name = "hwmon_sanitize",
	.test_cases = hwmon_sanitize_cases,
};

/* hwmon_demo: the sysfs directory of the all-types fake chip */

static int entry_cmp(const void *a, const void *b)
{
	const struct hwmon_sysfs_entry *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static void all_types_chip_directory_lists_every_file(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("label", "demo board"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct hwmon_sysfs_entry *entries, *e;
	char path[HWMON_SYSFS_PATH_MAX];
	int n, i, len, files = 0, read_ok = 0, readable = 0;
	struct device *hwdev;
	char buf[BUF_SIZE];
	const char *dir;

	hwmon_fake_chip_set_all(chip, 2);
	hwdev = hwmon_test_register_info(test, parent, "fake_all", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);

	n = hwmon_sysfs_list(test, dir, &entries);
	KUNIT_ASSERT_GT(test, n, 0);
	sort(entries, n, sizeof(*entries), entry_cmp, NULL);

	kunit_info(test, "hwmon-demo: /sys/%s (%d entries)\n", dir, n);
	for (i = 0; i < n; i++) {
		e = &entries[i];
		if (e->type == DT_DIR) {
			kunit_info(test, "hwmon-demo: %s/\n", e->name);
			continue;
		}
		if (e->type != DT_REG) {
			kunit_info(test, "hwmon-demo: %s@\n", e->name);
			continue;
		}
		files++;
		if (!(e->mode & 0444)) {
			kunit_info(test, "hwmon-demo: %s %04o (write-only)\n",
				   e->name, e->mode);
			continue;
		}
		readable++;
		snprintf(path, sizeof(path), "%s/%s", dir, e->name);
		len = hwmon_sysfs_read_path(test, path, buf, sizeof(buf));
		if (len < 0) {
			kunit_info(test, "hwmon-demo: %s %04o error %d\n",
				   e->name, e->mode, len);
			continue;
		}
		read_ok++;
		if (len > 0 && buf[len - 1] == '\n')
			buf[len - 1] = '\0';
		kunit_info(test, "hwmon-demo: %s %04o %s\n", e->name, e->mode,
			   strcmp(e->name, "uevent") ? buf : "(uevent)");
	}

	/* the sensor files, plus name, label and uevent */
	KUNIT_EXPECT_EQ(test, files, hwmon_fake_chip_file_count(chip) + 3);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev),
			hwmon_fake_chip_file_count(chip));
	KUNIT_EXPECT_EQ(test, read_ok, readable);
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "device"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "subsystem"));
}

static struct kunit_case hwmon_demo_cases[] = {
	KUNIT_CASE(all_types_chip_directory_lists_every_file),
	{}
};

static struct kunit_suite hwmon_demo_suite = {
	.name = "hwmon_demo",
	.test_cases = hwmon_demo_cases,
};

kunit_test_suites(&hwmon_notify_suite, &hwmon_sanitize_suite,
		  &hwmon_demo_suite);
