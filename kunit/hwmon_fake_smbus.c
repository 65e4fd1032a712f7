// SPDX-License-Identifier: GPL-2.0-only
/*
 * A fake SMBus adapter with emulated LM75, TMP102, JC42 and LM90 register
 * maps, for running the in-tree drivers of these chips in KUnit.
 *
 * The register semantics come from the chips' datasheets: which registers
 * exist, their power-on values, which bits are read only, the resolution
 * of limit registers, and how the temperature and status registers follow
 * the temperature. Conversions happen at once: setting a temperature is a
 * finished conversion, unless the chip is shut down, in which case its
 * temperature register keeps the last result, as on the real parts.
 */

#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/i2c.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/swab.h>

#include "hwmon_fake_smbus.h"
#include "hwmon_sysfs_util.h"

#define FAKE_SMBUS_MAX_CHIPS	4

struct fake_chip;

/**
 * struct fake_model - behaviour of one chip model
 * @power_on: set the power-on register values and temperatures
 * @read: read register @reg; @word selects a 16-bit read. Returns 0 or the
 *	error of a transfer the chip does not answer.
 * @write: write register @reg, as @read
 * @convert: update the temperature registers from the temperatures, or
 *	NULL if they are computed when read
 */
struct fake_model {
	void (*power_on)(struct fake_chip *chip);
	int (*read)(struct fake_chip *chip, u8 reg, bool word, u16 *val);
	int (*write)(struct fake_chip *chip, u8 reg, bool word, u16 val);
	void (*convert)(struct fake_chip *chip);
};

/**
 * struct fake_chip - one emulated chip
 * @model: its model
 * @addr: its 7-bit address
 * @reg: register file (8-bit registers use the low byte)
 * @pointer: register pointer, set by the command byte of every transfer
 * @temp: temperatures in millidegrees: [0] local, [1] remote (LM90)
 * @open: LM90 remote diode disconnected
 * @fail_reg: register whose transfers fail, or -1
 * @fail_err: error those transfers return
 * @writes: successful write transfers per command byte
 */
struct fake_chip {
	const struct fake_model *model;
	u16 addr;
	u16 reg[256];
	u8 pointer;
	int temp[2];
	bool open;
	int fail_reg;
	int fail_err;
	unsigned int writes[256];
};

/**
 * struct hwmon_fake_smbus - the fake adapter
 * @test: test that owns it
 * @adap: the I2C adapter
 * @lock: protects the chips against concurrent transfers and test accesses
 * @chips: chips on the bus
 * @nchips: number of chips
 */
struct hwmon_fake_smbus {
	struct kunit *test;
	struct i2c_adapter adap;
	struct mutex lock;	/* chips vs. transfers and test accesses */
	struct fake_chip chips[FAKE_SMBUS_MAX_CHIPS];
	int nchips;
	u32 extra_func;
};

/* Temperatures in 1/16 degree steps, as most of these chips count. */
static int mdeg_to_sixteenths(int mdeg)
{
	return mdeg * 2 / 125;
}

/*
 * LM75: pointer values 0-3 select temperature, configuration, THYST and
 * TOS. Temperature, THYST and TOS are 16-bit, most significant byte first,
 * two's complement, of which the top 9 bits (0.5 degree) are used; a one
 * byte read returns the most significant byte. Configuration is one byte
 * (bits 7-5 reserved, bit 0 shutdown).
 */
static void lm75_convert(struct fake_chip *chip)
{
	if (!(chip->reg[FAKE_LM75_CONF] & FAKE_LM75_SHUTDOWN))
		chip->reg[FAKE_LM75_TEMP] = (u16)(chip->temp[0] / 500 * 128);
}

static void lm75_power_on(struct fake_chip *chip)
{
	chip->reg[FAKE_LM75_CONF] = 0x00;
	chip->reg[FAKE_LM75_THYST] = 0x4b00;	/* 75 degrees */
	chip->reg[FAKE_LM75_TOS] = 0x5000;	/* 80 degrees */
	chip->temp[0] = 25000;
	lm75_convert(chip);
}

