/*
 * workload.h - the measurement engine every workload runs on: wl_do() runs
 * one timed operation (write guard checked, patterns filled and nothing
 * printed inside the timed region), wl_end() computes the figures,
 * wl_report() (workload_report.h) prints them. A workload measures (its
 * .c), decides (analysis.c, pure) and reports (its _report.c):
 * docs/workloads.md, "bench/engine/workload.h"; docs/extending.md lists
 * the files of a new one.
 */
#ifndef SDB_BENCH_WORKLOAD_H
#define SDB_BENCH_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/engine/attribution.h"
#include "bench/engine/phase_ticks.h"
#include "bench/engine/stats.h"
#include "bench/engine/validity.h"
#include "bench/storage/test_area.h"
#include "bench/storage/write_guard.h"
#include "drivers/sd/sd.h"

/* How an operation talks to the card. */
enum wl_cmd {
	WL_MULTI_CMD12,   /* CMD18/CMD25, then CMD12 from the card layer */
	WL_MULTI_AUTO12,  /* CMD18/CMD25 with Auto-CMD12 */
	WL_MULTI_CMD23,   /* CMD23 + CMD18/CMD25 */
	WL_SINGLE_LOOP,   /* one CMD17/CMD24 per block */
	WL_MULTI_PREERASE,/* write: ACMD23 (pre-erase count), then CMD25 + Auto-CMD12 */
};

struct wl_op {
	bool write;
	uint32_t lba;
	uint32_t blocks;
	enum wl_cmd cmd;
};

/* The bus as measured at the start of the suite (wl_bus_calibrate(),
 * bench/workloads/clock_sweep.c): SD clocks per 512-byte block beyond the
 * framing model's pitch, per direction, for one bus width. The split uses
 * them for every workload at that width; without them it uses the model. */
struct wl_bus_cal {
	bool read_ok, write_ok;
	uint8_t width;
	double read_extra_clocks, write_extra_clocks;
};

/* What the closing summary needs of each finished workload. */
struct wl_summary {
	char name[40];
	bool write;
	uint32_t xfer_bytes;
	double mbs, iops;
	char verdict[180];
	/* for the headline: how many operations, the median one, the spread
	 * (p90 and fastest), the bottleneck (enum bottleneck) and whether the
	 * split's model held (else no diagnosis) */
	uint32_t ops;
	uint32_t p50_ns, p90_ns, min_ns;
	uint32_t p99_ns;             /* the p99 latency the headline shows */
	uint8_t bottleneck;
	bool valid;
};

/* What the class check (bench/workloads/app_class.c) measured against what
 * the card claims, kept for the headline's verdict per claim. */
struct wl_claims {
	bool checked;                /* the class check ran */
	bool have_ssr;               /* the claims were read (SD Status) */
	int speed_class;             /* claimed C2..C10; 0 none, < 0 reserved code */
	uint8_t uhs_grade, video, app;   /* claimed U1/U3, V6..V90, A1/A2 (0 none) */
	double pw_mbs;               /* Pw, < 0 when not measured */
	double bus_ceiling_mbs;      /* what the bus in force carries */
	int app_ok;                  /* 1 met, 0 not met, -1 cannot tell */
	bool writes;                 /* the write parts ran */
	/* the classes Pw reaches (the class check's own thresholds) */
	unsigned speed_class_met, uhs_grade_met, video_class_met;
	double seq_mbs;              /* sequential write, < 0 when not measured */
	/* The A2 verdict on the command queue's figures (the queue workload,
	 * bench/workloads/app_class.c wl_app_class_queued): it replaces the
	 * class check's depth-1 verdict for an A2 claim. */
	bool queue_judged;
	int queue_app_ok;            /* 1 met, 0 not met, -1 cannot tell */
	char queue_detail[80];
};

/* What a counterfactual needs of one finished workload (kept by
 * wl_confirm_note, bench/engine/confirm.h, for each summary entry). */
struct wl_cf_src {
	bool noted, valid, write, mix, seq;
	enum wl_cmd cmd;
	uint32_t blocks, clock_hz;
	uint8_t width;
	uint32_t p50_ns, p90_ns;
	double wall_per_op_ns;
	double bus_pct, crit_bus_pct, card_clock_pct;
	double card_access_pct;      /* the card's waits inside the transfer */
	double host_xfer_pct;        /* the host's part inside the requests */
	double cpu_work_pct;         /* the CPU's work in the pipeline, booked or hidden */
};

#define WL_MAX_SUMMARY 96
#define WL_POLL_EVERY_US 50000
#define WL_KEY_INTERRUPT 0x03        /* Ctrl-C */

