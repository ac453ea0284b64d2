/*
 * headline_help.c - see headline_help.h.
 *
 * Each suggestion follows from a limit the run found and from what the
 * card's registers and the host's capabilities say is on offer, so it
 * names something the user can change: a wider bus or a faster bus mode
 * both sides accept (SD Physical Layer 4.3.10, CMD6 group 1), a board
 * with 1.8 V signalling when only the card has UHS-I, DMA when the CPU
 * moves the data, or another card.
 */
#include <string.h>

#include "bench/engine/headline_help.h"
#include "drivers/sd/sd_modes.h"
#include "drivers/sd/sd_regs.h"
#include "lib/fmt.h"

static void say(struct headline_help *h, const char *fmt, ...)
{
	va_list ap;

	if (h->n >= HEADLINE_HELP_MAX)
		return;
	va_start(ap, fmt);
	fmt_vsnprintf(h->line[h->n++], HEADLINE_HELP_LEN, fmt, ap);
	va_end(ap);
}

/* Data rate of a timing in bits per clock per line times the clock. */
static uint64_t timing_rate(unsigned t)
{
	return (uint64_t)sd_timing_max_hz(t) * (sd_timing_ddr(t) ? 2u : 1u);
}

static bool both_accept(const struct sd_card *c, unsigned t)
{
	const struct sd_host *h = c->host;

	if (t == SD_TIMING_DS)
		return true;
	if (t == SD_TIMING_HS)
		return c->hs_supported && h->cap_hs;
	return c->s18a && (c->card_modes & h->uhs_modes & (1u << t));
}

/* The fastest timing card and host both accept, if faster than the one in use. */
static int faster_timing(const struct sd_card *c)
{
	int best = -1;
	unsigned t;

	for (t = 0; t < SD_TIMING_COUNT; t++)
		if (both_accept(c, t) && timing_rate(t) > timing_rate(c->timing) &&
		    (best < 0 || timing_rate(t) > timing_rate((unsigned)best)))
			best = (int)t;
	return best;
}

static bool card_offers_uhs(const struct sd_card *c)
{
	unsigned t;

	for (t = SD_TIMING_SDR50; t < SD_TIMING_COUNT; t++)
		if (c->card_modes & (1u << t))
			return true;
	return false;
}

static void bus_help(const struct sd_card *c, struct headline_help *h)
{
	struct sd_scr scr;
	int t = faster_timing(c);

	if (c->have_scr) {
		sd_scr_decode(c->scr, &scr);
		if (c->width == 1 && (scr.sd_bus_widths & SD_SCR_BUS_WIDTH_4))
			say(h, "the 4-bit bus: the card offers it and runs 1-bit now");
	}
	if (t >= 0)
		say(h, "a faster bus mode: bus_mode = %s in sdbench.txt (card and host both "
		    "offer %s%s%s)", sd_bus_mode_name(sd_timing_mode((unsigned)t)),
		    sd_timing_name((unsigned)t), c->mode_note[0] ? "; " : "", c->mode_note);
	else if (card_offers_uhs(c) && !c->host->uhs_modes)
		say(h, "a faster bus mode: the card offers UHS-I but this host has no 1.8 V "
		    "signalling; a board that has (Pi 4, Pi 5)");
	else if (c->max_clock_hz && c->clock_hz < c->max_clock_hz - c->max_clock_hz / 10)
		say(h, "a faster clock: the bus runs at %.1f MHz, below %s's %.1f MHz "
		    "(the host's %.1f MHz base clock and its divider, or max_clock_hz)",
		    c->clock_hz / 1e6, sd_timing_name(c->timing), c->max_clock_hz / 1e6,
		    c->host->base_clock_hz / 1e6);
	else
		say(h, "a faster bus: none on offer, the card runs %s at %.1f MHz, the "
		    "fastest mode both it and this host accept", sd_timing_name(c->timing),
		    c->clock_hz / 1e6);
}

static void host_help(const struct sd_card *c, bool emulated, struct headline_help *h)
{
	const struct sd_host *host = c->host;

	/* The first-run rule (data_path = auto is PIO under QEMU) says why
	 * not DMA there: the advice must not undo it. */
	if (emulated)
		say(h, "a faster host: the emulated CPU's time sets the pace (DMA is not "
		    "advised under QEMU: its DMA copies at once and hides the split)");
	else if (host->data_path == SD_PATH_PIO && (host->data_paths & (1u << SD_PATH_DMA)))
		say(h, "DMA: data_path = dma in sdbench.txt (the CPU moves every word now)");
	else
		say(h, "a faster host: the CPU's time per request sets the pace");
}

void headline_help(const struct sd_card *card, unsigned limits, struct headline_help *out)
{
	memset(out, 0, sizeof(*out));
	if (!card || !card->host)
		return;
	if (limits & HELP_LIMIT_BUS)
		bus_help(card, out);
	if (limits & HELP_LIMIT_HOST)
		host_help(card, (limits & HELP_EMULATED) != 0, out);
	if (limits & HELP_LIMIT_CARD)
		say(out, "another card: this one's own access and programming times set the "
		    "pace (a higher speed or application class)");
}
