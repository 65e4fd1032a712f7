// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the hwmon core: attribute accesses racing with
 * unregistration, and the serialization of the chip's callbacks.
 *
 * Worker kthreads read and write the attribute files of a small chip (some
 * open the file for every access, one keeps its file open) while the test
 * unregisters the device, directly or by removing the parent of a devm
 * registration. The chip's callbacks record whether they ran after the
 * unregistration returned and the driver data is freed at once, so that a
 * late callback is counted here and its use after free is reported by KASAN
 * (kunit/debug.kunitconfig). After the unregistration every access must
 * fail: -ENOENT to open, -ENODEV to use a file that was open.
 *
 * The cases on serialization need hwmon_lock()/hwmon_unlock(), which the
 * stock cores lack: they are skipped there.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hwmon.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mount.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "hwmon_sysfs_util.h"

#ifdef HWMON_TEST_HAVE_LOCK
#define HWMON_RACE_HAVE_LOCK	true
#else
/* The stock cores: the cases that need the lock are skipped. */
#define HWMON_RACE_HAVE_LOCK	false
static void hwmon_lock(struct device *dev)
{
}

static void hwmon_unlock(struct device *dev)
{
}
#endif

/* Rounds of register / access / unregister per race case. */
#define HWMON_RACE_ROUNDS	25
/* Successful accesses every worker makes before the device goes away. */
#define HWMON_RACE_OPS_BEFORE	4
/* Failed accesses every worker makes after it went away. */
#define HWMON_RACE_OPS_AFTER	4
/*
 * Give up waiting for the workers after this long (a failure). Generous: on
 * the debug kernel (kunit/debug.kunitconfig) sharing two host CPUs with other
 * guests, an access takes tens of milliseconds.
 */
#define HWMON_RACE_WAIT_MS	60000
/* Successful accesses every worker makes in the serialization case. */
#define HWMON_RACE_OPS_SERIAL	10
/*
 * Time a callback sleeps "talking to the chip" (as an I2C transfer would):
 * other workers run meanwhile, even on one CPU.
 */
#define HWMON_RACE_CALLBACK_US	20

/**
 * struct hwmon_race_state - what the callbacks and workers report
 * @unregistered: set when the unregistration has returned
 * @in_callback: callbacks (and hwmon_lock() sections) running now
 * @overlaps: times a callback started while another one was running
 * @late_calls: callbacks that started or ended after @unregistered was set
 * @calls: callbacks in total
 */
struct hwmon_race_state {
	atomic_t unregistered;
	atomic_t in_callback;
	atomic_t overlaps;
	atomic_t late_calls;
	atomic_t calls;
};

/**
 * struct hwmon_race_drvdata - driver data, freed as soon as the device is
 *	unregistered
 * @state: the test's state (outlives the driver data)
 * @temp_max: the values of temp1_max and temp2_max
 * @hwdev: the hwmon device (for hwmon_lock() in the driver's own attribute)
 */
struct hwmon_race_drvdata {
	struct hwmon_race_state *state;
	long temp_max[2];
	struct device *hwdev;
};

enum hwmon_race_op {
	HWMON_RACE_READ,	/* open, read, close */
	HWMON_RACE_READ_OPEN,	/* read again a file kept open */
	HWMON_RACE_WRITE,	/* open, write, close */
};

/**
 * struct hwmon_race_worker - a kthread accessing one attribute file
 * @task: the kthread
 * @mnt: the test's sysfs mount
 * @path: the file, relative to @mnt
 * @op: what the worker does with the file
 * @state: the test's state
 * @ok: accesses that succeeded
 * @ok_after: accesses that succeeded although @state->unregistered was set
 *	before they started
 * @failed_after: accesses started after @state->unregistered was set that
 *	failed with the expected error
 * @bad_errors: accesses that failed with any other error
 * @last_bad: the last such error
 * @bad_values: successful reads that returned an unexpected value
 */
struct hwmon_race_worker {
	struct task_struct *task;
	struct vfsmount *mnt;
	const char *path;
	enum hwmon_race_op op;
	struct hwmon_race_state *state;
	atomic_t ok;
	atomic_t ok_after;
	atomic_t failed_after;
	atomic_t bad_errors;
	int last_bad;
	atomic_t bad_values;
};

static void hwmon_race_enter(struct hwmon_race_state *state)
{
	atomic_inc(&state->calls);
	if (atomic_inc_return(&state->in_callback) > 1)
		atomic_inc(&state->overlaps);
	if (atomic_read(&state->unregistered))
		atomic_inc(&state->late_calls);
	usleep_range(HWMON_RACE_CALLBACK_US, 2 * HWMON_RACE_CALLBACK_US);
}

