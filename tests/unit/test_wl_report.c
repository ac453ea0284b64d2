/*
 * test_wl_report.c - the "report" step on its own (bench/engine/workload.h
 * describes measure, decide, report): reporters fed with made-up results,
 * no card, no clock. Each test checks text lines and records; and that the
 * measuring side (wl_end) prints nothing. (The console ends lines with
 * CR LF.)
 */
#include <string.h>

#include "bench/engine/integrity_report.h"
#include "bench/engine/record.h"
#include "bench/engine/workload.h"
#include "bench/engine/workload_report.h"
#include "bench/selftest.h"
#include "bench/selftest_report.h"
#include "bench/workloads/app_class_report.h"
#include "bench/workloads/au_report.h"
#include "bench/workloads/clock_sweep_report.h"
#include "bench/workloads/compare_hosts_report.h"
#include "bench/workloads/sustained_report.h"
#include "lib/err.h"
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

TEST(integrity_report)
{
	struct wl_integrity v;
	unsigned errors;

	memset(&v, 0, sizeof(v));
	v.workload = "seq-write";
	v.blocks = 192;
	v.count[PAT_OK] = 128;
	v.count[PAT_OVERWRITTEN] = 60;
	v.count[PAT_CORRUPTED] = 4;
	v.bad = 64;
	v.first_bad_lba = 8388608;
	v.partial = true;
	errors = record_error_count();
	capture_start();
	wl_report_integrity(&v);
	capture_stop();
	CHECK(strstr(out, "  seq-write                    verified 192 blocks: 128 ok, 0 changed, 60 "
		      "overwritten, 0 stale, 4 corrupted (only the first ranges were remembered)\r\n")
	      == out);
	CHECK(strstr(out, "\"blocks\":192,\"ok\":128,\"changed\":0,\"overwritten\":60,\"stale\":0,"
		      "\"corrupted\":4,\"read_errors\":0,\"first_bad_lba\":8388608,\"partial\":true}")
	      != NULL);
	CHECK(strstr(out, "64 of 192 blocks did not read back as written (first at LBA 8388608)") != NULL);
	CHECK_EQ_U(record_error_count(), errors + 1);
	v.bad = 0;
	v.count[PAT_OK] = 192;
	v.count[PAT_OVERWRITTEN] = v.count[PAT_CORRUPTED] = 0;
	v.partial = false;
	capture_start();
	wl_report_integrity(&v);
	capture_stop();
	CHECK(strstr(out, "first_bad_lba") == NULL);
	CHECK(strstr(out, "did not read back") == NULL);
	CHECK_EQ_U(record_error_count(), errors + 1);
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
	r->boundary.threshold_ns = 120000;
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
		      "\"declared_au_bytes\":4194304,\"match\":\"equal\",\"threshold_ns\":120000,"
		      "\"inconclusive\":false,\"candidate_bytes\":null,\"candidate_ns\":null,"
		      "\"text\":\"boundary at 4 MiB = the declared AU\",\"emulated\":false}") != NULL);
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
	CHECK(strstr(out, "no alignment step of 0.12 ms or more: the card hides its erase blocks from "
		      "reads (or the effect is below that); the card declares no AU size either "
		      "(emulated") != NULL);
}

