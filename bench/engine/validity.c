/*
 * validity.c - the checks of validity.h. Each one is a physical bound the
 * split's model takes for granted; a workload that breaks one gets no
 * diagnosis, with the first broken bound as the reason.
 */
#include "bench/engine/busmodel.h"
#include "bench/engine/validity.h"
#include "drivers/sd/sd.h"
#include "lib/fmt.h"

static const char *const names[WL_INVALID_COUNT] = {
	"too_few_samples", "dma_inside_register_write", "over_ceiling",
	"phases_do_not_add_up", "shares_out_of_range", "look_unconfirmed",
	"critical_path_undecided", "split_uncertain",
};

const char *wl_invalid_name(enum wl_invalid r)
{
	return (unsigned)r < WL_INVALID_COUNT ? names[r] : "unknown";
}

/* Record a failed check; the first one keeps the text. */
static void fail(struct wl_validity *v, enum wl_invalid r, const char *fmt, ...)
{
	va_list ap;

	v->reasons |= 1u << r;
	if (!v->valid)
		return;
	v->valid = false;
	v->reason = r;
	va_start(ap, fmt);
	fmt_vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
}

static void clock_words(uint32_t hz, unsigned width, char *buf, unsigned cap)
{
	if (hz % 1000000u == 0)
		fmt_snprintf(buf, cap, "%u MHz %u-bit", (unsigned)(hz / 1000000u), width);
	else
		fmt_snprintf(buf, cap, "%.2f MHz %u-bit", hz / 1e6, width);
}

static void check_samples(const struct wl_validity_in *in, struct wl_validity *v)
{
	uint64_t min_ns = (uint64_t)WL_VALID_MIN_TICKS * in->timer_res_ns;

	if (!in->ops)
		fail(v, WL_INVALID_NO_SAMPLES, "too few samples: no operation completed");
	else if (in->timer_res_ns && in->elapsed_ns < min_ns)
		fail(v, WL_INVALID_NO_SAMPLES,
		     "too few samples: %.1f us is fewer than %u ticks of the %u ns timer",
		     in->elapsed_ns / 1e3, WL_VALID_MIN_TICKS, (unsigned)in->timer_res_ns);
}

/* The bus model's ceiling counts every frame and command at its minimum:
 * no card and no host can beat it. */
static void check_ceiling(const struct wl_validity_in *in, struct wl_validity *v)
{
	const struct phase_split *s = in->split;
	char clk[32];

	if (s->ceiling_pct <= 100.0)
		return;
	clock_words(s->clock_hz, s->width, clk, sizeof(clk));
	fail(v, WL_INVALID_OVER_CEILING,
	     "%.1f%% of the %s bus ceiling, faster than the bus can carry%s", s->ceiling_pct,
	     clk, in->emulated ? " (QEMU's card ignores the clock: emulation speed)" :
	     " (a clock or the timer is not what the firmware believes)");
}

/* A DMA engine moves the data while the CPU waits: the frames' bus time
 * lies outside the CPU's own work (starting the engine, the poll that saw
 * its end). */
static void check_dma(const struct wl_validity_in *in, struct wl_validity *v)
{
	const struct phase_acc *a = in->rd, *w = in->wr;
	uint64_t blocks = a->blocks + (w ? w->blocks : 0);
	uint64_t win = a->access_ns + a->data_ns + a->busy_ns, cpu = a->host_ns;
	uint64_t frames, outside;
	unsigned flags = in->bus_flags & BUS_DDR;

	if (!in->dma_moved || !blocks || !in->split->clock_hz)
		return;
	/* QEMU (hw/dma/bcm2835_dma.c) runs a control block's whole copy
	 * inside the register write that starts the channel: under emulation
	 * whatever of the window lies outside the CPU's work is the host
	 * machine's scheduling, never the engine's (a loaded host once left
	 * 15% of it there), so the transfer is flagged whatever it says. */
	if (in->emulated) {
		fail(v, WL_INVALID_DMA_IN_WRITE, "the DMA transfer ended inside the CPU's own "
		     "work: QEMU copies inside the start register write");
		return;
	}
	if (w) {
		win += w->access_ns + w->data_ns + w->busy_ns;
		cpu += w->host_ns;
	}
	frames = bus_clocks_to_ns(blocks * bus_block_pitch_clocks(SD_BLOCK_SIZE,
								     in->split->width, flags),
				  in->split->clock_hz);
	outside = win > cpu ? win - cpu : 0;
	if ((double)outside * 100.0 >= (double)frames * WL_VALID_DMA_FRAME_PCT)
		return;
	fail(v, WL_INVALID_DMA_IN_WRITE,
	     "the DMA transfer ended inside the CPU's own work (busy %.0f of %.0f us, "
	     "the frames need %.0f us)%s", cpu / 1e3, win / 1e3, frames / 1e3,
	     in->emulated ? ": QEMU copies inside the start register write" : "");
}

