/*
 * status_led.h - the run on the board's ACT LED (bench/status_led.c), for
 * unattended runs: a steady blink while the suite runs, then the outcome
 * as a number of flashes repeated until power-off. docs/led.md has the
 * codes; platform/board_led.c says which LED each board has.
 */
#ifndef SDB_BENCH_STATUS_LED_H
#define SDB_BENCH_STATUS_LED_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/led.h"

/* The outcome: the number of flashes of the end code. */
enum status_code {
	STATUS_PASS = 1,	/* the suite ran, no errors */
	STATUS_NO_AREA = 2,	/* no errors, but no test area: no write was measured */
	STATUS_ERRORS = 3,	/* the run reported errors */
	STATUS_STOPPED = 4,	/* stopped by the user (Ctrl-C) */
	STATUS_NO_CARD = 5,	/* no card measured (none, it did not start, no slot driver) */
	STATUS_CRASH = 6,	/* the program stopped on an exception (no led record) */
	STATUS_CONFIG = 7,	/* sdbench.txt not read whole: nothing was written */
};

/* Running: the LED changes every STATUS_BLINK_US (on, off, on...). */
#define STATUS_BLINK_US		500000u
/* End code: each flash on then off, then a pause, the cycle repeated. */
#define STATUS_FLASH_ON_US	300000u
#define STATUS_FLASH_OFF_US	300000u
#define STATUS_PAUSE_US		1500000u

/* The board's LED (l->kind LED_NONE: none) and its name. Adds a console
 * sink that reads the run's records for the outcome; drives nothing yet. */
void status_led_start(const struct led_line *l, const char *label);

/* The "led" setting (sdbench.txt or the console). On: the line is made an
 * output and blinks from now on; off: sdbench leaves the LED (dark, if it
 * had driven it). */
void status_led_enable(bool on);

/* When the LED's next change is due (system timer, us); UINT64_MAX when
 * it is not blinking. The engine compares it after every operation. */
extern uint64_t status_led_next_us;

/* Between operations and at line ends: true when the blink is due (one
 * comparison, inline: the engine makes it after every operation and
 * excludes the toggle's time when it is true). */
static inline bool status_led_due(uint64_t now_us)
{
	return now_us >= status_led_next_us;
}
/* The LED toggled when due (one register write, or one mailbox call for
 * the expander). Never call it inside a timed operation. */
void status_led_tick(uint64_t now_us);

/* The outcome from the run's records and its error count: prints the LED
 * line and the "led" record (before the done record). Returns the code. */
enum status_code status_led_report(unsigned errors);

/* A stop before status_led_report (an exception: its record ended the
 * run, so no led record follows): the crash code from now on, when the
 * LED is on and can be driven. */
void status_led_crashed(void);

/* One cycle of the end code on the LED (bounded: at most about 4.5 s).
 * false when there is no LED to show it on (or no outcome yet). */
bool status_led_show_end(void);

#endif
