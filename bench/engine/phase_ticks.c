/*
 * attribution_ticks.c - the one step of the attribution that needs the
 * timer: raw sd_req_times ticks to ns phases (see attribution.h). Kept
 * apart so that everything else links and tests without a clock.
 *
 * A timestamp of 0 means "phase did not happen" (sd_host.h); a genuine
 * reading of 0 (once per wrap) is taken as missing, which loses that one
 * phase of that one request.
 */
#include "bench/engine/phase_ticks.h"
#include "drivers/timer.h"

static uint64_t span_ns(uint32_t from, uint32_t to)
{
	if (from == 0 || to == 0)
		return 0;
	/* unsigned difference: correct across one counter wrap */
	return timer_ticks_to_ns(to - from);
}

void phase_ns_from_times(const struct sd_req_times *t, struct phase_ns *out)
{
	uint32_t last;

	*out = (struct phase_ns){ 0 };
	out->cmd_ns = span_ns(t->t_issue, t->t_cmd_done);
	if (t->t_first_data && t->t_data_done) {
		out->access_ns = span_ns(t->t_cmd_done, t->t_first_data);
		out->data_ns = span_ns(t->t_first_data, t->t_data_done);
		out->busy_ns = span_ns(t->t_data_done, t->t_end);
	} else {
		/* no data phase: the tail is the R1b busy, if any */
		out->busy_ns = span_ns(t->t_cmd_done, t->t_end);
	}
	out->host_ns = t->host_ticks ? timer_ticks_to_ns(t->host_ticks) : 0;
	out->extra_cmds = t->extra_cmds;
	last = t->t_end ? t->t_end : t->t_data_done ? t->t_data_done : t->t_cmd_done;
	out->total_ns = span_ns(t->t_issue, last);
}

void phase_acc_add(struct phase_acc *a, const struct sd_req_times *t,
		   uint32_t blocks, uint32_t blksz, uint64_t gap_ns)
{
	struct phase_ns p;

	phase_ns_from_times(t, &p);
	phase_acc_add_ns(a, &p, blocks, blksz, gap_ns);
}
