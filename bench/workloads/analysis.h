/*
 * analysis.h - the pure decisions behind the class, AU, sustained and
 * clock-sweep workloads (app_class.c, au.c, sustained.c, clock_sweep.c;
 * the "decide" step of bench/engine/workload.h): given measured numbers, what do
 * they say. No I/O, no printing, no clock, no static
 * state (memory a function needs comes from its caller): the unit tests
 * (tests/unit/test_wl_analysis.c) feed them synthetic measurements.
 *
 *   - Application Performance Class (SD Physical Layer §4.16) thresholds
 *     and the verdict against the card's claim;
 *   - Speed Class / UHS Speed Grade / Video Speed Class (§4.13) from the
 *     measured write performance Pw;
 *   - rates over the card's time (sum of the operation latencies);
 *   - the alignment step detector of the flashbench-style erase-block test
 *     and its match with the declared AU;
 *   - the collapse point of the open-AU test, the spread of erase times;
 *   - the knee (cache full) of a sustained sequential write;
 *   - the fit T(f) = a + b/f of the clock sweep.
 *
 * Rates are MB/s with MB = 10^6 bytes.
 */
#ifndef SDB_BENCH_WL_ANALYSIS_H
#define SDB_BENCH_WL_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

/* Median of v[0..n) (the lower one for even n); sorts v in place. 0 for n = 0. */
uint32_t wla_median_u32(uint32_t *v, unsigned n);

/* ---- Application Performance Class (§4.16) ------------------------------ */

#define WLA_APP_NONE 0u
#define WLA_APP_A1   1u
#define WLA_APP_A2   2u

struct wla_app_thr {
	double read_iops;   /* random 4 KiB reads per second */
	double write_iops;  /* random 4 KiB writes per second */
	double seq_mbs;     /* sustained sequential write, 10^6 B/s */
};

/* Thresholds of A1 (level 1) or A2 (level 2); NULL for other levels. */
const struct wla_app_thr *wla_app_threshold(unsigned level);

/* Measured figures; a negative value means "not measured". */
struct wla_app_meas {
	double read_iops;
	double write_iops;
	double seq_mbs;
};

#define WLA_FAIL_READ  (1u << 0)
#define WLA_FAIL_WRITE (1u << 1)
#define WLA_FAIL_SEQ   (1u << 2)
#define WLA_UNMEASURED (1u << 3) /* a needed figure was not measured */

/* Criteria of 'level' that the measurement does not meet (WLA_FAIL_*),
 * 0 when it meets all three. */
unsigned wla_app_failures(const struct wla_app_meas *m, unsigned level);
/* Highest level (0, 1, 2) whose thresholds the figures meet; -1 when a
 * figure is missing. */
int wla_app_level(const struct wla_app_meas *m);

/* The verdict line, e.g.
 *   "card claims A1: measured 1320 read IOPS (needs 1500), 610 write IOPS
 *    (needs 500), 18.20 MB/s sequential write (needs 10) -> does not meet A1"
 * claim: the SSR APP_PERF_CLASS code (0 none, 1 A1, 2 A2, others reserved).
 * cq_cache: the host enabled command queue and cache (A2 is defined with
 * them; without them an A2 card is judged on the A1 figures it must keep).
 * Returns whether the claim is met: 1 yes, 0 no, -1 cannot tell (no claim,
 * a reserved claim, A2 without CQ/cache, or missing figures). */
int wla_app_verdict(unsigned claim, const struct wla_app_meas *m, bool cq_cache,
		    char *buf, unsigned cap);

/* ---- Speed Class, UHS Speed Grade, Video Speed Class (§4.13) ------------ */

/* Highest class whose minimum write performance pw_mbs meets:
 * Speed Class 0/2/4/6/10, UHS grade 0/1/3, Video Speed Class 0/6/10/30/60/90. */
unsigned wla_speed_class_met(double pw_mbs);
unsigned wla_uhs_grade_met(double pw_mbs);
unsigned wla_video_class_met(double pw_mbs);

