/*
 * compare_hosts.c - the host comparison (compare_hosts.h): measures; the
 * fastest row per workload is decided by wla_best_index() (analysis.c);
 * compare_hosts_report.c prints.
 *
 * Per configuration: sequential read and write of 64 KiB (CMD18/CMD25 with
 * the stop the host offers), random 4 KiB reads and writes (queue depth
 * 1), on the same LBAs for every configuration (the same seed), so the
 * card sees the same requests and only the host differs.
 *
 * A host that runs UHS-I on this board (host->uhs_modes: the Pi 4's EMMC2,
 * the Pi 5's SD slot) is compared in every bus mode both sides accept
 * (wl_mode_accepted, as the modes step), per data path: the card is
 * initialised again in each (sd_init_mode: a power cycle where the signal
 * voltage changes), and afterwards in the mode it had. Under QEMU only the
 * mode the card is in (its controller has DS and HS only).
 */
#include <string.h>

#include "bench/engine/record.h"
#include "bench/workloads/analysis.h"
#include "bench/workloads/compare_hosts.h"
#include "bench/workloads/compare_hosts_report.h"
#include "bench/workloads/modes.h"
#include "bench/engine/workload_report.h"
#include "drivers/sd/sd.h"
#include "drivers/sd/sd_modes.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"

#define NWL 4

static const char *const wl_names[NWL] = {
	"seq-read-64k", "seq-write-64k", "rand-read-4k", "rand-write-4k"
};

static struct hosts_table table;

static void measure(struct wl_ctx *c, struct hosts_row *r, unsigned k, uint32_t seed)
{
	const bool write = k == 1 || k == 3;
	const bool seq = k < 2;
	const uint32_t blocks = seq ? 128 : 8;
	const uint32_t nops = seq ? (c->quick ? 16 : 128) : (c->quick ? 48 : 1000);
	const uint32_t first = write ? c->ta->first_lba : c->read_base;
	uint32_t span = write ? c->ta->count :
		(c->card->blocks > c->read_base ? c->card->blocks - c->read_base : 0);
	uint32_t slots, i;
	struct wl_meas m;
	char nm[40];

	if (span > (64u << 11))
		span = 64u << 11; /* 64 MiB */
	slots = span / blocks;
	if (write && !wl_writes_possible(c)) {
		r->error = -EROFS;
		r->why = c->card->write_protected ? "the card is write-protected"
			 : write_guard_why_not(c->guard);
		return;
	}
	if (!slots || (seq && span < nops * blocks)) {
		r->error = -ENOSPC;
		r->why = "area too small";
		return;
	}
	c->rng = seed;
	fmt_snprintf(nm, sizeof(nm), "hosts-%s-%s-%s", r->host, r->path, wl_names[k]);
	wl_begin(c, &m, seq ? "seq" : "random", nm, nm, write, WL_MULTI_AUTO12, blocks,
		 (uint64_t)nops * blocks * SD_BLOCK_SIZE);
	for (i = 0; i < nops && !wl_should_stop(c, &m); i++) {
		struct wl_op op;

		op.write = write;
		op.blocks = blocks;
		op.lba = first + (seq ? i : (wl_rand(c) % slots)) * blocks;
		op.cmd = blocks > 1 ? WL_MULTI_AUTO12 : WL_MULTI_CMD12;
		wl_do(c, &m, &op);
	}
	wl_end(c, &m);
	if (m.errors || !m.ops) {
		r->error = m.first_err ? m.first_err : -EIO;
		r->why = "the workload failed (see the error above)";
		return;
	}
	r->ops = m.ops;
	r->mbs = m.mbs;
	r->iops = m.iops;
	r->p99_ns = m.sum.p99_ns;
	r->host_pct = m.split.host_pct;
	/* The CPU's own time in the data phase (the driver's host_ticks: PIO
	 * loops, or DMA set-up, polling and a read's last words), not the
	 * host's share of the critical path (host_pct): a DMA transfer the CPU
	 * only starts costs it little even when the host is the bottleneck. */
	r->cpu_ns_per_block = m.bytes ? (double)(m.acc.host_ns + m.acc_w.host_ns) /
		((double)m.bytes / SD_BLOCK_SIZE) : 0;
	r->valid = m.validity.valid;
	fmt_snprintf(r->invalid_why, sizeof(r->invalid_why), "%s", m.validity.why);
}

static struct hosts_row *add_row(const char *host, const char *path, const char *mode,
				 unsigned k)
{
	struct hosts_row *r;

	if (table.nrows >= HOSTS_MAX_ROWS)
		return NULL;
	r = &table.rows[table.nrows++];
	memset(r, 0, sizeof(*r));
	r->host = host;
	r->path = path;
	r->mode = mode;
	r->workload = wl_names[k];
	return r;
}

static void fail_rows(const char *host, const char *path, const char *mode, int err,
		      const char *why)
{
	unsigned k;

	for (k = 0; k < NWL; k++) {
		struct hosts_row *row = add_row(host, path, mode, k);

		if (row) {
			row->error = err;
			row->why = why;
		}
	}
}

