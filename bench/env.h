/*
 * env.h - what the start-up code hands to the benchmark: the platform facts
 * bench/ needs, without bench/ calling target-only code. Host tests fill it
 * in for the simulator.
 */
#ifndef SDB_BENCH_ENV_H
#define SDB_BENCH_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/sd/sd_host.h"

struct bench_env {
	bool emulated;            /* QEMU: timings are emulation speed */
	bool simulated;           /* the host simulator (sim/): no card at all */
	const char *board_model;
	uintptr_t periph_base;
	/* The SD slot's host controller, built by the platform (target:
	 * platform/slot.c; host: the simulator), ready for reset(). NULL
	 * when sd_unsupported or host_error says why. */
	struct sd_host *host;
	int host_error;           /* 0, or what building the host returned */
	const char *host_error_what;
	uintptr_t host_error_base;
	const char *dma_note;     /* why the host offers no DMA path, if it does not */
	uint8_t *buf;             /* scratch memory for transfers (cacheable) */
	uint32_t buf_bytes;
	/* Non-NULL when this board's SD slot is on a controller sdbench does
	 * not drive yet (the reason, for the user). */
	const char *sd_unsupported;
	/* Rebuild the SD slot on the controller 'name' ("auto" or one of
	 * host_names; platform/slot.c routes the pins): 0
	 * with *host ready for reset(); -ENODEV when this board's slot is not
	 * wired to it (nothing changed, *why says so); another -errno when
	 * building it failed (*why). NULL: the platform cannot switch. */
	int (*switch_host)(const char *name, struct sd_host **host, const char **why);
	/* The controllers this board's slot can be driven by, from its
	 * description (platform/<soc>.c; NULL-terminated; NULL = only the
	 * one in host). */
	const char *const *host_names;
	/* The console's input: the next received byte or -1 at once (target:
	 * the UART). NULL: no input, no interactive console. */
	int (*console_getc)(void);
};

#endif
