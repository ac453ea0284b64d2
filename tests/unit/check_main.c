/*
 * check_main.c - runs every TEST() linked into the binary (see check.h).
 * An optional argument selects the tests whose name contains it.
 */
#include "tests/unit/check.h"

struct check_test *check_tests;
int check_cur_failed;

int main(int argc, char **argv)
{
	struct check_test *t;
	int passed = 0, failed = 0;

	for (t = check_tests; t; t = t->next) {
		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		check_cur_failed = 0;
		t->fn();
		if (check_cur_failed) {
			printf("FAIL %s\n", t->name);
			failed++;
		} else {
			printf("ok   %s\n", t->name);
			passed++;
		}
		fflush(stdout);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
