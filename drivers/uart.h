/*
 * uart.h - the PL011 UART0 console on GPIO 14 (TXD) / 15 (RXD).
 */
#ifndef SDB_DRIVERS_UART_H
#define SDB_DRIVERS_UART_H

#include <stdint.h>

/* uart_clock_hz: the UART reference clock (mailbox clock id 2); 0 keeps
 * whatever divisor the firmware set. */
void uart_init(uintptr_t periph_base, uint32_t uart_clock_hz, uint32_t baud);
/* A PL011 at its own address, no pins to route (the BCM2712's debug UART,
 * the 3-pin connector of the Pi 5). If the firmware left it enabled with a
 * divisor (enable_uart=1), its set-up is kept; otherwise it is programmed
 * from uart_clock_hz. */
void uart_init_pl011(uintptr_t base, uint32_t uart_clock_hz, uint32_t baud);
void uart_putc(char c);
/* The next received byte, or -1 at once when there is none. */
int uart_getc(void);
/* Wait (bounded) until everything written has left the transmitter. */
void uart_flush(void);

#endif
