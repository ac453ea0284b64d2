/*
 * mailbox.h - the VideoCore mailbox property interface (channel 8).
 */
#ifndef SDB_DRIVERS_MAILBOX_H
#define SDB_DRIVERS_MAILBOX_H

#include <stdint.h>

/* Clock ids (firmware "Mailbox property interface"). */
#define MBOX_CLK_EMMC	1
#define MBOX_CLK_UART	2
#define MBOX_CLK_ARM	3
#define MBOX_CLK_CORE	4
#define MBOX_CLK_EMMC2	12

/* Power device ids. */
#define MBOX_PWR_SD	0

/* The mailbox's registers at base; the VideoCore is given the message
 * buffer's bus address with bits 31:30 = bus_alias's (0x40000000 through
 * the BCM2835's L2, 0xC0000000 direct). */
void mbox_init(uintptr_t base, uint32_t bus_alias);

/* One tag per call; each returns 0 or -errno (-ETIMEDOUT, -EIO when the
 * firmware did not answer the tag, -EPROTO for a malformed answer). */
int mbox_get_firmware_revision(uint32_t *rev);
int mbox_get_board_revision(uint32_t *rev);
int mbox_get_board_serial(uint64_t *serial);
int mbox_get_mac(uint8_t mac[6]);
int mbox_get_arm_memory(uint32_t *base, uint32_t *size);
int mbox_get_vc_memory(uint32_t *base, uint32_t *size);
int mbox_get_clock_rate(uint32_t clock_id, uint32_t *hz);
int mbox_get_max_clock_rate(uint32_t clock_id, uint32_t *hz);
int mbox_set_clock_rate(uint32_t clock_id, uint32_t hz, uint32_t *actual_hz);
int mbox_get_power_state(uint32_t device, uint32_t *state);
int mbox_set_power_state(uint32_t device, int on, uint32_t *state);
int mbox_get_temperature(uint32_t *millicelsius);
/* DMA channels the firmware leaves to the ARM: bit n = channel n. */
int mbox_get_dma_channels(uint32_t *mask);
/* The firmware's GPIO expander (Pi 4: lines 128 + n of the device tree's
 * expgpio n): set an output line to 0 or 1. */
#define MBOX_EXPGPIO_BASE 128u
int mbox_set_gpio_state(uint32_t gpio, int state);

/* A framebuffer from the firmware (one message: physical and virtual size,
 * depth, pixel order RGB, allocate, pitch). width/height are what was
 * asked and come back as what the firmware set; *bus the buffer's bus
 * address, *bytes its size, *pitch bytes per line. */
int mbox_fb_alloc(uint32_t *width, uint32_t *height, uint32_t depth, uint32_t *bus,
		  uint32_t *bytes, uint32_t *pitch);

#endif