TEST(open_au_report)
{
	struct au_open_result r;
	unsigned i;

	memset(&r, 0, sizeof(r));
	r.plan.au_bytes = 4u << 20;
	r.plan.au_declared = true;
	r.chunk_bytes = 32768;
	r.plan.first_lba = 139264;
	r.npoints = 4;
	for (i = 0; i < 4; i++) {
		r.n[i] = i + 1;
		r.mbs[i] = i < 2 ? 8.0 : 1.5;
		r.p50_ns[i] = i < 2 ? 4000000 : 21000000;
		r.p99_ns[i] = 21000999;
		r.max_ns[i] = 30000000;
	}
	r.errors[3] = true;
	r.stopped_by = "collapse";
	r.rise = 0.2;
	wla_open_au(r.n, r.p50_ns, r.npoints, 0.2, &r.decision);
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
	CHECK(strstr(out, "  N=4       1.500 MB/s  p50  21000.0 us  p99   21001.0 us  max   30000.0 us"
		      "  (errors)\r\n") != NULL);
	CHECK(strstr(out, "  open AUs: the card handles 2; with 3 the median write takes "
		      "21000.0 us against 4000.0 us (every write closes an AU)\r\n") != NULL);
	CHECK(strstr(out, "\"n\":[1,2,3,4],\"mbs\":[8.000,8.000,1.500,1.500],"
		      "\"p99_us\":[21000,21000,21000,21000],\"handled\":2,\"collapsed\":true,"
		      "\"collapse_at\":3,\"stopped_by\":\"collapse\",") != NULL);
	CHECK(strstr(out, "\"p50_us\":[4000.0,4000.0,21000.0,21000.0],\"base_p50_us\":4000.0,\"rise_pct\":20}")
	      != NULL);
}

