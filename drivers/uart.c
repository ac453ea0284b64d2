/*
 * uart.c - PL011 UART0 (BCM2835 ARM Peripherals §13; ARM PL011 TRM).
 *
 * 8N1 with FIFOs, no interrupts. Transmit carries the results; receive
 * (polled, never blocking) serves the interactive console. On Pi 3/4/Zero W the firmware gives the PL011
 * to Bluetooth unless config.txt says dtoverlay=disable-bt; selecting ALT0
 * on GPIO 14/15 here routes UART0 to the header pins in any case.
 * Output never blocks forever: a full FIFO is waited on with a deadline
 * and characters are dropped if the transmitter is stuck.
 */
#include <stdbool.h>

#include "drivers/uart.h"
#include "drivers/gpio.h"
#include "drivers/mmio.h"
#include "drivers/timer.h"
#include "lib/console.h"

#define UART0_OFFSET	0x201000
#define UART_DR		0x00
#define UART_FR		0x18
#define  FR_BUSY	(1u << 3)
#define  FR_RXFE	(1u << 4)
#define  FR_TXFF	(1u << 5)
#define UART_IBRD	0x24
#define UART_FBRD	0x28
#define  DR_ERRORS	(0xfu << 8)	/* overrun, break, parity, framing */
#define UART_LCRH	0x2c
#define  LCRH_FEN	(1u << 4)
#define  LCRH_WLEN8	(3u << 5)
#define UART_CR		0x30
#define  CR_UARTEN	(1u << 0)
#define  CR_TXE		(1u << 8)
#define  CR_RXE		(1u << 9)
#define UART_IMSC	0x38
#define UART_ICR	0x44

/* A character at 115200 baud takes 87 us; a stuck FIFO is given 10 ms. */
#define UART_TX_TIMEOUT_US	10000

static uintptr_t uart_base;
static bool uart_stuck;

static void pl011_setup(uint32_t uart_clock_hz, uint32_t baud);

void uart_init(uintptr_t periph_base, uint32_t uart_clock_hz, uint32_t baud)
{
	uart_base = periph_base + UART0_OFFSET;
	gpio_set_pull(14, GPIO_PULL_NONE);
	gpio_set_pull(15, GPIO_PULL_UP);
	gpio_set_function(14, GPIO_FN_ALT0);
	gpio_set_function(15, GPIO_FN_ALT0);
	pl011_setup(uart_clock_hz, baud);
}

void uart_init_pl011(uintptr_t base, uint32_t uart_clock_hz, uint32_t baud)
{
	uart_base = base;
	if ((mmio_read32(uart_base + UART_CR) & (CR_UARTEN | CR_TXE)) == (CR_UARTEN | CR_TXE) &&
	    mmio_read32(uart_base + UART_IBRD) != 0)
		return; /* the firmware's set-up (enable_uart=1) */
	pl011_setup(uart_clock_hz, baud);
}

static void pl011_setup(uint32_t uart_clock_hz, uint32_t baud)
{
	if (!uart_clock_hz)
		return;
	mmio_write32(uart_base + UART_CR, 0);
	mmio_write32(uart_base + UART_ICR, 0x7ff);
	mmio_write32(uart_base + UART_IMSC, 0);
	{
		/* divisor = clk / (16 * baud), 6-bit fraction, rounded */
		uint32_t div64 = (uint32_t)(((uint64_t)uart_clock_hz * 4u + baud / 2u) / baud);

		mmio_write32(uart_base + UART_IBRD, div64 >> 6);
		mmio_write32(uart_base + UART_FBRD, div64 & 63u);
	}
	mmio_write32(uart_base + UART_LCRH, LCRH_WLEN8 | LCRH_FEN);
	mmio_write32(uart_base + UART_CR, CR_UARTEN | CR_TXE | CR_RXE);
}

void uart_putc(char c)
{
	if (!uart_base)
		return;
	if (mmio_read32(uart_base + UART_FR) & FR_TXFF) {
		timer_deadline_t d;

		if (uart_stuck)
			return;
		d = timer_deadline_us(UART_TX_TIMEOUT_US);
		while (mmio_read32(uart_base + UART_FR) & FR_TXFF)
			if (timer_expired(d)) {
				uart_stuck = true;
				return;
			}
	}
	uart_stuck = false;
	mmio_write32(uart_base + UART_DR, (uint8_t)c);
}

int uart_getc(void)
{
	unsigned i;

	if (!uart_base)
		return -1;
	/* A byte with an error flag (a break or line noise from an unplugged
	 * adapter) is no key: drop it, a bounded number of times. */
	for (i = 0; i < 32; i++) {
		uint32_t dr;

		if (mmio_read32(uart_base + UART_FR) & FR_RXFE)
			return -1;
		dr = mmio_read32(uart_base + UART_DR);
		if (!(dr & DR_ERRORS))
			return (int)(dr & 0xffu);
	}
	return -1;
}

void uart_flush(void)
{
	timer_deadline_t d = timer_deadline_us(UART_TX_TIMEOUT_US * 4);

	if (!uart_base)
		return;
	while (mmio_read32(uart_base + UART_FR) & FR_BUSY)
		if (timer_expired(d))
			return;
}

void console_backend_putc(char c)
{
	uart_putc(c);
}