struct wla_speed_claim {
	int speed_class;    /* 0, 2, 4, 6, 10; negative = reserved code */
	unsigned uhs_grade; /* 0, 1, 3 */
	unsigned video;     /* 0, 6, 10, 30, 60, 90 */
};

/* "card claims C10 U1 V10: measured Pw 12.31 MB/s (worst AU) -> meets C10,
 * U1, V10" or "... -> does not meet U3 (needs 30 MB/s)". bus_ceiling_mbs:
 * what the bus can carry at the clock and width in use; a class needing more
 * than that is reported as not measurable here instead of failed. Returns
 * 1 when every claimed class is met, 0 when one is not, -1 when nothing is
 * claimed or a claimed class could not be measured on this bus. */
int wla_speed_verdict(const struct wla_speed_claim *claim, double pw_mbs,
		      double bus_ceiling_mbs, char *buf, unsigned cap);

/* Without an SD Status the verdict texts' "card claims ..." is not true:
 * the claim is unknown. Replaces what precedes the first ':' of text by
 * "no SD Status, no claim" (bounded by cap, always terminated). */
void wla_no_claim_prefix(char *text, unsigned cap);

/* Both class verdicts of the class check. */
struct wla_class_verdict {
	int app_ok;         /* wla_app_verdict(): 1 met, 0 not, -1 cannot tell */
	int app_level;      /* wla_app_level() of the figures */
	char app_text[400];
	int speed_ok;       /* wla_speed_verdict(), -1 when Pw was not measured */
	char speed_text[300];
	/* the classes Pw meets (0 when Pw was not measured) */
	unsigned speed_class_met, uhs_grade_met, video_class_met;
};

/* The verdicts from what the card claims (have_ssr false: nothing known,
 * judged as "no claim" with the texts' prefix replaced) and the measured
 * figures; pw_mbs < 0: Pw was not measured, pw_missing says why. The host
 * enables neither command queue nor cache. */
void wla_class_verdict(bool have_ssr, unsigned app_claim, const struct wla_speed_claim *speed,
		       const struct wla_app_meas *m, double pw_mbs, double bus_ceiling_mbs,
		       const char *pw_missing, struct wla_class_verdict *out);

/* ---- card time ------------------------------------------------------------- */

/* Rates over the time the card took - the sum of the operation latencies
 * lat_ns[0..n), each moving xfer_bytes - not over the wall clock: the
 * host's bookkeeping between operations is left out, as a faster host
 * would not have it. -1 when the sum is 0. */
double wla_card_mbs(const uint32_t *lat_ns, uint32_t n, uint32_t xfer_bytes);
double wla_card_iops(const uint32_t *lat_ns, uint32_t n);

/* ---- erase block / AU by alignment read timing (flashbench -a) ---------- */

/* Per alignment A (a power of two), medians over several boundaries
 * x = odd multiple of A (a boundary of A that is no boundary of 2A):
 * reads of the same size ending at x (pre), centred on x (on), starting
 * at x (post). noise_ns: spread of the samples at this A. */
struct wla_align_point {
	uint32_t size_bytes;
	uint32_t pre_ns;
	uint32_t on_ns;
	uint32_t post_ns;
	uint32_t noise_ns;
	uint32_t samples;  /* boundaries measured (0: taken as 4) */
};

/* The straddling penalty at one alignment: on - (pre + post) / 2, in ns. */
int64_t wla_align_diff(const struct wla_align_point *p);

struct wla_boundary {
	uint32_t size_bytes;       /* largest A with a significant lasting step, 0 none */
	uint32_t first_step_bytes; /* smallest such A (often the flash page), 0 none */
	int64_t step_ns;           /* the step at size_bytes */
	unsigned steps;            /* significant steps seen */
	/* The smallest step the detector could see at every alignment (the
	 * largest threshold of the points): no step found means none of at
	 * least this size. */
	int64_t threshold_ns;
	/* No significant step, but a lasting rise to a positive penalty of at
	 * least half its threshold: more samples could decide (candidate_*). */
	bool inconclusive;
	uint32_t candidate_bytes;
	int64_t candidate_ns;
};

