/*
 * write_guard.c - see write_guard.h.
 */
#include <stddef.h>
#include <string.h>

#include "bench/storage/write_guard.h"
#include "drivers/sd/sd_cq.h"
#include "lib/err.h"

void write_guard_init(struct write_guard *g, struct sd_card *card,
		      const struct test_area *area, bool write_tests)
{
	*g = (struct write_guard){ .card = card, .area = area, .write_tests = write_tests,
				   .test = WRITE_GUARD_NORMAL };
}

void write_guard_rebuild(struct write_guard *g, struct sd_card *card,
			 const struct test_area *area, bool write_tests)
{
	struct lba_range log[WRITE_GUARD_LOG_RUNS];
	unsigned n = g->nlog;
	bool cache_on = g->cache_on, cq_on = g->cq_on;

	memcpy(log, g->log, sizeof(log));
	write_guard_init(g, card, area, write_tests);
	memcpy(g->log, log, sizeof(log));
	g->nlog = n;
	/* What it turned on stays to be turned off. */
	g->cache_on = cache_on;
	g->cq_on = cq_on;
}

const char *write_guard_why_not(const struct write_guard *g)
{
	if (g->card->write_protected)
		return "the card is write-protected (switch or CSD)";
	if (g->card_refused)
		return "the card turned read-only during the run (a write was answered with "
		       "WP_VIOLATION, as worn-out cards do): no further writes";
	if (!g->write_tests)
		return g->off_why ? g->off_why : "writes are off (write_tests = off)";
	if (!g->area || !g->area->usable || g->test == WRITE_GUARD_REFUSE_ALL)
		return "no test area: nowhere safe to write (see the test-area message)";
	return NULL;
}

bool write_guard_writes_possible(const struct write_guard *g)
{
	return write_guard_why_not(g) == NULL;
}

bool write_guard_in_area(const struct write_guard *g, uint32_t lba, uint32_t count)
{
	const struct test_area *a = g->area;

	return a && a->count && count && lba >= a->first_lba &&
	       (uint64_t)lba + count <= (uint64_t)a->first_lba + a->count;
}

int write_guard_check(struct write_guard *g, uint32_t lba, uint32_t count)
{
	int r = 0;

	if (g->card->write_protected || g->card_refused)
		r = -EROFS;
	else if (!write_guard_writes_possible(g) || !write_guard_in_area(g, lba, count) ||
		 !test_area_contains(g->area, lba, count) || g->test == WRITE_GUARD_REFUSE_EACH)
		r = -EPERM;
	if (r)
		g->refused++;
	return r;
}

/* A write or erase the card refused as write-protected stops all writes. */
static int noted(struct write_guard *g, int r)
{
	if (r == -EROFS)
		g->card_refused = true;
	return r;
}

int write_guard_write(struct write_guard *g, uint32_t lba, uint32_t count, const void *buf,
		      enum sd_stop_mode stop, struct sd_req_times *times)
{
	int r = write_guard_check(g, lba, count);

	return r ? r : noted(g, sd_write_blocks(g->card, lba, count, buf, stop, times));
}

int write_guard_write_single(struct write_guard *g, uint32_t lba, const void *buf,
			     struct sd_req_times *times)
{
	int r = write_guard_check(g, lba, 1);

	return r ? r : noted(g, sd_write_single(g->card, lba, buf, times));
}

int write_guard_erase(struct write_guard *g, uint32_t lba, uint32_t count,
		      struct sd_req_times *times)
{
	int r = write_guard_check(g, lba, count);

	return r ? r : noted(g, sd_erase(g->card, lba, count, times));
}

int write_guard_allow_log(struct write_guard *g, const struct lba_range *ext, unsigned n)
{
	struct lba_range area = { g->area ? g->area->first_lba : 0, g->area ? g->area->count : 0 };

	g->nlog = 0;
	if (n == 0 || n > WRITE_GUARD_LOG_RUNS)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		if (!ext[i].count || lba_range_end(&ext[i]) > 0xFFFFFFFFull ||
		    (g->card->blocks && lba_range_end(&ext[i]) > g->card->blocks) ||
		    lba_range_overlap(&ext[i], &area))
			return -EINVAL;
	memcpy(g->log, ext, n * sizeof(*ext));
	g->nlog = n;
	return 0;
}

int write_guard_log_write(struct write_guard *g, uint32_t lba, uint32_t count, const void *buf)
{
	struct lba_range want = { lba, count };
	bool inside = false;

	if (g->card->write_protected || g->card_refused)
		return -EROFS;
	for (unsigned i = 0; i < g->nlog && count; i++)
		inside |= lba >= g->log[i].first && lba_range_end(&want) <= lba_range_end(&g->log[i]);
	if (!inside || g->test != WRITE_GUARD_NORMAL) {
		g->refused++;
		return -EPERM;
	}
	return noted(g, sd_write_blocks(g->card, lba, count, buf, SD_STOP_AUTO12, NULL));
}

/* ---- the card's cache and command queue (drivers/sd/sd_cq.h) ---------------- */

/* Turning something on writes to the card: the same rule as a block. */
static int perf_allowed(const struct write_guard *g)
{
	if (g->test != WRITE_GUARD_NORMAL)
		return -EPERM;
	if (!write_guard_writes_possible(g))
		return g->card && g->card->write_protected ? -EROFS : -EPERM;
	return 0;
}

/* One setting of the Performance Enhancement function switched through
 * set (turning it on only where perf_allowed lets it); *state follows what
 * the card may have accepted: a failed switch (a lost response or
 * read-back after the CMD49 reached the card) counts as on, so
 * write_guard_card_as_found turns it off again. */
static int perf_switch(struct write_guard *g, bool on, int (*set)(struct sd_card *, bool),
		       bool *state)
{
	int ret = on ? perf_allowed(g) : 0;

	if (ret) {
		g->refused++;
		return ret;
	}
	ret = set(g->card, on);
	if (!ret || on)
		*state = on;
	return ret;
}

int write_guard_cache(struct write_guard *g, bool on)
{
	return perf_switch(g, on, sd_cache_set, &g->cache_on);
}

int write_guard_cq(struct write_guard *g, bool on)
{
	return perf_switch(g, on, sd_cq_set, &g->cq_on);
}

int write_guard_flush(struct write_guard *g, uint32_t *us)
{
	if (!g->cache_on) {
		g->refused++;
		return -EPERM;
	}
	return sd_cache_flush(g->card, us);
}

int write_guard_cq_queue(struct write_guard *g, unsigned id, bool read, uint32_t lba,
			 uint32_t count)
{
	int ret = read ? 0 : write_guard_check(g, lba, count);

	if (ret)
		return ret;
	return sd_cq_queue(g->card, id, read, lba, count);
}

int write_guard_card_as_found(struct write_guard *g)
{
	int first = 0, r;

	if (g->cq_on) {
		r = write_guard_cq(g, false);
		first = r;
	}
	if (g->cache_on) {
		r = sd_cache_flush(g->card, NULL);
		first = first ? first : r;
		r = write_guard_cache(g, false);
		first = first ? first : r;
	}
	return first;
}
