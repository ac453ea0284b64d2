/*
 * sim_card_regs.c - builds the card's registers from the profile's field
 * values: CID (Physical Layer §5.2), CSD v1.0/v2.0 (§5.3.2, §5.3.3), SCR
 * (§5.6), SD Status (§4.10.2) and the CMD6 switch status (§4.3.10.4).
 * Registers are kept big-endian as they travel on the bus (bit 0 = LSB of
 * the last byte). CID and CSD carry a correct CRC7.
 *
 * Not built: CSD v3.0 (SDUC), the protected-area size, vendor fields.
 */
#include <string.h>

#include "sim/sim_internal.h"

/* Set bits [hi:lo] of a big-endian register of nbytes bytes. */
static void put_bits(uint8_t *reg, unsigned nbytes, unsigned hi, unsigned lo,
		     uint64_t v)
{
	unsigned b;

	for (b = lo; b <= hi; b++) {
		unsigned byte = nbytes - 1 - b / 8;
		uint8_t m = (uint8_t)(1u << (b % 8));

		if ((v >> (b - lo)) & 1)
			reg[byte] |= m;
		else
			reg[byte] &= (uint8_t)~m;
	}
}

/* CRC7 (x^7 + x^3 + 1) over len bytes, MSB first (Physical Layer §4.5). */
uint8_t sim_crc7(const uint8_t *data, unsigned len)
{
	uint8_t crc = 0;
	unsigned i, b;

	for (i = 0; i < len; i++) {
		for (b = 0; b < 8; b++) {
			unsigned in = ((data[i] >> (7 - b)) & 1) ^ (crc >> 6);

			crc = (uint8_t)((crc << 1) & 0x7f);
			if (in)
				crc ^= 0x09;
		}
	}
	return crc;
}

static void build_cid(struct sim_card *c)
{
	const struct sim_profile *p = c->p;
	uint8_t *r = c->cid;
	unsigned i;

	memset(r, 0, 16);
	put_bits(r, 16, 127, 120, p->mid);
	put_bits(r, 16, 119, 112, (uint8_t)p->oid[0]);
	put_bits(r, 16, 111, 104, (uint8_t)p->oid[1]);
	for (i = 0; i < 5; i++)
		put_bits(r, 16, 103 - 8 * i, 96 - 8 * i, (uint8_t)p->pnm[i]);
	put_bits(r, 16, 63, 56, p->prv);
	put_bits(r, 16, 55, 24, p->psn);
	put_bits(r, 16, 19, 12, p->mdt_year >= 2000 ? p->mdt_year - 2000 : 0);
	put_bits(r, 16, 11, 8, p->mdt_month);
	r[15] = (uint8_t)(sim_crc7(r, 15) << 1 | 1);
}

static void build_csd(struct sim_card *c)
{
	const struct sim_profile *p = c->p;
	uint8_t *r = c->csd;
	unsigned bl = p->read_bl_len ? p->read_bl_len : 9;

	memset(r, 0, 16);
	if (p->kind == SIM_SDSC_V1 || p->kind == SIM_SDSC_V2) {
		/* capacity = (C_SIZE+1) * 2^(C_SIZE_MULT+2) * 2^READ_BL_LEN:
		 * pick the smallest multiplier that fits C_SIZE in 12 bits. */
		unsigned mult;
		uint64_t csize = 0;

		for (mult = 0; mult < 8; mult++) {
			csize = p->capacity_bytes >> (mult + 2 + bl);
			if (csize <= 4096)
				break;
		}
		put_bits(r, 16, 127, 126, 0);
		put_bits(r, 16, 119, 112, p->taac);
		put_bits(r, 16, 111, 104, p->nsac);
		put_bits(r, 16, 83, 80, bl);
		put_bits(r, 16, 79, 79, 1);              /* READ_BL_PARTIAL */
		put_bits(r, 16, 73, 62, csize ? csize - 1 : 0);
		put_bits(r, 16, 61, 59, 6);              /* VDD currents: 60/80 mA */
		put_bits(r, 16, 58, 56, 6);
		put_bits(r, 16, 55, 53, 6);
		put_bits(r, 16, 52, 50, 6);
		put_bits(r, 16, 49, 47, mult);
		put_bits(r, 16, 38, 32, 0);              /* WP_GRP_SIZE */
	} else {
		uint64_t csize = p->capacity_bytes / (512 * 1024);

		put_bits(r, 16, 127, 126, 1);
		put_bits(r, 16, 119, 112, 0x0e);         /* 1 ms, fixed */
		put_bits(r, 16, 111, 104, 0);
		put_bits(r, 16, 83, 80, 9);
		put_bits(r, 16, 69, 48, csize ? csize - 1 : 0);
	}
	/* TRAN_SPEED: 25 MHz, 50 MHz once switched to High Speed (§5.3.2). */
	put_bits(r, 16, 103, 96, c->hs_mode ? 0x5a : 0x32);
	put_bits(r, 16, 95, 84, p->ccc ? p->ccc : 0x5b5);
	put_bits(r, 16, 46, 46, 1);                      /* ERASE_BLK_EN */
	put_bits(r, 16, 45, 39, 0x7f);                   /* SECTOR_SIZE */
	put_bits(r, 16, 28, 26, p->r2w_factor ? p->r2w_factor : 2);
	put_bits(r, 16, 25, 22, 9);                      /* WRITE_BL_LEN */
	put_bits(r, 16, 14, 14, 0);                      /* COPY */
	put_bits(r, 16, 12, 12, p->csd_tmp_wp);
	r[15] = (uint8_t)(sim_crc7(r, 15) << 1 | 1);
}

