/*
 * headline_claims.c - see headline_claims.h.
 *
 * A class claim passes when the class check's Pw reaches it (SD Physical
 * Layer Simplified Specification 4.13: Speed Class n and Video Speed Class
 * Vn need n MB/s, UHS Speed Grade U1 10 MB/s and U3 30 MB/s), fails when
 * it does not and the bus in force could carry it, and is unknown when Pw
 * was not measured or the bus cannot carry the claim. The application
 * class (4.16) is the class check's own verdict, and for A2 the command
 * queue's when the queue workload ran (A2 is stated with the queue and
 * the cache on: its IOPS at the card's depth). The capacity fails when
 * the test area's wrap check (bench/storage/test_area.c) read LBA 0 back
 * below the reported size: a counterfeit card.
 */
#include <string.h>

#include "bench/engine/headline_claims.h"
#include "bench/storage/test_area.h"
#include "drivers/sd/sd_regs.h"
#include "lib/fmt.h"

const char *hl_result_name(enum hl_result r)
{
	return r == HL_PASS ? "PASS" : r == HL_FAIL ? "FAIL" : "not checked";
}

static struct hl_claim *next(struct hl_claims *h, const char *fmt, unsigned v)
{
	struct hl_claim *k;

	if (h->n >= HL_CLAIMS_MAX)
		return NULL;
	k = &h->claim[h->n++];
	fmt_snprintf(k->name, sizeof(k->name), fmt, v);
	k->result = HL_UNKNOWN;
	return k;
}

/* One speed claim: need_mbs from 4.13, met = the class check found it met. */
static void speed_claim(struct hl_claims *h, const struct wl_claims *k, const char *fmt,
			unsigned v, unsigned need_mbs, bool met)
{
	struct hl_claim *c = next(h, fmt, v);

	if (!c)
		return;
	if (!k->checked)
		fmt_snprintf(c->detail, sizeof(c->detail), "the class check did not run");
	else if (k->pw_mbs < 0)
		fmt_snprintf(c->detail, sizeof(c->detail), "Pw not measured%s",
			     k->writes ? "" : ": no writes");
	else if (met) {
		c->result = HL_PASS;
		fmt_snprintf(c->detail, sizeof(c->detail), "Pw %.2f MB/s, needs %u", k->pw_mbs,
			     need_mbs);
	} else if (k->bus_ceiling_mbs > 0 && k->bus_ceiling_mbs < (double)need_mbs)
		fmt_snprintf(c->detail, sizeof(c->detail), "needs %u MB/s, this bus carries %.1f",
			     need_mbs, k->bus_ceiling_mbs);
	else {
		c->result = HL_FAIL;
		fmt_snprintf(c->detail, sizeof(c->detail), "Pw %.2f MB/s, needs %u", k->pw_mbs,
			     need_mbs);
	}
}

static void app_claim(struct hl_claims *h, const struct wl_claims *k)
{
	struct hl_claim *c = next(h, "A%u", k->app);

	if (!c)
		return;
	if (k->app == 2 && k->queue_judged) {
		/* A2 judged on the command queue's figures (bench/workloads/
		 * app_class.c wl_app_class_queued): PASS / FAIL, or unknown */
		c->result = k->queue_app_ok == 1 ? HL_PASS : k->queue_app_ok == 0 ? HL_FAIL
			    : HL_UNKNOWN;
		fmt_snprintf(c->detail, sizeof(c->detail), "%s", k->queue_detail);
	} else if (!k->checked)
		fmt_snprintf(c->detail, sizeof(c->detail), "the class check did not run");
	else if (k->app_ok == 1 || k->app_ok == 0) {
		c->result = k->app_ok ? HL_PASS : HL_FAIL;
		fmt_snprintf(c->detail, sizeof(c->detail), "the class check's verdict");
	} else
		fmt_snprintf(c->detail, sizeof(c->detail), "%s", !k->writes ? "no writes" :
			     k->app == 2 ? "A2 needs command queue and cache" : "a figure is missing");
}

