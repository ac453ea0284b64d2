/*
 * mailbox.c - VideoCore mailbox property channel (BCM2835 ARM Peripherals
 * addendum; the firmware wiki "Mailbox property interface").
 *
 * The message buffer lives in the non-cacheable section (linker script), so
 * the VideoCore sees what the ARM wrote without ARM cache maintenance. The
 * bus address given to the VideoCore uses the alias through which the ARM
 * itself reaches RAM: on the BCM2835 (Pi 0/1) the ARM's accesses go through
 * the VideoCore L2 cache, which is on by default, so the L2-cached alias
 * 0x40000000 (Linux bcm2835.dtsi dma-ranges, Circle GPU_L2_CACHE_ENABLED
 * for RASPPI 1); a buffer named through the 0xC0000000 direct alias would
 * be read from DRAM behind the L2 and could be stale. BCM2836/7/2711 have
 * no such L2 in the ARM's path: 0xC0000000 (bcm2836/7.dtsi, bcm2711.dtsi).
 * Which alias, and where the mailbox is, are the SoC's facts
 * (platform/<soc>.c), handed to mbox_init().
 * Every wait is bounded; every tag's response code is checked.
 */
#include "drivers/dma/dma_addr.h"
#include "drivers/mailbox.h"
#include "drivers/mmio.h"
#include "drivers/timer.h"
#include "lib/err.h"

#define MBOX_READ	0x00
#define MBOX_STATUS	0x18
#define MBOX_WRITE	0x20
#define  MBOX_FULL	(1u << 31)
#define  MBOX_EMPTY	(1u << 30)

#define MBOX_CH_PROP	8
#define MBOX_REQUEST	0x00000000u
#define MBOX_RESPONSE_OK	0x80000000u
#define MBOX_TAG_RESPONSE	(1u << 31)

#define TAG_FIRMWARE_REV	0x00000001
#define TAG_BOARD_REV		0x00010002
#define TAG_MAC			0x00010003
#define TAG_BOARD_SERIAL	0x00010004
#define TAG_ARM_MEMORY		0x00010005
#define TAG_VC_MEMORY		0x00010006
#define TAG_GET_POWER		0x00020001
#define TAG_SET_POWER		0x00028001
#define TAG_SET_GPIO_STATE 0x00038041u
#define TAG_GET_CLOCK		0x00030002
#define TAG_GET_MAX_CLOCK	0x00030004
#define TAG_SET_CLOCK		0x00038002
#define TAG_GET_TEMP		0x00030006
#define TAG_GET_DMA_CHANNELS	0x00060001
#define TAG_FB_ALLOCATE		0x00040001
#define TAG_FB_GET_PITCH	0x00040008
#define TAG_FB_SET_PHYS		0x00048003
#define TAG_FB_SET_VIRT		0x00048004
#define TAG_FB_SET_DEPTH	0x00048005
#define TAG_FB_SET_ORDER	0x00048006

#define MBOX_TIMEOUT_US	100000

static uintptr_t mbox_base;
static uint32_t mbox_bus_alias = 0xc0000000u;
static volatile uint32_t msg[32] __attribute__((aligned(16), section(".nocache")));

void mbox_init(uintptr_t base, uint32_t bus_alias)
{
	mbox_base = base;
	mbox_bus_alias = bus_alias;
}

static int mbox_send(void);

/* Send one tag with 'words' value words (in/out). */
static int mbox_tag(uint32_t tag, uint32_t *val, uint32_t words, uint32_t req_words)
{
	uint32_t i;
	int r;

	if (!mbox_base || words > 24)
		return -EINVAL;
	msg[0] = (6 + words) * 4;
	msg[1] = MBOX_REQUEST;
	msg[2] = tag;
	msg[3] = words * 4;
	msg[4] = req_words * 4;
	for (i = 0; i < words; i++)
		msg[5 + i] = val[i];
	msg[5 + words] = 0; /* end tag */
	r = mbox_send();
	if (r)
		return r;
	if (!(msg[4] & MBOX_TAG_RESPONSE))
		return -EIO; /* tag not answered */
	if ((msg[4] & ~MBOX_TAG_RESPONSE) > words * 4)
		return -EPROTO;
	for (i = 0; i < words; i++)
		val[i] = msg[5 + i];
	return 0;
}