static int lm75_read(struct fake_chip *chip, u8 reg, bool word, u16 *val)
{
	switch (reg) {
	case FAKE_LM75_CONF:
		if (word)
			return -EIO;
		*val = chip->reg[reg];
		return 0;
	case FAKE_LM75_TEMP:
	case FAKE_LM75_THYST:
	case FAKE_LM75_TOS:
		*val = word ? chip->reg[reg] : chip->reg[reg] >> 8;
		return 0;
	default:
		return -EIO;
	}
}

static int lm75_write(struct fake_chip *chip, u8 reg, bool word, u16 val)
{
	switch (reg) {
	case FAKE_LM75_TEMP:
		return 0;	/* read only: ignored */
	case FAKE_LM75_CONF:
		if (word)
			return -EIO;
		chip->reg[reg] = val & 0x1f;
		lm75_convert(chip);
		return 0;
	case FAKE_LM75_THYST:
	case FAKE_LM75_TOS:
		if (!word)
			return -EIO;
		chip->reg[reg] = val & 0xff80;
		return 0;
	default:
		return -EIO;
	}
}

static const struct fake_model fake_lm75 = {
	.power_on = lm75_power_on,
	.read = lm75_read,
	.write = lm75_write,
	.convert = lm75_convert,
};

/*
 * TMP102: four 16-bit registers, most significant byte first. The
 * temperature is 12 bits left justified, or 13 bits shifted left by 3 with
 * bit 0 set in extended mode (EM). Configuration: OS (one-shot, reads 0),
 * R1 R0 (read only, 11), F1 F0, POL, TM, SD in the high byte; CR1 CR0, AL
 * (read only), EM in the low byte. TLOW and THIGH hold limits in the
 * temperature format; the unused low bits read 0.
 */
#define TMP102_OS	0x8000
#define TMP102_RO_BITS	0x6020
#define TMP102_RW_BITS	0x1fd0
#define TMP102_SD	0x0100
#define TMP102_EM	0x0010

static void tmp102_sample(struct fake_chip *chip)
{
	int counts = mdeg_to_sixteenths(chip->temp[0]);

	if (chip->reg[FAKE_TMP102_CONF] & TMP102_EM)
		chip->reg[FAKE_TMP102_TEMP] = (u16)(counts * 8) | 1;
	else
		chip->reg[FAKE_TMP102_TEMP] = (u16)(counts * 16);
}

static void tmp102_convert(struct fake_chip *chip)
{
	if (!(chip->reg[FAKE_TMP102_CONF] & TMP102_SD))
		tmp102_sample(chip);
}

static void tmp102_power_on(struct fake_chip *chip)
{
	chip->reg[FAKE_TMP102_CONF] = 0x60a0;
	chip->reg[FAKE_TMP102_TLOW] = 0x4b00;	/* 75 degrees */
	chip->reg[FAKE_TMP102_THIGH] = 0x5000;	/* 80 degrees */
	chip->temp[0] = 25000;
	tmp102_convert(chip);
}

static int tmp102_read(struct fake_chip *chip, u8 reg, bool word, u16 *val)
{
	if (reg > FAKE_TMP102_THIGH)
		return -EIO;
	*val = word ? chip->reg[reg] : chip->reg[reg] >> 8;
	return 0;
}

static int tmp102_write(struct fake_chip *chip, u8 reg, bool word, u16 val)
{
	u16 conf = chip->reg[FAKE_TMP102_CONF];

	if (reg > FAKE_TMP102_THIGH || !word)
		return -EIO;
	switch (reg) {
	case FAKE_TMP102_TEMP:
		return 0;	/* read only: ignored */
	case FAKE_TMP102_CONF:
		chip->reg[reg] = (conf & TMP102_RO_BITS) | (val & TMP102_RW_BITS);
		if ((val & TMP102_OS) && (val & TMP102_SD))
			tmp102_sample(chip);	/* one-shot conversion */
		tmp102_convert(chip);
		return 0;
	default:
		chip->reg[reg] = val & ((conf & TMP102_EM) ? 0xfff8 : 0xfff0);
		return 0;
	}
}

