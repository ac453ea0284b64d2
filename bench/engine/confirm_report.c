/*
 * confirm_report.c - the suite's confirmation step (confirm_report.h): which workloads, their `check` records and console lines,
 * the summary's verdicts, and what the checks cost (`checks` record).
 */
#include "bench/engine/confirm_report.h"
#include "bench/engine/record.h"
#include "lib/console.h"
#include "lib/fmt.h"

const char *wl_check_kind_name(enum wl_check_kind k)
{
	return k == WL_CHECK_CLOCK ? "clock" : k == WL_CHECK_WIDTH ? "width" : "cpu_delay";
}

const char *wl_check_verdict_name(enum wl_check_verdict v)
{
	return v == WL_CHECK_CONFIRMED ? "confirmed" :
	       v == WL_CHECK_CONTRADICTED ? "contradicted" : "not_run";
}

static void record_check(const struct wl_check *k, bool emulated)
{
	struct json *j = record_begin("check");
	bool ran = k->verdict != WL_CHECK_NOT_RUN;

	json_str(j, "workload", k->workload);
	json_str(j, "kind", wl_check_kind_name(k->kind));
	json_str(j, "verdict", wl_check_verdict_name(k->verdict));
	if (ran) {
		json_double(j, "predicted_ns", k->predicted_ns, 0);
		json_double(j, "predicted_hi_ns", k->predicted_hi_ns, 0);
		json_double(j, "measured_ns", k->measured_ns, 0);
		json_double(j, "tolerance_ns", k->tolerance_ns, 0);
		json_double(j, "baseline_ns", k->baseline_ns, 0);
		json_double(j, "drift_ns", k->drift_ns, 0);
	} else {
		json_null(j, "predicted_ns");
		json_null(j, "predicted_hi_ns");
		json_null(j, "measured_ns");
		json_null(j, "tolerance_ns");
		json_null(j, "baseline_ns");
		json_null(j, "drift_ns");
	}
	json_u64(j, "ops", k->ops);
	json_u64(j, "clock_hz", k->clock_hz);
	json_u64_if(j, "cf_clock_hz", k->kind == WL_CHECK_CLOCK && k->cf_clock_hz,
		    k->cf_clock_hz);
	json_u64_if(j, "cf_width", k->kind == WL_CHECK_WIDTH && k->cf_width, k->cf_width);
	json_u64_if(j, "delay_ns_per_block", k->kind == WL_CHECK_CPU_DELAY && ran,
		    k->delay_ns_per_block);
	json_u64(j, "cost_us", k->cost_us);
	if (ran)
		json_null(j, "reason");
	else
		json_str(j, "reason", k->reason);
	json_bool(j, "emulated", emulated);
	record_end();
}

static void print_check(const struct wl_check *k)
{
	char what[48];

	if (k->kind == WL_CHECK_CLOCK)
		fmt_snprintf(what, sizeof(what), "clock %u -> %u kHz", (unsigned)(k->clock_hz / 1000),
			     (unsigned)(k->cf_clock_hz / 1000));
	else if (k->kind == WL_CHECK_WIDTH)
		fmt_snprintf(what, sizeof(what), "bus %u -> %u bit", (unsigned)k->width,
			     (unsigned)k->cf_width);
	else
		fmt_snprintf(what, sizeof(what), "CPU delay %u ns/block",
			     (unsigned)k->delay_ns_per_block);
	if (k->verdict == WL_CHECK_NOT_RUN) {
		con_printf("  check %-22s %-9s not run: %s\n", k->workload,
			   wl_check_kind_name(k->kind), k->reason);
		return;
	}
	con_printf("  check %-22s %-24s %s %.1f us, predicted %.1f", k->workload, what,
		   k->kind == WL_CHECK_CPU_DELAY ? "host/op" : "median", k->measured_ns / 1e3,
		   k->predicted_ns / 1e3);
	if (k->predicted_hi_ns > k->predicted_ns)
		con_printf("-%.1f", k->predicted_hi_ns / 1e3);
	con_printf(" +/- %.1f us: %s\n", k->tolerance_ns / 1e3, wl_check_verdict_name(k->verdict));
}

static const char *check_words(enum wl_check_kind k)
{
	return k == WL_CHECK_CLOCK ? "half clock" : k == WL_CHECK_WIDTH ? "1-bit bus" : "CPU delay";
}

/* The summary's verdict after the checks: "..., confirmed by ..." or
 * "contradicted: ..." (and then no diagnosis); unchanged when none ran. */
void wl_confirm_verdict(struct wl_summary *s, const struct wl_check k[WL_CHECK_KINDS])
{
	static const enum wl_check_kind order[WL_CHECK_KINDS] = {
		WL_CHECK_CLOCK, WL_CHECK_WIDTH, WL_CHECK_CPU_DELAY
	};
	char v[sizeof(s->verdict)], by[64] = "";
	size_t blen = 0;
	const struct wl_check *bad = NULL;
	unsigned i, n = 0, nconf = 0;

	for (i = 0; i < WL_CHECK_KINDS; i++) {
		if (k[i].verdict == WL_CHECK_CONTRADICTED && !bad)
			bad = &k[i];
		nconf += k[i].verdict == WL_CHECK_CONFIRMED;
	}
	if (bad) {
		fmt_snprintf(v, sizeof(v), "contradicted: %s took %.0f us, the split predicts %.0f us "
			     "(%s)", check_words(bad->kind), bad->measured_ns / 1e3,
			     bad->predicted_ns / 1e3, s->verdict);
		s->valid = false;
	} else if (nconf) {
		/* "a", "a and b", "a, b and c" in the order above */
		for (i = 0; i < WL_CHECK_KINDS; i++) {
			if (k[order[i]].verdict != WL_CHECK_CONFIRMED)
				continue;
			n++;
			fmt_append(by, sizeof(by), &blen, "%s%s", n == 1 ? "" : n == nconf ? " and " : ", ",
				   check_words(order[i]));
		}
		fmt_snprintf(v, sizeof(v), "%s, confirmed by %s", s->verdict, by);
	} else {
		return;
	}
	fmt_snprintf(s->verdict, sizeof(s->verdict), "%s", v);
}

void wl_check_report(const struct wl_check *k, bool emulated)
{
	print_check(k);
	record_check(k, emulated);
}

void wl_checks_heading(void)
{
	con_printf("\nchecks: each verdict against a run at half the clock, one on a 1-bit bus "
		   "and one with a CPU delay\n");
}

void wl_checks_report(const unsigned count[3], uint64_t elapsed_us, bool emulated)
{
	struct json *j;

	con_printf("  %u confirmed, %u contradicted, %u not run; %.2f s\n", count[0], count[1],
		   count[2], (double)elapsed_us / 1e6);
	j = record_begin("checks");
	json_u64(j, "confirmed", count[0]);
	json_u64(j, "contradicted", count[1]);
	json_u64(j, "not_run", count[2]);
	json_u64(j, "elapsed_us", elapsed_us);
	json_bool(j, "emulated", emulated);
	record_end();
}