/* Hand msg (built, with its end tag) to the firmware and wait for the
 * answer: 0, -ETIMEDOUT or -EIO (the whole request refused). */
static int mbox_send(void)
{
	timer_deadline_t d;
	uint32_t addr, r;

	mmio_dsb();
	d = timer_deadline_us(MBOX_TIMEOUT_US);
	while (mmio_read32(mbox_base + MBOX_STATUS) & MBOX_FULL)
		if (timer_expired(d))
			return -ETIMEDOUT;
	/* The buffer is in the low 1 GiB (the linker script puts it there):
	 * its bus address fits the mailbox's 32-bit word. Its ARM physical
	 * address is the pointer on the target (flat map); a host build asks
	 * the simulator's memory map (dma_addr.h). */
	addr = ((uint32_t)(dma_arm_phys((const void *)(uintptr_t)msg, sizeof(msg)) & 0x3fffffffu)) |
	       mbox_bus_alias;
	mmio_write32(mbox_base + MBOX_WRITE, addr | MBOX_CH_PROP);
	for (;;) {
		while (mmio_read32(mbox_base + MBOX_STATUS) & MBOX_EMPTY)
			if (timer_expired(d))
				return -ETIMEDOUT;
		r = mmio_read32(mbox_base + MBOX_READ);
		if ((r & 0xf) == MBOX_CH_PROP && (r & ~0xfu) == (addr & ~0xfu))
			break;
		if (timer_expired(d))
			return -ETIMEDOUT;
	}
	mmio_barrier();
	return msg[1] == MBOX_RESPONSE_OK ? 0 : -EIO;
}

/* A tag that answers one word and takes none. */
static int word_tag(uint32_t tag, uint32_t *out)
{
	uint32_t v[1] = { 0 };
	int r = mbox_tag(tag, v, 1, 0);

	if (!r)
		*out = v[0];
	return r;
}

/* A tag that takes one word (arg) and answers it with a second. */
static int arg_tag(uint32_t tag, uint32_t arg, uint32_t *out)
{
	uint32_t v[2] = { arg, 0 };
	int r = mbox_tag(tag, v, 2, 1);

	if (!r)
		*out = v[1];
	return r;
}

int mbox_get_firmware_revision(uint32_t *rev)
{
	return word_tag(TAG_FIRMWARE_REV, rev);
}

int mbox_get_board_revision(uint32_t *rev)
{
	return word_tag(TAG_BOARD_REV, rev);
}

int mbox_get_board_serial(uint64_t *serial)
{
	uint32_t v[2] = { 0, 0 };
	int r = mbox_tag(TAG_BOARD_SERIAL, v, 2, 0);

	if (!r)
		*serial = ((uint64_t)v[1] << 32) | v[0];
	return r;
}

int mbox_get_mac(uint8_t mac[6])
{
	uint32_t v[2] = { 0, 0 };
	int r = mbox_tag(TAG_MAC, v, 2, 0);
	int i;

	if (!r)
		for (i = 0; i < 6; i++)
			mac[i] = (uint8_t)(v[i / 4] >> (8 * (i % 4)));
	return r;
}

static int mem_tag(uint32_t tag, uint32_t *base, uint32_t *size)
{
	uint32_t v[2] = { 0, 0 };
	int r = mbox_tag(tag, v, 2, 0);

	if (!r) {
		*base = v[0];
		*size = v[1];
	}
	return r;
}

int mbox_get_arm_memory(uint32_t *base, uint32_t *size)
{
	return mem_tag(TAG_ARM_MEMORY, base, size);
}

int mbox_get_vc_memory(uint32_t *base, uint32_t *size)
{
	return mem_tag(TAG_VC_MEMORY, base, size);
}

static int clock_tag(uint32_t tag, uint32_t id, uint32_t *hz)
{
	uint32_t v[2] = { id, 0 };
	int r = mbox_tag(tag, v, 2, 1);

	if (!r) {
		if (v[0] != id)
			return -EPROTO;
		*hz = v[1];
	}
	return r;
}