static const struct fake_model fake_tmp102 = {
	.power_on = tmp102_power_on,
	.read = tmp102_read,
	.write = tmp102_write,
	.convert = tmp102_convert,
};

/*
 * JC-42.4 (values of a Microchip MCP9808): 16-bit registers, most
 * significant byte first, word access only. Limits are 13-bit two's
 * complement in 1/16 degree units of which bits 1-0 are not implemented
 * (0.25 degree). The temperature register carries the alarm bits: 15 when
 * at or above the critical limit, 14 above the upper limit, 13 below the
 * lower limit. Configuration: hysteresis in bits 10-9, shutdown in bit 8,
 * critical lock in bit 7, window lock in bit 6; a set lock bit stays set,
 * write protects its limits and freezes hysteresis and shutdown.
 */
#define JC42_LOCKS	(FAKE_JC42_CFG_CRIT_LOCK | FAKE_JC42_CFG_WIN_LOCK)
#define JC42_FROZEN	0x0700	/* hysteresis and shutdown */
#define JC42_CFG_RW	0x07cf

static void jc42_convert(struct fake_chip *chip)
{
	if (!(chip->reg[FAKE_JC42_CONFIG] & FAKE_JC42_CFG_SHDN))
		chip->reg[FAKE_JC42_TEMP] =
			(u16)mdeg_to_sixteenths(chip->temp[0]) & 0x1fff;
}

static void jc42_power_on(struct fake_chip *chip)
{
	chip->reg[FAKE_JC42_CAP] = 0x001f;	/* alarms, accuracy, range, 1/16 */
	chip->reg[FAKE_JC42_CONFIG] = 0x0000;
	chip->reg[FAKE_JC42_UPPER] = 0x0000;
	chip->reg[FAKE_JC42_LOWER] = 0x0000;
	chip->reg[FAKE_JC42_CRIT] = 0x0000;
	chip->reg[FAKE_JC42_MANID] = 0x0054;
	chip->reg[FAKE_JC42_DEVID] = 0x0400;
	chip->temp[0] = 25000;
	jc42_convert(chip);
}

static int jc42_value(struct fake_chip *chip, u8 reg)
{
	return sign_extend32(chip->reg[reg], 12);
}

static int jc42_read(struct fake_chip *chip, u8 reg, bool word, u16 *val)
{
	int t;

	if (!word || reg > FAKE_JC42_DEVID)
		return -EIO;
	*val = chip->reg[reg];
	if (reg == FAKE_JC42_TEMP) {
		t = jc42_value(chip, FAKE_JC42_TEMP);
		if (t >= jc42_value(chip, FAKE_JC42_CRIT))
			*val |= BIT(15);
		if (t > jc42_value(chip, FAKE_JC42_UPPER))
			*val |= BIT(14);
		if (t < jc42_value(chip, FAKE_JC42_LOWER))
			*val |= BIT(13);
	}
	return 0;
}

static int jc42_write(struct fake_chip *chip, u8 reg, bool word, u16 val)
{
	u16 config = chip->reg[FAKE_JC42_CONFIG];

	if (!word || reg > FAKE_JC42_DEVID)
		return -EIO;
	switch (reg) {
	case FAKE_JC42_CONFIG:
		val &= JC42_CFG_RW;
		if (config & JC42_LOCKS)
			val = (val & ~JC42_FROZEN) | (config & JC42_FROZEN);
		chip->reg[reg] = val | (config & JC42_LOCKS);
		jc42_convert(chip);
		return 0;
	case FAKE_JC42_UPPER:
	case FAKE_JC42_LOWER:
		if (!(config & FAKE_JC42_CFG_WIN_LOCK))
			chip->reg[reg] = val & 0x1ffc;
		return 0;
	case FAKE_JC42_CRIT:
		if (!(config & FAKE_JC42_CFG_CRIT_LOCK))
			chip->reg[reg] = val & 0x1ffc;
		return 0;
	default:
		return 0;	/* read only: ignored */
	}
}