/* The claims from the SD Status when the class check did not run. */
static void claims_from_card(const struct sd_card *card, struct wl_claims *k)
{
	struct sd_ssr ssr;

	memset(k, 0, sizeof(*k));
	k->pw_mbs = -1;
	k->app_ok = -1;
	if (!card || !card->have_ssr)
		return;
	k->have_ssr = true;
	sd_ssr_decode(card->ssr, &ssr);
	k->speed_class = ssr.speed_class_num;
	k->uhs_grade = ssr.uhs_speed_grade_valid ? ssr.uhs_speed_grade : 0;
	k->video = ssr.video_speed_class_valid ? ssr.video_speed_class : 0;
	k->app = ssr.app_perf_class;
}

static void capacity_claim(struct hl_claims *h, const struct wl_ctx *c)
{
	const struct test_area *ta = c->ta;
	struct hl_claim *k;
	char s1[24];

	h->reported_bytes = c->card ? c->card->capacity_bytes : 0;
	if (!ta || (!ta->wrap_lba && !ta->wrap_checked))
		return;
	k = next(h, "capacity", 0);
	if (!k)
		return;
	if (ta->wrap_lba) {
		h->counterfeit = true;
		h->wrap_bytes = ta->wrap_lba * SD_BLOCK_SIZE;
		k->result = HL_FAIL;
		fmt_snprintf(k->detail, sizeof(k->detail), "addresses wrap at %s",
			     fmt_size(s1, sizeof(s1), h->wrap_bytes, FMT_SIZE_EXACT));
	} else {
		k->result = HL_PASS;
		fmt_snprintf(k->detail, sizeof(k->detail), "no address wrap");
	}
}

void headline_claims(const struct wl_ctx *c, struct hl_claims *out)
{
	struct wl_claims k = c->claims;

	memset(out, 0, sizeof(*out));
	if (!k.checked) {
		claims_from_card(c->card, &k);
		k.queue_judged = c->claims.queue_judged;
		k.queue_app_ok = c->claims.queue_app_ok;
		memcpy(k.queue_detail, c->claims.queue_detail, sizeof(k.queue_detail));
	}
	if (k.speed_class > 0)
		speed_claim(out, &k, "C%u", (unsigned)k.speed_class, (unsigned)k.speed_class,
			    k.speed_class_met >= (unsigned)k.speed_class);
	if (k.uhs_grade == 1 || k.uhs_grade == 3)
		speed_claim(out, &k, "U%u", k.uhs_grade, k.uhs_grade == 3 ? 30u : 10u,
			    k.uhs_grade_met >= k.uhs_grade);
	if (k.video)
		speed_claim(out, &k, "V%u", k.video, k.video, k.video_class_met >= k.video);
	if (k.app == 1 || k.app == 2)
		app_claim(out, &k);
	capacity_claim(out, c);
}

void headline_verdict_line(const struct hl_claims *h, char *buf, size_t cap)
{
	char s1[24], s2[24];
	size_t n = 0;
	unsigned i;

	buf[0] = 0;
	if (h->counterfeit)
		fmt_append(buf, cap, &n, "COUNTERFEIT: addresses wrap at %s (the card reports %s); ",
		    fmt_size(s1, sizeof(s1), h->wrap_bytes, FMT_SIZE_EXACT),
		    fmt_size(s2, sizeof(s2), h->reported_bytes, FMT_SIZE_ABOUT));
	fmt_append(buf, cap, &n, "claims:");
	if (!h->n)
		fmt_append(buf, cap, &n, " none to check");
	for (i = 0; i < h->n; i++)
		fmt_append(buf, cap, &n, "%s %s %s (%s)", i ? "," : "", h->claim[i].name,
		    hl_result_name(h->claim[i].result), h->claim[i].detail);
}
