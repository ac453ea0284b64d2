/*
 * slot_gpio.h - the firmware's side of the slot builder (platform/slot.c):
 * a row's pins routed through the GPIO function select, the DMA channels
 * the firmware leaves to the ARM from the mailbox.
 */
#ifndef SDB_PLATFORM_SLOT_GPIO_H
#define SDB_PLATFORM_SLOT_GPIO_H

#include "platform/board_desc.h"

extern const struct slot_services slot_gpio_services;

#endif
