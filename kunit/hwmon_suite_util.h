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

/* What the cores log about a bad name attribute, after the name. */
#define HWMON_TEST_NAME_WARNING	"is not a valid name attribute, please fix"

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

/**
 * struct hwmon_test_trace_event - what one hwmon tracepoint reported
 * @count: events since hwmon_test_trace_attach()
 * @index: the index the last event gave
 * @attr_name: its attribute name
 * @val: its value (hwmon_attr_show, hwmon_attr_store)
 * @s: its string (hwmon_attr_show_string)
 */
struct hwmon_test_trace_event {
	unsigned int count;
	int index;
	char attr_name[32];
	long long val;
	char s[32];
};

/**
 * struct hwmon_test_trace - the events of the three hwmon tracepoints
 * @show: hwmon_attr_show
 * @show_string: hwmon_attr_show_string
 * @store: hwmon_attr_store
 */
struct hwmon_test_trace {
	struct hwmon_test_trace_event show;
	struct hwmon_test_trace_event show_string;
	struct hwmon_test_trace_event store;
};

extern const struct attribute_group *hwmon_test_extra_groups[];

struct hwmon_test_trace *hwmon_test_trace_attach(struct kunit *test);

u64 hwmon_test_log_mark(void);
bool hwmon_test_log_has(struct kunit *test, u64 mark, const char *str);

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
