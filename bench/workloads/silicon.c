/*
 * silicon.c - the probes of silicon.h. Each belief the split needs about
 * the controller is checked by a short experiment on the controller
 * itself, because the authorities leave it open (docs/silicon.md): a
 * look whose meaning the probe did not confirm is not used, and the
 * workloads whose split would need it get no diagnosis instead.
 */
#include "bench/engine/record.h"
#include "bench/storage/write_guard.h"
#include "bench/workloads/silicon.h"
#include "drivers/sd/sd.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "lib/err.h"

const char *wl_blkcnt_name(unsigned look)
{
	static const char *const n[SD_BLKCNT_COUNT] = {
		"unprobed", "bus", "drain", "stale", "other",
	};

	return look < SD_BLKCNT_COUNT ? n[look] : "?";
}

const char *wl_wire_name(unsigned wire)
{
	static const char *const n[SD_WIRE_COUNT] = { "unprobed", "timed", "instant" };

	return wire < SD_WIRE_COUNT ? n[wire] : "?";
}

/* The read split without the look, where the data takes no time on the
 * wire (docs/silicon.md, read-wire): what the console says. */
static void wire_line(const struct sd_host *h, const struct sd_silicon *s)
{
	if (s->wire == SD_WIRE_UNPROBED)
		return;
	con_printf("silicon: %s a read's block ready %.1f us after its command at %.1f MHz, "
		   "where one frame is %.1f us: %s\n", h->name ? h->name : "?",
		   (double)s->first_ns / 1e3, s->wire_clock_hz / 1e6, (double)s->frame_ns / 1e3,
		   s->wire == SD_WIRE_INSTANT ?
		   "no bus carried it (emulated: the card and bus take no time), so every "
		   "wait between read blocks is the CPU's and the split needs no look" :
		   "the data takes its time on the wire");
}

/* What the console says about a Block Count behaviour. */
static const char *blkcnt_words(unsigned look)
{
	switch (look) {
	case SD_BLKCNT_BUS:
		return "falls as each block crosses the bus";
	case SD_BLKCNT_DRAIN:
		return "falls only as the CPU drains each block (as QEMU's SDHCI)";
	case SD_BLKCNT_STALE:
		return "does not move until the transfer ends";
	case SD_BLKCNT_OTHER:
		return "moves in none of the known ways";
	default:
		return "not probed";
	}
}

const char *wl_bwe_name(unsigned look)
{
	static const char *const n[SD_BWE_COUNT] = { "unprobed", "slot", "empty", "failed" };

	return look < SD_BWE_COUNT ? n[look] : "?";
}

const char *wl_dat0_name(unsigned look)
{
	static const char *const n[SD_DAT0_COUNT] = {
		"unprobed", "live", "lag", "none", "short", "failed",
	};

	return look < SD_DAT0_COUNT ? n[look] : "?";
}

const char *wl_fill_name(unsigned look)
{
	static const char *const n[SD_FILL_COUNT] = {
		"unprobed", "live", "lag", "stepped", "unconfirmed", "failed",
	};

	return look < SD_FILL_COUNT ? n[look] : "?";
}

/* Whether SDHOST's PIO split uses SDEDM's fill (docs/silicon.md,
 * sdhost-edm-fifo). */
static bool fill_used(const struct sd_host *h)
{
	return h->fill_look == SD_FILL_LIVE || h->fill_look == SD_FILL_UNPROBED;
}

/* The fill probe's fields of the silicon record (SDHOST's). */
static void fill_fields(struct json *j, const struct sd_host *h, const struct sd_silicon *s)
{
	if (!s->fprobed)
		return;
	json_str(j, "fill", wl_fill_name(h->fill_look));
	json_bool(j, "fill_look_used", fill_used(h));
	json_u64(j, "fill_clock_hz", s->fill_clock_hz);
	json_double(j, "fill_word_us", (double)s->fill_word_ns / 1e3, 1);
	json_double(j, "fill_delay_us", (double)s->fill_delay_ns / 1e3, 1);
	json_double(j, "fill_limit_us", (double)s->fill_limit_ns / 1e3, 1);
	json_u64(j, "fill_jump", s->fill_jump);
	json_u64(j, "fill_samples", s->fill_samples);
}