static const char *path_name(unsigned p)
{
	return p == SD_PATH_PIO ? "pio" : p == SD_PATH_DMA ? "dma" : "?";
}

/* The mode the card runs in now (sdbench.txt bus_mode names). */
static const char *mode_now(const struct wl_ctx *c)
{
	return sd_bus_mode_name(sd_timing_mode(c->card->timing));
}

static void measure_rows(struct wl_ctx *c, const char *host, const char *path,
			 uint32_t seed)
{
	const char *mode = mode_now(c);
	unsigned k;

	con_printf("  %s, %s, %s\n", host, path, mode);
	for (k = 0; k < NWL && !c->abort_all; k++) {
		struct hosts_row *row = add_row(host, path, mode, k);

		if (row)
			measure(c, row, k, seed + k);
	}
}

/* Every accepted bus mode of a UHS-I host, on data path 'path' of
 * controller 'name'; the card ends in mode 'orig'. Returns -errno when the
 * card could not be initialised again in 'orig' (the run stops). */
static int measure_modes(struct wl_ctx *c, const struct wl_host_switch *sw, const char *name,
			 unsigned path, uint8_t orig, uint32_t seed)
{
	struct sd_card *card = c->card;
	struct sd_host *h = card->host;
	bool acc[SD_MODE_COUNT];
	const struct sd_host *ph;
	const char *why;
	unsigned m;
	int r;

	for (m = SD_MODE_DS; m < SD_MODE_COUNT; m++)
		acc[m] = wl_mode_accepted(card, h, m);
	for (m = SD_MODE_DS; m < SD_MODE_COUNT && !c->abort_all; m++) {
		if (!acc[m])
			continue;
		r = sd_init_mode(card, h, m);
		if (!r && sd_timing_mode(card->timing) != m)
			r = -EIO; /* fell back (the card's mode_note says why) */
		if (r) {
			fail_rows(name, path_name(path), sd_bus_mode_name(m), r,
				  card->mode_note[0] ? card->mode_note :
				  "the card did not initialise in this mode");
			continue;
		}
		why = NULL;
		r = sw->use(sw->ctx, name, path, &ph, &why);
		if (r) {
			fail_rows(name, path_name(path), sd_bus_mode_name(m), r,
				  why ? why : "data path refused");
			continue;
		}
		measure_rows(c, name, path_name(path), seed);
	}
	r = sd_init_mode(card, h, orig);
	if (r) {
		const struct sd_host_err *e = &card->last_err;

		record_error_cmd("compare_hosts", -EIO, e->cmd, e->arg, e->status,
				 "could not initialise the card again in bus_mode %s",
				 sd_bus_mode_name(orig));
		c->abort_all = true;
		return r;
	}
	return sw->use(sw->ctx, name, path, &ph, &why);
}


void wl_compare_hosts(struct wl_ctx *c, const struct wl_host_switch *sw)
{
	const uint32_t seed = c->rng ^ 0x40575u;
	double v[HOSTS_MAX_ROWS];
	unsigned n, p, k, i;
	int r;

	table.nrows = 0;
	table.emulated = c->emulated;
	con_printf("\nhost comparison: the same workloads on every host configuration of "
		   "this board\n");
	for (n = 0; sw->names && sw->names[n]; n++) {
		const struct sd_host *h = NULL;
		const char *why = NULL;
		uint8_t paths, orig;

		if (c->abort_all)
			break;
		r = sw->use(sw->ctx, sw->names[n], SD_PATH_PIO, &h, &why);
		if (r || !h) {
			fail_rows(sw->names[n], "pio", NULL, r ? r : -ENODEV,
				  why ? why : "the card did not initialise there");
			continue;
		}
		paths = h->data_paths;
		orig = c->card->mode_want;
		for (p = 0; p < 8 && !c->abort_all; p++) {
			if (!(paths & (1u << p)))
				continue;
			if (p != SD_PATH_PIO) {
				r = sw->use(sw->ctx, sw->names[n], p, &h, &why);
				if (r) {
					fail_rows(sw->names[n], path_name(p), NULL, r,
						  why ? why : "data path refused");
					continue;
				}
			}
			if (!c->emulated && h->uhs_modes)
				measure_modes(c, sw, sw->names[n], p, orig, seed);
			else
				measure_rows(c, sw->names[n], path_name(p), seed);
		}
	}
	r = sw->restore(sw->ctx);
	if (r)
		c->abort_all = true;
	if (c->verify)
		wl_verify_written(c, "host-comparison");
	/* The fastest configuration per workload. */
	for (k = 0; k < NWL; k++) {
		unsigned idx[HOSTS_MAX_ROWS], m = 0;

		for (i = 0; i < table.nrows; i++)
			if (table.rows[i].workload == wl_names[k]) {
				idx[m] = i;
				v[m++] = table.rows[i].error ? -1.0 : table.rows[i].mbs;
			}
		i = wla_best_index(v, m);
		if (i < m && v[i] > 0)
			table.rows[idx[i]].best = true;
	}
	hosts_table_report(&table);
}
