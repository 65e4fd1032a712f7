/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake SMBus adapter with emulated temperature sensor chips, for running
 * the in-tree lm75, tmp102, jc42 and lm90 drivers in KUnit.
 *
 * The adapter only offers SMBus byte, byte data and word data transfers (no
 * plain I2C), which is what the drivers need; register maps that regmap
 * reaches with 16-bit values then go through SMBus word transfers with the
 * bytes swapped, as on a real SMBus. Each chip model keeps a register file
 * with the power-on values of its datasheet, applies the datasheet's
 * read-only bits, resolutions and masks to writes, and computes its
 * temperature and status registers from temperatures the test sets, so that
 * what a driver writes can be checked in the registers and what the test
 * sets can be checked in the driver's files.
 */
#ifndef _HWMON_FAKE_SMBUS_H
#define _HWMON_FAKE_SMBUS_H

#include <linux/types.h>

struct device;
struct hwmon_fake_smbus;
struct i2c_client;
struct kunit;

/**
 * enum hwmon_fake_smbus_model - emulated chips
 * @HWMON_FAKE_LM75: National LM75: 9-bit temperature, THYST, TOS and an
 *	8-bit configuration register with a shutdown bit
 * @HWMON_FAKE_TMP102: TI TMP102: 12-bit or (extended mode) 13-bit
 *	temperature, 16-bit configuration, TLOW and THIGH
 * @HWMON_FAKE_JC42: JEDEC JC-42.4 sensor with Microchip MCP9808 IDs:
 *	capability, configuration (hysteresis, shutdown, locks), upper, lower
 *	and critical limits, temperature with alarm bits, IDs
 * @HWMON_FAKE_LM90: National LM90: 8-bit local and 11-bit remote
 *	temperatures, limits, offset, conversion rate, status, IDs; separate
 *	write addresses for registers 0x03-0x08
 */
enum hwmon_fake_smbus_model {
	HWMON_FAKE_LM75,
	HWMON_FAKE_TMP102,
	HWMON_FAKE_JC42,
	HWMON_FAKE_LM90,
};

/* Register numbers the suites look at (datasheet names). */
#define FAKE_LM75_TEMP		0x00
#define FAKE_LM75_CONF		0x01
#define FAKE_LM75_THYST		0x02
#define FAKE_LM75_TOS		0x03
#define FAKE_LM75_SHUTDOWN	0x01

#define FAKE_TMP102_TEMP	0x00
#define FAKE_TMP102_CONF	0x01
#define FAKE_TMP102_TLOW	0x02
#define FAKE_TMP102_THIGH	0x03

#define FAKE_JC42_CAP		0x00
#define FAKE_JC42_CONFIG	0x01
#define FAKE_JC42_UPPER		0x02
#define FAKE_JC42_LOWER		0x03
#define FAKE_JC42_CRIT		0x04
#define FAKE_JC42_TEMP		0x05
#define FAKE_JC42_MANID		0x06
#define FAKE_JC42_DEVID		0x07
#define FAKE_JC42_CFG_SHDN	0x0100
#define FAKE_JC42_CFG_CRIT_LOCK	0x0080
#define FAKE_JC42_CFG_WIN_LOCK	0x0040
#define FAKE_JC42_CFG_HYST_SHIFT 9

#define FAKE_LM90_LOCAL_TEMP	0x00
#define FAKE_LM90_REMOTE_TEMPH	0x01
#define FAKE_LM90_STATUS	0x02
#define FAKE_LM90_CONFIG	0x03
#define FAKE_LM90_CONVRATE	0x04
#define FAKE_LM90_LOCAL_HIGH	0x05
#define FAKE_LM90_LOCAL_LOW	0x06
#define FAKE_LM90_REMOTE_HIGHH	0x07
#define FAKE_LM90_REMOTE_LOWH	0x08
#define FAKE_LM90_REMOTE_TEMPL	0x10
#define FAKE_LM90_REMOTE_OFFSH	0x11
#define FAKE_LM90_REMOTE_OFFSL	0x12
#define FAKE_LM90_REMOTE_HIGHL	0x13
#define FAKE_LM90_REMOTE_LOWL	0x14
#define FAKE_LM90_REMOTE_CRIT	0x19
#define FAKE_LM90_LOCAL_CRIT	0x20
#define FAKE_LM90_CRIT_HYST	0x21
#define FAKE_LM90_MAN_ID	0xfe
#define FAKE_LM90_CHIP_ID	0xff
#define FAKE_LM90_CFG_STANDBY	0x40
#define FAKE_LM90_CFG_FAULTQ	0x01

struct hwmon_fake_smbus *hwmon_fake_smbus_new(struct kunit *test);
void hwmon_fake_smbus_add_chip(struct hwmon_fake_smbus *bus,
			       enum hwmon_fake_smbus_model model, u16 addr);

u16 hwmon_fake_smbus_reg(struct hwmon_fake_smbus *bus, u16 addr, u8 reg);
void hwmon_fake_smbus_poke(struct hwmon_fake_smbus *bus, u16 addr, u8 reg,
			   u16 val);
void hwmon_fake_smbus_set_temp(struct hwmon_fake_smbus *bus, u16 addr,
			       int channel, int mdeg);
void hwmon_fake_smbus_set_open(struct hwmon_fake_smbus *bus, u16 addr,
			       bool open);
void hwmon_fake_smbus_fail_reg(struct hwmon_fake_smbus *bus, u16 addr,
			       int reg, int err);
unsigned int hwmon_fake_smbus_writes(struct hwmon_fake_smbus *bus, u16 addr,
				     u8 reg);

void hwmon_fake_smbus_set_func(struct hwmon_fake_smbus *bus, u32 func);

struct i2c_client *hwmon_fake_smbus_client(struct hwmon_fake_smbus *bus,
					   const char *type, u16 addr);
struct i2c_client *hwmon_fake_smbus_bare_client(struct hwmon_fake_smbus *bus,
						u16 addr);
void hwmon_fake_smbus_remove_client(struct hwmon_fake_smbus *bus,
				    struct i2c_client *client);

#endif /* _HWMON_FAKE_SMBUS_H */