static void build_scr(struct sim_card *c)
{
	const struct sim_profile *p = c->p;
	uint8_t *r = c->scr;

	memset(r, 0, 8);
	put_bits(r, 8, 63, 60, 0);
	put_bits(r, 8, 59, 56, p->sd_spec);
	put_bits(r, 8, 55, 55, p->erase_ff);
	/* SD_SECURITY: none for SDSC 1.x, SDSC (2), SDHC (3), SDXC (4) */
	put_bits(r, 8, 54, 52, p->kind == SIM_SDSC_V1 ? 0 :
			       p->kind == SIM_SDSC_V2 ? 2 :
			       p->kind == SIM_SDHC ? 3 : 4);
	put_bits(r, 8, 51, 48, p->bus4 ? 0x5 : 0x1);
	put_bits(r, 8, 47, 47, p->sd_spec3);
	put_bits(r, 8, 42, 42, p->sd_spec4);
	put_bits(r, 8, 41, 38, p->sd_specx);
	put_bits(r, 8, 34, 34, p->ext_regs); /* CMD48/CMD49 (sim_card_cq.c) */
	put_bits(r, 8, 33, 33, p->cmd23);
	put_bits(r, 8, 32, 32, p->cmd20);
}

static void build_ssr(struct sim_card *c)
{
	const struct sim_profile *p = c->p;
	uint8_t *r = c->ssr;

	memset(r, 0, 64);
	put_bits(r, 64, 511, 510, c->width == 4 ? 2 : 0);
	put_bits(r, 64, 447, 440, p->speed_class);
	put_bits(r, 64, 439, 432, 0);
	put_bits(r, 64, 431, 428, p->au_size);
	put_bits(r, 64, 423, 408, p->erase_size);
	put_bits(r, 64, 407, 402, p->erase_timeout);
	put_bits(r, 64, 401, 400, p->erase_offset);
	put_bits(r, 64, 399, 396, p->uhs_grade);
	put_bits(r, 64, 395, 392, p->uhs_grade ? p->au_size : 0);
	put_bits(r, 64, 391, 384, p->video_class);
	put_bits(r, 64, 339, 336, p->app_class);
	/* PERFORMANCE_ENHANCE (SD 6.00 §4.10.2): [335:331] command queue
	 * depth - 1 (0: none), [330] cache; what the extension register says
	 * too (sim_card_cq.c). Only cards with the registers fill it. */
	if (p->ext_regs) {
		put_bits(r, 64, 335, 331, p->cq_depth >= 2 ? (uint64_t)p->cq_depth - 1 : 0);
		put_bits(r, 64, 330, 330, p->perf_cache_blocks != 0);
	}
}

void sim_card_build_regs(struct sim_card *c)
{
	build_cid(c);
	build_csd(c);
	build_scr(c);
	build_ssr(c);
}

void sim_card_put_bits(uint8_t *reg, unsigned nbytes, unsigned hi,
		       unsigned lo, uint64_t v)
{
	put_bits(reg, nbytes, hi, lo, v);
}