static void check_phases(const struct wl_validity_in *in, struct wl_validity *v)
{
	uint64_t p = in->rd->total_ns + in->rd->gap_ns;
	double d;

	if (in->wr)
		p += in->wr->total_ns + in->wr->gap_ns;
	if (!in->elapsed_ns || !in->ops || in->errors)
		return;
	d = ((double)p - (double)in->elapsed_ns) * 100.0 / (double)in->elapsed_ns;
	if (d > WL_VALID_PHASES_TOL_PCT || d < -WL_VALID_PHASES_TOL_PCT)
		fail(v, WL_INVALID_PHASES_SUM,
		     "the phases do not add up: %.3f ms of phases in %.3f ms measured",
		     p / 1e6, in->elapsed_ns / 1e6);
}

static bool share_ok(double x)
{
	return x >= -0.05 && x <= 100.05;
}

static void check_shares(const struct wl_validity_in *in, struct wl_validity *v)
{
	const struct phase_split *s = in->split;
	double sum = s->card_pct + s->bus_pct + s->host_pct;

	if (!in->ops || !s->wall_ns)
		return;
	if (!share_ok(s->card_pct) || !share_ok(s->bus_pct) || !share_ok(s->host_pct) ||
	    sum > 100.0 + WL_VALID_SHARES_TOL || sum < 100.0 - WL_VALID_SHARES_TOL)
		fail(v, WL_INVALID_SHARES,
		     "the shares are out of range: card %.1f%%, bus %.1f%%, host %.1f%%",
		     s->card_pct, s->bus_pct, s->host_pct);
}

/* A driver that could not tell who the bus waited for on some blocks
 * (sd_host.h undecided_blocks): the probe of this controller did not
 * confirm the meaning of the look the decision needs (docs/silicon.md,
 * blkcnt-bus), and a split built on a guess is not a diagnosis. */
static void check_looks(const struct wl_validity_in *in, struct wl_validity *v)
{
	uint64_t n = in->rd->undecided_blocks + (in->wr ? in->wr->undecided_blocks : 0);
	uint64_t all = in->rd->blocks + (in->wr ? in->wr->blocks : 0);
	uint32_t looks = in->rd->undecided_looks | (in->wr ? in->wr->undecided_looks : 0);

	if (n && (looks & SD_UNDECIDED_FILL))
		fail(v, WL_INVALID_LOOK,
		     "who the bus waited for is unknown on %llu of %llu blocks: this controller's "
		     "FIFO fill (SDEDM) was not seen to follow the bus word by word (silicon record)",
		     (unsigned long long)n, (unsigned long long)all);
	else if (n && looks == SD_UNDECIDED_WRITE)
		fail(v, WL_INVALID_LOOK,
		     "who the bus waited for is unknown on %llu of %llu blocks: this controller's "
		     "write looks (DAT[0] level, Buffer Write Enable) were not confirmed (silicon record)",
		     (unsigned long long)n, (unsigned long long)all);
	else if (n)
		fail(v, WL_INVALID_LOOK,
		     "who the bus waited for is unknown on %llu of %llu blocks: this controller's "
		     "Block Count was not seen to count blocks on the bus (silicon record)",
		     (unsigned long long)n, (unsigned long long)all);
}

static void verdict_words(enum bottleneck v, enum bottleneck top, enum bottleneck second,
			  char *buf, unsigned cap)
{
	static const char *const part[] = { "card", "bus", "host" };

	if (v == BOTTLENECK_MIXED)
		fmt_snprintf(buf, cap, "mixed %s/%s", part[top], part[second]);
	else
		fmt_snprintf(buf, cap, "%s-bound", part[v]);
}

