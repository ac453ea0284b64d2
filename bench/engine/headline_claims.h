/*
 * headline_claims.h - the headline's verdict on what the card claims
 * (headline_claims.c): PASS / FAIL per claim - speed class, UHS speed
 * grade, video speed class, application class from the class check, and
 * the capacity from the test area's wrap check - for the first line of the
 * headline and the "headline" record's `claims` (docs/records.md).
 */
#ifndef SDB_BENCH_HEADLINE_CLAIMS_H
#define SDB_BENCH_HEADLINE_CLAIMS_H

#include <stddef.h>
#include <stdint.h>

#include "bench/engine/workload.h"

#define HL_CLAIMS_MAX 6

enum hl_result { HL_PASS, HL_FAIL, HL_UNKNOWN };

struct hl_claim {
	char name[12];        /* "C10", "U1", "V30", "A1", "capacity" */
	enum hl_result result;
	char detail[80];      /* the figure and what it needs, or why unknown */
};

struct hl_claims {
	unsigned n;
	struct hl_claim claim[HL_CLAIMS_MAX];
	bool counterfeit;     /* the addresses wrap below the reported size */
	uint64_t wrap_bytes, reported_bytes;
};

/* From c->claims (the class check), c->ta (the wrap check) and the card. */
void headline_claims(const struct wl_ctx *c, struct hl_claims *out);
/* The first line of the headline: "COUNTERFEIT: ..." first when the
 * addresses wrap, then each claim's PASS / FAIL. */
void headline_verdict_line(const struct hl_claims *h, char *buf, size_t cap);
const char *hl_result_name(enum hl_result r);

#endif