/* A step at point k (ascending sizes) is significant when the penalty rises
 * from k-1 to k by more than 3x the noise (the spread of the two points'
 * straddling reads; with n samples a point's median is 2/sqrt(n) times as
 * uncertain as with 4, so beyond 4 samples the noise term shrinks by that),
 * 5% of the plain read time and 500 ns, the penalty there is positive (a
 * straddling read that costs less than its neighbours is no boundary), and
 * larger alignments were measured and at least 3/4 of them keep a positive
 * penalty of at least half of the rise (a step at the largest size tried is not
 * confirmed, so measure up to twice the expected size). Reads that straddle an erase-block boundary touch two blocks,
 * so the penalty appears once A reaches the erase-block size and stays for
 * every larger A (their boundaries are erase-block boundaries too). */
void wla_find_boundary(const struct wla_align_point *p, unsigned n, struct wla_boundary *out);

/* Median absolute deviation of v[0..n) around its median (stored in
 * *median). Sorts v; dev[0..n) is the caller's scratch. 0 for n = 0. */
uint32_t wla_mad_u32(uint32_t *v, unsigned n, uint32_t *dev, uint32_t *median);

/* One point of the alignment test from the n samples taken at its
 * boundaries: the medians of the reads before, on and after the boundary,
 * and the median absolute deviation of the straddling reads as its noise.
 * Sorts the three arrays; dev[0..n) is the caller's scratch. */
void wla_align_point_of(uint32_t size_bytes, uint32_t *pre, uint32_t *on, uint32_t *post,
			unsigned n, uint32_t *dev, struct wla_align_point *out);

/* The erase block found by the alignment test next to the AU the card
 * declares. */
enum wla_au_match {
	WLA_AU_NO_STEP,     /* no boundary found */
	WLA_AU_UNDECLARED,  /* a boundary, but the card declares no AU */
	WLA_AU_EQUAL,
	WLA_AU_SMALLER,     /* inside the declared AU: it spans several erase blocks */
	WLA_AU_LARGER,
};

/* measured_bytes: wla_boundary.size_bytes (0: none); declared_bytes: the
 * SD Status AU (0: not declared). */
enum wla_au_match wla_au_match(uint32_t measured_bytes, uint32_t declared_bytes);

/* ---- open AUs (flashbench -O) ------------------------------------------- */

#define WLA_OPEN_AU_MAX 32   /* points wla_open_au looks at */

struct wla_open_au {
	unsigned handled;   /* largest N before the collapse (or the largest tried) */
	bool collapsed;     /* the median write took more than (1 + rise) x base_ns */
	unsigned collapse_at; /* the N where it did, 0 if none */
	uint32_t base_ns;   /* the median of the median writes before it */
	uint32_t at_ns;     /* the median write at collapse_at (0: none) */
};

/* n_open[i] ascending numbers of AUs written round-robin, p50_ns[i] the
 * median write latency with that many. A card out of open AUs closes one
 * for every write (an AU copy or a flush), so every write pays it and the
 * median rises: the collapse is the first N whose median is above
 * (1 + rise) x the median of the medians before it, and the next N (when
 * measured) keeps it above; one slow N between fast ones is a stall and
 * counts as handled. The median, not the rate: a rare long stall moves
 * the rate of an N, the median only when most writes pay. */
void wla_open_au(const unsigned *n_open, const uint32_t *p50_ns, unsigned count, double rise,
		 struct wla_open_au *out);

/* Whether a collapse is confirmed by a second N, so the test may stop:
 * r (from wla_open_au over the same points) collapsed, and the last two
 * points are both above (1 + rise) x its base. */
