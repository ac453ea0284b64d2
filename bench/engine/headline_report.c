/*
 * headline_report.c - see headline_report.h.
 *
 * First the verdict on the card's claims (headline_claims.c): a
 * counterfeit card's wrap, then PASS / FAIL per class claim. Then the
 * figures the tables show: a workload's measured rate (its bytes, or its
 * operations, over the workload's time: the `result` record's `mbs` /
 * `iops` and the summary's), with its p99 latency and what limits it. The
 * sequential parts are the summary's best (wl_best_seq). The median
 * operation's rate and the spread stay in the record beside them.
 */
#include <stdarg.h>
#include <string.h>

#include "bench/engine/attribution.h"
#include "bench/engine/headline_claims.h"
#include "bench/engine/headline_help.h"
#include "bench/engine/headline_report.h"
#include "bench/engine/record.h"
#include "bench/engine/workload_report.h"
#include "drivers/sd/sd_regs.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/json.h"

struct hl_part {
	const char *key;      /* record key */
	const char *label;    /* for people */
	bool iops;            /* IOPS, else MB/s */
	const struct wl_summary *s;
};

static double rate_of(const struct wl_summary *s, uint32_t ns, bool iops)
{
	if (!ns)
		return 0.0;
	return iops ? 1e9 / ns : (double)s->xfer_bytes * 1e3 / ns;   /* 10^6 B/s */
}

/* The workload's measured rate: what its table row and the summary show. */
static double measured_of(const struct wl_summary *s, bool iops)
{
	return iops ? s->iops : s->mbs;
}

static double median_of(const struct wl_summary *s, bool iops)
{
	if (!s->p50_ns)
		return iops ? s->iops : s->mbs;
	return rate_of(s, s->p50_ns, iops);
}

/* "SanDisk SL16G 16.0 GB, claims C10 U1 A1" from the CID and SD Status. */
static void card_text(const struct sd_card *card, char *buf, size_t cap)
{
	struct sd_cid cid;
	struct sd_ssr ssr;
	size_t n = 0;
	bool any = false;

	sd_cid_decode(card->cid, &cid);
	fmt_append(buf, cap, &n, "%s %s %.1f GB", sd_mid_name(cid.mid), cid.pnm,
	    card->capacity_bytes / 1e9);
	if (!card->have_ssr) {
		fmt_append(buf, cap, &n, ", no SD Status");
		return;
	}
	sd_ssr_decode(card->ssr, &ssr);
	fmt_append(buf, cap, &n, ", claims");
	if (ssr.speed_class_num > 0) {
		fmt_append(buf, cap, &n, " C%d", ssr.speed_class_num);
		any = true;
	}
	if (ssr.uhs_speed_grade_valid && ssr.uhs_speed_grade) {
		fmt_append(buf, cap, &n, " U%u", (unsigned)ssr.uhs_speed_grade);
		any = true;
	}
	if (ssr.video_speed_class_valid && ssr.video_speed_class) {
		fmt_append(buf, cap, &n, " V%u", (unsigned)ssr.video_speed_class);
		any = true;
	}
	if (ssr.app_perf_class == 1 || ssr.app_perf_class == 2) {
		fmt_append(buf, cap, &n, " A%u", (unsigned)ssr.app_perf_class);
		any = true;
	}
	if (!any)
		fmt_append(buf, cap, &n, " no class");
}

static const char *limit_of(const struct wl_summary *s)
{
	return s->valid ? bottleneck_name((enum bottleneck)s->bottleneck) : "no diagnosis";
}

static void part_record(struct json *j, const struct hl_part *p)
{
	const struct wl_summary *s = p->s;

	json_obj_begin(j, p->key);
	json_str(j, "workload", s->name);
	json_u64(j, "xfer_bytes", s->xfer_bytes);
	json_u64(j, "ops", s->ops);
	json_double(j, p->iops ? "median_iops" : "median_mbs", median_of(s, p->iops), p->iops ? 1 : 3);
	json_double(j, p->iops ? "p90_iops" : "p90_mbs", rate_of(s, s->p90_ns, p->iops),
		    p->iops ? 1 : 3);
	json_double(j, p->iops ? "fastest_iops" : "fastest_mbs", rate_of(s, s->min_ns, p->iops),
		    p->iops ? 1 : 3);
	json_str(j, "limit", limit_of(s));
	json_double(j, "mbs", s->mbs, 3);
	json_double(j, "iops", s->iops, 1);
	json_double(j, "p99_us", s->p99_ns / 1000.0, 1);
	json_obj_end(j);
}

/* The limits of the parts shown, from their valid verdicts only. */
static unsigned limits_of(const struct hl_part *parts, unsigned n)
{
	static const unsigned bit[] = {
		[BOTTLENECK_CARD] = HELP_LIMIT_CARD, [BOTTLENECK_BUS] = HELP_LIMIT_BUS,
		[BOTTLENECK_HOST] = HELP_LIMIT_HOST, [BOTTLENECK_MIXED] = 0,
	};
	unsigned k, mask = 0;

	for (k = 0; k < n; k++)
		if (parts[k].s && parts[k].s->valid && parts[k].s->bottleneck <= BOTTLENECK_MIXED)
			mask |= bit[parts[k].s->bottleneck];
	return mask;
}

