/*
 * workload_report.c - what a finished workload prints (see
 * workload_report.h): the table line, the verdict line and the standard
 * records of wl_end's figures, the closing summary, and skipped workloads.
 */
#include <string.h>

#include "bench/engine/confirm.h"
#include "bench/engine/record.h"
#include "bench/engine/workload_report.h"
#include "lib/console.h"
#include "lib/fmt.h"

void wl_skip(const char *name, const char *why)
{
	struct json *j;

	con_printf("  %-28s skipped: %s\n", name, why);
	j = record_begin("skipped");
	json_str(j, "workload", name);
	json_str(j, "reason", why);
	record_end();
}

static const char *cmd_name(enum wl_cmd cmd)
{
	switch (cmd) {
	case WL_MULTI_CMD12:
		return "cmd12";
	case WL_MULTI_AUTO12:
		return "auto-cmd12";
	case WL_MULTI_CMD23:
		return "cmd23";
	case WL_MULTI_PREERASE:
		return "acmd23+auto-cmd12";
	default:
		return "single";
	}
}

static void record_result(const struct wl_ctx *c, const struct wl_meas *m)
{
	struct json *j = record_begin("result");

	json_str(j, "workload", m->name);
	json_str(j, "kind", m->kind);
	json_str(j, "op", m->nwrites && m->nreads ? "mixed" : (m->write ? "write" : "read"));
	json_str(j, "cmd", cmd_name(m->cmd));
	json_u64(j, "xfer_bytes", (uint64_t)m->xfer_blocks * SD_BLOCK_SIZE);
	json_u64(j, "ops", m->ops);
	json_u64(j, "reads", m->nreads);
	json_u64(j, "writes", m->nwrites);
	json_u64(j, "bytes", m->bytes);
	json_u64(j, "elapsed_ns", m->elapsed_ns);
	json_double(j, "mbs", m->mbs, 3);
	json_double(j, "mibs", stats_mibs(m->bytes, m->elapsed_ns), 3);
	json_double(j, "iops", m->iops, 1);
	json_u64(j, "clock_hz", m->clock_hz);
	json_u64(j, "width", m->width);
	json_u64(j, "errors", m->errors);
	json_bool(j, "emulated", c->emulated);
	json_str(j, "data_path", c->card && c->card->host &&
		 c->card->host->data_path == SD_PATH_DMA ? "dma" : "pio");
	record_end();
}

static void record_latency(const struct wl_meas *m)
{
	struct json *j = record_begin("latency");

	json_str(j, "workload", m->name);
	json_u64(j, "count", m->sum.count);
	json_u64(j, "min_ns", m->sum.min_ns);
	json_double(j, "mean_ns", m->sum.mean_ns, 0);
	json_u64(j, "p50_ns", m->sum.p50_ns);
	json_u64(j, "p90_ns", m->sum.p90_ns);
	json_u64(j, "p99_ns", m->sum.p99_ns);
	json_u64(j, "p999_ns", m->sum.p999_ns);
	json_u64(j, "max_ns", m->sum.max_ns);
	json_double(j, "stddev_ns", m->sum.stddev_ns, 0);
	record_end();
}

static void record_histogram(const struct wl_ctx *c, const struct wl_meas *m)
{
	struct log_hist h;
	struct json *j;
	uint32_t i;
	unsigned k;

	hist_init(&h);
	for (i = 0; i < m->nlat; i++)
		hist_add(&h, c->lat[i]);
	j = record_begin("histogram");
	json_str(j, "workload", m->name);
	json_str(j, "buckets", "log2/4 from 1 us");
	json_arr_begin(j, "lo_ns");
	for (k = 0; k < HIST_BUCKETS; k++)
		if (h.count[k])
			json_u64(j, NULL, hist_bucket_lo_ns(k));
	json_arr_end(j);
	json_arr_begin(j, "count");
	for (k = 0; k < HIST_BUCKETS; k++)
		if (h.count[k])
			json_u64(j, NULL, h.count[k]);
	json_arr_end(j);
	record_end();
}

/* At most 120 points: neighbouring intervals merged. */
static void record_series(const struct wl_meas *m)
{
	uint32_t n = m->ser.npoints > 120 ? 120 : m->ser.npoints;
	uint32_t step = (m->ser.npoints + n - 1) / n;
	uint32_t i;
	struct json *j;

	j = record_begin("series");
	json_str(j, "workload", m->name);
	json_u64(j, "interval_ns", m->ser.interval_ns * step);
	json_arr_begin(j, "mbs");
	for (i = 0; i < m->ser.npoints; i += step) {
		uint64_t b = 0;
		uint32_t k2;

		for (k2 = i; k2 < i + step && k2 < m->ser.npoints; k2++)
			b += m->ser.pt[k2].bytes;
		json_double(j, NULL, stats_mbs(b, m->ser.interval_ns * step), 2);
	}
	json_arr_end(j);
	json_arr_begin(j, "worst_ns");
	for (i = 0; i < m->ser.npoints; i += step) {
		uint32_t w = 0, k2;

		for (k2 = i; k2 < i + step && k2 < m->ser.npoints; k2++)
			if (m->ser.pt[k2].worst_ns > w)
				w = m->ser.pt[k2].worst_ns;
		json_u64(j, NULL, w);
	}
	json_arr_end(j);
	record_end();
}

