/*
 * sd_ext_info.c - decoding the SD 6.00 function extension registers (SD
 * Physical Layer Simplified Specification 6.00 and later, §5.7): the
 * General Information (FNO 0, page 0, offset 0) and the Power Management
 * (Standard Function Code 1) and Performance Enhancement (SFC 2)
 * functions it lists. sd.c reads the blocks with CMD48.
 *
 * Layouts as Linux drivers/mmc/core/sd.c reads them (sd_read_ext_regs,
 * sd_parse_ext_reg, sd_parse_ext_reg_power, sd_parse_ext_reg_perf):
 * General Information [1:0] revision (0 understood), [3:2] length (at
 * most 512 understood), [4] number of extensions, the first at 16; an
 * extension: [1:0] SFC, [41:40] the next extension's address, [42]
 * number of register sets (1 understood), [47:44] the register set's
 * address: [8:0] offset, [16:9] page, [21:18] FNO. Power Management: [0]
 * revision (bits 3:0), [1] bit 4 power-off notification, bit 5 power
 * sustenance, bit 6 power down mode. Performance Enhancement: [0]
 * revision, [1] bit 0 FX_EVENT, [2] bit 0 card-initiated maintenance,
 * bit 1 host-initiated maintenance, [4] bit 0 cache, [6] bits 4:0 the
 * command queue depth - 1 (0: no queue; Linux treats non-zero as support,
 * and eMMC 5.1's CMDQ_DEPTH, which this field follows, is depth - 1; the
 * SD Status's PERFORMANCE_ENHANCE field codes the depth the same way).
 */
#include <string.h>

#include "drivers/sd/sd_ext_info.h"
#include "lib/fmt.h"

#define GI_FIRST_EXT   16u
#define GI_EXT_BYTES   48u
#define SFC_POWER      1u
#define SFC_PERF       2u
#define MAX_EXTENSIONS 8u  /* more is not a layout this reads */

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One extension at *at; *at becomes the next one's address. */
static void parse_ext(const uint8_t *gi, struct sd_ext *e, uint16_t *at)
{
	uint16_t a = *at, sfc = le16(gi + a);
	uint32_t addr = le32(gi + a + 44);

	*at = le16(gi + a + 40);
	if (gi[a + 42] != 1)
		return; /* not one register set: not a layout this reads */
	if (sfc == SFC_POWER) {
		e->have_pm = true;
		e->pm_fno = (uint8_t)((addr >> 18) & 0xF);
		e->pm_page = (uint8_t)((addr >> 9) & 0xFF);
		e->pm_off = (uint16_t)(addr & 0x1FF);
	} else if (sfc == SFC_PERF) {
		e->have_perf = true;
		e->perf_fno = (uint8_t)((addr >> 18) & 0xF);
		e->perf_page = (uint8_t)((addr >> 9) & 0xFF);
		e->perf_off = (uint16_t)(addr & 0x1FF);
	}
}

int sd_ext_parse_gi(const uint8_t *gi, struct sd_ext *e)
{
	uint16_t at = GI_FIRST_EXT;
	unsigned i;

	e->gi_rev = le16(gi);
	e->gi_len = le16(gi + 2);
	e->n_ext = gi[4];
	if (e->gi_rev != 0 || e->gi_len > SD_EXT_BLOCK) {
		fmt_snprintf(e->note, sizeof(e->note),
			     "general information revision %u, length %u: not understood",
			     (unsigned)e->gi_rev, (unsigned)e->gi_len);
		return -1;
	}
	for (i = 0; i < e->n_ext && i < MAX_EXTENSIONS; i++) {
		if (at < GI_FIRST_EXT || at + GI_EXT_BYTES > SD_EXT_BLOCK) {
			fmt_snprintf(e->note, sizeof(e->note),
				     "general information: extension %u at %u, outside its block",
				     i, (unsigned)at);
			return -1;
		}
		parse_ext(gi, e, &at);
	}
	return 0;
}

void sd_ext_decode_pm(const uint8_t *reg, struct sd_ext *e)
{
	e->pm_rev = reg[0] & 0xF;
	e->pm_off_notify = reg[1] & 0x10;
	e->pm_sustenance = reg[1] & 0x20;
	e->pm_down_mode = reg[1] & 0x40;
}

void sd_ext_decode_perf(const uint8_t *reg, struct sd_ext *e)
{
	e->perf_rev = reg[0];
	e->fx_event = reg[1] & 1;
	e->card_maint = reg[2] & 1;
	e->host_maint = reg[2] & 2;
	e->cache = reg[4] & 1;
	e->cq_depth = (uint8_t)((reg[6] & 0x1F) ? (reg[6] & 0x1F) + 1 : 0);
}
