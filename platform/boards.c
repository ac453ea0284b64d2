/*
 * boards.c - see boards.h.
 */
#include "platform/boards.h"

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
