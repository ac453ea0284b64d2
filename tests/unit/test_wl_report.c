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
#include "bench/workloads/au_report.h"
#include "bench/workloads/sustained_report.h"
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

/* ---- erase block / AU ------------------------------------------------------ */

static void made_up_align(struct au_align_result *r)
{
	unsigned k;

	memset(r, 0, sizeof(*r));
	r->read_bytes = 4096;
	r->base_lba = 65536;
	r->positions = 4;
	r->au_bytes = 4u << 20;
	r->au_declared = true;
	r->npoints = 3;
	for (k = 0; k < 3; k++) {
		r->pt[k].size_bytes = (2u << 20) << k;
		r->pt[k].pre_ns = 300000;
		r->pt[k].post_ns = 302000;
		r->pt[k].on_ns = k ? 551000 : 301000;
		r->pt[k].noise_ns = 1000;
	}
	r->boundary.size_bytes = 4u << 20;
	r->boundary.first_step_bytes = 4u << 20;
	r->boundary.step_ns = 250000;
	r->boundary.steps = 1;
	r->match = WLA_AU_EQUAL;
}

TEST(au_align_report_equal)
{
	struct au_align_result r;

	made_up_align(&r);
	capture_start();
	au_report_align_heading(&r);
	au_report_align(&r);
	capture_stop();
	CHECK(strstr(out, "\r\nerase-block / AU detection by alignment read timing (read-only, "
		      "4096-byte reads, 4 boundaries per size)\r\n") != NULL);
	CHECK(strstr(out, "       4 MiB      300.0      551.0      302.0      250.0\r\n") != NULL);
	CHECK(strstr(out, "  erase block: boundary at 4 MiB = the declared AU\r\n") != NULL);
	CHECK(strstr(out, "\"align_bytes\":[2097152,4194304,8388608],") != NULL);
	CHECK(strstr(out, "\"measured_bytes\":4194304,\"step_ns\":250000,\"first_step_bytes\":4194304,"
		      "\"declared_au_bytes\":4194304,\"match\":\"equal\",\"text\":\"boundary at 4 MiB = "
		      "the declared AU\",\"emulated\":false}") != NULL);
}

TEST(au_align_report_undeclared_and_emulated)
{
	struct au_align_result r;

	made_up_align(&r);
	r.au_declared = false;
	r.match = WLA_AU_UNDECLARED;
	r.emulated = true;
	capture_start();
	au_report_align_heading(&r);
	au_report_align(&r);
	capture_stop();
	CHECK(strstr(out, "boundaries per size) - emulated: timings are QEMU's\r\n") != NULL);
	CHECK(strstr(out, "  erase block: boundary at 4 MiB; the card declares no AU size (emulated: "
		      "QEMU's timing, not a card's geometry)\r\n") != NULL);
	CHECK(strstr(out, "\"declared_au_bytes\":null,\"match\":\"unknown\",") != NULL);
	r.match = WLA_AU_NO_STEP;
	r.boundary.size_bytes = 0;
	capture_start();
	au_report_align(&r);
	capture_stop();
	CHECK(strstr(out, "\"measured_bytes\":null,\"step_ns\":null,\"first_step_bytes\":null,") != NULL);
	CHECK(strstr(out, "no alignment step: the card hides its erase blocks from reads (or the effect "
		      "is below the noise); the card declares no AU size either (emulated") != NULL);
}

TEST(open_au_report)
{
	struct au_open_result r;
	unsigned i;

	memset(&r, 0, sizeof(r));
	r.au_bytes = 4u << 20;
	r.au_declared = true;
	r.chunk_bytes = 32768;
	r.first_lba = 139264;
	r.npoints = 4;
	for (i = 0; i < 4; i++) {
		r.n[i] = i + 1;
		r.mbs[i] = i < 2 ? 8.0 : 1.5;
		r.p50_ns[i] = 4000000;
		r.p99_ns[i] = 21000999;
		r.max_ns[i] = 30000000;
	}
	r.errors[3] = true;
	r.stopped_by = "collapse";
	wla_open_au(r.n, r.mbs, r.npoints, 0.5, &r.decision);
	capture_start();
	au_report_open_heading(&r);
	for (i = 0; i < 4; i++)
		au_report_open_point(&r, i);
	au_report_open(&r);
	capture_stop();
	CHECK(strstr(out, "\r\nopen AUs: 32 KiB writes round-robin into N AUs of 4 MiB (declared AU "
		      "size)\r\n") != NULL);
	CHECK(strstr(out, "  N=2       8.000 MB/s  p50   4000.0 us  p99   21001.0 us  max   30000.0 us\r\n")
	      != NULL);
	CHECK(strstr(out, "  N=4       1.500 MB/s  p50   4000.0 us  p99   21001.0 us  max   30000.0 us"
		      "  (errors)\r\n") != NULL);
	CHECK(strstr(out, "  open AUs: the card handles 2; with 3 the rate falls below half of "
		      "8.00 MB/s\r\n") != NULL);
	CHECK(strstr(out, "\"n\":[1,2,3,4],\"mbs\":[8.000,8.000,1.500,1.500],"
		      "\"p99_us\":[21000,21000,21000,21000],\"handled\":2,\"collapsed\":true,"
		      "\"collapse_at\":3,\"stopped_by\":\"collapse\",") != NULL);
}