static void hwmon_race_leave(struct hwmon_race_state *state)
{
	if (atomic_read(&state->unregistered))
		atomic_inc(&state->late_calls);
	atomic_dec(&state->in_callback);
}

static umode_t hwmon_race_is_visible(const void *data,
				     enum hwmon_sensor_types type, u32 attr,
				     int channel)
{
	if (type == hwmon_temp && attr == hwmon_temp_max)
		return 0644;
	return 0444;
}

static int hwmon_race_read(struct device *dev, enum hwmon_sensor_types type,
			   u32 attr, int channel, long *val)
{
	struct hwmon_race_drvdata *data = dev_get_drvdata(dev);

	hwmon_race_enter(data->state);
	if (type == hwmon_temp && attr == hwmon_temp_max)
		*val = data->temp_max[channel];
	else if (type == hwmon_temp)
		*val = 40000 + channel;
	else
		*val = 1200;
	hwmon_race_leave(data->state);
	return 0;
}

static int hwmon_race_read_string(struct device *dev,
				  enum hwmon_sensor_types type, u32 attr,
				  int channel, const char **str)
{
	struct hwmon_race_drvdata *data = dev_get_drvdata(dev);

	hwmon_race_enter(data->state);
	*str = channel ? "race2" : "race1";
	hwmon_race_leave(data->state);
	return 0;
}

static int hwmon_race_write(struct device *dev, enum hwmon_sensor_types type,
			    u32 attr, int channel, long val)
{
	struct hwmon_race_drvdata *data = dev_get_drvdata(dev);

	hwmon_race_enter(data->state);
	data->temp_max[channel] = val;
	hwmon_race_leave(data->state);
	return 0;
}

static const struct hwmon_ops hwmon_race_ops = {
	.is_visible = hwmon_race_is_visible,
	.read = hwmon_race_read,
	.read_string = hwmon_race_read_string,
	.write = hwmon_race_write,
};

static const struct hwmon_channel_info *hwmon_race_info[] = {
	HWMON_CHANNEL_INFO(temp,
			   HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_LABEL,
			   HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_LABEL),
	HWMON_CHANNEL_INFO(in, HWMON_I_INPUT),
	NULL
};

static const struct hwmon_chip_info hwmon_race_chip = {
	.ops = &hwmon_race_ops,
	.info = hwmon_race_info,
};

/*
 * An attribute the driver implements itself, in an extra group: it takes
 * hwmon_lock() to serialize with the core's calls of the callbacks, as the
 * kernel API documentation tells drivers to.
 */
static ssize_t race_locked_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct hwmon_race_drvdata *data = dev_get_drvdata(dev);
	long max;

	hwmon_lock(dev);
	hwmon_race_enter(data->state);
	max = data->temp_max[0];
	hwmon_race_leave(data->state);
	hwmon_unlock(dev);
	return sysfs_emit(buf, "%ld\n", max);
}
static DEVICE_ATTR_RO(race_locked);

static struct attribute *hwmon_race_attrs[] = {
	&dev_attr_race_locked.attr,
	NULL
};
ATTRIBUTE_GROUPS(hwmon_race);

static int hwmon_race_access(struct hwmon_race_worker *w, struct file **open,
			     char *buf, size_t len)
{
	struct file *file = *open;
	loff_t pos = 0;
	ssize_t n;

	if (!file) {
		file = file_open_root_mnt(w->mnt, w->path,
					  w->op == HWMON_RACE_WRITE ?
					  O_WRONLY : O_RDONLY, 0);
		if (IS_ERR(file))
			return PTR_ERR(file);
	}
	if (w->op == HWMON_RACE_WRITE) {
		n = kernel_write(file, "51000", 5, &pos);
	} else {
		n = kernel_read(file, buf, len - 1, &pos);
		if (n >= 0)
			buf[n] = '\0';
	}
	if (w->op == HWMON_RACE_READ_OPEN)
		*open = file;
	else
		fput(file);
	return n < 0 ? n : 0;
}