TEST(erase_report)
{
	struct au_erase_result r;

	memset(&r, 0, sizeof(r));
	r.plan.au_bytes = 4u << 20;
	r.plan.au_declared = false;
	r.plan.first_lba = 143360;
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
	r.plan.quick = true;
	r.plan.emulated = true;
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

/* ---- application and speed class ------------------------------------------- */

static void made_up_class(struct app_class_result *r)
{
	memset(r, 0, sizeof(*r));
	r->have_ssr = true;
	r->ssr.app_perf_class = 1;
	r->ssr.au_size_bytes = 4u << 20;
	r->ssr.cq_depth = 0;
	r->speed_claim.speed_class = 10;
	r->speed_claim.uhs_grade = 1;
	r->speed_claim.video = 30;
	r->writes = true;
	r->area_first_lba = 139264;
	r->area_blocks = 4096;
	r->rand_bytes = 4096;
	r->rand_cmd23 = true;
	r->au_bytes = 4u << 20;
	r->au_declared = true;
	r->ru_bytes = 512u << 10;
	r->pw_erased = true;
	r->clock_hz = 50000000;
	r->width = 4;
	r->bus_ceiling_mbs = 22.5;
	r->pw_mbs = 11.5;
	r->pw_done = 2;
	r->pw_au_mbs[0] = 11.5;
	r->pw_au_mbs[1] = 12.25;
	r->app.read_iops = 1600;
	r->app.write_iops = 700;
	r->app.seq_mbs = 12;
	r->read_iops_wall = 1500;
	r->write_iops_wall = 650;
	wla_class_verdict(true, 1, &r->speed_claim, &r->app, r->pw_mbs, r->bus_ceiling_mbs, "",
			  &r->verdict);
}

TEST(class_report_with_claims)
{
	struct app_class_result r;

	made_up_class(&r);
	capture_start();
	app_class_report_heading(&r);
	app_class_report_pw(&r);
	r.area_blocks = 2048;
	app_class_report_area_cut(&r);
	app_class_report(&r);
	capture_stop();
	CHECK(strstr(out, "\r\napplication and speed class check (SD Physical Layer 4.16, 4.13; MB = "
		      "10^6 B)\r\n  the card claims: application class A1, speed class C10 U1 V30, AU "
		      "4 MiB\r\n") != NULL);
	CHECK(strstr(out, "Pw: 4 MiB AUs erased first, written in 512 KiB RUs\r\n") != NULL);
	CHECK(strstr(out, "the time budget filled 1 MiB: the random tests use that much\r\n") != NULL);
	CHECK(strstr(out, "  application class: card claims A1: measured 1600 read IOPS (needs 1500), "
		      "700 write IOPS (needs 500), 12.00 MB/s sequential write (needs 10) -> meets "
		      "A1\r\n") != NULL);
	CHECK(strstr(out, "  speed class:       card claims C10 U1 V30: measured Pw 11.50 MB/s -> meets "
		      "C10, meets U1, V30 not measurable (needs 30 MB/s, this bus carries 22.5)\r\n")
	      != NULL);
	CHECK(strstr(out, "bus 50000000 Hz 4-bit carries at most 22.5 MB/s)\r\n") != NULL);
	CHECK(strstr(out, "\"ssr\":true,\"app_claim\":\"A1\",\"speed_class_claim\":10,"
		      "\"uhs_grade_claim\":1,\"video_class_claim\":30,\"cq_depth\":0,"
		      "\"cache_support\":false,\"area_first_lba\":139264,\"area_bytes\":1048576,"
		      "\"rand_bytes\":4096,\"rand_cmd\":\"cmd23\",") != NULL);
	CHECK(strstr(out, "\"read_iops\":1600.0,\"write_iops\":700.0,\"read_iops_wall\":1500.0,"
		      "\"write_iops_wall\":650.0,\"seq_write_mbs\":12.000,\"app_level_measured\":1,"
		      "\"app_meets_claim\":true,") != NULL);
	CHECK(strstr(out, "\"pw_mbs\":11.500,\"pw_au_mbs\":[11.500,12.250],\"speed_class_met\":10,"
		      "\"uhs_grade_met\":1,\"video_class_met\":10,\"speed_meets_claim\":null,") != NULL);
}

TEST(class_report_without_sd_status_read_only)
{
	struct app_class_result r;

	made_up_class(&r);
	r.have_ssr = false;
	r.writes = false;
	r.emulated = true;
	r.pw_mbs = -1;
	r.pw_done = 0;
	r.app.write_iops = r.app.seq_mbs = r.write_iops_wall = -1;
	memset(&r.speed_claim, 0, sizeof(r.speed_claim));
	wla_class_verdict(false, 0, &r.speed_claim, &r.app, r.pw_mbs, r.bus_ceiling_mbs,
			  "the card is write-protected (switch or CSD)", &r.verdict);
	capture_start();
	app_class_report_heading(&r);
	app_class_report(&r);
	capture_stop();
	CHECK(strstr(out, "MB = 10^6 B) - emulated: the figures are QEMU's, not a card's\r\n"
		      "  the card's SD Status was not read: there is no claim to compare\r\n") != NULL);
	CHECK(strstr(out, "  application class: no SD Status, no claim: measured 1600 read IOPS") != NULL);
	CHECK(strstr(out, "  speed class:       Pw not measured (the card is write-protected (switch or "
		      "CSD))\r\n") != NULL);
	CHECK(strstr(out, "\"ssr\":false,\"app_claim\":null,\"speed_class_claim\":null,"
		      "\"uhs_grade_claim\":null,\"video_class_claim\":null,\"area_first_lba\"") != NULL);
	CHECK(strstr(out, "\"write_iops\":null,") != NULL);
	CHECK(strstr(out, "\"app_level_measured\":null,\"app_meets_claim\":null,") != NULL);
	CHECK(strstr(out, "\"pw_mbs\":null,\"pw_au_mbs\":[],\"speed_class_met\":null,"
		      "\"uhs_grade_met\":null,\"video_class_met\":null,\"speed_meets_claim\":null,")
	      != NULL);
	CHECK(strstr(out, "\"emulated\":true}") != NULL);
}

/* ---- clock sweep ---------------------------------------------------------------- */

TEST(clock_sweep_report)
{
	struct sweep_result r;

	memset(&r, 0, sizeof(r));
	r.write = true;
	r.width = 4;
	r.xfer_bytes = 65536;
	r.model_bus_clocks = 139520;
	r.npoints = 2;
	r.pt[0].clock_hz = 400000;
	r.pt[0].requested_hz = 400000;
	r.pt[0].ops = 2;
	r.pt[0].mean_ns = 350000000;
	r.pt[0].mbs = 0.187;
	r.pt[0].ceiling_mbs = 0.188;
	r.pt[1].clock_hz = 50000000;
	r.pt[1].requested_hz = 50000000;
	r.pt[1].ops = 4;
	r.pt[1].mean_ns = 3100000;
	r.pt[1].mbs = 21.14;
	r.pt[1].ceiling_mbs = 23.49;
	r.fitted = true;
	r.fit.a_s = 300e-6;
	r.fit.b_clocks = 140000;
	r.fit.r2 = 0.99995;
	r.fit.rms_s = 2.5e-6;
	r.fit.fmax_hz = 50000000;
	r.fit.bus_pct = 90.3;
	capture_start();
	clock_sweep_report_heading(true);
	clock_sweep_report_point(&r, 1);
	clock_sweep_report_fit(&r);
	capture_stop();
	CHECK(strstr(out, "\r\nclock and bus-width sweep, 64 KiB sequential transfers\r\n  (QEMU: the "
		      "emulated card ignores the clock; the fit shows that)\r\n") != NULL);
	CHECK(strstr(out, "@ {\"type\":\"sweep\",\"op\":\"write\",\"width\":4,\"clock_hz\":50000000,"
		      "\"requested_hz\":50000000,\"xfer_bytes\":65536,\"ops\":4,\"mean_ns\":3100000,"
		      "\"mbs\":21.140,\"ceiling_mbs\":23.490}\r\n") != NULL);
	CHECK(strstr(out, "  write     4-bit  50000000 Hz     21.140 MB/s      3100.0 us/op\r\n") != NULL);
	CHECK(strstr(out, "\"fit\":\"T(f) = a + b/f\",\"points\":2,\"a_ns\":300000,\"b_clocks\":140000,"
		      "\"model_bus_clocks\":139520,\"r2\":1.0000,\"rms_residual_ns\":2500,"
		      "\"fmax_hz\":50000000,\"bus_share_at_fmax_pct\":90.3,\"emulated\":false,"
		      "\"fit_holds\":true}") != NULL);
	CHECK(strstr(out, "  fit write 4-bit: T = 300.0 us + 140000 clocks / f  (model: 139520 bus clocks), "
		      "R^2 1.0000, residual 2.5 us; at 50000000 Hz the bus is 90.3% of the time\r\n") != NULL);
	/* A bus part that does not grow as the clock falls is no fit. */
	r.fit.b_clocks = -573;
	capture_start();
	clock_sweep_report_fit(&r);
	capture_stop();
	CHECK(strstr(out, "\"b_clocks\":-573,") != NULL && strstr(out, "\"fit_holds\":false}") != NULL);
	CHECK(strstr(out, "  fit write 4-bit: no fit - T = a + b/f gives b = -573 clocks, not above 0") !=
	      NULL);
	CHECK(strstr(out, "clocks / f") == NULL);
	r.fit.b_clocks = 140000;
	r.fitted = false;
	r.write = false;
	r.width = 1;
	r.npoints = 1;
	capture_start();
	clock_sweep_report_fit(&r);
	capture_stop();
	CHECK(strstr(out, "@ {\"type\":\"sweep\",\"op\":\"read\",\"width\":1,\"fit\":\"T(f) = a + b/f\","
		      "\"points\":1,\"a_ns\":null}\r\n  read 1-bit: too few clock points for a fit\r\n")
	      != NULL);
}

/* ---- self-test -------------------------------------------------------------------- */

TEST(selftest_read_report)
{
	struct selftest_read_result r;
	unsigned m;

	memset(&r, 0, sizeof(r));
	r.lba = 0;
	r.count = 8;
	for (m = 0; m < SELFTEST_RM_N; m++)
		r.crc[m] = 0x66911814;
	r.crc[SELFTEST_RM_UNALIGNED] = 0x12345678;
	r.code[SELFTEST_RM_CMD23] = -ENOTSUP;
	r.ref_crc = 0x66911814;
	r.match = false;
	r.host_ns = 102960;
	r.data_ns = 212344;
	r.unaligned_host_ns = 99;
	capture_start();
	selftest_report_heading(2, false);
	selftest_report_read(&r);
	capture_stop();
	CHECK(strstr(out, "\r\nselftest: 2 read ranges, no write range (selftest_write)\r\n") == out);
	CHECK(strstr(out, "selftest: read LBA 0+8: crc32 66911814, modes DISAGREE\r\n") != NULL);
	CHECK(strstr(out, "\"crc32\":{\"cmd17\":\"0x66911814\",\"cmd18\":\"0x66911814\",\"auto12\":"
		      "\"0x66911814\",\"cmd23\":null,\"unaligned\":\"0x12345678\"},\"result\":{\"cmd17\":"
		      "\"ok\",\"cmd18\":\"ok\",\"auto12\":\"ok\",\"cmd23\":\"unsupported by card\","
		      "\"unaligned\":\"ok\"},\"match\":false,\"host_ns\":102960,\"host_ns_per_block\":12870,"
		      "\"data_ns\":212344,\"unaligned_host_ns\":99}") != NULL);
	r.code[SELFTEST_RM_CMD18] = -EIO;
	capture_start();
	selftest_report_read(&r);
	capture_stop();
	CHECK(strstr(out, "\"cmd18\":null,") != NULL);
	CHECK(strstr(out, "\"cmd18\":\"EIO\",") != NULL);
	CHECK(strstr(out, "host_ns_per_block") == NULL);  /* no CMD18 figures without CMD18 */
	CHECK_STR(selftest_rmode_name(SELFTEST_RM_UNALIGNED), "unaligned");
	CHECK_STR(selftest_wmode_name(SELFTEST_WM_CMD24), "cmd24");
}

TEST(selftest_write_report)
{
	struct selftest_write_result w;
	struct lba_range r = { 200000, 12 };

	memset(&w, 0, sizeof(w));
	selftest_write_plan(&r, false, &w);
	w.run_id = 270460;
	w.code[SELFTEST_WM_CMD23] = -ENOTSUP;
	w.crc32 = 0x71328768;
	w.verify = true;
	w.erase_value = 0;
	capture_start();
	selftest_report_write(&w);
	capture_stop();
	CHECK(strstr(out, "selftest: wrote LBA 200000+12 (run id 270460): read back identical\r\n@ "
		      "{\"type\":\"selftest\",\"test\":\"write\",\"lba\":200000,\"count\":12,"
		      "\"run_id\":270460,\"write_protected\":false,\"segments\":[{\"mode\":\"cmd24\","
		      "\"lba\":200000,\"count\":4,\"result\":\"ok\"},{\"mode\":\"cmd25\",\"lba\":200004,"
		      "\"count\":2,\"result\":\"ok\"},{\"mode\":\"auto12\",\"lba\":200006,\"count\":2,"
		      "\"result\":\"ok\"},{\"mode\":\"cmd23\",\"lba\":200008,\"count\":0,\"result\":"
		      "\"unsupported by card\"},{\"mode\":\"unaligned\",\"lba\":200008,\"count\":4,"
		      "\"result\":\"ok\"}],\"crc32\":\"0x71328768\",\"verify\":true,\"erase\":{\"lba\":"
		      "200009,\"count\":3,\"result\":\"ok\",\"value\":\"0x00\"}}\r\nselftest: erased LBA "
		      "200009+3: reads 0x00\r\n") != NULL);
	w.verify = false;
	w.erase_value = -1;
	capture_start();
	selftest_report_write(&w);
	capture_stop();
	CHECK(strstr(out, "(run id 270460): FAILED\r\n") != NULL);
	CHECK(strstr(out, "\"erase\":{\"lba\":200009,\"count\":3,\"result\":\"skipped\",\"value\":null}")
	      != NULL);
	CHECK(strstr(out, "erased LBA") == NULL);
}

TEST(selftest_write_protected_report)
{
	struct selftest_write_result w;

	memset(&w, 0, sizeof(w));
	w.lba = 200000;
	w.count = 64;
	w.write_protected = true;
	w.refused_code = -EROFS;
	capture_start();
	selftest_report_write_protected(&w);
	capture_stop();
	CHECK(strstr(out, "selftest: card is write-protected: writes refused (EROFS)\r\n@ {\"type\":"
		      "\"selftest\",\"test\":\"write\",\"lba\":200000,\"count\":64,\"write_protected\":"
		      "true,\"write_refused\":true,\"code\":\"EROFS\"}\r\n") != NULL);
	w.refused_code = 0;
	capture_start();
	selftest_report_write_protected(&w);
	capture_stop();
	CHECK(strstr(out, "writes refused (NOT REFUSED)\r\n") != NULL);
	CHECK(strstr(out, "\"write_refused\":false,\"code\":\"ok\"}") != NULL);
}

/* The host comparison: one line per row, a row without numbers says why,
 * the fastest is starred; the hosts record carries the same. */
TEST(hosts_table_prints_rows_and_the_record)
{
	static struct hosts_table t;

	memset(&t, 0, sizeof(t));
	t.emulated = true;
	t.nrows = 4;
	t.rows[0] = (struct hosts_row){ "emmc", "pio", "hs", "seq-read-64k", 16, 7.25, 110.6,
					15685000u, 43.5, 28639.0, 0, NULL, true, true, "" };
	t.rows[1] = (struct hosts_row){ "sdhost", "pio", "ds", "seq-read-64k", 16, 3.885, 59.3,
					25623000u, 84.2, 108861.0, 0, NULL, false, true, "" };
	t.rows[3] = (struct hosts_row){ "emmc", "dma", "hs", "seq-read-64k", 16, 6.3, 96.7,
					50611000u, 1.1, 79916.0, 0, NULL, false, false,
					"the DMA transfer completed inside the CPU's own work" };
	t.rows[2] = (struct hosts_row){ "sdhost", "dma", NULL, "seq-read-64k", 0, 0, 0, 0, 0, 0,
					-ENOTSUP, "the host has no such data path", false, true, "" };
	capture_start();
	hosts_table_report(&t);
	capture_stop();
	CHECK(strstr(out, "host comparison (QEMU: emulation speed") != NULL);
	CHECK(strstr(out, "  emmc    pio  hs     seq-read-64k       7.250     110.6    15685.0  43.5%"
		      "        28639  *\r\n") != NULL);
	CHECK(strstr(out, "  sdhost  pio  ds     seq-read-64k       3.885      59.3    25623.0  84.2%"
		      "       108861\r\n") != NULL);
	CHECK(strstr(out, "  sdhost  dma  -      seq-read-64k    not measured: the host has no such "
		      "data path\r\n") != NULL);
	CHECK(strstr(out, "@ {\"type\":\"hosts\",\"emulated\":true,\"rows\":[{\"host\":\"emmc\","
		      "\"data_path\":\"pio\",\"workload\":\"seq-read-64k\",\"bus_mode\":\"hs\","
		      "\"ops\":16,\"mbs\":7.250,"
		      "\"iops\":110.6,\"p99_ns\":15685000,\"host_pct\":43.5,"
		      "\"cpu_ns_per_block\":28639,\"best\":true,\"valid\":true,\"why\":null}") != NULL);
	CHECK(strstr(out, "{\"host\":\"sdhost\",\"data_path\":\"dma\",\"workload\":"
		      "\"seq-read-64k\",\"error\":-") != NULL); /* no bus_mode: never set up */
	/* a row whose split does not hold is flagged, with the reason */
	CHECK(strstr(out, "  emmc    dma  hs     seq-read-64k       6.300      96.7    50611.0   1.1%"
		      "        79916  !\r\n") != NULL);
	CHECK(strstr(out, "  ! emmc dma seq-read-64k: the DMA transfer completed inside the CPU's "
		      "own work\r\n") != NULL);
	CHECK(strstr(out, "\"best\":false,\"valid\":false,\"why\":\"the DMA transfer completed") != NULL);
}