TEST(erase_report)
{
	struct au_erase_result r;

	memset(&r, 0, sizeof(r));
	r.au_bytes = 4u << 20;
	r.au_declared = false;
	r.first_lba = 143360;
	r.count = 3;
	r.single_us.min = 1500;
	r.single_us.median = 2000;
	r.single_us.max = 2750;
	r.multi_aus = 4;
	r.multi_ok = true;
	r.multi_ns = 5000000;
	r.per_au_us = 1000.0;
	r.have_timeout = true;
	r.timeout_ms = 1250;
	capture_start();
	au_report_erase_heading(&r);
	au_report_erase(&r);
	capture_stop();
	CHECK(strstr(out, "\r\nerase (CMD38) time per AU of 4 MiB (assumed AU)\r\n"
		      "  1 AU: min 1.500 ms, median 2.000 ms, max 2.750 ms over 3 erases\r\n"
		      "  4 AUs at once: 5.000 ms -> 1.000 ms per further AU\r\n"
		      "  the card's SD Status allows up to 1250 ms for one AU\r\n") != NULL);
	CHECK(strstr(out, "\"count\":3,\"min_us\":1500,\"median_us\":2000,\"max_us\":2750,"
		      "\"multi_aus\":4,\"multi_us\":5000,\"per_au_us\":1000.0,"
		      "\"timeout_ms_1au\":1250,") != NULL);
	r.multi_ok = false;
	r.have_timeout = false;
	r.quick = true;
	r.emulated = true;
	capture_start();
	au_report_erase_heading(&r);
	au_report_erase(&r);
	capture_stop();
	CHECK(strstr(out, "(quick profile) - emulated\r\n") != NULL);
	CHECK(strstr(out, "AUs at once") == NULL);
	CHECK(strstr(out, "  the card gives no erase timeout in its SD Status\r\n") != NULL);
	CHECK(strstr(out, "\"multi_aus\":null,\"multi_us\":null,\"per_au_us\":null,"
		      "\"timeout_ms_1au\":null,\"emulated\":true}") != NULL);
}

/* ---- sustained write --------------------------------------------------------- */

TEST(sustained_report_with_and_without_a_knee)
{
	struct sustained_result r;

	memset(&r, 0, sizeof(r));
	r.xfer_bytes = 4u << 20;
	r.first_lba = 139264;
	r.area_bytes = 1ull << 33;
	r.budget_bytes = 1ull << 30;
	r.ops = 256;
	r.stopped_by = "budget";
	r.knee.found = true;
	r.knee.knee_op = 64;
	r.knee.knee_bytes = 64ull << 22;
	r.knee.initial_mbs = 40.0;
	r.knee.steady_mbs = 10.0;
	r.knee.overall_mbs = 13.33;
	r.knee.median_ns = 400000000;
	r.knee.worst_ns = 1250000000;
	r.knee.worst_op = 100;
	r.nrates = 2;
	r.rate_mbs[0] = 40.0;
	r.rate_mbs[1] = 10.0;
	r.rate_group_ops = 128;
	capture_start();
	sustained_report_heading(&r);
	sustained_report(&r);
	capture_stop();
	CHECK(strstr(out, "\r\nsustained sequential write, 4 MiB transfers over up to 1 GiB of the "
		      "test area (MB = 10^6 B)\r\n") != NULL);
	CHECK(strstr(out, "initial 40.00 MB/s for the first 256 MiB, then 10.00 MB/s (knee: the cache "
		      "is full after 256 MiB)\r\n") != NULL);
	CHECK(strstr(out, "worst stall 1250.0 ms at 400 MiB (median operation 400.0 ms)\r\n") != NULL);
	CHECK(strstr(out, "\"bytes\":1073741824,\"ops\":256,\"stopped_by\":\"budget\","
		      "\"overall_mbs\":13.330,\"knee_found\":true,\"knee_bytes\":268435456,"
		      "\"knee_op\":64,") != NULL);
	CHECK(strstr(out, "\"worst_at_bytes\":419430400,\"rate_step_bytes\":536870912,"
		      "\"rate_mbs\":[40.00,10.00],\"emulated\":false}") != NULL);
	r.knee.found = false;
	capture_start();
	sustained_report(&r);
	capture_stop();
	CHECK(strstr(out, "no knee within 1 GiB: 13.33 MB/s throughout (no cache, or a cache larger "
		      "than the amount written)\r\n") != NULL);
	CHECK(strstr(out, "\"knee_found\":false,\"knee_bytes\":null,\"knee_op\":null,") != NULL);
}
