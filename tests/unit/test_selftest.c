/*
 * test_selftest.c - the pure parts of the SD stack self-test
 * (bench/selftest.c): how the write range is cut into segments per mode
 * and which tail is erased, the block compare, and what counts as erased
 * data. The self-test itself runs against the simulator and QEMU
 * (tests/golden, tests/qemu).
 */
#include <string.h>

#include "bench/selftest.h"
#include "tests/unit/check.h"

TEST(write_plan_without_cmd23)
{
	struct lba_range r = { 200000, 300 };
	struct selftest_write_result w;

	memset(&w, 0, sizeof(w));
	selftest_write_plan(&r, false, &w);
	CHECK_EQ_U(w.lba, 200000);
	CHECK_EQ_U(w.count, 300);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_CMD24], 4);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_CMD25], 74);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_AUTO12], 74);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_CMD23], 0);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_UNALIGNED], 148);
	CHECK_EQ_U(w.seg_lba[SELFTEST_WM_CMD25], 200004);
	CHECK_EQ_U(w.seg_lba[SELFTEST_WM_UNALIGNED], 200152);
	CHECK_EQ_U(w.erase_lba, 200292);  /* 32 blocks or more: the last 8 */
	CHECK_EQ_U(w.erase_count, 8);
}

TEST(write_plan_with_cmd23_and_small_ranges)
{
	struct lba_range r = { 1000, 100 }, small = { 50, 12 }, one = { 7, 1 };
	struct selftest_write_result w;
	uint32_t sum = 0;
	unsigned m;

	selftest_write_plan(&r, true, &w);
	for (m = 0; m < SELFTEST_WM_N; m++) {
		CHECK_EQ_U(w.seg_lba[m], 1000 + sum);   /* contiguous, in mode order */
		sum += w.seg_count[m];
	}
	CHECK_EQ_U(sum, 100);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_CMD24], 4);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_CMD25], 24);  /* 96 / 4 */
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_AUTO12], 24); /* 72 / 3 */
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_CMD23], 24);  /* 48 / 2 */
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_UNALIGNED], 24);
	selftest_write_plan(&small, false, &w);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_CMD24], 4);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_CMD25], 2);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_AUTO12], 2);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_UNALIGNED], 4);
	CHECK_EQ_U(w.erase_lba, 59);                     /* under 32 blocks: the last quarter */
	CHECK_EQ_U(w.erase_count, 3);
	selftest_write_plan(&one, true, &w);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_CMD24], 1);
	CHECK_EQ_U(w.seg_count[SELFTEST_WM_UNALIGNED], 0);
	CHECK_EQ_U(w.erase_count, 0);                    /* nothing to erase */
}

TEST(first_mismatch)
{
	static uint8_t a[4 * 512], b[4 * 512];

	memset(a, 0x5a, sizeof(a));
	memcpy(b, a, sizeof(b));
	CHECK_EQ_U(selftest_first_mismatch(a, b, 4), 4);
	b[2 * 512 + 511] ^= 1;
	b[3 * 512] ^= 1;
	CHECK_EQ_U(selftest_first_mismatch(a, b, 4), 2);
	CHECK_EQ_U(selftest_first_mismatch(a, b, 2), 2);
	CHECK_EQ_U(selftest_first_mismatch(a, b, 0), 0);
}

TEST(erased_value)
{
	static uint8_t z[1024], f[1024], x[1024];

	memset(f, 0xff, sizeof(f));
	memset(x, 0x5a, sizeof(x));
	CHECK_EQ_I(selftest_erased_value(z, sizeof(z)), 0x00);
	CHECK_EQ_I(selftest_erased_value(f, sizeof(f)), 0xff);
	CHECK_EQ_I(selftest_erased_value(x, sizeof(x)), -1); /* uniform, but not erased data */
	f[1023] = 0xfe;
	CHECK_EQ_I(selftest_erased_value(f, sizeof(f)), -1);
	CHECK_EQ_I(selftest_erased_value(z, 0), -1);
}