/* valid, why (null when valid) and the checks that failed (validity.h). */
static void record_validity(struct json *j, const struct wl_validity *v)
{
	unsigned k;

	json_bool(j, "valid", v->valid);
	if (v->valid)
		json_null(j, "why");
	else
		json_str(j, "why", v->why);
	json_arr_begin(j, "invalid");
	for (k = 0; k < WL_INVALID_COUNT; k++)
		if (v->reasons & (1u << k))
			json_str(j, NULL, wl_invalid_name((enum wl_invalid)k));
	json_arr_end(j);
}

static void record_phases(const struct wl_meas *m)
{
	struct json *j = record_begin("phases");

	json_str(j, "workload", m->name);
	json_u64(j, "ops", m->acc.ops + m->acc_w.ops);
	json_u64(j, "total_ns", m->acc.total_ns + m->acc_w.total_ns);
	json_u64(j, "cmd_ns", m->acc.cmd_ns + m->acc_w.cmd_ns);
	json_u64(j, "access_ns", m->acc.access_ns + m->acc_w.access_ns);
	json_u64(j, "data_ns", m->acc.data_ns + m->acc_w.data_ns);
	json_u64(j, "host_ns", m->acc.host_ns + m->acc_w.host_ns);
	json_u64(j, "busy_ns", m->acc.busy_ns + m->acc_w.busy_ns);
	json_u64(j, "gap_ns", m->acc.gap_ns + m->acc_w.gap_ns);
	json_double(j, "card_pct", m->split.card_pct, 1);
	json_double(j, "bus_pct", m->split.bus_pct, 1);
	json_double(j, "host_pct", m->split.host_pct, 1);
	json_double(j, "bus_efficiency_pct", m->split.bus_efficiency_pct, 1);
	json_str(j, "bus_source", m->bus_measured ? "measured" : "model");
	json_double(j, "model_bus_pct", m->model_bus_pct, 1);
	json_double(j, "bus_extra_clocks", m->split.bus_extra_clocks, 0);
	json_double(j, "card_clock_pct", m->split.card_clock_pct, 1);
	json_double(j, "card_idle_clocks", m->split.card_idle_clocks, 0);
	record_validity(j, &m->validity);
	record_end();
}

static void record_verdict(const struct wl_ctx *c, const struct wl_meas *m, const char *verdict)
{
	struct json *j = record_begin("verdict");

	json_str(j, "workload", m->name);
	if (m->validity.valid) {
		json_str(j, "bottleneck", bottleneck_name(m->split.verdict));
		json_double(j, "pct", m->split.verdict_pct, 1);
	} else {
		json_str(j, "bottleneck", "none");
		json_null(j, "pct");
	}
	json_str(j, "text", verdict);
	json_bool(j, "emulated", c->emulated);
	record_validity(j, &m->validity);
	record_end();
}

/* The records of a workload that ran (docs/records.md). */
static void print_records(const struct wl_ctx *c, const struct wl_meas *m, const char *verdict)
{
	record_result(c, m);
	record_latency(m);
	record_histogram(c, m);
	if (m->ser.npoints > 1)
		record_series(m);
	record_phases(m);
	record_verdict(c, m, verdict);
}

