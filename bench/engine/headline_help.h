/*
 * headline_help.h - what would help (headline_help.c): the headline's
 * suggestions, from the limits the run's valid verdicts found and what the
 * card and the host offer. Printed after the headline's figures and carried
 * in the "headline" record's `help` (docs/records.md).
 */
#ifndef SDB_BENCH_HEADLINE_HELP_H
#define SDB_BENCH_HEADLINE_HELP_H

#include <stdarg.h>

#include "drivers/sd/sd.h"

#define HEADLINE_HELP_MAX 4     /* bus may give two lines (width, mode) */
#define HEADLINE_HELP_LEN 160

/* Limits found (valid verdicts only), a mask. */
#define HELP_LIMIT_CARD (1u << 0)
#define HELP_LIMIT_BUS  (1u << 1)
#define HELP_LIMIT_HOST (1u << 2)
/* Not a limit: the run is under QEMU, where DMA is not advised (its DMA
 * model copies inside the start register write and hides the card/bus
 * split; data_path = auto picks PIO there for that reason). */
#define HELP_EMULATED   (1u << 8)

struct headline_help {
	unsigned n;
	char line[HEADLINE_HELP_MAX][HEADLINE_HELP_LEN];
};

/* out->n lines, none when limits is 0 (nothing limits the figures clearly). */
void headline_help(const struct sd_card *card, unsigned limits, struct headline_help *out);

#endif