static const struct fake_model fake_jc42 = {
	.power_on = jc42_power_on,
	.read = jc42_read,
	.write = jc42_write,
	.convert = jc42_convert,
};

/*
 * LM90: 8-bit registers, byte access (and receive byte at the pointer).
 * Registers 0x03-0x08 are written at 0x09-0x0e. The local temperature and
 * limits are whole degrees, two's complement. The remote temperature and
 * its high and low limits have a second byte (0x10, 0x13, 0x14) with 1/8
 * degree in bits 7-5; so has the remote offset (0x11, 0x12), which is added
 * to the remote reading. Status: 6/5 local high/low, 4/3 remote high/low,
 * 2 remote diode open, 1/0 remote/local critical; computed when read.
 */
static int lm90_remote_eighths(struct fake_chip *chip)
{
	s16 offset = chip->reg[FAKE_LM90_REMOTE_OFFSH] << 8 |
		     chip->reg[FAKE_LM90_REMOTE_OFFSL];

	return chip->temp[1] * 8 / 1000 + (offset >> 5);
}

static int lm90_limit_eighths(struct fake_chip *chip, u8 regh, u8 regl)
{
	s16 limit = chip->reg[regh] << 8 | chip->reg[regl];

	return limit >> 5;
}

static u8 lm90_status(struct fake_chip *chip)
{
	int local = chip->temp[0] / 1000;
	int remote = lm90_remote_eighths(chip);
	u8 status = 0;

	if (local > (s8)chip->reg[FAKE_LM90_LOCAL_HIGH])
		status |= BIT(6);
	if (local < (s8)chip->reg[FAKE_LM90_LOCAL_LOW])
		status |= BIT(5);
	if (local > (s8)chip->reg[FAKE_LM90_LOCAL_CRIT])
		status |= BIT(0);
	if (chip->open)
		return status | BIT(2);
	if (remote > lm90_limit_eighths(chip, FAKE_LM90_REMOTE_HIGHH,
					FAKE_LM90_REMOTE_HIGHL))
		status |= BIT(4);
	if (remote < lm90_limit_eighths(chip, FAKE_LM90_REMOTE_LOWH,
					FAKE_LM90_REMOTE_LOWL))
		status |= BIT(3);
	if (remote > (s8)chip->reg[FAKE_LM90_REMOTE_CRIT] * 8)
		status |= BIT(1);
	return status;
}

static void lm90_power_on(struct fake_chip *chip)
{
	chip->reg[FAKE_LM90_CONFIG] = 0x00;
	chip->reg[FAKE_LM90_CONVRATE] = 0x08;	/* 16 conversions/s */
	chip->reg[FAKE_LM90_LOCAL_HIGH] = 70;
	chip->reg[FAKE_LM90_LOCAL_LOW] = 0;
	chip->reg[FAKE_LM90_REMOTE_HIGHH] = 70;
	chip->reg[FAKE_LM90_REMOTE_LOWH] = 0;
	chip->reg[FAKE_LM90_REMOTE_CRIT] = 85;
	chip->reg[FAKE_LM90_LOCAL_CRIT] = 85;
	chip->reg[FAKE_LM90_CRIT_HYST] = 10;
	chip->reg[0xbf] = 0x00;			/* alert/filter config */
	chip->reg[FAKE_LM90_MAN_ID] = 0x01;	/* National */
	chip->reg[FAKE_LM90_CHIP_ID] = 0x21;	/* LM90, revision 1 */
	chip->temp[0] = 25000;
	chip->temp[1] = 30000;
}

