/*
 * queue_split.c - see queue_split.h; the rules are docs/attribution.md's
 * "Several tasks in flight".
 */
#include <string.h>

#include "bench/engine/busmodel.h"
#include "bench/engine/phase_ticks.h"
#include "bench/engine/queue_split.h"
#include "drivers/sd/sd_modes.h"
#include "drivers/timer.h"
#include "lib/fmt.h"

/* The wait's card time may be off by this share of the depth's time
 * before the split is withheld: half the 5-point tolerance the split is
 * judged by (docs/attribution.md). */
#define Q_UNSURE_PCT 2.5

void q_split_init(struct q_split *s, const struct wl_ctx *c, bool write)
{
	memset(s, 0, sizeof(*s));
	phase_acc_init(&s->run);
	s->write = write;
	if (c && c->card)
		s->dma_pio0 = c->card->host->dma_pio_reqs;
}

void q_wait_begin(struct q_wait_track *w)
{
	memset(w, 0, sizeof(*w));
}

void q_wait_poll(struct q_wait_track *w, const struct q_poll *p)
{
	uint64_t mid = p->t0 + (p->t1 - p->t0) / 2;

	if (!w->saw_none && !w->saw_some)
		w->start = p->t0;
	if (w->saw_some || p->any) {
		if (!w->saw_some)
			w->some_at = mid;
		w->saw_some = true;
		w->polls_after++;
		return;
	}
	w->saw_none = true;
	w->none_at = mid;
}

/* The card's part of a wait: from its first poll to when a task became
 * ready, dated between the last poll that showed none and the first that
 * showed one (each poll's middle: where the card read its queue). A wait
 * whose first poll already showed a ready task was none of the card's. */
void q_split_wait_end(struct q_split *s, const struct q_wait_track *w)
{
	uint64_t ready;

	s->cmds += w->polls_after;
	if (!w->saw_none)
		return;
	if (!w->saw_some) {
		s->errors++; /* no task became ready: a timeout */
		return;
	}
	ready = w->none_at + (w->some_at - w->none_at) / 2;
	s->card_wait_ns += ready - w->start;
	s->unsure_ns += (w->some_at - w->none_at) / 2;
}

void q_split_run(struct q_split *s, const struct sd_req_times *t, uint32_t blocks)
{
	phase_acc_add(&s->run, t, blocks, SD_BLOCK_SIZE, 0);
	s->cmds += t->extra_cmds; /* CMD13 after a write: outside its window */
}

/* The split of the runs alone, as a workload's (wl_end): the bus as
 * calibrated when there is a calibration for this width. NULL, or why not. */
static const char *runs_split(const struct q_split *s, const struct wl_ctx *c,
			      struct phase_split *sp)
{
	static char why[160];
	const struct wl_bus_cal *bc = &c->bus_cal;
	const struct timer_info *ti = timer_get_info();
	unsigned ddr = sd_timing_ddr(c->card->timing) ? BUS_DDR : 0u;
	bool cal = bc->width == c->card->width && (s->write ? bc->write_ok : bc->read_ok);
	double x = !cal ? 0.0 : s->write ? bc->write_extra_clocks : bc->read_extra_clocks;
	struct wl_validity v;
	struct wl_validity_in in = {
		.split = sp, .rd = &s->run, .elapsed_ns = s->run.total_ns,
		.ops = (uint32_t)s->run.ops, .errors = 0,
		.timer_res_ns = ti ? ti->resolution_ns : 0,
		/* as wl_check_validity: no run sent back to PIO */
		.dma_moved = c->card->host->data_path == SD_PATH_DMA &&
			     c->card->host->dma_pio_reqs == s->dma_pio0,
		.emulated = c->emulated, .bus_flags = ddr,
	};

	/* CMD46/CMD47: several blocks, counted by the card (no CMD12). */
	phase_split_flags(&s->run, c->card->width, c->card->clock_hz,
			  BUS_MULTI | ddr | (s->write ? BUS_WRITE : 0u), x, sp);
	wl_validity_check(&in, &v);
	/* The runs' own bound on their card / host line (share_unc_pct of
	 * the runs' time) is judged with the waits' against the depth's
	 * time (q_split_shares). */
	if (v.valid || v.reasons == 1u << WL_INVALID_UNCERTAIN)
		return NULL;
	fmt_snprintf(why, sizeof(why), "the task runs: %s", v.why);
	return why;
}

/* Why the depth gets no split, or NULL. */
static const char *no_split(const struct q_split *s, uint64_t wall_ns)
{
	static char why[160];

	if (s->errors)
		return "a task failed or never became ready";
	/* The runs' bus time is one direction's frames (phase_split_flags,
	 * BUS_WRITE or not); a 70/30 depth has both. */
	if (s->mixed)
		return "reads and writes mixed in one depth: only one direction's depths are split";
	if (!s->run.ops || !wall_ns)
		return "no task ran";
	if (s->run.total_ns + s->card_wait_ns > wall_ns + wall_ns / 50)
		return "the task runs and waits add up to more than the time measured";
	if ((double)s->unsure_ns * 100.0 > Q_UNSURE_PCT * (double)wall_ns) {
		fmt_snprintf(why, sizeof(why), "the status polls are too far apart to date when a "
			     "task became ready (%u us uncertain in %u us)",
			     (unsigned)(s->unsure_ns / 1000), (unsigned)(wall_ns / 1000));
		return why;
	}
	return NULL;
}

void q_split_shares(const struct q_split *s, const struct wl_ctx *c, uint64_t wall_ns,
		    struct q_shares *out)
{
	struct phase_split sp;
	const char *why = no_split(s, wall_ns);
	uint64_t run, other, cmd_ns;
	double card, bus, unc;

	memset(out, 0, sizeof(*out));
	if (!why)
		why = runs_split(s, c, &sp);
	if (why) {
		fmt_snprintf(out->why, sizeof(out->why), "%s", why);
		return;
	}
	run = s->run.total_ns;
	/* the card / host line known to +- the runs' bound and the waits'
	 * dating together: beyond the split's promise, no split */
	unc = sp.share_unc_pct / 100.0 * (double)run + (double)s->unsure_ns;
	if (unc * 100.0 > WL_VALID_UNCERTAIN_PP * (double)wall_ns) {
		fmt_snprintf(out->why, sizeof(out->why), "the card and host shares are known to "
			     "+-%.1f points only: the task runs' block arrivals and the waits' ends "
			     "dated that loosely", unc * 100.0 / (double)wall_ns);
		return;
	}
	other = wall_ns > run + s->card_wait_ns ? wall_ns - run - s->card_wait_ns : 0;
	cmd_ns = s->cmds * bus_clocks_to_ns(bus_cmd_r1_clocks(), c->card->clock_hz);
	if (cmd_ns > other)
		cmd_ns = other;
	card = sp.card_pct / 100.0 * (double)run + (double)s->card_wait_ns;
	bus = sp.bus_pct / 100.0 * (double)run + (double)cmd_ns;
	out->diagnosed = true;
	out->card_pct = 100.0 * card / (double)wall_ns;
	out->bus_pct = 100.0 * bus / (double)wall_ns;
	out->host_pct = 100.0 - out->card_pct - out->bus_pct;
}

void q_split_json(struct json *j, const struct q_shares *sh)
{
	if (!sh->diagnosed) {
		json_str(j, "split_why", sh->why);
		return;
	}
	json_double(j, "card_pct", sh->card_pct, 1);
	json_double(j, "bus_pct", sh->bus_pct, 1);
	json_double(j, "host_pct", sh->host_pct, 1);
}
