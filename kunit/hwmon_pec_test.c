// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the pec attribute of HWMON_C_PEC (6.12): a chip
 * registered below an I2C client of the fake SMBus adapter, with and
 * without I2C_FUNC_SMBUS_PEC on the adapter. The pec file belongs to the
 * client's device (Documentation/ABI/testing/sysfs-class-hwmon:
 * hwmonX/device/pec); writing it tells the chip (write() of hwmon_chip_pec)
 * and sets or clears I2C_CLIENT_PEC in the client's flags.
 *
 * On a tree whose header has no HWMON_C_PEC every case skips. The stock
 * 6.12 core creates no pec file in any set-up these suites can build (a
 * chip below a client of a PEC-capable adapter, with the client bound to a
 * driver or not, registered with devm or not, nor for the in-tree lm90
 * driver as an adm1032): on it the cases that need the file skip with that
 * reason, the cases about its absence run.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/hwmon.h>
#include <linux/i2c.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "hwmon_driver_util.h"
#include "hwmon_fake_chip.h"
#include "hwmon_fake_smbus.h"
#include "hwmon_sysfs_util.h"

#define PEC_ADDR	0x2a
#define NO_PEC_REASON	"the tree's <linux/hwmon.h> has no HWMON_C_PEC (6.1)"
#define STOCK_NO_PEC_REASON \
	"the stock 6.12 core creates no pec file (intended difference)"

#ifdef HWMON_C_PEC

/**
 * struct pec_env - one test's bus, client and chip
 * @bus: the fake adapter
 * @client: a client without a driver on it
 * @chip: the fake chip registered below the client
 * @hwdev: the hwmon device, once registered
 */
struct pec_env {
	struct hwmon_fake_smbus *bus;
	struct i2c_client *client;
	struct hwmon_fake_chip *chip;
	struct device *hwdev;
};

/*
 * A chip with temp1_input and, if @pec_bit, HWMON_C_PEC, below a client of
 * an adapter that has I2C_FUNC_SMBUS_PEC if @adapter_pec. Not registered.
 */
static struct pec_env *pec_env(struct kunit *test, bool adapter_pec,
			       bool pec_bit)
{
	struct pec_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, env);
	env->bus = hwmon_fake_smbus_new(test);
	hwmon_fake_smbus_set_func(env->bus,
				  adapter_pec ? I2C_FUNC_SMBUS_PEC : 0);
	env->client = hwmon_fake_smbus_bare_client(env->bus, PEC_ADDR);
	env->chip = hwmon_fake_chip_new(test);
	if (pec_bit)
		hwmon_fake_chip_set_channels(env->chip, hwmon_chip, 1,
					     HWMON_C_PEC);
	hwmon_fake_chip_set_channels(env->chip, hwmon_temp, 1, HWMON_T_INPUT);
	return env;
}

/* Path of the pec file of @dev, relative to the sysfs root. */
static const char *pec_dev_path(struct kunit *test, struct device *dev)
{
	char *path = kunit_kzalloc(test, HWMON_SYSFS_PATH_MAX, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, path);
	snprintf(path, HWMON_SYSFS_PATH_MAX, "%s/pec",
		 hwmon_sysfs_kobj_path(test, dev));
	return path;
}

static const char *pec_path(struct kunit *test, struct pec_env *env)
{
	return pec_dev_path(test, &env->client->dev);
}

static bool pec_has_file(struct kunit *test, struct pec_env *env)
{
	return hwmon_sysfs_exists(test, pec_path(test, env));
}

static int pec_write(struct kunit *test, struct pec_env *env, const char *str)
{
	return hwmon_sysfs_write_path(test, pec_path(test, env), str);
}

static void pec_register(struct kunit *test, struct pec_env *env)
{
	env->hwdev = hwmon_test_register_info(test, &env->client->dev, "pec",
					      env->chip,
					      hwmon_fake_chip_info(env->chip),
					      NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, env->hwdev);
}

/*
 * The client of @env must have a pec file now: fails the test if it has
 * none, or skips it on the stock core, which never creates one.
 */
