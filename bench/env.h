/*
 * env.h - what the start-up code hands to the benchmark: the platform facts
 * bench/ needs, without bench/ calling target-only code. Host tests fill it
 * in for the simulator.
 */
#ifndef SDB_BENCH_ENV_H
#define SDB_BENCH_ENV_H

#include <stdbool.h>
#include <stdint.h>

struct bench_env {
	bool emulated;            /* QEMU: timings are emulation speed */
	const char *board_model;
	uintptr_t periph_base;
	uintptr_t emmc_base;      /* Arasan EMMC registers (ARM physical) */
	uint32_t emmc_clock_hz;   /* its base clock from the mailbox; 0 unknown */
	uint8_t *buf;             /* scratch memory for transfers (cacheable) */
	uint32_t buf_bytes;
	/* Selects the SD pins' controller (GPIO 48-53); NULL when not needed. */
	int (*select_emmc_pins)(void);
	/* Non-NULL when this board's SD slot is on a controller sdbench does
	 * not drive yet (the reason, for the user). */
	const char *sd_unsupported;
};

#endif
