/*
 * dispatch.c - runs what sdbench.txt's "suite" asks for.
 */
#include <string.h>

#include "bench/run.h"
#include "bench/selftest.h"
#include "lib/console.h"

void bench_dispatch(const struct bench_env *env, struct sd_card *card,
		    const struct config *cfg, const struct test_area *area)
{
	const char *suite = config_enum_name(cfg, CFG_SUITE);

	con_printf("\nsuite: %s\n", suite ? suite : "none");
	if (suite && !strcmp(suite, "selftest"))
		selftest_run(env, card, cfg, area);
}