/* The verdict is not the same over what the measurements allow of the
 * critical path (attribution.h undecided: how much of the frames and
 * the card's waits hid behind the CPU's work beside them). */
static void check_undecided(const struct wl_validity_in *in, struct wl_validity *v)
{
	const struct phase_split *s = in->split;
	char a[32], b[32];

	/* A wire that takes no time (the probe's read-wire "instant", QEMU)
	 * has no frames to hide behind the CPU: the CPU's work is the whole
	 * critical path whatever the framing model's bounds say. */
	if (!s->undecided || !s->wall_ns || in->wire_instant)
		return;
	verdict_words(s->verdict, s->top, s->second, a, sizeof(a));
	verdict_words(s->alt, s->alt_top, s->alt_second, b, sizeof(b));
	if (s->hide_hi_bus_pct == s->hide_lo_bus_pct && s->hide_hi_card_pct == s->hide_lo_card_pct) {
		fail(v, WL_INVALID_UNDECIDED,
		     "the critical path is undecided between %s and %s: %.1f points of the card's "
		     "wait may be the controller's idle clocks", a, b, s->idle_amb_pct);
		return;
	}
	fail(v, WL_INVALID_UNDECIDED,
	     "the critical path is undecided between %s and %s: the CPU's work may hide "
	     "%.0f to %.0f%% bus and %.0f to %.0f%% card", a, b, s->hide_lo_bus_pct,
	     s->hide_hi_bus_pct, s->hide_lo_card_pct, s->hide_hi_card_pct);
}

/* The split's own bound on its card / host line (attribution.h
 * share_unc_pct: a FIFO's seams where the bus may have waited for the CPU
 * as well as the card, or a read's block arrivals dated only within an
 * interval the driver's look could not resolve) wider than the split
 * promises. */
static void check_uncertain(const struct wl_validity_in *in, struct wl_validity *v)
{
	const struct phase_split *s = in->split;

	if (!s->wall_ns || !(s->share_unc_pct > WL_VALID_UNCERTAIN_PP))
		return;
	if (s->share_full_pct > 0)
		fail(v, WL_INVALID_UNCERTAIN,
		     "the card and host shares are known to +-%.1f points only: the FIFO was full "
		     "at %.0f%% of the block seams, when the bus waited for the card or the CPU",
		     s->share_unc_pct, s->share_full_pct);
	else
		fail(v, WL_INVALID_UNCERTAIN,
		     "the card and host shares are known to +-%.1f points only: the CPU's looks "
		     "dated the blocks' arrivals only within intervals that wide, so how long the "
		     "bus stood for it is not known closer", s->share_unc_pct);
}

/* The card's clock-paced wait between blocks that may be the controller's
 * own idle clocks (attribution.h idle_amb_pct, phase_split_idle): the two
 * scale alike with the clock and overlap (docs/attribution.md §2), so the
 * card and bus shares are known to that many points only. */
static void check_idle_clocks(const struct wl_validity_in *in, struct wl_validity *v)
{
	const struct phase_split *s = in->split;
	char most[24];

	if (!s->wall_ns || !(s->idle_amb_pct > WL_VALID_UNCERTAIN_PP))
		return;
	if (in->idle_clk_max >= SD_IDLE_CLK_UNKNOWN)
		fmt_snprintf(most, sizeof(most), "all (no authority)");
	else
		fmt_snprintf(most, sizeof(most), "%u", (unsigned)in->idle_clk_max);
	fail(v, WL_INVALID_UNCERTAIN,
	     "card and bus shares known to +-%.1f points only: of the %.0f clocks idle between "
	     "blocks the controller's own may be %s", s->idle_amb_pct, s->card_idle_clocks, most);
}

void wl_validity_check(const struct wl_validity_in *in, struct wl_validity *out)
{
	out->valid = true;
	out->reason = WL_INVALID_COUNT;
	out->reasons = 0;
	out->why[0] = '\0';
	check_samples(in, out);
	if (!in->ops)
		return;
	check_dma(in, out);
	check_ceiling(in, out);
	check_phases(in, out);
	check_shares(in, out);
	check_looks(in, out);
	/* the split's own bounds matter only where it describes what
	 * happened: tried when every bound above holds */
	if (!out->valid)
		return;
	check_uncertain(in, out);
	check_idle_clocks(in, out);
	check_undecided(in, out);
}
