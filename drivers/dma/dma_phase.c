/*
 * dma_phase.c - see dma_phase.h.
 */
#include <errno.h>

#include "drivers/dma/dma_phase.h"
#include "drivers/timer.h"

static int phase_fail(const struct dma_phase *ph, struct sd_request *req, int code,
		      uint32_t status, const char *phase)
{
	ph->recover(ph->ctx, req->data->dir == SD_DATA_READ);
	return sd_req_fail(req, code, status, phase, 0);
}

int dma_phase_run(const struct dma_phase *ph, struct sd_request *req, struct dma_watch *w)
{
	struct sd_req_times *t = &req->t;
	const bool is_read = req->data->dir == SD_DATA_READ;
	uint32_t t0 = timer_ticks(), t1;
	int r = ph->start(ph->ctx, req);

	if (r == -EAGAIN)
		return 1;
	if (r)
		return phase_fail(ph, req, r, ph->status(ph->ctx), ph->engine_error(ph->ctx));
	t1 = timer_ticks();
	t->host_ticks = t1 - t0;
	t->t_first_data = t1;
	r = ph->wait(ph->ctx, w);
	if (r == DMA_WAIT_HOST_ERROR)
		return phase_fail(ph, req, ph->status_err(w->errors), w->errors,
				  is_read ? "read data (DMA)" : "write data (DMA)");
	if (r < 0)
		return phase_fail(ph, req, r, ph->status(ph->ctx), ph->engine_error(ph->ctx));
	return 0;
}
