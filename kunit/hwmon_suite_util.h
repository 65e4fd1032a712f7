/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixtures and expectations shared by the hwmon KUnit suites of attribute
 * files (hwmon_names, hwmon_visibility, hwmon_read, hwmon_write) and of
 * registration (hwmon_register, hwmon_legacy, hwmon_devm, hwmon_label,
 * hwmon_thermal).
 */
#ifndef _HWMON_SUITE_UTIL_H
#define _HWMON_SUITE_UTIL_H

#include <linux/types.h>

struct attribute_group;
struct device;
struct hwmon_fake_chip;
struct kunit;

/* Size of the buffers the suites read attribute files into. */
#define HWMON_TEST_BUF_SIZE	128

/**
 * struct hwmon_test_rw_fixture - a registered chip to read and write
 * @chip: three temp channels (input, max, label), two in channels (input,
 *	  label)
 * @hwdev: its hwmon device, named "fake"
 * @buf: what the last hwmon_test_expect_read() read
 */
struct hwmon_test_rw_fixture {
	struct hwmon_fake_chip *chip;
	struct device *hwdev;
	char buf[HWMON_TEST_BUF_SIZE];
};

extern const struct attribute_group *hwmon_test_extra_groups[];

const void *hwmon_test_attr_gen(const void *prev, char *desc);
const void *hwmon_test_attr_file_gen(const void *prev, char *desc);

struct hwmon_test_rw_fixture *hwmon_test_rw_chip(struct kunit *test);
void hwmon_test_expect_read(struct kunit *test,
			    struct hwmon_test_rw_fixture *f,
			    const char *attr, const char *expected);

struct hwmon_fake_chip *hwmon_test_temp_input_chip(struct kunit *test);
void hwmon_test_expect_attr(struct kunit *test, struct device *hwdev,
			    const char *attr, const char *expected);
void hwmon_test_expect_mode(struct kunit *test, struct device *hwdev,
			    const char *attr, umode_t expected);
int hwmon_test_count_class_devices(struct kunit *test);
void hwmon_test_expect_rejected(struct kunit *test, struct device *hwdev,
				int err);

#endif /* _HWMON_SUITE_UTIL_H */