static int lm90_read(struct fake_chip *chip, u8 reg, bool word, u16 *val)
{
	if (word)
		return -EIO;
	switch (reg) {
	case FAKE_LM90_LOCAL_TEMP:
		*val = (u8)(chip->temp[0] / 1000);
		return 0;
	case FAKE_LM90_REMOTE_TEMPH:
		*val = (u8)(lm90_remote_eighths(chip) >> 3);
		return 0;
	case FAKE_LM90_REMOTE_TEMPL:
		*val = (lm90_remote_eighths(chip) & 7) << 5;
		return 0;
	case FAKE_LM90_STATUS:
		*val = lm90_status(chip);
		return 0;
	case FAKE_LM90_CONFIG ... FAKE_LM90_REMOTE_LOWH:
	case FAKE_LM90_REMOTE_OFFSH ... FAKE_LM90_REMOTE_LOWL:
	case FAKE_LM90_REMOTE_CRIT:
	case FAKE_LM90_LOCAL_CRIT:
	case FAKE_LM90_CRIT_HYST:
	case 0xbf:
	case FAKE_LM90_MAN_ID:
	case FAKE_LM90_CHIP_ID:
		*val = chip->reg[reg];
		return 0;
	default:
		return -EIO;
	}
}

static int lm90_write(struct fake_chip *chip, u8 reg, bool word, u16 val)
{
	if (word)
		return -EIO;
	switch (reg) {
	case 0x09 ... 0x0e:	/* write addresses of 0x03-0x08 */
		chip->reg[reg - 6] = val;
		return 0;
	case 0x0f:		/* one-shot: conversions are instant anyway */
		return 0;
	case FAKE_LM90_REMOTE_OFFSL:
	case FAKE_LM90_REMOTE_HIGHL:
	case FAKE_LM90_REMOTE_LOWL:
		chip->reg[reg] = val & 0xe0;
		return 0;
	case FAKE_LM90_REMOTE_OFFSH:
	case FAKE_LM90_REMOTE_CRIT:
	case FAKE_LM90_LOCAL_CRIT:
	case FAKE_LM90_CRIT_HYST:
	case 0xbf:
		chip->reg[reg] = val;
		return 0;
	case FAKE_LM90_LOCAL_TEMP ... FAKE_LM90_REMOTE_LOWH:
	case FAKE_LM90_REMOTE_TEMPL:
	case FAKE_LM90_MAN_ID:
	case FAKE_LM90_CHIP_ID:
		return 0;	/* read addresses: ignored */
	default:
		return -EIO;
	}
}

static const struct fake_model fake_lm90 = {
	.power_on = lm90_power_on,
	.read = lm90_read,
	.write = lm90_write,
};

static const struct fake_model *const fake_models[] = {
	[HWMON_FAKE_LM75] = &fake_lm75,
	[HWMON_FAKE_TMP102] = &fake_tmp102,
	[HWMON_FAKE_JC42] = &fake_jc42,
	[HWMON_FAKE_LM90] = &fake_lm90,
};

static struct fake_chip *fake_find(struct hwmon_fake_smbus *bus, u16 addr)
{
	int i;

	for (i = 0; i < bus->nchips; i++)
		if (bus->chips[i].addr == addr)
			return &bus->chips[i];
	return NULL;
}

static int fake_read(struct fake_chip *chip, u8 reg, bool word, u16 *val)
{
	if (chip->fail_reg == reg)
		return chip->fail_err;
	return chip->model->read(chip, reg, word, val);
}

static int fake_write(struct fake_chip *chip, u8 reg, bool word, u16 val)
{
	int ret;

	if (chip->fail_reg == reg)
		return chip->fail_err;
	ret = chip->model->write(chip, reg, word, val);
	if (!ret)
		chip->writes[reg]++;
	return ret;
}

