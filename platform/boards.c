/*
 * boards.c - see boards.h.
 */
#include <stddef.h>
#include <stdint.h>

#include "platform/boards.h"

/* One description per SoC, each in its own file. */
extern const struct board_desc board_bcm2835; /* platform/bcm2835.c */
extern const struct board_desc board_bcm2836; /* platform/bcm2836.c */
extern const struct board_desc board_bcm2837; /* platform/bcm2836.c */
extern const struct board_desc board_bcm2711; /* platform/bcm2711.c */
extern const struct board_desc board_bcm2712; /* platform/bcm2712.c */

const struct board_desc *const board_descs[] = {
	&board_bcm2835, &board_bcm2836, &board_bcm2837, &board_bcm2711, &board_bcm2712, NULL,
};

const struct board_desc *board_desc_for_cpu(enum cpu_kind cpu)
{
	unsigned i;

	for (i = 0; board_descs[i]; i++)
		if (board_descs[i]->cpu == cpu && board_descs[i]->periph_base <= UINTPTR_MAX)
			return board_descs[i];
	return NULL;
}

const struct board_desc *board_desc_guess(bool armv7)
{
	return armv7 ? &board_bcm2836 : &board_bcm2835;
}