bool wla_open_au_confirmed(const uint32_t *p50_ns, unsigned count, double rise,
			   const struct wla_open_au *r);

/* ---- erase time ------------------------------------------------------------ */

struct wla_spread {
	uint32_t min, median, max;
};

/* Smallest, median (wla_median_u32) and largest of v[0..n); sorts v. All 0
 * for n = 0. */
void wla_spread_u32(uint32_t *v, unsigned n, struct wla_spread *out);

/* The cost of each further AU when aus AUs (>= 2) are erased at once in
 * multi_ns and one alone takes single_us: (multi - single) / (aus - 1),
 * in us. */
double wla_erase_per_au_us(uint64_t multi_ns, unsigned aus, uint32_t single_us);

/* ---- sustained write: where the cache fills ------------------------------ */

struct wla_knee {
	bool found;            /* a lasting drop of at least min_drop */
	uint32_t knee_op;      /* first operation of the slow part */
	uint64_t knee_bytes;   /* bytes written before it */
	double initial_mbs;    /* before the knee (everything if none) */
	double steady_mbs;     /* after the knee (everything if none) */
	double overall_mbs;
	uint32_t median_ns;
	uint32_t worst_ns;     /* the longest operation (the worst stall) */
	uint32_t worst_op;
};

/* lat_ns[0..n) in issue order, each moving xfer_bytes. The knee is the
 * split into two runs with the smallest squared error of the operation
 * times after a running median of 5 (so an isolated stall does not pull
 * the split), the slow run lasting at least 1/8 of the operations. It is
 * accepted when the median operation after it is slower by at least
 * min_drop (0.2 = 20% lower rate) and 7/8 of the operations before it and
 * 3/4 after it are on their side of the threshold median-before / (1 -
 * min_drop): a cache is consistently fast, irregular stalls are not. At
 * least 8 operations are needed. Rates before/after are plain averages
 * (stalls included). Only the first WLA_KNEE_MAX_OPS operations are
 * searched. Needs no memory beyond its arguments (and never writes lat_ns). */
#define WLA_KNEE_MAX_OPS 4096u
void wla_find_knee(const uint32_t *lat_ns, uint32_t n, uint32_t xfer_bytes, double min_drop,
		   struct wla_knee *out);

/* The rate over the bytes written: lat_ns[0..n) in issue order, each moving
 * xfer_bytes, cut into groups of *group_ops = ceil(n / points) operations;
 * out[k] is group k's bytes over its summed operation time (MB/s). Returns
 * the number of groups (<= points; 0 for n = 0). */
unsigned wla_rate_by_bytes(const uint32_t *lat_ns, uint32_t n, uint32_t xfer_bytes,
			   unsigned points, double *out, uint32_t *group_ops);

/* ---- clock sweep: T(f) = a + b/f ------------------------------------------- */

struct wla_sweep_fit {
	double a_s;          /* what does not scale with the clock: card, busy, host */
	double b_clocks;     /* bus clocks per operation */
	double r2;
	double rms_s;        /* RMS residual */
	uint32_t fmax_hz;    /* the fastest clock measured */
	double bus_pct;      /* (b / fmax) / T(fmax), in percent; 0 when T(fmax) <= 0 */
};

/* Least-squares fit of the mean operation time t_s[i] measured at
 * clock_hz[i] (i < n, at most WLA_SWEEP_MAX_POINTS are used) to a + b/f
 * (stats_linfit over x = 1/f). Returns false when it cannot be fitted
 * (fewer than 2 points, or all at one clock); fmax_hz is set either way. */
#define WLA_SWEEP_MAX_POINTS 16
bool wla_sweep_fit(const uint32_t *clock_hz, const double *t_s, unsigned n,
		   struct wla_sweep_fit *out);

/* The index of the largest non-negative value of v[0..n) (the first of
 * equals); n when there is none (host comparison: the fastest row). */
unsigned wla_best_index(const double *v, unsigned n);

#endif
