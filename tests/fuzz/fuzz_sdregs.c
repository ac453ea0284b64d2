/*
 * fuzz_sdregs.c - libFuzzer target: the card register decoders
 * (drivers/sd/sd_regs.c) on any bytes: CID and CSD (every structure
 * version), SCR, SD Status, the CMD6 switch status, the OCR, with every
 * name and derived-value helper, and the hex parser that tools/sdreg uses.
 */
#include <stdlib.h>
#include <string.h>

#include "drivers/sd/sd_regs.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len);

#define NEED (16 + 16 + 8 + 64 + 64 + 4 + 4)

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	uint8_t b[NEED], back[16], hex[64];
	uint32_t w[4], ms = 0;
	struct sd_cid cid;
	struct sd_csd csd;
	struct sd_scr scr;
	struct sd_ssr ssr;
	struct sd_switch sw;
	struct sd_ocr ocr;
	char buf[64], *s;
	size_t err_pos;
	const uint8_t *p = b;

	memset(b, 0, sizeof(b));
	memcpy(b, in, len < NEED ? len : NEED);

	sd_regs_bytes_to_words(p, w);
	sd_regs_words_to_bytes(w, back);
	if (memcmp(back, p, 16))
		abort();
	sd_cid_decode(w, &cid);
	(void)sd_mid_name(cid.mid);
	p += 16;

	sd_regs_bytes_to_words(p, w);
	sd_csd_decode(w, &csd);
	(void)sd_csd_type_name(&csd);
	(void)sd_csd_taac_str(&csd, buf, sizeof(buf));
	(void)sd_csd_taac_str(&csd, buf, 3);
	(void)sd_csd_file_format_name(&csd);
	for (unsigned c = 0; c < 8; c++) {
		(void)sd_csd_vdd_curr_tenth_ma((uint8_t)c, false);
		(void)sd_csd_vdd_curr_tenth_ma((uint8_t)c, true);
	}
	(void)sd_crc7(p, 15);
	p += 16;

	sd_scr_decode(p, &scr);
	(void)sd_scr_security_name(scr.sd_security);
	p += 8;

	sd_ssr_decode(p, &ssr);
	(void)sd_ssr_bus_width_name(ssr.dat_bus_width);
	(void)sd_ssr_card_type_name(ssr.sd_card_type);
	(void)sd_ssr_app_perf_name(p[0]);
	(void)sd_ssr_protected_bytes(&ssr, &csd);
	(void)sd_ssr_erase_timeout_ms(&ssr, (uint32_t)p[1] << (p[2] & 31), &ms);
	(void)sd_ssr_erase_us_per_au(&ssr);
	p += 64;

	sd_switch_decode(p, &sw);
	for (unsigned g = 0; g < 8; g++)
		for (unsigned f = 0; f < 17; f++)
			(void)sd_switch_fn_name(g, f);
	p += 64;

	sd_ocr_decode((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24, &ocr);

	/* The hex parser on the input as text (tools/sdreg's argument). */
	s = malloc(len + 1);
	if (s) {
		memcpy(s, in, len);
		s[len] = 0;
		(void)sd_hex_parse(s, hex, sizeof(hex), &err_pos);
		(void)sd_hex_parse(s, hex, 16, &err_pos);
		(void)sd_hex_parse_words(s, w, &err_pos);
		free(s);
	}
	return 0;
}
