// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fixtures and expectations shared by the hwmon KUnit suites of attribute
 * files and of registration (hwmon_suite_util.h).
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/hwmon.h>
#include <linux/kernel.h>
#include <linux/kmsg_dump.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/tracepoint.h>
#include <trace/events/hwmon.h>

#include "hwmon_fake_chip.h"
#include "hwmon_suite_util.h"
#include "hwmon_sysfs_util.h"

static ssize_t extra_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "extra of %s\n", dev_name(dev));
}

static DEVICE_ATTR_RO(extra);

static ssize_t other_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "other\n");
}

static DEVICE_ATTR_RO(other);

static struct attribute *extra_attrs[] = {
	&dev_attr_extra.attr,
	NULL
};

static const struct attribute_group extra_group = {
	.attrs = extra_attrs,
};

static struct attribute *other_attrs[] = {
	&dev_attr_other.attr,
	NULL
};

static const struct attribute_group other_group = {
	.attrs = other_attrs,
};

/*
 * Two extra groups: "extra" reads "extra of <device name>\n", "other"
 * reads "other\n".
 */
const struct attribute_group *hwmon_test_extra_groups[] = {
	&extra_group,
	&other_group,
	NULL
};

/*
 * The value of the hwmon_attr_show and hwmon_attr_store events: long on 6.1,
 * long long since the events carry 64-bit values (6.12).
 */
#ifdef HWMON_TEST_TRACE_VAL_LONG_LONG
#define HWMON_TEST_TRACE_VAL	long long
#else
#define HWMON_TEST_TRACE_VAL	long
#endif

static void hwmon_test_trace_record(struct hwmon_test_trace_event *e,
				    int index, const char *attr_name)
{
	e->count++;
	e->index = index;
	strscpy(e->attr_name, attr_name, sizeof(e->attr_name));
}

static void hwmon_test_trace_show(void *data, int index,
				  const char *attr_name,
				  HWMON_TEST_TRACE_VAL val)
{
	struct hwmon_test_trace *t = data;

	hwmon_test_trace_record(&t->show, index, attr_name);
	t->show.val = val;
}

static void hwmon_test_trace_show_string(void *data, int index,
					 const char *attr_name, const char *s)
{
	struct hwmon_test_trace *t = data;

	hwmon_test_trace_record(&t->show_string, index, attr_name);
	strscpy(t->show_string.s, s, sizeof(t->show_string.s));
}

static void hwmon_test_trace_store(void *data, int index,
				   const char *attr_name,
				   HWMON_TEST_TRACE_VAL val)
{
	struct hwmon_test_trace *t = data;

	hwmon_test_trace_record(&t->store, index, attr_name);
	t->store.val = val;
}

static void hwmon_test_trace_detach(void *data)
{
	unregister_trace_hwmon_attr_show(hwmon_test_trace_show, data);
	unregister_trace_hwmon_attr_show_string(hwmon_test_trace_show_string,
						data);
	unregister_trace_hwmon_attr_store(hwmon_test_trace_store, data);
	tracepoint_synchronize_unregister();
}

/**
 * hwmon_test_trace_attach() - record the hwmon tracepoints until the test ends
 * @test: the test
 *
 * Skips the test when the tracepoints cannot be reached: without
 * CONFIG_TRACEPOINTS, or when the suites are a module (the core does not
 * export its tracepoints).
 *
 * Return: the events, counted from zero.
 */
struct hwmon_test_trace *hwmon_test_trace_attach(struct kunit *test)
{
	struct hwmon_test_trace *t;

	if (!IS_ENABLED(CONFIG_TRACEPOINTS) ||
	    !IS_BUILTIN(CONFIG_HWMON_KUNIT_TEST))
		kunit_skip(test, "the hwmon tracepoints are out of reach");
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	/* Before registering: a failed registration is undone too. */
	hwmon_test_defer(test, hwmon_test_trace_detach, t);
	KUNIT_ASSERT_EQ(test,
			register_trace_hwmon_attr_show(hwmon_test_trace_show, t),
			0);
	KUNIT_ASSERT_EQ(test,
			register_trace_hwmon_attr_show_string(hwmon_test_trace_show_string,
							      t), 0);
	KUNIT_ASSERT_EQ(test,
			register_trace_hwmon_attr_store(hwmon_test_trace_store, t),
			0);
	return t;
}

/**
 * hwmon_test_log_mark() - where the kernel log ends now
 *
 * Return: the sequence number the next kernel message will get, for
 * hwmon_test_log_has().
 */