/* The console's words about SDHOST's fill probe. */
static void fill_line(const struct sd_host *h, const struct sd_silicon *s, int r, uint64_t ns)
{
	static const char *const what[SD_FILL_COUNT] = {
		"not probed", "follows the bus word by word",
		"follows the bus late", "moves in steps of several words (as QEMU's)",
		"could not be told from the looks", "was not probed: the probe's read failed",
	};

	con_printf("silicon: %s FIFO fill in SDEDM during a read %s (a word %.1f us at %.2f MHz; "
		   "first word %.1f us after READDATA, live within %.1f us; largest step %u): %s%s%s; "
		   "probe %.1f us\n", h->name ? h->name : "?",
		   what[s->fill < SD_FILL_COUNT ? s->fill : SD_FILL_UNCONFIRMED],
		   (double)s->fill_word_ns / 1e3, s->fill_clock_hz / 1e6,
		   (double)s->fill_delay_ns / 1e3, (double)s->fill_limit_ns / 1e3,
		   (unsigned)s->fill_jump, fill_used(h) ? "the split uses it" :
		   "the PIO split does not use it, PIO transfers get no diagnosis",
		   r ? ", error " : "", r ? "(see the record)" : "", (double)ns / 1e3);
}

/* Whether a PIO write's wait decision may use the looks as they stand. */
static bool write_looks_used(const struct sd_host *h)
{
	return h->bwe_look == SD_BWE_SLOT && h->dat0_look == SD_DAT0_LIVE;
}

/* The write probe's fields of the silicon record. */
static void write_fields(struct json *j, const struct sd_host *h, const struct sd_silicon *s,
			 int wr)
{
	if (!sd_host_can_probe_write(h))
		return;
	json_str(j, "bwe", wl_bwe_name(h->bwe_look));
	json_str(j, "dat0", wl_dat0_name(h->dat0_look));
	json_bool(j, "write_looks_used", write_looks_used(h));
	if (wr)
		json_i64(j, "write_probe_error", wr);
	if (!s->wprobed)
		return;
	json_bool(j, "bwe_first", s->bwe_first);
	json_bool(j, "dat0_low", s->dat0_low);
	json_u64(j, "busy_us", s->busy_us);
	json_u64(j, "dat0_late_us", s->dat0_late_us);
	json_u64(j, "tol_us", s->tol_us);
	json_double(j, "write_probe_us", (double)timer_ticks_to_ns(s->wticks) / 1e3, 1);
}

static void silicon_record(const struct sd_host *h, const struct sd_silicon *s, int r,
			   uint64_t probe_ns, int wr)
{
	struct json *j = record_begin("silicon");

	json_str(j, "host", h->name ? h->name : "?");
	json_bool(j, "probed", r == 0);
	if (r && r != -ENOTSUP)
		json_i64(j, "error", r);
	json_str(j, "blkcnt", wl_blkcnt_name(h->blkcnt_look));
	json_bool(j, "blkcnt_look_used", h->blkcnt_look == SD_BLKCNT_BUS);
	json_str(j, "read_wire", wl_wire_name(h->read_wire));
	if (r == 0 && s->blocks) {
		json_double(j, "first_us", (double)s->first_ns / 1e3, 1);
		json_double(j, "frame_us", (double)s->frame_ns / 1e3, 1);
		json_u64(j, "wire_clock_hz", s->wire_clock_hz);
		json_u64(j, "blocks", s->blocks);
		json_u64(j, "cnt_ready", s->cnt_ready);
		json_u64(j, "cnt_full", s->cnt_full);
		json_u64(j, "cnt_drained", s->cnt_drained);
		json_u64(j, "wait_us", s->wait_us);
	}
	json_double(j, "probe_us", (double)probe_ns / 1e3, 1);
	write_fields(j, h, s, wr);
	fill_fields(j, h, s);
	if (h->idle_clk_max == SD_IDLE_CLK_UNKNOWN)
		json_null(j, "idle_clocks_max");
	else
		json_u64(j, "idle_clocks_max", h->idle_clk_max);
	record_end();
}

/* The console's words about the controller's own idle clocks between
 * blocks: not probed (nothing measured tells them from a card's), taken
 * from the driver's authority (docs/silicon.md ctrl-idle-clocks). */
static void idle_line(const struct sd_host *h)
{
	if (h->idle_clk_max == SD_IDLE_CLK_UNKNOWN)
		con_printf("silicon: %s idle clocks of its own between blocks: no authority; a "
			   "card's wait there that could be them gets no diagnosis\n",
			   h->name ? h->name : "?");
	else
		con_printf("silicon: %s idle clocks of its own between blocks: at most %u (its "
			   "authority, not probed)\n", h->name ? h->name : "?",
			   (unsigned)h->idle_clk_max);
}

