/*
 * modes.c - see modes.h. For each mode both sides accept (the card's CMD6
 * group 1, the host's uhs_modes and cap_hs): sd_init_mode() in that mode
 * (a UHS-I mode after a power cycle and the 1.8 V switch, DS/HS after a
 * power cycle back to 3.3 V), a sequential read of 64 KiB CMD18 +
 * Auto-CMD12 transfers from the read area, and the bus model's ceiling for
 * it. Reads only: nothing is written. Afterwards the card is initialised
 * again in the mode it had (bus_mode), so what follows runs as before.
 * Under QEMU only DS and HS exist and the clock means nothing: skipped.
 */
#include "bench/engine/busmodel.h"
#include "bench/engine/record.h"
#include "bench/engine/workload_report.h"
#include "bench/workloads/modes.h"
#include "bench/workloads/modes_report.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"

#define MODES_XFER_BLOCKS 128u   /* 64 KiB */
#define MODES_OPS 64u            /* 4 MiB per mode */
#define MODES_QUICK_OPS 16u      /* 1 MiB */

bool wl_mode_accepted(const struct sd_card *card, const struct sd_host *h, unsigned m)
{
	unsigned t = sd_mode_timing(m);

	if (m == SD_MODE_DS)
		return true;
	if (m == SD_MODE_HS)
		return card->hs_supported && h->cap_hs;
	if (!card->s18a && card->signal_mv != 1800)
		return false;
	/* SDR12/SDR25 come with every UHS-I card and host. */
	if (t == SD_TIMING_SDR12 || t == SD_TIMING_SDR25)
		return h->uhs_modes != 0;
	return (card->card_modes & (1u << t)) && (h->uhs_modes & (1u << t));
}

static void measure(struct wl_ctx *c, struct modes_point *p, uint32_t nops)
{
	struct wl_meas m;
	char nm[32], lb[48];
	uint32_t i;

	fmt_snprintf(nm, sizeof(nm), "modes-read-%s", sd_bus_mode_name(p->ran));
	fmt_snprintf(lb, sizeof(lb), "read 64 KiB in %s", sd_bus_mode_name(p->ran));
	wl_begin(c, &m, "modes", nm, lb, false, WL_MULTI_AUTO12, MODES_XFER_BLOCKS,
		 (uint64_t)nops * MODES_XFER_BLOCKS * SD_BLOCK_SIZE);
	wl_set_budget(&m, c->quick ? 3 : 8);
	for (i = 0; i < nops && !wl_should_stop(c, &m); i++) {
		struct wl_op op = { false, c->read_base + i * MODES_XFER_BLOCKS,
				    MODES_XFER_BLOCKS, WL_MULTI_AUTO12 };

		wl_do(c, &m, &op);
	}
	wl_end(c, &m);
	p->ok = m.ops > 0 && !m.errors;
	p->read_mbs = m.mbs;
}

void wl_modes(struct wl_ctx *c)
{
	struct modes_result r;
	struct sd_card *card = c->card;
	struct sd_host *h = card->host;
	uint8_t orig = card->mode_want;
	uint32_t nops = c->quick ? MODES_QUICK_OPS : MODES_OPS;
	bool acc[SD_MODE_COUNT];
	unsigned m;

	if (c->emulated) {
		wl_skip("modes", "QEMU's controller has DS and HS only and its card ignores the clock");
		return;
	}
	for (m = SD_MODE_DS; m < SD_MODE_COUNT; m++)
		acc[m] = wl_mode_accepted(card, h, m);
	r.n = 0;
	r.xfer_bytes = MODES_XFER_BLOCKS * SD_BLOCK_SIZE;
	r.total_bytes = nops * r.xfer_bytes;
	r.emulated = c->emulated;
	modes_report_heading(&r);
	for (m = SD_MODE_DS; m < SD_MODE_COUNT && !c->abort_all; m++) {
		struct modes_point *p = &r.pt[r.n];
		int rc;

		if (!acc[m])
			continue;
		p->mode = (uint8_t)m;
		p->ok = false;
		p->read_mbs = 0;
		rc = sd_init_mode(card, h, m);
		p->err = rc;
		p->ran = (uint8_t)sd_timing_mode(card->timing);
		p->clock_hz = card->clock_hz;
		p->width = card->width;
		p->signal_mv = card->signal_mv;
		p->tuning_tries = card->tuning_tries;
		fmt_snprintf(p->note, sizeof(p->note), "%s", card->mode_note);
		p->ceiling_mbs = bus_xfer_ceiling_mbs(MODES_XFER_BLOCKS, SD_BLOCK_SIZE, p->width,
						      p->clock_hz, BUS_MULTI | BUS_STOP |
						      (sd_timing_ddr(card->timing) ? BUS_DDR : 0u));
		if (!rc)
			measure(c, p, nops);
		modes_report_point(&r, r.n++);
	}
	r.restored = orig;
	r.restore_ok = sd_init_mode(card, h, orig) == 0;
	if (!r.restore_ok) {
		const struct sd_host_err *e = &card->last_err;

		record_error_cmd("modes", -EIO, e->cmd, e->arg, e->status,
				 "could not initialise the card again in bus_mode %s",
				 sd_bus_mode_name(orig));
		c->abort_all = true;
	}
	modes_report_end(&r);
}