static int fake_chip_xfer(struct fake_chip *chip, char read_write, u8 command,
			  int size, union i2c_smbus_data *data)
{
	bool write = read_write == I2C_SMBUS_WRITE;
	u16 val;
	int ret;

	switch (size) {
	case I2C_SMBUS_BYTE:
		if (write) {
			chip->pointer = command;
			return 0;
		}
		ret = fake_read(chip, chip->pointer, false, &val);
		if (!ret)
			data->byte = val;
		return ret;
	case I2C_SMBUS_BYTE_DATA:
		chip->pointer = command;
		if (write)
			return fake_write(chip, command, false, data->byte);
		ret = fake_read(chip, command, false, &val);
		if (!ret)
			data->byte = val;
		return ret;
	case I2C_SMBUS_WORD_DATA:
		/*
		 * The chips send the most significant byte first; an SMBus
		 * word has its least significant byte first.
		 */
		chip->pointer = command;
		if (write)
			return fake_write(chip, command, true, swab16(data->word));
		ret = fake_read(chip, command, true, &val);
		if (!ret)
			data->word = swab16(val);
		return ret;
	default:
		return -EOPNOTSUPP;
	}
}

static int fake_smbus_xfer(struct i2c_adapter *adap, u16 addr,
			   unsigned short flags, char read_write, u8 command,
			   int size, union i2c_smbus_data *data)
{
	struct hwmon_fake_smbus *bus = i2c_get_adapdata(adap);
	struct fake_chip *chip;
	int ret;

	mutex_lock(&bus->lock);
	chip = fake_find(bus, addr);
	if (chip)
		ret = fake_chip_xfer(chip, read_write, command, size, data);
	else
		ret = -ENXIO;	/* no chip acknowledges the address */
	mutex_unlock(&bus->lock);
	return ret;
}

static u32 fake_smbus_func(struct i2c_adapter *adap)
{
	struct hwmon_fake_smbus *bus = i2c_get_adapdata(adap);

	return I2C_FUNC_SMBUS_BYTE | I2C_FUNC_SMBUS_BYTE_DATA |
	       I2C_FUNC_SMBUS_WORD_DATA | bus->extra_func;
}

static const struct i2c_algorithm fake_smbus_algo = {
	.smbus_xfer = fake_smbus_xfer,
	.functionality = fake_smbus_func,
};

static void fake_smbus_del(void *data)
{
	struct hwmon_fake_smbus *bus = data;

	i2c_del_adapter(&bus->adap);
	mutex_destroy(&bus->lock);
	kfree(bus);
}

/**
 * hwmon_fake_smbus_new() - register a fake SMBus adapter without chips
 * @test: the test
 *
 * The adapter has no class bits, so no driver probes it for devices on its
 * own. It is deleted when the test ends, after the clients created on it.
 * Fails the test if it cannot be registered.
 *
 * Return: the adapter.
 */
struct hwmon_fake_smbus *hwmon_fake_smbus_new(struct kunit *test)
{
	struct hwmon_fake_smbus *bus;
	int ret;

	bus = kzalloc(sizeof(*bus), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, bus);
	bus->test = test;
	mutex_init(&bus->lock);
	bus->adap.owner = THIS_MODULE;
	bus->adap.algo = &fake_smbus_algo;
	strscpy(bus->adap.name, "hwmon-kunit-smbus", sizeof(bus->adap.name));
	i2c_set_adapdata(&bus->adap, bus);
	ret = i2c_add_adapter(&bus->adap);
	if (ret) {
		mutex_destroy(&bus->lock);
		kfree(bus);
	}
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, hwmon_test_defer(test, fake_smbus_del, bus), 0);
	return bus;
}

static struct fake_chip *fake_chip_at(struct hwmon_fake_smbus *bus, u16 addr)
{
	struct fake_chip *chip = fake_find(bus, addr);

	KUNIT_ASSERT_NOT_NULL_MSG(bus->test, chip, "no chip at 0x%02x", addr);
	return chip;
}