static void pec_need_file(struct kunit *test, struct pec_env *env)
{
	if (pec_has_file(test, env))
		return;
	if (hwmon_test_core_is_stock(test))
		kunit_skip(test, STOCK_NO_PEC_REASON);
	KUNIT_FAIL_AND_ABORT(test, "no pec file on the I2C client");
}

/* A registered chip with HWMON_C_PEC below a client of a PEC adapter. */
static struct pec_env *pec_ready(struct kunit *test)
{
	struct pec_env *env = pec_env(test, true, true);

	pec_register(test, env);
	pec_need_file(test, env);
	return env;
}

static bool client_pec(struct pec_env *env)
{
	return env->client->flags & I2C_CLIENT_PEC;
}

static unsigned int pec_writes(struct pec_env *env)
{
	return env->chip->writes[hwmon_chip][hwmon_chip_pec][0];
}

static void expect_pec_reads(struct kunit *test, struct pec_env *env,
			     const char *expected)
{
	char buf[16] = "";

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read_path(test, pec_path(test, env),
						    buf, sizeof(buf)),
			(int)strlen(expected));
	KUNIT_EXPECT_STREQ(test, buf, expected);
}

static void pec_file_is_a_rw_file_of_the_client(struct kunit *test)
{
	struct pec_env *env = pec_env(test, true, true);
	umode_t mode = 0;

	pec_register(test, env);
	pec_need_file(test, env);
	KUNIT_ASSERT_EQ(test, hwmon_sysfs_mode_path(test, pec_path(test, env),
						    &mode), 0);
	KUNIT_EXPECT_EQ(test, mode, 0644);
	/* the hwmon device itself has temp1_input only */
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, env->hwdev, "pec"));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, env->hwdev, "temp1_input"));
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, env->hwdev), 1);
	/* registration leaves the client's flag alone */
	KUNIT_EXPECT_FALSE(test, client_pec(env));
	KUNIT_EXPECT_EQ(test, pec_writes(env), 0);
}

static void pec_file_needs_an_adapter_with_pec(struct kunit *test)
{
	struct pec_env *env = pec_env(test, false, true);

	pec_register(test, env);
	KUNIT_EXPECT_FALSE(test, pec_has_file(test, env));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, env->hwdev, "temp1_input"));
}

static void pec_file_needs_the_pec_bit(struct kunit *test)
{
	struct pec_env *env = pec_env(test, true, false);

	pec_register(test, env);
	KUNIT_EXPECT_FALSE(test, pec_has_file(test, env));
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, env->hwdev), 1);
}

static void pec_bit_on_a_parent_that_is_no_i2c_client_creates_nothing(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_chip, 1, HWMON_C_PEC);
	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1, HWMON_T_INPUT);
	hwdev = hwmon_test_register_info(test, parent, "pec", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test,
						    pec_dev_path(test, parent)));
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 1);
}

static void pec_reads_the_client_flag(struct kunit *test)
{
	struct pec_env *env = pec_ready(test);

	expect_pec_reads(test, env, "0\n");
	env->client->flags |= I2C_CLIENT_PEC;
	expect_pec_reads(test, env, "1\n");
	env->client->flags &= ~I2C_CLIENT_PEC;
	expect_pec_reads(test, env, "0\n");
	/* reading never calls the chip */
	KUNIT_EXPECT_EQ(test, env->chip->total_reads, 0);
	KUNIT_EXPECT_EQ(test, pec_writes(env), 0);
}

static void pec_writes_set_and_clear_the_flag_and_tell_the_chip(struct kunit *test)
{
	struct pec_env *env = pec_ready(test);
	s64 *value = &env->chip->value[hwmon_chip][hwmon_chip_pec][0];

	*value = -1;
	KUNIT_EXPECT_EQ(test, pec_write(test, env, "1"), 1);
	KUNIT_EXPECT_TRUE(test, client_pec(env));
	KUNIT_EXPECT_EQ(test, pec_writes(env), 1);
	KUNIT_EXPECT_EQ(test, *value, 1);
	expect_pec_reads(test, env, "1\n");

	KUNIT_EXPECT_EQ(test, pec_write(test, env, "0"), 1);
	KUNIT_EXPECT_FALSE(test, client_pec(env));
	KUNIT_EXPECT_EQ(test, pec_writes(env), 2);
	KUNIT_EXPECT_EQ(test, *value, 0);
	expect_pec_reads(test, env, "0\n");
	KUNIT_EXPECT_EQ(test, env->chip->bad_calls, 0);
}