struct wl_ctx {
	struct sd_card *card;
	struct write_guard *guard;   /* every write and erase goes through it */
	const struct test_area *ta;  /* where writes are placed (the guard's area) */
	uint8_t *buf;                /* data buffer, buf_bytes long */
	uint32_t buf_bytes;
	uint32_t *lat;               /* latency samples, ns */
	uint32_t lat_max;
	struct series_point *series_pt;
	uint32_t series_max;
	bool quick;                  /* short profile (QEMU, or asked for) */
	bool emulated;
	bool simulated;              /* the host simulator (build/host/sdbsim), not a card */
	bool verify;                 /* writes carry patterns, read back after */
	uint32_t run_id;
	uint32_t rng;                /* xorshift32 state */
	uint32_t read_base;          /* where read-only workloads start */
	uint32_t read_span_blocks;   /* random-read span */
	bool abort_all;              /* the card vanished, or interrupted: stop every workload */
	/* Ctrl-C: poll_key (the console's input, NULL = none) is read between
	 * operations, at most every WL_POLL_EVERY_US and outside the measured
	 * time; a Ctrl-C (0x03) sets interrupted and abort_all, so the
	 * workload ends at the next operation boundary, never inside a
	 * command on the bus. */
	int (*poll_key)(void);
	uint64_t poll_due_us;
	bool interrupted;
	/* extended clock */
	uint32_t last_tick;
	uint64_t last_us;            /* system timer at last_tick (wrap guard) */
	uint64_t clock_ns;
	uint64_t wrap_half_us;       /* half the tick counter's wrap period, in whole us */
	/* Ranges written since the last verify (verify mode). */
#define WL_MAX_WRITTEN 1024
	struct lba_range written[WL_MAX_WRITTEN];
	uint32_t nwritten;
	bool written_overflow;
	/* Finished workloads, for the closing summary. */
	struct wl_summary summary[WL_MAX_SUMMARY];
	uint32_t nsummary;
	struct wl_cf_src cf[WL_MAX_SUMMARY]; /* summary[i]'s, for its checks (confirm.h) */
	struct wl_bus_cal bus_cal;
	struct wl_claims claims;     /* the class check's, for the headline */
};

struct wl_meas {
	char name[40];               /* record key, e.g. "seq-read-64k" */
	char label[64];              /* for people, e.g. "sequential read 64 KiB" */
	const char *kind;            /* "seq", "random", "mix", "variant", ... */
	bool write;                  /* all writes (mixed: false, see nwrites) */
	enum wl_cmd cmd;
	uint32_t xfer_blocks;
	uint64_t bytes;
	uint32_t ops, nreads, nwrites;
	uint32_t nlat;
	uint64_t start_ns, end_ns;   /* wall clock of the measured part */
	uint64_t excluded_ns;        /* progress printing, verify fills */
	uint64_t excluded_at_end_ns; /* excluded_ns when the last operation ended */
	uint64_t untimed_t0;         /* wl_untimed_begin's clock */
	uint64_t last_end_ns;
	struct phase_acc acc;        /* reads (and everything of a pure workload) */
	struct phase_acc acc_w;      /* writes of a mixed workload */
	/* Partial sums of acc and acc_w (phase_ticks.h), moved into them by
	 * wl_end(): acc and acc_w are complete only after it. */
	struct phase_pend pend, pend_w;
	struct series ser;
	uint32_t errors;
	int first_err;
	uint32_t first_err_lba;
	uint32_t clock_hz;
	uint8_t width;
	uint8_t bus_ddr;             /* BUS_DDR when the card runs DDR50, else 0 */
	uint64_t progress_due_us;
	uint64_t deadline_us;        /* system timer; 0 = no time budget */
	uint64_t planned_bytes;      /* for the progress percentage */
	uint64_t elapsed_ns;         /* measured time, exclusions taken off; by wl_end */
	struct lat_summary sum;      /* filled by wl_end */
	double mbs, iops;            /* filled by wl_end */
	struct phase_split split;    /* filled by wl_end */
	bool bus_measured;           /* the split used the measured bus (by wl_end) */
	double model_bus_pct;        /* the bus share the framing model alone gives */
	uint32_t dma_pio0;           /* the host's dma_pio_reqs at wl_begin */
	struct wl_validity validity; /* does the split hold (by wl_end; validity.h) */
};

void wl_ctx_init(struct wl_ctx *c, struct write_guard *guard,
		 uint8_t *mem, uint32_t mem_bytes, bool quick, bool emulated,
		 uint32_t run_id, uint32_t seed);
uint64_t wl_now_ns(struct wl_ctx *c);
uint32_t wl_rand(struct wl_ctx *c);
bool wl_writes_possible(const struct wl_ctx *c);

void wl_begin(struct wl_ctx *c, struct wl_meas *m, const char *kind,
	      const char *name, const char *label, bool write, enum wl_cmd cmd,
	      uint32_t xfer_blocks, uint64_t planned_bytes);
/* Run one timed operation. Returns 0 or -errno (already reported). */
int wl_do(struct wl_ctx *c, struct wl_meas *m, const struct wl_op *op);

/* An operation between two timed ones that is not measured (au.c's
 * priming read): its time is excluded from the workload like the progress
 * line's. tools/sdbsim.c wraps the pair to leave it out of the
 * simulator's truth for the workload too. */
void wl_untimed_begin(struct wl_ctx *c, struct wl_meas *m);
void wl_untimed_end(struct wl_ctx *c, struct wl_meas *m);
/* Compute the figures of the finished workload into m (elapsed_ns, sum,
 * mbs, iops, split). Sorts the latency samples c->lat[0..m->nlat): a
 * workload that needs them in issue order reads them before. Prints
 * nothing. */
void wl_end(struct wl_ctx *c, struct wl_meas *m);
/* Too many errors in this workload, its time budget is used up, or the
 * card is gone. */
bool wl_should_stop(const struct wl_ctx *c, const struct wl_meas *m);
/* Give the workload a time budget (from now): a slow card then moves less
 * data instead of stretching the suite. The result records what was done. */
void wl_set_budget(struct wl_meas *m, uint32_t seconds);

/* Read back every range written since the last call (the ranges are
 * remembered by wl_do when verify is on), classify each block against its
 * pattern and print an "integrity" record. Returns the number of bad blocks. */
uint32_t wl_verify_written(struct wl_ctx *c, const char *name);

#endif