/**
 * hwmon_fake_smbus_add_chip() - put an emulated chip on the bus
 * @bus: the adapter
 * @model: chip model
 * @addr: 7-bit address
 *
 * The chip starts with its power-on register values, 25 degrees local
 * temperature and (LM90) 30 degrees remote temperature.
 */
void hwmon_fake_smbus_add_chip(struct hwmon_fake_smbus *bus,
			       enum hwmon_fake_smbus_model model, u16 addr)
{
	struct fake_chip *chip;

	KUNIT_ASSERT_LT(bus->test, bus->nchips, FAKE_SMBUS_MAX_CHIPS);
	KUNIT_ASSERT_NULL(bus->test, fake_find(bus, addr));
	mutex_lock(&bus->lock);
	chip = &bus->chips[bus->nchips];
	memset(chip, 0, sizeof(*chip));
	chip->model = fake_models[model];
	chip->addr = addr;
	chip->fail_reg = -1;
	chip->model->power_on(chip);
	bus->nchips++;
	mutex_unlock(&bus->lock);
}

/**
 * hwmon_fake_smbus_reg() - a chip register as stored
 * @bus: the adapter
 * @addr: chip address
 * @reg: register number (LM90: the read address)
 *
 * Registers computed when read (JC42 alarm bits, LM90 temperatures and
 * status) are not computed here.
 *
 * Return: the register value.
 */
u16 hwmon_fake_smbus_reg(struct hwmon_fake_smbus *bus, u16 addr, u8 reg)
{
	struct fake_chip *chip = fake_chip_at(bus, addr);
	u16 val;

	mutex_lock(&bus->lock);
	val = chip->reg[reg];
	mutex_unlock(&bus->lock);
	return val;
}

/**
 * hwmon_fake_smbus_poke() - set a chip register directly
 * @bus: the adapter
 * @addr: chip address
 * @reg: register number
 * @val: value, stored as is (to set up the state firmware left)
 */
void hwmon_fake_smbus_poke(struct hwmon_fake_smbus *bus, u16 addr, u8 reg,
			   u16 val)
{
	struct fake_chip *chip = fake_chip_at(bus, addr);

	mutex_lock(&bus->lock);
	chip->reg[reg] = val;
	mutex_unlock(&bus->lock);
}

/**
 * hwmon_fake_smbus_set_temp() - change a temperature the chip measures
 * @bus: the adapter
 * @addr: chip address
 * @channel: 0 local, 1 remote (LM90)
 * @mdeg: temperature in millidegrees
 *
 * The chip converts it at once unless it is shut down.
 */
void hwmon_fake_smbus_set_temp(struct hwmon_fake_smbus *bus, u16 addr,
			       int channel, int mdeg)
{
	struct fake_chip *chip = fake_chip_at(bus, addr);

	KUNIT_ASSERT_TRUE(bus->test, channel == 0 || channel == 1);
	mutex_lock(&bus->lock);
	chip->temp[channel] = mdeg;
	if (chip->model->convert)
		chip->model->convert(chip);
	mutex_unlock(&bus->lock);
}

/**
 * hwmon_fake_smbus_set_open() - connect or disconnect the LM90 remote diode
 * @bus: the adapter
 * @addr: chip address
 * @open: true to disconnect it
 */
void hwmon_fake_smbus_set_open(struct hwmon_fake_smbus *bus, u16 addr,
			       bool open)
{
	struct fake_chip *chip = fake_chip_at(bus, addr);

	mutex_lock(&bus->lock);
	chip->open = open;
	mutex_unlock(&bus->lock);
}

/**
 * hwmon_fake_smbus_fail_reg() - make the transfers of one register fail
 * @bus: the adapter
 * @addr: chip address
 * @reg: register (command byte), or -1 to stop failing
 * @err: error the transfers return
 */
