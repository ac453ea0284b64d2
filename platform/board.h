/*
 * board.h - which Raspberry Pi this is, found at run time.
 */
#ifndef SDB_PLATFORM_BOARD_H
#define SDB_PLATFORM_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/cpu.h"
#include "lib/pi_revision.h"
#include "platform/board_desc.h"



struct board_info {
	enum cpu_kind cpu;
	uint32_t midr;
	enum soc soc;
	const char *soc_name;
	const struct board_desc *desc; /* its table (board_desc.h): every SoC fact */
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
/* The console the SoC's description names (after stage 2: the UART's
 * clock comes from the mailbox), and the GPIO block when the SoC drives
 * the header's pins. */
void board_start_console(const struct board_info *b, uint32_t baud);

#endif
