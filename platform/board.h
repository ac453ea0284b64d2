/*
 * board.h - which Raspberry Pi this is, found at run time.
 */
#ifndef SDB_PLATFORM_BOARD_H
#define SDB_PLATFORM_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/cpu.h"
#include "lib/pi_revision.h"

enum soc { SOC_BCM2835, SOC_BCM2836, SOC_BCM2837, SOC_BCM2711, SOC_UNKNOWN, SOC_BCM2712 };

/* BCM2712 (Pi 5 / CM5 / Pi 500): the peripherals sit above 4 GiB (Linux
 * bcm2712.dtsi). periph_base is the legacy block's base, where the system
 * timer (+0x3000) and the mailbox (+0x13880) are; the debug UART (the
 * 3-pin connector) and the SD slot controller have addresses of their own.
 * Only a 64-bit build can reach them (the Pi 5 boots only 64-bit). */
#define BCM2712_PERIPH_BASE	0x107c000000ull
#define BCM2712_PERIPH_SIZE	0x04000000u
#define BCM2712_DEBUG_UART_BASE	0x107d001000ull
#define BCM2712_DEBUG_UART_HZ	9216000u /* clk_uart, a fixed clock */
#define BCM2712_MBOX_OFFSET	0x13880u


struct board_info {
	enum cpu_kind cpu;
	uint32_t midr;
	enum soc soc;
	const char *soc_name;
	uintptr_t periph_base;
	uint32_t periph_size;

	int mbox_status;         /* 0, or the first mailbox error */
	uint32_t revision;       /* board revision code */
	struct pi_revision rev;
	uint32_t fw_revision;
	uint64_t serial;
	uint8_t mac[6];
	uint32_t arm_mem_base, arm_mem_size;
	uint32_t vc_mem_base, vc_mem_size;
	uint32_t arm_clock_hz, core_clock_hz, emmc_clock_hz, uart_clock_hz;
	uint32_t emmc2_clock_hz;
	uint32_t temp_mc;        /* SoC temperature, milli-degC, 0 unknown */
	bool emulated;           /* QEMU recognised */
	const char *emulated_reason;
};

/* Stage 1: from the CPU alone (MIDR): SoC and peripheral base. */
void board_detect_cpu(struct board_info *b);
/* Stage 2: the mailbox facts (needs the timer for its deadlines). */
void board_detect_mailbox(struct board_info *b);

#endif
