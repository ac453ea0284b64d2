/*
 * bcm2835_emmc.c - the quirk set of the BCM2835/6/7 Arasan EMMC (see
 * bcm2835_emmc.h and, for what each quirk does, sdhci.c).
 *
 *  - Write-hazard pacing: the Arasan can lose the second of two writes to
 *    one register within two SD clocks (BCM2835 ARM Peripherals §5; U-Boot's
 *    bcm2835_sdhci and Linux's sdhci-iproc pace their writes for the same
 *    reason). Below 2 MHz (two clocks >= 1 us) every write is followed by
 *    two SD clocks.
 *  - 32-bit accesses only (the core makes no other).
 *  - No usable CAPABILITIES on hardware: 4-bit, high speed, 3.3 V and
 *    1024-byte blocks are known to work; card detect is not wired.
 *  - The high-speed enable bit is not set (Linux NO_HISPD_BIT).
 *  - The Arasan's own DMA is not used (no known driver does; QEMU's model
 *    has none). Data moves by PIO, or, once bcm2835_emmc_attach_dma() gave
 *    it a channel and the data path is DMA, through the SoC's DMA engine
 *    (drivers/dma/bcm2835_dma.h) between the buffer and the data port
 *    (bus address 0x7E300020), paced by the EMMC's DREQ 11 - as the
 *    Raspberry Pi Linux kernel's bcm2835-mmc driver did. Buffers the
 *    engine cannot maintain safely (not on cache lines: the self-test's
 *    odd-address runs) go by PIO.
 */
#include "drivers/dma/bcm2835_dma.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "lib/err.h"

static const struct sdhci_quirks bcm2835_emmc_quirks = {
	.name = BCM2835_EMMC_NAME,
	.pace_below_hz = 2000000u,
	.f_min_hz = 0,
	.missing_caps_max_block = 1024u,
	.no_hispd_bit = true,
	.cd_broken_on_hw = true,
	.dma_offset = 0,
};

int bcm2835_emmc_init(struct sdhci_host *sh, uintptr_t base, uint32_t base_clock_hz)
{
	return sdhci_host_init(sh, &bcm2835_emmc_quirks, base, base_clock_hz);
}

static int emmc_dma_start(void *ctx, const struct sd_data *data, uintptr_t port)
{
	struct dma_chan *c = ctx;
	uint32_t len = data->blksz * data->blocks;

	if (!dma_buffer_ok(data->buf, len))
		return -EAGAIN;
	return dma_start(c, data->dir == SD_DATA_READ ? DMA_TO_MEM : DMA_FROM_MEM,
			 c->periph_dreq, dma_periph_bus_addr(c, port), data->buf, len);
}

static int emmc_dma_wait(void *ctx, struct dma_watch *w)
{
	return dma_wait_progress(ctx, w);
}

static const char *emmc_dma_error(void *ctx)
{
	return dma_error(ctx);
}

static const struct sdhci_ext_dma emmc_dma_ops = {
	.start = emmc_dma_start,
	.wait = emmc_dma_wait,
	.error = emmc_dma_error,
};

void bcm2835_emmc_attach_dma(struct sdhci_host *sh, struct dma_chan *c, uint8_t dreq)
{
	if (c)
		c->periph_dreq = dreq;
	sdhci_attach_dma(sh, c && c->channel >= 0 ? &emmc_dma_ops : NULL, c);
}
