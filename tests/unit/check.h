/*
 * check.h - the host unit-test harness: a few assertion macros, a test
 * registry and a main() that runs every test and ends with the line
 * "N passed, N failed". Exit status 0 only when nothing failed.
 *
 * Usage:
 *     #include "tests/unit/check.h"
 *     TEST(decodes_cid) { CHECK_EQ_U(cid.mid, 0xaa); }
 *     ... (no main: tests/unit/check_main.c, linked into every test
 *     program, provides it).
 *
 * A test counts as failed when any CHECK in it fails; it keeps running so
 * that all mismatches are printed.
 */
#ifndef SDB_TESTS_CHECK_H
#define SDB_TESTS_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct check_test {
	const char *name;
	void (*fn)(void);
	struct check_test *next;
};

extern struct check_test *check_tests;
extern int check_cur_failed;

#define TEST(name)                                                         \
	static void test_##name(void);                                     \
	static struct check_test test_rec_##name = { #name, test_##name, 0 }; \
	__attribute__((constructor)) static void test_reg_##name(void)     \
	{                                                                  \
		struct check_test **p = &check_tests;                      \
		while (*p)                                                 \
			p = &(*p)->next;                                   \
		*p = &test_rec_##name;                                     \
	}                                                                  \
	static void test_##name(void)

#define CHECK_FAIL_(...)                                                   \
	do {                                                               \
		printf("  FAIL %s:%d: ", __FILE__, __LINE__);              \
		printf(__VA_ARGS__);                                       \
		printf("\n");                                              \
		check_cur_failed = 1;                                      \
	} while (0)

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond))                                               \
			CHECK_FAIL_("%s", #cond);                          \
	} while (0)

#define CHECK_EQ_U(a, b)                                                   \
	do {                                                               \
		unsigned long long a_ = (unsigned long long)(a);           \
		unsigned long long b_ = (unsigned long long)(b);           \
		if (a_ != b_)                                              \
			CHECK_FAIL_("%s == %s: 0x%llx (%llu) != 0x%llx (%llu)", \
				    #a, #b, a_, a_, b_, b_);               \
	} while (0)

#define CHECK_EQ_I(a, b)                                                   \
	do {                                                               \
		long long a_ = (long long)(a), b_ = (long long)(b);        \
		if (a_ != b_)                                              \
			CHECK_FAIL_("%s == %s: %lld != %lld", #a, #b, a_, b_); \
	} while (0)

#define CHECK_STR(a, b)                                                    \
	do {                                                               \
		const char *a_ = (a), *b_ = (b);                           \
		if (!a_ || !b_ || strcmp(a_, b_) != 0)                     \
			CHECK_FAIL_("%s == %s: \"%s\" != \"%s\"", #a, #b,  \
				    a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                              \
	do {                                                               \
		double a_ = (double)(a), b_ = (double)(b), t_ = (double)(tol); \
		/* written so that a NaN anywhere fails */                 \
		if (!(a_ - b_ <= t_ && b_ - a_ <= t_))                     \
			CHECK_FAIL_("%s ~= %s: %g vs %g (tol %g)", #a, #b, a_, b_, t_); \
	} while (0)

#endif