u64 hwmon_test_log_mark(void)
{
	struct kmsg_dump_iter iter;

	kmsg_dump_rewind(&iter);
	return iter.next_seq;
}

/**
 * hwmon_test_log_has() - whether a kernel message since a mark holds a string
 * @test: the test
 * @mark: what hwmon_test_log_mark() returned
 * @str: the string
 *
 * Return: true if one of the messages logged since @mark contains @str.
 */
bool hwmon_test_log_has(struct kunit *test, u64 mark, const char *str)
{
	char *line = kunit_kmalloc(test, 1024, GFP_KERNEL);
	struct kmsg_dump_iter iter;
	bool found = false;
	size_t len;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, line);
	kmsg_dump_rewind(&iter);
	if (iter.cur_seq < mark)
		iter.cur_seq = mark;
	while (!found && kmsg_dump_get_line(&iter, false, line, 1023, &len)) {
		line[len] = '\0';
		found = strstr(line, str);
	}
	return found;
}

/*
 * Parameters of a case: every attribute bit except those a stock core
 * handles differently from the ABI (stock_differs). KUnit reports a skipped
 * parameter as "ok", so they are covered by cases of their own,
 * power_average_interval_limits_use_the_abi_names() and
 * energy64_label_is_read_with_read_string().
 */
const void *hwmon_test_attr_gen(const void *prev, char *desc)
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

/* Like hwmon_test_attr_gen(), but only the bits that create a file. */
const void *hwmon_test_attr_file_gen(const void *prev, char *desc)
{
	const struct hwmon_fake_attr *next = prev;

	do {
		next = hwmon_test_attr_gen(next, desc);
	} while (next && !next->name);
	return next;
}

struct hwmon_test_rw_fixture *hwmon_test_rw_chip(struct kunit *test)
{
	struct hwmon_test_rw_fixture *f = kunit_kzalloc(test, sizeof(*f),
							GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	f->chip = hwmon_fake_chip_new(test);
	hwmon_fake_chip_set_channels(f->chip, hwmon_temp, 3,
				     HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_LABEL);
	hwmon_fake_chip_set_channels(f->chip, hwmon_in, 2,
				     HWMON_I_INPUT | HWMON_I_LABEL);
	f->hwdev = hwmon_test_register_chip(test, f->chip, "fake");
	return f;
}

/* Reads @attr of @f's device into f->buf: it must read @expected. */
void hwmon_test_expect_read(struct kunit *test,
			    struct hwmon_test_rw_fixture *f,
			    const char *attr, const char *expected)
{
	int n = hwmon_sysfs_read(test, f->hwdev, attr, f->buf, sizeof(f->buf));

	KUNIT_EXPECT_EQ(test, n, (int)strlen(expected));
	KUNIT_EXPECT_STREQ(test, f->buf, expected);
}

/* A fake chip with one temp channel and its input. */
struct hwmon_fake_chip *hwmon_test_temp_input_chip(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1, HWMON_T_INPUT);
	return chip;
}

/* @attr of @hwdev must read @expected. */
void hwmon_test_expect_attr(struct kunit *test, struct device *hwdev,
			    const char *attr, const char *expected)
{
	char buf[HWMON_TEST_BUF_SIZE];

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, hwdev, attr, buf,
					       sizeof(buf)),
			(int)strlen(expected));
	KUNIT_EXPECT_STREQ(test, buf, expected);
}

/* @attr of @hwdev must exist with the permission bits @expected. */
void hwmon_test_expect_mode(struct kunit *test, struct device *hwdev,
			    const char *attr, umode_t expected)
{
	umode_t mode = 0;

	KUNIT_EXPECT_EQ_MSG(test, hwmon_sysfs_mode(test, hwdev, attr, &mode), 0,
			    "%s missing", attr);
	KUNIT_EXPECT_EQ_MSG(test, mode, expected, "%s mode %o", attr, mode);
}

/* The number of entries of /sys/class/hwmon. */
int hwmon_test_count_class_devices(struct kunit *test)
{
	struct hwmon_sysfs_entry *entries;
	int n = hwmon_sysfs_list(test, "class/hwmon", &entries);

	KUNIT_ASSERT_GE(test, n, 0);
	return n;
}

/* A registration function must have returned ERR_PTR(@err). */
void hwmon_test_expect_rejected(struct kunit *test, struct device *hwdev,
				int err)
{
	KUNIT_EXPECT_TRUE(test, IS_ERR(hwdev));
	if (IS_ERR(hwdev))
		KUNIT_EXPECT_EQ(test, PTR_ERR(hwdev), (long)err);
}