void wl_report(struct wl_ctx *c, const struct wl_meas *m)
{
	char verdict[180];

	/* A split whose model does not hold is no diagnosis (validity.h). */
	if (m->validity.valid)
		phase_verdict_text(&m->split, m->write, verdict, sizeof(verdict));
	else
		fmt_snprintf(verdict, sizeof(verdict), "no diagnosis: %s", m->validity.why);
	con_printf("\r  %-28s %9.3f MB/s %9.3f MiB/s %8.0f IOPS  p50 %7.1f us  p99 %8.1f us  max %8.1f us%s\n",
		   m->label, m->mbs, stats_mibs(m->bytes, m->elapsed_ns), m->iops,
		   m->sum.p50_ns / 1000.0, m->sum.p99_ns / 1000.0, m->sum.max_ns / 1000.0,
		   m->errors ? "  (errors)" : "");
	con_printf("  %-28s %s\n", "", verdict);
	if (!m->ops)
		return;
	/* The bus as measured and as the framing alone says, when they differ
	 * enough to matter. */
	if (m->validity.valid && m->bus_measured && (m->split.bus_pct - m->model_bus_pct >= 5.0 ||
				m->model_bus_pct - m->split.bus_pct >= 5.0))
		con_printf("  %-28s bus %.0f%% as measured (%+.0f clocks per block); the framing "
			   "model alone says %.0f%%\n", "", m->split.bus_pct,
			   m->split.bus_extra_clocks, m->model_bus_pct);
	print_records(c, m, verdict);
	if (c->nsummary < WL_MAX_SUMMARY) {
		struct wl_summary *s = &c->summary[c->nsummary++];

		fmt_snprintf(s->name, sizeof(s->name), "%s", m->name);
		s->write = m->write;
		s->xfer_bytes = m->xfer_blocks * SD_BLOCK_SIZE;
		s->mbs = m->mbs;
		s->iops = m->iops;
		fmt_snprintf(s->verdict, sizeof(s->verdict), "%s", verdict);
		s->ops = (uint32_t)m->ops;
		s->p50_ns = m->sum.p50_ns;
		s->p90_ns = m->sum.p90_ns;
		s->min_ns = m->sum.min_ns;
		s->p99_ns = m->sum.p99_ns;
		s->bottleneck = (uint8_t)m->split.verdict;
		s->valid = m->validity.valid;
		wl_confirm_note(c, m, c->nsummary - 1);
	}
}

const struct wl_summary *wl_best_seq(const struct wl_ctx *c, const char *prefix)
{
	const struct wl_summary *best = 0;
	uint32_t i, n = (uint32_t)strlen(prefix);

	for (i = 0; i < c->nsummary; i++)
		if (!strncmp(c->summary[i].name, prefix, n) &&
		    (!best || c->summary[i].mbs > best->mbs))
			best = &c->summary[i];
	return best;
}

const struct wl_summary *wl_summary_named(const struct wl_ctx *c, const char *name)
{
	uint32_t i;

	for (i = 0; i < c->nsummary; i++)
		if (!strcmp(c->summary[i].name, name))
			return &c->summary[i];
	return 0;
}

void wl_print_summary(const struct wl_ctx *c)
{
	static const char *const seq[2] = { "seq-read-", "seq-write-" };
	static const char *const rnd[3] = { "rand-read-4k", "rand-write-4k", "mix70-4k" };
	static const char *const rnd_label[3] = { "random 4 KiB read", "random 4 KiB write",
						  "random 70/30 4 KiB" };
	static const char *const rnd_key[3] = { "rand_read_4k", "rand_write_4k", "mix70_4k" };
	struct json *j;
	unsigned k, shown = 0;

	con_printf("\nsummary%s (MB = 10^6 B)\n",
		   c->emulated ? " - QEMU: emulation speed, not the card's" : "");
	j = record_begin("summary");
	json_bool(j, "emulated", c->emulated);
	for (k = 0; k < 2; k++) {
		const struct wl_summary *b = wl_best_seq(c, seq[k]);

		if (!b)
			continue;
		con_printf("  %-20s best %9.3f MB/s at %u KiB transfers\n  %-20s %s\n",
			   k ? "sequential write" : "sequential read", b->mbs,
			   (unsigned)(b->xfer_bytes >> 10), "", b->verdict);
		shown++;
		json_obj_begin(j, k ? "seq_write" : "seq_read");
		json_str(j, "workload", b->name);
		json_u64(j, "xfer_bytes", b->xfer_bytes);
		json_double(j, "mbs", b->mbs, 3);
		json_str(j, "verdict", b->verdict);
		json_obj_end(j);
	}
	for (k = 0; k < 3; k++) {
		const struct wl_summary *r = wl_summary_named(c, rnd[k]);

		if (!r)
			continue;
		con_printf("  %-20s %9.0f IOPS %9.3f MB/s\n  %-20s %s\n", rnd_label[k], r->iops,
			   r->mbs, "", r->verdict);
		json_obj_begin(j, rnd_key[k]);
		json_double(j, "iops", r->iops, 1);
		json_double(j, "mbs", r->mbs, 3);
		json_str(j, "verdict", r->verdict);
		json_obj_end(j);
		shown++;
	}
	/* What finished, whatever it was (one workload from the console, or
	 * what ran before a Ctrl-C). */
	json_arr_begin(j, "finished");
	for (k = 0; k < c->nsummary; k++) {
		const struct wl_summary *w = &c->summary[k];

		json_str(j, NULL, w->name);
		if (!shown)
			con_printf("  %-20s %9.3f MB/s %9.0f IOPS\n  %-20s %s\n", w->name, w->mbs,
				   w->iops, "", w->verdict);
	}
	json_arr_end(j);
	if (!c->nsummary)
		con_printf("  no workload finished\n");
	record_end();
}