static bool hwmon_race_value_ok(const struct hwmon_race_worker *w,
				const char *buf)
{
	if (w->op == HWMON_RACE_WRITE)
		return true;
	if (strstr(w->path, "label"))
		return !strcmp(buf, "race1\n") || !strcmp(buf, "race2\n");
	if (strstr(w->path, "max") || strstr(w->path, "race_locked"))
		return !strcmp(buf, "50000\n") || !strcmp(buf, "51000\n");
	if (strstr(w->path, "in0"))
		return !strcmp(buf, "1200\n");
	return !strcmp(buf, "40000\n") || !strcmp(buf, "40001\n");
}

static int hwmon_race_worker_fn(void *arg)
{
	struct hwmon_race_worker *w = arg;
	struct file *open = NULL;
	char buf[32];
	bool after;
	int err;

	while (!kthread_should_stop()) {
		after = atomic_read(&w->state->unregistered);
		err = hwmon_race_access(w, &open, buf, sizeof(buf));
		if (!err) {
			atomic_inc(after ? &w->ok_after : &w->ok);
			if (!hwmon_race_value_ok(w, buf))
				atomic_inc(&w->bad_values);
		} else if (after && (err == -ENOENT || (open && err == -ENODEV))) {
			atomic_inc(&w->failed_after);
		} else if (!after && (err == -ENOENT || err == -ENODEV)) {
			/* Unregistration in progress: not an error. */
		} else {
			w->last_bad = err;
			atomic_inc(&w->bad_errors);
		}
		cond_resched();
	}
	if (open)
		fput(open);
	return 0;
}

/* Wait until every worker's counter reaches @min; false after a timeout. */
static bool hwmon_race_wait(struct hwmon_race_worker *w, int n,
			    size_t counter, int min)
{
	unsigned long end = jiffies + msecs_to_jiffies(HWMON_RACE_WAIT_MS);
	int i;

	for (i = 0; i < n; i++) {
		atomic_t *c = (atomic_t *)((char *)&w[i] + counter);

		while (atomic_read(c) < min) {
			if (time_after(jiffies, end))
				return false;
			usleep_range(200, 500);
		}
	}
	return true;
}

/*
 * Start a kthread per worker. Returns true if all started; otherwise fails
 * the test, and the workers started so far are the ones with a task.
 */
static bool hwmon_race_start(struct kunit *test, struct hwmon_race_worker *w,
			     int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++) {
		w[i].task = kthread_run(hwmon_race_worker_fn, &w[i], "%s/%d",
					name, i);
		if (IS_ERR(w[i].task)) {
			KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(w[i].task));
			w[i].task = NULL;
			return false;
		}
		get_task_struct(w[i].task);
	}
	return true;
}

/* Stop the workers hwmon_race_start() started. */
static void hwmon_race_stop(struct hwmon_race_worker *w, int n)
{
	int i;

	for (i = 0; i < n && w[i].task; i++) {
		kthread_stop(w[i].task);
		put_task_struct(w[i].task);
	}
}

struct hwmon_race_file {
	const char *attr;
	enum hwmon_race_op op;
};

static const struct hwmon_race_file hwmon_race_files[] = {
	{ "temp1_input", HWMON_RACE_READ },
	{ "temp2_label", HWMON_RACE_READ },
	{ "temp1_max", HWMON_RACE_READ_OPEN },
	{ "temp1_max", HWMON_RACE_WRITE },
	{ "in0_input", HWMON_RACE_READ_OPEN },
};

#define HWMON_RACE_WORKERS	ARRAY_SIZE(hwmon_race_files)

/**
 * struct hwmon_race_totals - sums over the rounds of a case
 * @ok: successful accesses while the device was registered
 * @failed_after: accesses after unregistration that failed as expected
 */
struct hwmon_race_totals {
	unsigned long ok;
	unsigned long failed_after;
};

/*
 * One round: register (devm on a parent of its own if @devm), start the
 * workers, let each make HWMON_RACE_OPS_BEFORE successful accesses,
 * unregister, free the driver data, let each make HWMON_RACE_OPS_AFTER
 * failed accesses, stop them and check what they and the callbacks saw.
 */
static void hwmon_race_round(struct kunit *test, bool devm,
			     struct hwmon_race_totals *totals)
{
	struct hwmon_race_worker *w;
	struct hwmon_race_drvdata *data;
	struct hwmon_race_state *state;
	struct vfsmount *mnt = hwmon_sysfs_mount(test);
	struct device *parent, *hwdev;
	bool before_ok, after_ok;
	int i;

