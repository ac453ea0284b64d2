/*
 * boards.c - see boards.h.
 */
#include "platform/boards.h"

/* One description per SoC, each in its own file. */
extern const struct board_desc board_bcm2835; /* platform/bcm2835.c */
extern const struct board_desc board_bcm2836; /* platform/bcm2836.c, also BCM2837 */
extern const struct board_desc board_bcm2711; /* platform/bcm2711.c */
extern const struct board_desc board_bcm2712; /* platform/bcm2712.c */

const struct board_desc *board_desc_for(const struct board_info *b)
{
	switch (b->soc) {
	case SOC_BCM2835:
		return &board_bcm2835;
	case SOC_BCM2836:
	case SOC_BCM2837:
		return &board_bcm2836;
	case SOC_BCM2711:
		return &board_bcm2711;
	case SOC_BCM2712:
		return &board_bcm2712;
	default:
		return &board_bcm2836;
	}
}
