/*
 * sdreg.c - decode SD card registers given as hex, as Linux shows them in
 * /sys/block/mmcblk0/device/{cid,csd,scr,ssr}, without any hardware:
 *
 *     sdreg [--json] [--cid HEX] [--csd HEX] [--scr HEX] [--ssr HEX]
 *
 * The same decoders (drivers/sd/sd_regs.c) and report code
 * (bench/card_report.c) as the firmware. Human-readable output by default;
 * --json prints one object with sub-objects cid, csd, scr, ssr.
 * Exit status: 0, or 2 for bad input (bad hex, wrong length, unknown
 * option, no register given).
 *
 * Not supported: the CMD6 status and the OCR (Linux does not export them
 * in this form), MMC/eMMC registers.
 */
#include <stdio.h>
#include <string.h>

#include "bench/card_report.h"
#include "drivers/sd/sd_regs.h"
#include "lib/err.h"
#include "lib/json.h"

enum { R_CID, R_CSD, R_SCR, R_SSR, R_COUNT };

static const struct {
	const char *opt;
	const char *name;
	size_t bytes;
} regs[R_COUNT] = {
	{ "--cid", "CID", 16 },
	{ "--csd", "CSD", 16 },
	{ "--scr", "SCR", 8 },
	{ "--ssr", "SSR", 64 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: sdreg [--json] [--cid HEX] [--csd HEX] [--scr HEX] [--ssr HEX]\n"
		"  Decodes SD card registers given as hex digits, as in\n"
		"  /sys/block/mmcblk0/device/{cid,csd,scr,ssr}: CID and CSD 32 digits,\n"
		"  SCR 16, SSR 128. --json prints one JSON object.\n");
}

static int bad_hex(const char *name, const char *hex, int rc, size_t pos, size_t want)
{
	if (rc == -ERANGE)
		fprintf(stderr, "sdreg: %s: expected %zu hex digits, got %zu\n", name,
			2 * want, pos);
	else if (!hex[0] || strspn(hex, " \t\r\n") == strlen(hex))
		fprintf(stderr, "sdreg: %s: empty value\n", name);
	else
		fprintf(stderr, "sdreg: %s: not a hex digit at position %zu ('%c')\n",
			name, pos + 1, hex[pos]);
	return 2;
}

int main(int argc, char **argv)
{
	const char *hex[R_COUNT] = { 0 };
	uint8_t raw[R_COUNT][64];
	struct sd_cid cid;
	struct sd_csd csd;
	struct sd_scr scr;
	struct sd_ssr ssr;
	int json = 0, any = 0, i, r;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		size_t len;
		int k;

		if (!strcmp(a, "--json")) {
			json = 1;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		}
		for (k = 0; k < R_COUNT; k++) {
			len = strlen(regs[k].opt);
			if (!strncmp(a, regs[k].opt, len) && (a[len] == '\0' || a[len] == '='))
				break;
		}
		if (k == R_COUNT) {
			fprintf(stderr, "sdreg: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		}
		if (a[len] == '=') {
			val = a + len + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			fprintf(stderr, "sdreg: %s needs a hex value\n", regs[k].opt);
			return 2;
		}
		if (hex[k]) {
			fprintf(stderr, "sdreg: %s given twice\n", regs[k].opt);
			return 2;
		}
		hex[k] = val;
		any = 1;
	}
	if (!any) {
		fprintf(stderr, "sdreg: no register given\n");
		usage(stderr);
		return 2;
	}

	/* Validate everything before printing anything. */
	for (i = 0; i < R_COUNT; i++) {
		size_t pos;

		if (!hex[i])
			continue;
		r = sd_hex_parse(hex[i], raw[i], regs[i].bytes, &pos);
		if (r)
			return bad_hex(regs[i].name, hex[i], r, pos, regs[i].bytes);
	}
	if (hex[R_CID]) {
		uint32_t w[4];

		sd_regs_bytes_to_words(raw[R_CID], w);
		sd_cid_decode(w, &cid);
	}
	if (hex[R_CSD]) {
		uint32_t w[4];

		sd_regs_bytes_to_words(raw[R_CSD], w);
		sd_csd_decode(w, &csd);
	}
	if (hex[R_SCR])
		sd_scr_decode(raw[R_SCR], &scr);
	if (hex[R_SSR])
		sd_ssr_decode(raw[R_SSR], &ssr);

	if (json) {
		static char buf[16384];
		struct json j;

		json_init(&j, buf, sizeof(buf));
		json_obj_begin(&j, NULL);
		if (hex[R_CID])
			card_report_json_cid(&j, "cid", &cid);
		if (hex[R_CSD])
			card_report_json_csd(&j, "csd", &csd);
		if (hex[R_SCR])
			card_report_json_scr(&j, "scr", &scr);
		if (hex[R_SSR]) {
			card_report_json_ssr(&j, "ssr", &ssr);
		}
		json_obj_end(&j);
		if (j.overflow) {
			fprintf(stderr, "sdreg: internal error: JSON output too long\n");
			return 1;
		}
		printf("%s\n", json_result(&j));
		return 0;
	}

	if (hex[R_CID])
		card_report_print_cid(&cid);
	if (hex[R_CSD])
		card_report_print_csd(&csd);
	if (hex[R_SCR])
		card_report_print_scr(&scr);
	if (hex[R_SSR]) {
		card_report_print_ssr(&ssr);
		if (ssr.size_of_protected_area && hex[R_CSD])
			printf("       protected area %llu bytes\n",
			       (unsigned long long)sd_ssr_protected_bytes(&ssr, &csd));
	}
	fflush(stdout);
	return 0;
}
