/*
 * queue.h - the SD command queue measured and checked (the full suite's
 * "queue" workload): random 4 KiB reads, and writes into the test area
 * through the write guard, queued with CMD44/CMD45 and run with CMD46/
 * CMD47 (drivers/sd/sd_cq.h) at depths 1, 2, 4, 8, 16 and the card's
 * maximum, cache off and (with writes) on; IOPS and p50/p99 latency per
 * depth ("queue" records), then the checks a kernel needs before it trusts
 * a card's queue ("queue_check" record): read-after-write inside the
 * queue, the task status bits, no timeout at depth (else a CMD43 abort and
 * a read to show the card still answers), a flush that commits and keeps
 * the order of writes. A card without a queue (QEMU's) queues nothing.
 */
#ifndef SDB_BENCH_WORKLOADS_QUEUE_H
#define SDB_BENCH_WORKLOADS_QUEUE_H

#include "bench/engine/workload.h"

void wl_queue(struct wl_ctx *c);

#endif
