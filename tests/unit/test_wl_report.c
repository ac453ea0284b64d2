/*
 * test_wl_report.c - the "report" step on its own (bench/engine/workload.h
 * describes measure, decide, report): reporters fed with made-up results,
 * no card, no clock. Each test checks text lines and records; and that the
 * measuring side (wl_end) prints nothing. (The console ends lines with
 * CR LF.)
 */
#include <stdlib.h>
#include <string.h>

#include "bench/engine/workload.h"
#include "bench/engine/workload_report.h"
#include "lib/fmt.h"
#include "lib/host/host_console.h"
#include "tests/unit/check.h"

static char out[1 << 16];
static size_t outlen;

static void capture(char ch)
{
	if (outlen + 1 < sizeof(out))
		out[outlen++] = ch;
	out[outlen] = '\0';
}

static void capture_start(void)
{
	outlen = 0;
	out[0] = '\0';
	host_console_hook = capture;
}

static void capture_stop(void)
{
	host_console_hook = NULL;
}

/* A finished 64 KiB sequential read of 4 operations, without a card. */
static void made_up_workload(struct wl_ctx *c, struct wl_meas *m, uint32_t *lat,
			     struct series_point *pts)
{
	static const uint32_t lat_ns[4] = { 4000000, 3000000, 5000000, 4000000 };
	struct phase_ns p = { 10000, 500000, 3400000, 0, 0, 0, 0 };
	uint32_t i;

	memset(c, 0, sizeof(*c));
	memset(m, 0, sizeof(*m));
	c->lat = lat;
	c->lat_max = 16;
	fmt_snprintf(m->name, sizeof(m->name), "seq-read-64k");
	fmt_snprintf(m->label, sizeof(m->label), "seq read 64 KiB");
	m->kind = "seq";
	m->cmd = WL_MULTI_AUTO12;
	m->xfer_blocks = 128;
	m->clock_hz = 50000000;
	m->width = 4;
	phase_acc_init(&m->acc);
	phase_acc_init(&m->acc_w);
	series_init(&m->ser, pts, 8, 10000000ull, 0);
	for (i = 0; i < 4; i++) {
		c->lat[m->nlat++] = lat_ns[i];
		phase_acc_add_ns(&m->acc, &p, 128, 512, 0);
		m->ops++;
		m->nreads++;
		m->bytes += 65536;
	}
	m->start_ns = 1000000;
	m->end_ns = m->start_ns + 16000000;
}

TEST(wl_end_computes_and_prints_nothing)
{
	struct wl_ctx c;
	struct wl_meas m;
	uint32_t lat[16];
	struct series_point pts[8];

	made_up_workload(&c, &m, lat, pts);
	capture_start();
	wl_end(&c, &m);
	capture_stop();
	CHECK_EQ_U(outlen, 0);
	CHECK_EQ_U(m.elapsed_ns, 16000000);
	CHECK_NEAR(m.mbs, 16.384, 1e-9);
	CHECK_NEAR(m.iops, 250.0, 1e-9);
	CHECK_EQ_U(m.sum.p50_ns, 4000000);
	CHECK_EQ_U(m.sum.max_ns, 5000000);
	CHECK_EQ_U(c.nsummary, 0);
}

TEST(wl_report_prints_the_line_the_records_and_the_summary_entry)
{
	struct wl_ctx c;
	struct wl_meas m;
	uint32_t lat[16];
	struct series_point pts[8];

	made_up_workload(&c, &m, lat, pts);
	wl_end(&c, &m);
	capture_start();
	wl_report(&c, &m);
	capture_stop();
	CHECK(strstr(out, "\r  seq read 64 KiB                 16.384 MB/s    15.625 MiB/s      250 IOPS"
		      "  p50  4000.0 us  p99   5000.0 us  max   5000.0 us\r\n") != NULL);
	CHECK(strstr(out, "@ {\"type\":\"result\",\"workload\":\"seq-read-64k\",\"kind\":\"seq\","
		      "\"op\":\"read\",\"cmd\":\"auto-cmd12\",\"xfer_bytes\":65536,\"ops\":4,") != NULL);
	CHECK(strstr(out, "\"elapsed_ns\":16000000,\"mbs\":16.384,") != NULL);
	CHECK(strstr(out, "@ {\"type\":\"latency\",\"workload\":\"seq-read-64k\",\"count\":4,") != NULL);
	CHECK(strstr(out, "@ {\"type\":\"verdict\",\"workload\":\"seq-read-64k\",") != NULL);
	CHECK_EQ_U(c.nsummary, 1);
	CHECK_STR(c.summary[0].name, "seq-read-64k");
	CHECK_NEAR(c.summary[0].mbs, 16.384, 1e-9);
}

TEST(wl_report_of_a_workload_without_operations_prints_no_records)
{
	struct wl_ctx c;
	struct wl_meas m;
	uint32_t lat[16];
	struct series_point pts[8];

	made_up_workload(&c, &m, lat, pts);
	m.ops = m.nreads = m.nlat = 0;
	m.bytes = 0;
	wl_end(&c, &m);
	capture_start();
	wl_report(&c, &m);
	capture_stop();
	CHECK(strstr(out, "seq read 64 KiB") != NULL);
	CHECK(strstr(out, "@ ") == NULL);
	CHECK_EQ_U(c.nsummary, 0);
}