	state = kunit_kzalloc(test, sizeof(*state), GFP_KERNEL);
	w = kunit_kcalloc(test, HWMON_RACE_WORKERS, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, state);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w);

	parent = hwmon_test_parent(test, NULL);
	if (devm)
		data = devm_kzalloc(parent, sizeof(*data), GFP_KERNEL);
	else
		data = kzalloc(sizeof(*data), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, data);
	data->state = state;
	data->temp_max[0] = 50000;
	data->temp_max[1] = 50000;

	if (devm) {
		hwdev = devm_hwmon_device_register_with_info(parent, "race",
							     data,
							     &hwmon_race_chip,
							     NULL);
	} else {
		hwdev = hwmon_device_register_with_info(parent, "race", data,
							&hwmon_race_chip,
							NULL);
		if (IS_ERR(hwdev))
			kfree(data);
	}
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);

	for (i = 0; i < HWMON_RACE_WORKERS; i++) {
		w[i].mnt = mnt;
		w[i].path = hwmon_sysfs_dev_path(test, hwdev,
						 hwmon_race_files[i].attr);
		w[i].op = hwmon_race_files[i].op;
		w[i].state = state;
	}
	before_ok = hwmon_race_start(test, w, HWMON_RACE_WORKERS, "hwmon_race") &&
		    hwmon_race_wait(w, HWMON_RACE_WORKERS,
				    offsetof(struct hwmon_race_worker, ok),
				    HWMON_RACE_OPS_BEFORE);

	if (devm) {
		hwmon_test_remove_parent(test, parent);
	} else {
		hwmon_device_unregister(hwdev);
		kfree(data);
	}
	atomic_set(&state->unregistered, 1);

	after_ok = before_ok &&
		   hwmon_race_wait(w, HWMON_RACE_WORKERS,
				   offsetof(struct hwmon_race_worker,
					    failed_after),
				   HWMON_RACE_OPS_AFTER);

	hwmon_race_stop(w, HWMON_RACE_WORKERS);

	KUNIT_EXPECT_TRUE_MSG(test, before_ok,
			      "workers did not make %d accesses each in %d ms",
			      HWMON_RACE_OPS_BEFORE, HWMON_RACE_WAIT_MS);
	KUNIT_EXPECT_TRUE_MSG(test, after_ok,
			      "workers did not fail %d times each after unregistration",
			      HWMON_RACE_OPS_AFTER);
	KUNIT_EXPECT_EQ(test, atomic_read(&state->late_calls), 0);
	for (i = 0; i < HWMON_RACE_WORKERS; i++) {
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&w[i].bad_errors), 0,
				    "%s: last error %d", w[i].path,
				    w[i].last_bad);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&w[i].ok_after), 0,
				    "%s", w[i].path);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&w[i].bad_values), 0,
				    "%s", w[i].path);
		totals->ok += atomic_read(&w[i].ok);
		totals->failed_after += atomic_read(&w[i].failed_after);
	}
}

static void accesses_racing_with_unregister_never_reach_the_driver(struct kunit *test)
{
	struct hwmon_race_totals totals = { };
	int round;

	for (round = 0; round < HWMON_RACE_ROUNDS && !test->status; round++)
		hwmon_race_round(test, false, &totals);
	kunit_info(test, "%d rounds x %zu workers: %lu accesses, %lu refused after unregister\n",
		   round, HWMON_RACE_WORKERS, totals.ok, totals.failed_after);
}

static void accesses_racing_with_devm_teardown_never_reach_the_driver(struct kunit *test)
{
	struct hwmon_race_totals totals = { };
	int round;

	for (round = 0; round < HWMON_RACE_ROUNDS && !test->status; round++)
		hwmon_race_round(test, true, &totals);
	kunit_info(test, "%d rounds x %zu workers: %lu accesses, %lu refused after teardown\n",
		   round, HWMON_RACE_WORKERS, totals.ok, totals.failed_after);
}

