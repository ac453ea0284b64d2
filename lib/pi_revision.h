/*
 * pi_revision.h - decode a Raspberry Pi board revision code (as returned by
 * the mailbox "get board revision" tag) into model, SoC, memory and maker.
 * Both the old style (a small number) and the new style (bit 23 set,
 * fields packed as NOQuuuWuFMMMCCCCPPPPTTTTTTTTRRRR) are understood.
 */
#ifndef SDB_LIB_PI_REVISION_H
#define SDB_LIB_PI_REVISION_H

#include <stdbool.h>
#include <stdint.h>

struct pi_revision {
	bool known;            /* model identified */
	const char *model;     /* "2 Model B", "Zero", "unknown" */
	const char *soc;       /* "BCM2835", ... or "unknown" */
	const char *maker;     /* "Sony UK", ... or "unknown" */
	uint32_t memory_mib;   /* 0 if unknown */
	uint32_t pcb_revision; /* "1.x" minor for new-style codes */
	bool new_style;
};

void pi_revision_decode(uint32_t code, struct pi_revision *out);

#endif
