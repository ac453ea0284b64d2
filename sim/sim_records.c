/*
 * sim_records.c - see sim_records.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_records.h"

const char *simrec_last(const char *out, const char *type, const char *t1, const char *t2)
{
	char key[64];
	const char *p = out, *last = NULL;

	snprintf(key, sizeof(key), "@ {\"type\":\"%s\"", type);
	while ((p = strstr(p, key)) != NULL) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char line[4096];

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = 0;
		if ((!t1 || strstr(line, t1)) && (!t2 || strstr(line, t2)))
			last = p;
		p++;
	}
	return last;
}

double simrec_num(const char *line, const char *key)
{
	char k[64];
	const char *p, *end;

	if (!line)
		return NAN;
	end = strchr(line, '\n');
	snprintf(k, sizeof(k), "\"%s\":", key);
	p = strstr(line, k);
	if (!p || (end && p > end))
		return NAN;
	p += strlen(k);
	if (!strncmp(p, "true", 4))
		return 1;
	if (!strncmp(p, "false", 5))
		return 0;
	if (!strncmp(p, "null", 4))
		return NAN;
	return strtod(p, NULL);
}
