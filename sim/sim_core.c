/*
 * sim_core.c - simulator set-up and shared services: configuration
 * defaults, sim_setup(), card insertion and the write-protect switch, and
 * the list of protocol violations (driver behaviour the hardware would
 * not tolerate, like QEMU's -d guest_errors).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_internal.h"

static struct sim_config conf;
static struct sim_profile prof_copy;
static const struct sim_profile *prof;
bool sim_wp_switch;
static unsigned board_io_mv = 3300;

static unsigned nviol;
static char last_viol[200];
#define VIOL_KEEP 32
static char viol_msgs[VIOL_KEEP][200];

/* QEMU's raspi EMMC capabilities (QEMU's hw/arm/bcm2835_peripherals.c, BCM2835_SDHC_CAPAREG): 3.3/1.8 V, HS, max block
 * 1024, timeout clock 52 MHz, no DMA; base clock field replaced. */
#define CAPS_TEMPLATE 0x052100b4u

void sim_config_default(struct sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->base = SIM_EMMC_BASE_DEFAULT;
	c->base_clock_hz = 250000000u;
	c->version = 0x99020000u; /* vendor 0x99, SDHCI 3.0 (SDVERSION 2) */
	/* The host "sim" (sim/hosts/sim.txt says the same). */
	snprintf(c->host_name, sizeof(c->host_name), "sim");
	c->mmio_read_ns = 100;
	c->mmio_write_ns = 60;
	c->data_read_ns = 100;
	c->data_write_ns = 60;
	c->timer_read_ns = 10;
	c->tick_ns = 1;
	c->buf_blocks = 2;
	c->cmd_latency_ns = 0;
	c->cmd_gap_clocks = W_NRC_MIN_CLOCKS;
	c->read_gap_clocks = 0;
	c->write_nwr_clocks = W_NWR_MIN_CLOCKS;
	c->clk_stable_ns = 1000;
	snprintf(c->controller, sizeof(c->controller), "emmc");
	c->adma2 = false;
	c->dma_offset = 0xC0000000u; /* the BCM2711 EMMC2 view (emmc2bus) */
	c->dma_window = 0x40000000u;
	c->dma_word_ns = 2;
	c->dma_desc_ns = 100;
	c->fast_forward = true;
	c->write_hazard = false;
	c->strict_cmd_inhibit = false;
	c->sdhost_fill_step = 4; /* sdhost_edm_fill = stepped */
	c->seed = 0x5eed5d5du;
}

static void derive_config(void)
{
	if (!conf.caps) {
		uint32_t mhz = conf.base_clock_hz / 1000000u;

		conf.caps = CAPS_TEMPLATE | (mhz > 255 ? 255 : mhz) << 8;
	}
	if (conf.adma2)
		conf.caps |= 1u << 19; /* ADMA2 Support */
	if (conf.adma2 && conf.adma64)
		conf.caps |= 1u << 28; /* 64-bit System Bus Support */
	if (!conf.tick_ns)
		conf.tick_ns = 1;
	if (conf.buf_blocks < 1)
		conf.buf_blocks = 1;
	if (conf.buf_blocks > 4)
		conf.buf_blocks = 4;
	/* The protocol's minimums (N_RC/N_CC 8, N_WR 2). */
	if (conf.cmd_gap_clocks < W_NRC_MIN_CLOCKS)
		conf.cmd_gap_clocks = W_NRC_MIN_CLOCKS;
	if (conf.write_nwr_clocks < W_NWR_MIN_CLOCKS)
		conf.write_nwr_clocks = W_NWR_MIN_CLOCKS;
	/* Without fast-forward a poll must cost something, or a loop on a
	 * register never sees time pass. */
	if (!conf.fast_forward && !conf.mmio_read_ns)
		conf.mmio_read_ns = 1;
}

void sim_config_qemu(struct sim_config *c)
{
	sim_config_default(c);
	c->base_clock_hz = 52000000u;
	c->caps = 0x052134b4u;
	c->version = 0x24020000u;
	c->cto_sets_cmd_done = true;
}

const struct sim_config *sim_get_config(void)
{
	/* A program that uses the timer API before sim_setup() gets the
	 * default configuration, not a zero tick. */
	if (!conf.tick_ns) {
		sim_config_default(&conf);
		derive_config();
	}
	return &conf;
}

const struct sim_profile *sim_get_profile(void)
{
	return prof;
}

void sim_rng_reseed_tag(const char *tag)
{
	uint64_t h = 0x84222325cbf29ce4ull;

	for (; tag && *tag; tag++)
		h = (h ^ (uint8_t)*tag) * 0x100000001b3ull;
	sim_rng_seed(conf.seed ^ h);
}

int sim_setup(const struct sim_config *cfg, const struct sim_profile *p)
{
	uint64_t h = 0;
	const char *n;

	if (!p || !p->capacity_bytes)
		return -1;
	if (cfg)
		conf = *cfg;
	else
		sim_config_default(&conf);
	derive_config();
	prof_copy = *p;
	prof = p = &prof_copy;
	for (n = p->name; n && *n; n++)
		h = h * 131 + (uint8_t)*n;
	sim_clk_reset();
	sim_rng_seed(conf.seed ^ h);
	sim_store_reset();
	sim_dma_reset();
	sim_card_reset(p);
	sim_wp_switch = p->wp_switch;
	board_io_mv = 3300;
	sim_fault_clear();
	sim_wire_reset();
	sim_truth_reset();
	sim_violation_clear();
	sim_sdhci_power_on();
	sim_sdhost_reset();
	return 0;
}

void sim_card_set_present(bool present)
{
	if (present == sim_card.present)
		return;
	if (!present) {
		sim_card.present = false;
		sim_sdhci_card_event(false);
		return;
	}
	sim_card_reset(prof); /* power-up: idle, memory kept */
	sim_sdhci_card_event(true);
}

int sim_board_set_io_mv(unsigned mv)
{
	if (mv != 1800 && mv != 3300)
		return -1;
	board_io_mv = mv;
	return 0;
}

unsigned sim_board_io_mv(void)
{
	return board_io_mv;
}

int sim_board_set_card_power(bool on)
{
	if (!on) {
		sim_card.unpowered = true;
		return 0;
	}
	if (sim_card.unpowered && sim_card.present) {
		bool present = sim_card.present;

		sim_card_reset(prof); /* power-up: 3.3 V, idle, memory kept */
		sim_card.present = present;
	}
	sim_card.unpowered = false;
	return 0;
}

void sim_board_route_slot(bool sdhost, uintptr_t base)
{
	conf.sdhost = sdhost;
	conf.base = base;
}

void sim_card_set_wp_switch(bool wp)
{
	sim_wp_switch = wp;
}

void sim_violation(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_viol, sizeof(last_viol), fmt, ap);
	va_end(ap);
	if (nviol < VIOL_KEEP)
		memcpy(viol_msgs[nviol], last_viol, sizeof(last_viol));
	nviol++;
	fprintf(stderr, "sim: %.3f us: %s\n", (double)sim_clk_now / 1000.0,
		last_viol);
}

unsigned sim_violation_count(void)
{
	return nviol;
}

const char *sim_violation_msg(unsigned i)
{
	return i < nviol && i < VIOL_KEEP ? viol_msgs[i] : NULL;
}

const char *sim_violation_last(void)
{
	return nviol ? last_viol : "";
}

void sim_violation_clear(void)
{
	nviol = 0;
	last_viol[0] = 0;
}