static void pec_accepts_the_boolean_spellings(struct kunit *test)
{
	static const struct {
		const char *str;
		bool on;
	} cases[] = {
		{ "1", true }, { "0", false }, { "on", true }, { "off", false },
		{ "y", true }, { "n", false }, { "Y", true }, { "N", false },
		{ "1\n", true }, { "0\n", false },
	};
	struct pec_env *env = pec_ready(test);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_EXPECT_EQ_MSG(test, pec_write(test, env, cases[i].str),
				    (int)strlen(cases[i].str), "'%s'",
				    cases[i].str);
		KUNIT_EXPECT_EQ_MSG(test, client_pec(env), cases[i].on, "'%s'",
				    cases[i].str);
		KUNIT_EXPECT_EQ_MSG(test,
				    env->chip->value[hwmon_chip][hwmon_chip_pec][0],
				    (s64)cases[i].on, "'%s'", cases[i].str);
	}
	KUNIT_EXPECT_EQ(test, pec_writes(env), ARRAY_SIZE(cases));
}

static void pec_rejects_what_is_no_boolean(struct kunit *test)
{
	static const char * const bad[] = { "2", "-1", "x", "o", "?" };
	struct pec_env *env = pec_ready(test);
	size_t i;
	int on;

	for (on = 0; on <= 1; on++) {
		if (on)
			env->client->flags |= I2C_CLIENT_PEC;
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			KUNIT_EXPECT_EQ_MSG(test, pec_write(test, env, bad[i]),
					    -EINVAL, "'%s'", bad[i]);
			KUNIT_EXPECT_EQ_MSG(test, client_pec(env), (bool)on,
					    "'%s'", bad[i]);
		}
	}
	KUNIT_EXPECT_EQ(test, pec_writes(env), 0);
}

static void pec_write_refused_by_the_chip_fails_and_keeps_the_flag(struct kunit *test)
{
	struct pec_env *env = pec_ready(test);

	env->chip->write_error[hwmon_chip][hwmon_chip_pec] = -EIO;
	KUNIT_EXPECT_EQ(test, pec_write(test, env, "1"), -EIO);
	KUNIT_EXPECT_FALSE(test, client_pec(env));
	env->client->flags |= I2C_CLIENT_PEC;
	KUNIT_EXPECT_EQ(test, pec_write(test, env, "0"), -EIO);
	KUNIT_EXPECT_TRUE(test, client_pec(env));
	KUNIT_EXPECT_EQ(test, pec_writes(env), 2);
}

static void pec_write_the_chip_does_not_know_still_sets_the_flag(struct kunit *test)
{
	struct pec_env *env = pec_ready(test);

	/* what a driver's write() returns for attributes it does not handle */
	env->chip->write_error[hwmon_chip][hwmon_chip_pec] = -EOPNOTSUPP;
	KUNIT_EXPECT_EQ(test, pec_write(test, env, "1"), 1);
	KUNIT_EXPECT_TRUE(test, client_pec(env));
	KUNIT_EXPECT_EQ(test, pec_write(test, env, "0"), 1);
	KUNIT_EXPECT_FALSE(test, client_pec(env));
	KUNIT_EXPECT_EQ(test, pec_writes(env), 2);
}

static void pec_without_a_write_callback_still_sets_the_flag(struct kunit *test)
{
	struct pec_env *env = pec_env(test, true, true);

	env->chip->missing_ops |= HWMON_FAKE_NO_WRITE;
	pec_register(test, env);
	pec_need_file(test, env);
	KUNIT_EXPECT_EQ(test, pec_write(test, env, "1"), 1);
	KUNIT_EXPECT_TRUE(test, client_pec(env));
	KUNIT_EXPECT_EQ(test, pec_write(test, env, "0"), 1);
	KUNIT_EXPECT_FALSE(test, client_pec(env));
	KUNIT_EXPECT_EQ(test, env->chip->total_writes, 0);
}