int mbox_get_clock_rate(uint32_t id, uint32_t *hz)
{
	return clock_tag(TAG_GET_CLOCK, id, hz);
}

int mbox_get_max_clock_rate(uint32_t id, uint32_t *hz)
{
	return clock_tag(TAG_GET_MAX_CLOCK, id, hz);
}

int mbox_set_clock_rate(uint32_t id, uint32_t hz, uint32_t *actual_hz)
{
	uint32_t v[3] = { id, hz, 0 }; /* third word: skip turbo setting */
	int r = mbox_tag(TAG_SET_CLOCK, v, 3, 3);

	if (!r) {
		if (v[0] != id)
			return -EPROTO;
		if (actual_hz)
			*actual_hz = v[1];
	}
	return r;
}

int mbox_get_power_state(uint32_t device, uint32_t *state)
{
	return arg_tag(TAG_GET_POWER, device, state);
}

int mbox_set_power_state(uint32_t device, int on, uint32_t *state)
{
	/* bit 0: on, bit 1: wait for the power to be stable */
	uint32_t v[2] = { device, (on ? 1u : 0u) | 2u };
	int r = mbox_tag(TAG_SET_POWER, v, 2, 2);

	if (!r && state)
		*state = v[1];
	return r;
}

int mbox_get_temperature(uint32_t *millicelsius)
{
	return arg_tag(TAG_GET_TEMP, 0, millicelsius);	/* temperature id 0 */
}

int mbox_get_dma_channels(uint32_t *mask)
{
	return word_tag(TAG_GET_DMA_CHANNELS, mask);
}

int mbox_set_gpio_state(uint32_t gpio, int state)
{
	uint32_t v[2] = { gpio, state ? 1u : 0u };

	return mbox_tag(TAG_SET_GPIO_STATE, v, 2, 2);
}

/* Put one tag with n value words at msg[*at]; returns where its values are. */
static uint32_t put_tag(uint32_t *at, uint32_t tag, uint32_t n, uint32_t v0, uint32_t v1)
{
	uint32_t p = *at;

	msg[p] = tag;
	msg[p + 1] = n * 4;
	msg[p + 2] = 0;
	msg[p + 3] = v0;
	if (n > 1)
		msg[p + 4] = v1;
	*at = p + 3 + n;
	return p + 3;
}

int mbox_fb_alloc(uint32_t *width, uint32_t *height, uint32_t depth, uint32_t *bus,
		  uint32_t *bytes, uint32_t *pitch)
{
	uint32_t at = 2, phys, alloc, pit, dep;
	int r;

	if (!mbox_base)
		return -EINVAL;
	phys = put_tag(&at, TAG_FB_SET_PHYS, 2, *width, *height);
	(void)put_tag(&at, TAG_FB_SET_VIRT, 2, *width, *height);
	dep = put_tag(&at, TAG_FB_SET_DEPTH, 1, depth, 0);
	(void)put_tag(&at, TAG_FB_SET_ORDER, 1, 1, 0); /* RGB */
	alloc = put_tag(&at, TAG_FB_ALLOCATE, 2, 16, 0); /* alignment in, base out */
	pit = put_tag(&at, TAG_FB_GET_PITCH, 1, 0, 0);
	msg[at] = 0; /* end tag */
	msg[0] = (at + 1) * 4;
	msg[1] = MBOX_REQUEST;
	r = mbox_send();
	if (r)
		return r;
	if (!(msg[alloc - 1] & MBOX_TAG_RESPONSE) || !(msg[pit - 1] & MBOX_TAG_RESPONSE))
		return -EIO;
	if (!msg[alloc] || !msg[alloc + 1] || msg[dep] != depth)
		return -ENODEV; /* no buffer (no display, or refused) */
	*width = msg[phys];
	*height = msg[phys + 1];
	*bus = msg[alloc];
	*bytes = msg[alloc + 1];
	*pitch = msg[pit];
	return 0;
}