void hwmon_fake_smbus_fail_reg(struct hwmon_fake_smbus *bus, u16 addr,
			       int reg, int err)
{
	struct fake_chip *chip = fake_chip_at(bus, addr);

	mutex_lock(&bus->lock);
	chip->fail_reg = reg;
	chip->fail_err = err;
	mutex_unlock(&bus->lock);
}

/**
 * hwmon_fake_smbus_writes() - number of successful writes to a register
 * @bus: the adapter
 * @addr: chip address
 * @reg: command byte of the writes
 *
 * Return: the count since the chip was added.
 */
unsigned int hwmon_fake_smbus_writes(struct hwmon_fake_smbus *bus, u16 addr,
				     u8 reg)
{
	struct fake_chip *chip = fake_chip_at(bus, addr);
	unsigned int n;

	mutex_lock(&bus->lock);
	n = chip->writes[reg];
	mutex_unlock(&bus->lock);
	return n;
}

static void fake_client_unregister(void *data)
{
	i2c_unregister_device(data);
}

/**
 * hwmon_fake_smbus_client() - instantiate a device on the fake bus
 * @bus: the adapter
 * @type: I2C device name, which selects the driver ("lm75", "lm90", ...)
 * @addr: address
 *
 * The client is unregistered when the test ends. Fails the test if the
 * device cannot be created or no driver binds to it.
 *
 * Return: the client, bound to its driver.
 */
struct i2c_client *hwmon_fake_smbus_client(struct hwmon_fake_smbus *bus,
					   const char *type, u16 addr)
{
	struct i2c_board_info info = { .addr = addr };
	struct i2c_client *client;

	strscpy(info.type, type, sizeof(info.type));
	client = i2c_new_client_device(&bus->adap, &info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(bus->test, client);
	KUNIT_ASSERT_EQ(bus->test,
			hwmon_test_defer(bus->test, fake_client_unregister,
					 client), 0);
	KUNIT_ASSERT_NOT_NULL_MSG(bus->test, client->dev.driver,
				  "no driver bound to %s at 0x%02x", type, addr);
	return client;
}

/**
 * hwmon_fake_smbus_set_func() - add functionality bits to the adapter
 * @bus: the adapter
 * @func: I2C_FUNC_* bits the adapter reports on top of SMBus byte, byte
 *	data and word data (e.g. I2C_FUNC_SMBUS_PEC); 0 for none
 *
 * The transfers themselves do not change: the emulated chips ignore the
 * PEC byte.
 */
void hwmon_fake_smbus_set_func(struct hwmon_fake_smbus *bus, u32 func)
{
	bus->extra_func = func;
}

/**
 * hwmon_fake_smbus_bare_client() - a device on the fake bus without a driver
 * @bus: the adapter
 * @addr: address
 *
 * The client has a device type no driver matches, so nothing binds to it;
 * a test registers hwmon devices below it itself. It is unregistered when
 * the test ends.
 *
 * Return: the client.
 */
struct i2c_client *hwmon_fake_smbus_bare_client(struct hwmon_fake_smbus *bus,
						u16 addr)
{
	struct i2c_board_info info = { .addr = addr };
	struct i2c_client *client;

	strscpy(info.type, "hwmon-kunit-bare", sizeof(info.type));
	client = i2c_new_client_device(&bus->adap, &info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(bus->test, client);
	KUNIT_ASSERT_EQ(bus->test,
			hwmon_test_defer(bus->test, fake_client_unregister,
					 client), 0);
	KUNIT_ASSERT_NULL(bus->test, client->dev.driver);
	return client;
}

/**
 * hwmon_fake_smbus_remove_client() - unregister a client now
 * @bus: the adapter
 * @client: client from hwmon_fake_smbus_client()
 *
 * Unbinding runs the driver's remove and devm actions, which may write the
 * chip.
 */
void hwmon_fake_smbus_remove_client(struct hwmon_fake_smbus *bus,
				    struct i2c_client *client)
{
	hwmon_test_run_now(bus->test, fake_client_unregister, client);
}
