/*
 * sdhci_adma.c - see sdhci_adma.h.
 */
#include "drivers/sdhci/sdhci_adma.h"
#include "drivers/sdhci/sdhci_regs.h"
#include "lib/err.h"

uint32_t sdhci_adma_desc_count(uint32_t len)
{
	return (uint32_t)(((uint64_t)len + SDHCI_ADMA_MAX_LEN - 1) / SDHCI_ADMA_MAX_LEN);
}

/* The descriptors of one transfer, words_per_desc 32-bit words each:
 * attribute + length, then the address (2: 32-bit ADMA2; 3: 64-bit
 * ADMA2's 96-bit descriptors, address low then high word). */
static int adma_build(uint32_t *tbl, unsigned words_per_desc, uint32_t max_desc,
		      uint64_t addr, uint32_t len)
{
	uint32_t n = sdhci_adma_desc_count(len), i;

	if (!len || (addr & 3u) || n > max_desc || addr + len < addr)
		return -EINVAL;
	for (i = 0; i < n; i++, tbl += words_per_desc) {
		uint32_t chunk = len > SDHCI_ADMA_MAX_LEN ? SDHCI_ADMA_MAX_LEN : len;
		uint32_t attr = SDHCI_ADMA_VALID | SDHCI_ADMA_ACT_TRAN;

		len -= chunk;
		if (!len)
			attr |= SDHCI_ADMA_END;
		/* Length 65536 is encoded as 0. */
		tbl[0] = (chunk & 0xFFFFu) << SDHCI_ADMA_LEN_SHIFT | attr;
		tbl[1] = (uint32_t)addr;
		if (words_per_desc == 3)
			tbl[2] = (uint32_t)(addr >> 32);
		addr += chunk;
	}
	return (int)n;
}

int sdhci_adma_build(uint32_t *tbl, uint32_t max_desc, uint32_t addr, uint32_t len)
{
	/* 32-bit descriptors: the whole transfer below 4 GiB */
	if ((uint64_t)addr + len > 0x100000000ull)
		return -EINVAL;
	return adma_build(tbl, 2, max_desc, addr, len);
}

int sdhci_adma_build64(uint32_t *tbl, uint32_t max_desc, uint64_t addr, uint32_t len)
{
	return adma_build(tbl, 3, max_desc, addr, len);
}

int sdhci_adma_failing_desc_sz(uint32_t adma_err, uint64_t sys_addr,
			       uint64_t tbl_addr, uint32_t n, uint32_t desc_sz,
			       uint64_t *desc_addr)
{
	uint64_t a = sys_addr;

	if ((adma_err & SDHCI_ADMA_ERR_STATE_MASK) != SDHCI_ADMA_ST_FDS)
		a -= desc_sz;
	*desc_addr = a;
	if (a < tbl_addr || a - tbl_addr >= (uint64_t)desc_sz * n ||
	    (a - tbl_addr) % desc_sz)
		return -1;
	return (int)((a - tbl_addr) / desc_sz);
}

int sdhci_adma_failing_desc(uint32_t adma_err, uint32_t sys_addr,
			    uint32_t tbl_addr, uint32_t n, uint32_t *desc_addr)
{
	uint64_t a;
	int i = sdhci_adma_failing_desc_sz(adma_err, sys_addr, tbl_addr, n,
					   SDHCI_ADMA_DESC32_SZ, &a);

	*desc_addr = (uint32_t)a;
	return i;
}