/* Workers on every attribute, plus the driver's own locked attribute. */
static void callbacks_of_one_device_never_run_concurrently(struct kunit *test)
{
	static const char * const attrs[] = {
		"temp1_input", "temp2_input", "temp1_label", "temp1_max",
		"in0_input", "race_locked",
	};
	struct hwmon_race_worker *w;
	struct hwmon_race_drvdata *data;
	struct hwmon_race_state *state;
	struct device *hwdev;
	bool ok;
	int i, n = ARRAY_SIZE(attrs) + 1;

	if (!HWMON_RACE_HAVE_LOCK)
		kunit_skip(test, "this core has no hwmon_lock() (stock core)");

	state = kunit_kzalloc(test, sizeof(*state), GFP_KERNEL);
	data = kunit_kzalloc(test, sizeof(*data), GFP_KERNEL);
	w = kunit_kcalloc(test, n, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, state);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, data);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w);
	data->state = state;
	data->temp_max[0] = 50000;
	data->temp_max[1] = 50000;
	hwdev = hwmon_test_register_info(test, hwmon_test_parent(test, NULL),
					 "race", data, &hwmon_race_chip,
					 hwmon_race_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	data->hwdev = hwdev;

	for (i = 0; i < n; i++) {
		w[i].mnt = hwmon_sysfs_mount(test);
		w[i].path = hwmon_sysfs_dev_path(test, hwdev,
						 i < n - 1 ? attrs[i] :
						 "temp1_max");
		w[i].op = i < n - 1 ? HWMON_RACE_READ : HWMON_RACE_WRITE;
		w[i].state = state;
	}
	ok = hwmon_race_start(test, w, n, "hwmon_serial") &&
	     hwmon_race_wait(w, n, offsetof(struct hwmon_race_worker, ok),
			     HWMON_RACE_OPS_SERIAL);
	hwmon_race_stop(w, n);

	KUNIT_EXPECT_TRUE(test, ok);
	KUNIT_EXPECT_EQ(test, atomic_read(&state->overlaps), 0);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&w[i].bad_errors), 0,
				    "%s: last error %d", w[i].path,
				    w[i].last_bad);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&w[i].bad_values), 0,
				    "%s", w[i].path);
	}
	kunit_info(test, "%d callbacks and locked sections, %d overlaps\n",
		   atomic_read(&state->calls), atomic_read(&state->overlaps));
}

static void hwmon_lock_holds_off_the_callbacks(struct kunit *test)
{
	struct hwmon_race_worker *w;
	struct hwmon_race_drvdata *data;
	struct hwmon_race_state *state;
	struct device *hwdev;
	int calls_locked, ok_locked;
	bool ok;

	if (!HWMON_RACE_HAVE_LOCK)
		kunit_skip(test, "this core has no hwmon_lock() (stock core)");

	state = kunit_kzalloc(test, sizeof(*state), GFP_KERNEL);
	data = kunit_kzalloc(test, sizeof(*data), GFP_KERNEL);
	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, state);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, data);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w);
	data->state = state;
	hwdev = hwmon_test_register_info(test, hwmon_test_parent(test, NULL),
					 "race", data, &hwmon_race_chip, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);

	w->mnt = hwmon_sysfs_mount(test);
	w->path = hwmon_sysfs_dev_path(test, hwdev, "temp1_input");
	w->op = HWMON_RACE_READ;
	w->state = state;

	hwmon_lock(hwdev);
	if (!hwmon_race_start(test, w, 1, "hwmon_locked")) {
		hwmon_unlock(hwdev);
		return;
	}
	msleep(50);
	calls_locked = atomic_read(&state->calls);
	ok_locked = atomic_read(&w->ok);
	hwmon_unlock(hwdev);

	ok = hwmon_race_wait(w, 1, offsetof(struct hwmon_race_worker, ok), 1);
	hwmon_race_stop(w, 1);

	KUNIT_EXPECT_EQ(test, calls_locked, 0);
	KUNIT_EXPECT_EQ(test, ok_locked, 0);
	KUNIT_EXPECT_TRUE(test, ok);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->bad_errors), 0);
}

static void hwmon_lock_works_on_a_device_without_chip(struct kunit *test)
{
	struct device *hwdev;

	if (!HWMON_RACE_HAVE_LOCK)
		kunit_skip(test, "this core has no hwmon_lock() (stock core)");

	hwdev = hwmon_test_register_groups(test, hwmon_test_parent(test, NULL),
					   "race", NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	hwmon_lock(hwdev);
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "name"));
	hwmon_unlock(hwdev);
}

static struct kunit_case hwmon_race_cases[] = {
	KUNIT_CASE(accesses_racing_with_unregister_never_reach_the_driver),
	KUNIT_CASE(accesses_racing_with_devm_teardown_never_reach_the_driver),
	KUNIT_CASE(callbacks_of_one_device_never_run_concurrently),
	KUNIT_CASE(hwmon_lock_holds_off_the_callbacks),
	KUNIT_CASE(hwmon_lock_works_on_a_device_without_chip),
	{}
};

static struct kunit_suite hwmon_race_suite = {
	.name = "hwmon_race",
	.test_cases = hwmon_race_cases,
};

kunit_test_suite(hwmon_race_suite);

MODULE_LICENSE("GPL");