static void pec_is_visible_is_not_asked(struct kunit *test)
{
	struct pec_env *env = pec_env(test, true, true);

	/* the pec file does not depend on the chip's is_visible() */
	hwmon_fake_chip_set_mode(env->chip, hwmon_chip, hwmon_chip_pec, -1, 0);
	pec_register(test, env);
	pec_need_file(test, env);
	KUNIT_EXPECT_EQ(test,
			env->chip->visible_calls[hwmon_chip][hwmon_chip_pec][0],
			0);
}

/*
 * The in-tree lm90 driver sets HWMON_C_PEC for an adm1032 (partial PEC) on
 * an adapter that can do PEC. (Writes are not tried: lm90 refreshes its
 * registers first, which the LM90 emulation cannot answer as an adm1032.)
 */
static void pec_file_of_the_in_tree_lm90_as_adm1032(struct kunit *test)
{
	struct pec_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, env);
	env->bus = hwmon_fake_smbus_new(test);
	hwmon_fake_smbus_set_func(env->bus, I2C_FUNC_SMBUS_PEC);
	hwmon_fake_smbus_add_chip(env->bus, HWMON_FAKE_LM90, 0x4c);
	env->client = hwmon_fake_smbus_client(env->bus, "adm1032", 0x4c);
	pec_need_file(test, env);
	expect_pec_reads(test, env, "0\n");
	env->client->flags |= I2C_CLIENT_PEC;
	expect_pec_reads(test, env, "1\n");
	/* the lm90 device itself has no pec file */
	KUNIT_EXPECT_FALSE(test,
			   hwmon_sysfs_has(test,
					   hwmon_drv_find_child(test, &env->client->dev),
					   "pec"));
}

static void pec_file_goes_with_the_hwmon_device(struct kunit *test)
{
	struct pec_env *env = pec_ready(test);

	KUNIT_EXPECT_EQ(test, pec_write(test, env, "1"), 1);
	hwmon_test_unregister(test, env->hwdev);
	KUNIT_EXPECT_FALSE(test, pec_has_file(test, env));
	/* the flag stays as the user left it */
	KUNIT_EXPECT_TRUE(test, client_pec(env));
	/* and a new registration creates the file again */
	pec_register(test, env);
	KUNIT_EXPECT_TRUE(test, pec_has_file(test, env));
	expect_pec_reads(test, env, "1\n");
}

#define PEC_CASE(case_fn)	KUNIT_CASE(case_fn)

#else /* !HWMON_C_PEC */

static void pec_skip(struct kunit *test)
{
	kunit_skip(test, NO_PEC_REASON);
}

/* every case runs and skips with the reason */
#define PEC_CASE(case_fn)	{ .run_case = pec_skip, .name = #case_fn }

#endif /* HWMON_C_PEC */

static struct kunit_case hwmon_pec_cases[] = {
	PEC_CASE(pec_file_is_a_rw_file_of_the_client),
	PEC_CASE(pec_file_needs_an_adapter_with_pec),
	PEC_CASE(pec_file_needs_the_pec_bit),
	PEC_CASE(pec_bit_on_a_parent_that_is_no_i2c_client_creates_nothing),
	PEC_CASE(pec_reads_the_client_flag),
	PEC_CASE(pec_writes_set_and_clear_the_flag_and_tell_the_chip),
	PEC_CASE(pec_accepts_the_boolean_spellings),
	PEC_CASE(pec_rejects_what_is_no_boolean),
	PEC_CASE(pec_write_refused_by_the_chip_fails_and_keeps_the_flag),
	PEC_CASE(pec_write_the_chip_does_not_know_still_sets_the_flag),
	PEC_CASE(pec_without_a_write_callback_still_sets_the_flag),
	PEC_CASE(pec_is_visible_is_not_asked),
	PEC_CASE(pec_file_goes_with_the_hwmon_device),
	PEC_CASE(pec_file_of_the_in_tree_lm90_as_adm1032),
	{}
};

static struct kunit_suite hwmon_pec_suite = {
	.name = "hwmon_pec",
	.test_cases = hwmon_pec_cases,
};

kunit_test_suite(hwmon_pec_suite);
