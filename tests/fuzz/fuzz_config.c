/*
 * fuzz_config.c - libFuzzer target: the sdbench.txt parser
 * (bench/storage/config.c) on any text, then every key formatted back, the
 * formatted value parsed again (it must give the same value), and the JSON
 * of the result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/storage/config.h"
#include "lib/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	static struct config c, c2;
	static char jbuf[16384];
	char val[160], line[256];
	struct json j;

	config_init(&c);
	config_parse(&c, (const char *)in, len);
	if (c.nmsgs > CONFIG_MAX_MSGS)
		abort();
	for (unsigned i = 0; i < c.nmsgs; i++)
		if (strnlen(c.msgs[i], CONFIG_MSG_LEN) == CONFIG_MSG_LEN)
			abort();
	for (int id = 0; id < CFG_NKEYS; id++) {
		int n = config_format(&c, (enum config_id)id, val, sizeof(val));

		if (n < 0 || strnlen(val, sizeof(val)) == sizeof(val))
			abort();
		if (!config_from_file(&c, (enum config_id)id) || !val[0] ||
		    (size_t)n >= sizeof(val))
			continue;
		/* Round trip: what config_format prints parses to the same value. */
		config_init(&c2);
		snprintf(line, sizeof(line), "%s = %s\n", config_key_name((enum config_id)id), val);
		config_parse(&c2, line, strlen(line));
		if (c2.nmsgs || memcmp(&c.v[id].u, &c2.v[id].u, sizeof(c.v[id]) -
				       offsetof(struct config_value, u))) {
			fprintf(stderr, "round trip of %s", line);
			for (unsigned i = 0; i < c2.nmsgs; i++)
				fprintf(stderr, "  %s\n", c2.msgs[i]);
			abort();
		}
	}
	json_init(&j, jbuf, sizeof(jbuf));
	json_obj_begin(&j, NULL);
	config_json(&c, &j);
	json_obj_end(&j);
	(void)json_result(&j);
	return 0;
}