static void help_record(struct json *j, const struct headline_help *h)
{
	unsigned k;

	json_arr_begin(j, "help");
	for (k = 0; k < h->n; k++)
		json_str(j, NULL, h->line[k]);
	json_arr_end(j);
}

static void claims_record(struct json *j, const struct hl_claims *h, const char *verdict)
{
	unsigned k;

	json_str(j, "verdict", verdict);
	json_arr_begin(j, "claims");
	for (k = 0; k < h->n; k++) {
		json_obj_begin(j, NULL);
		json_str(j, "claim", h->claim[k].name);
		json_str(j, "result", hl_result_name(h->claim[k].result));
		json_str(j, "detail", h->claim[k].detail);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "failed_claims");
	for (k = 0; k < h->n; k++)
		if (h->claim[k].result == HL_FAIL)
			json_str(j, NULL, h->claim[k].name);
	json_arr_end(j);
	json_bool(j, "counterfeit", h->counterfeit);
	json_u64_if(j, "wrap_bytes", h->counterfeit, h->wrap_bytes);
}

/* "p99 120.9 ms" / "p99 734 us" */
static const char *p99_text(char *buf, size_t cap, uint32_t ns)
{
	if (ns >= 10000000u)
		fmt_snprintf(buf, cap, "p99 %.1f ms", ns / 1e6);
	else
		fmt_snprintf(buf, cap, "p99 %.0f us", ns / 1e3);
	return buf;
}

static const char *run_mark(const struct wl_ctx *c)
{
	return c->simulated ? "SIMULATED: the simulator's card and timing, no real card" :
	       c->emulated ? "EMULATED (QEMU): emulation speed, not the card's" : NULL;
}

/* The figures: console lines and the text's parts. */
static void print_parts(const struct hl_part *parts, unsigned np, char *text, size_t cap,
			size_t *n)
{
	char p99[32];
	unsigned k;

	for (k = 0; k < np; k++) {
		const struct wl_summary *s = parts[k].s;

		if (!s)
			continue;
		p99_text(p99, sizeof(p99), s->p99_ns);
		con_printf("  %-20s %9.*f %s  %-14s %s (%s, %u op%s%s)\n", parts[k].label,
			   parts[k].iops ? 0 : 2, measured_of(s, parts[k].iops),
			   parts[k].iops ? "IOPS" : "MB/s", p99, limit_of(s), s->name,
			   (unsigned)s->ops, s->ops == 1 ? "" : "s",
			   s->ops < HEADLINE_MIN_OPS ? ", few" : "");
		fmt_append(text, cap, n, "; %s %.*f %s (%s, %s)", parts[k].label,
		    parts[k].iops ? 0 : 2, measured_of(s, parts[k].iops),
		    parts[k].iops ? "IOPS" : "MB/s", p99, limit_of(s));
	}
}

void wl_print_headline(const struct wl_ctx *c)
{
	struct hl_part parts[] = {
		{ "seq_read", "sequential read", false, wl_best_seq(c, "seq-read-") },
		{ "seq_write", "sequential write", false, wl_best_seq(c, "seq-write-") },
		{ "rand_read_4k", "random 4 KiB read", true, wl_summary_named(c, "rand-read-4k") },
		{ "rand_write_4k", "random 4 KiB write", true, wl_summary_named(c, "rand-write-4k") },
		{ "sustained", "sustained write", false, wl_summary_named(c, "sustained-write") },
	};
	static char text[1024];
	static struct hl_claims claims;
	char card[96], verdict[512];
	const unsigned np = sizeof(parts) / sizeof(parts[0]);
	struct headline_help help;
	const char *mark = run_mark(c);
	size_t n = 0;
	struct json *j;
	unsigned k;

	if (!c->nsummary)
		return;
	card_text(c->card, card, sizeof(card));
	headline_claims(c, &claims);
	headline_verdict_line(&claims, verdict, sizeof(verdict));
	fmt_append(text, sizeof(text), &n, "%s; %s", verdict, card);
	con_printf("\nheadline%s%s\n  %s\n  %s\n", mark ? " - " : "", mark ? mark : "", verdict,
		   card);
	print_parts(parts, np, text, sizeof(text), &n);
	if (mark)
		fmt_append(text, sizeof(text), &n, "; %s", mark);
	headline_help(c->card, limits_of(parts, np) | (c->emulated ? HELP_EMULATED : 0), &help);
	for (k = 0; k < help.n; k++)
		con_printf("  would help: %s\n", help.line[k]);
	j = record_begin("headline");
	json_str(j, "card", card);
	json_u64(j, "min_ops", HEADLINE_MIN_OPS);
	for (k = 0; k < np; k++)
		if (parts[k].s)
			part_record(j, &parts[k]);
	json_str(j, "text", text);
	json_bool(j, "emulated", c->emulated);
	help_record(j, &help);
	claims_record(j, &claims, verdict);
	json_bool(j, "simulated", c->simulated);
	record_end();
}
