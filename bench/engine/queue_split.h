/*
 * queue_split.h - the card / bus / host split of the command queue's
 * workload at any depth (docs/attribution.md, "Several tasks in flight"):
 * the wall time of one depth partitioned by what the host was waiting on.
 * Each task's run (CMD46/CMD47 and its data) is split as any request is
 * (phase_split); a wait for a task to become ready is the card's while no
 * queued task was ready (the Task Status register the polls read says
 * when that ended); the queueing and status commands' frames outside
 * those waits are the bus's; the rest (the software issuing, polling
 * after a task was ready) is the host's.
 */
#ifndef SDB_BENCH_ENGINE_QUEUE_SPLIT_H
#define SDB_BENCH_ENGINE_QUEUE_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/engine/attribution.h"
#include "bench/engine/validity.h"
#include "bench/engine/workload.h"
#include "lib/json.h"

struct q_split {
	struct phase_acc run;     /* the task runs (CMD46/CMD47 requests) */
	uint64_t card_wait_ns;    /* waits while no queued task was ready */
	uint64_t unsure_ns;       /* how far off card_wait_ns may be (poll spacing) */
	uint32_t cmds;            /* CMD44/45 and status polls outside those waits */
	uint32_t errors;
	uint32_t dma_pio0;        /* the host's dma_pio_reqs when the depth began */
	bool write;
	bool mixed;               /* reads and writes in one depth (70/30) */
};

/* One status poll of a wait: when it was sent and answered (wl_now_ns)
 * and whether it showed any queued task ready. */
struct q_poll {
	uint64_t t0, t1;
	bool any;
};

struct q_wait_track {
	uint64_t start;           /* first poll sent */
	uint64_t none_at;         /* middle of the last poll that showed none ready */
	uint64_t some_at;         /* middle of the first poll that showed one */
	uint32_t polls_after;     /* polls from the first that showed one on */
	bool saw_none, saw_some;
};

struct q_shares {
	bool diagnosed;
	double card_pct, bus_pct, host_pct;
	char why[160];            /* when not diagnosed */
};

void q_split_init(struct q_split *s, const struct wl_ctx *c, bool write);
/* A wait: q_wait_begin, one q_wait_poll per status poll, q_split_wait_end
 * once the task waited for is ready. */
void q_wait_begin(struct q_wait_track *w);
void q_wait_poll(struct q_wait_track *w, const struct q_poll *p);
void q_split_wait_end(struct q_split *s, const struct q_wait_track *w);
/* A task run's stamps (sd_cq_run's times), its blocks. */
void q_split_run(struct q_split *s, const struct sd_req_times *t, uint32_t blocks);
/* The shares over wall_ns (the depth's measured time). */
void q_split_shares(const struct q_split *s, const struct wl_ctx *c, uint64_t wall_ns,
		    struct q_shares *out);
/* card_pct, bus_pct, host_pct, or split_why when not diagnosed. */
void q_split_json(struct json *j, const struct q_shares *sh);

#endif