/* The write probe (sd_host_ops.probe_write): one write of SILICON_WBLOCKS
 * blocks at the start of the test area, through the write guard like
 * every write; refused (read-only run, no test area) it does not run and
 * the write looks stay unconfirmed. 0 or the write's error. */
#define SILICON_WBLOCKS 4u

static int write_probe(struct wl_ctx *c, struct sd_silicon *s)
{
	struct sd_host *h = c->card->host;
	int r;

	if (!sd_host_can_probe_write(h))
		return 0;
	if (!c->ta || !c->buf || c->buf_bytes < SILICON_WBLOCKS * 512u) {
		sd_host_probe_write(h, s);
		sd_host_probe_write(h, NULL);
		return -EPERM;
	}
	sd_host_probe_write(h, s);
	r = write_guard_write(c->guard, c->ta->first_lba, SILICON_WBLOCKS, c->buf,
			      SD_STOP_AUTO12, NULL);
	sd_host_probe_write(h, NULL);
	if (!r && !s->wprobed)
		r = -EIO; /* the write went another way (not PIO) */
	return r;
}

/* The console's words about the write looks. */
static void write_line(const struct sd_host *h, const struct sd_silicon *s, int wr)
{
	const char *name = h->name ? h->name : "?";

	if (!sd_host_can_probe_write(h))
		return;
	if (!s->wprobed) {
		con_printf("silicon: %s: no write probe (%s): a PIO write's wait for the card "
			   "is not decided, writes that need it get no diagnosis\n", name,
			   wr == -EPERM || wr == -EROFS ? "writes are not allowed" : "it failed");
		return;
	}
	con_printf("silicon: %s Buffer Write Enable %s; DAT[0] level %s (busy %u us, low %s, "
		   "high %u us after Transfer Complete): %s; probe %.1f us\n", name,
		   s->bwe == SD_BWE_SLOT ? "set with a block waiting" :
		   "set only when the buffer is empty", wl_dat0_name(s->dat0),
		   (unsigned)s->busy_us, s->dat0_low ? "seen" : "never seen",
		   (unsigned)s->dat0_late_us, write_looks_used(h) ?
		   "the write split uses them" : h->read_wire == SD_WIRE_INSTANT ?
		   "the write split needs neither (no time on the wire: every wait is the CPU's)" :
		   "PIO writes that need them get no diagnosis",
		   (double)timer_ticks_to_ns(s->wticks) / 1e3);
}

int wl_silicon_probe(struct wl_ctx *c)
{
	struct sd_host *h = c->card->host;
	struct sd_silicon s = { 0 };
	uint64_t t0 = timer_now_us();
	int r = sd_host_characterise(h, &s), wr;
	uint64_t ns = r == -ENOTSUP ? 0 : r ? (timer_now_us() - t0) * 1000u :
		      timer_ticks_to_ns(s.ticks);

	if (s.fprobed)
		fill_line(h, &s, r, ns);
	else if (r == -ENOTSUP)
		con_printf("silicon: %s: no probe (its driver uses no look at a block count)\n",
			   h->name ? h->name : "?");
	else if (r)
		con_printf("silicon: %s: the probe failed (error %d): Block Count is not used; "
			   "reads that need it get no diagnosis\n", h->name ? h->name : "?", r);
	else
		con_printf("silicon: %s Block Count during a read %s (%u written: %u when the "
			   "first block was ready, %u with the CPU moving nothing, %u after one "
			   "drained): %s; probe %.1f us\n", h->name ? h->name : "?",
			   blkcnt_words(s.blkcnt), (unsigned)s.blocks, (unsigned)s.cnt_ready,
			   (unsigned)s.cnt_full, (unsigned)s.cnt_drained,
			   s.blkcnt == SD_BLKCNT_BUS ? "the split uses it" :
			   s.wire == SD_WIRE_INSTANT ? "the split does not use it" :
			   "the split does not use it, reads that would need it get no diagnosis",
			   (double)ns / 1e3);
	if (r == 0 && !s.fprobed)
		wire_line(h, &s);
	wr = write_probe(c, &s);
	write_line(h, &s, wr);
	idle_line(h);
	silicon_record(h, &s, r, ns, wr);
	return r;
}
