/*
 * test_sim_gen.c - the generated cards and hosts (sim/sim_gen.c): a seed
 * names one card and one host (the same every time), a generated card is a
 * profile like any other (it survives the text round trip), consecutive
 * seeds cover the envelope sim/README.md documents, and the profile keys
 * added for it (periodic_stall, write_cross_eb, write_isolated) cost what
 * they say on the simulated card.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/timer.h"
#include "sim/sim_gen.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

TEST(a_seed_names_one_card_and_one_host)
{
	struct sim_profile a, b;
	struct sim_gen_host h1, h2;

	sim_gen_card(7, &a);
	sim_gen_card(7, &b);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	sim_gen_card(8, &b);
	CHECK(memcmp(&a, &b, sizeof(a)) != 0);
	sim_gen_host(7, &h1);
	sim_gen_host(7, &h2);
	CHECK(memcmp(&h1, &h2, sizeof(h1)) == 0);
	CHECK_STR(a.name, "gen-card-7");
	CHECK_STR(h1.c.host_name, "gen-host-7");
}

TEST(generated_cards_and_hosts_round_trip_as_text)
{
	static char text[16384], text2[16384];
	char err[300];
	uint64_t s;

	for (s = 1; s <= 200; s++) {
		struct sim_profile p, q;
		struct sim_gen_host h;
		struct sim_config c;

		sim_gen_card(s, &p);
		sim_profile_format(&p, text, sizeof(text));
		CHECK_EQ_I(sim_profile_parse(text, p.name, &q, err, sizeof(err)), 0);
		sim_profile_format(&q, text2, sizeof(text2));
		if (strcmp(text, text2) || q.preerase != p.preerase ||
		    q.write_next.min_ns != p.write_next.min_ns)
			CHECK_FAIL_("card seed %llu: formatted and parsed again, it differs",
				    (unsigned long long)s);
		sim_gen_host(s, &h);
		sim_gen_host_format(&h, text, sizeof(text));
		sim_config_default(&c);
		CHECK_EQ_I(sim_host_parse(text, h.c.host_name, &c, err, sizeof(err)), 0);
		CHECK_EQ_U(c.data_read_ns, h.c.data_read_ns);
		CHECK_EQ_U(c.data_write_ns, h.c.data_write_ns);
		CHECK_EQ_U(c.read_gap_clocks, h.c.read_gap_clocks);
		CHECK_EQ_U(c.caps_hi, h.c.caps_hi);
	}
}

/* 40 consecutive seeds (the pairs make test runs) cover the envelope. */
TEST(forty_seeds_cover_the_envelope)
{
	unsigned gap[5] = { 0 }, busy[5] = { 0 }, wr[4] = { 0 }, rd[4] = { 0 };
	unsigned path[SIM_GEN_NPATHS] = { 0 }, au[16] = { 0 }, open[9] = { 0 };
	unsigned one_bit = 0, uhs = 0, preerase = 0, periodic = 0, isolated = 0, i;
	uint32_t max_gap = 0, min_w = 1000, max_w = 0;
	uint64_t s;

	for (s = 1; s <= 40; s++) {
		struct sim_profile p;
		struct sim_gen_host h;

		sim_gen_card(s, &p);
		sim_gen_host(s, &h);
		gap[p.read_gap_clocks == 0 ? 0 : p.read_gap_clocks < 50 ? 1 :
		    p.read_gap_clocks < 200 ? 2 : p.read_gap_clocks < 800 ? 3 : 4]++;
		busy[p.busy_min_clocks == 0 ? 0 : p.busy_min_clocks < 50 ? 1 :
		     p.busy_min_clocks < 200 ? 2 : p.busy_min_clocks < 800 ? 3 : 4]++;
		if (p.read_gap_clocks > max_gap)
			max_gap = p.read_gap_clocks;
		wr[h.c.data_write_ns < 80 ? 0 : h.c.data_write_ns < 200 ? 1 :
		   h.c.data_write_ns < 350 ? 2 : 3]++;
		rd[h.c.data_read_ns < 80 ? 0 : h.c.data_read_ns < 200 ? 1 :
		   h.c.data_read_ns < 350 ? 2 : 3]++;
		min_w = h.c.data_write_ns < min_w ? h.c.data_write_ns : min_w;
		max_w = h.c.data_write_ns > max_w ? h.c.data_write_ns : max_w;
		path[h.path]++;
		au[p.au_size & 15]++;
		open[p.open_aus <= 8 ? p.open_aus : 0]++;
		one_bit += !p.bus4;
		uhs += p.uhs;
		preerase += p.preerase;
		periodic += p.periodic_stall_blocks != 0;
		isolated += p.write_isolated.min_ns != 0;
		CHECK(p.open_au_bytes >= 512u << 10 && p.open_au_bytes <= 16u << 20);
		CHECK(h.c.data_write_ns >= 30 && h.c.data_write_ns <= 500);
		CHECK(h.c.data_read_ns >= 30 && h.c.data_read_ns <= 500);
		CHECK(p.read_gap_clocks <= 2000 && p.busy_min_clocks <= 2000);
	}
	for (i = 0; i < 5; i++)
		CHECK(gap[i] >= 4 && busy[i] >= 1);
	for (i = 0; i < 4; i++)
		CHECK(wr[i] >= 5 && rd[i] >= 5);
	for (i = 0; i < SIM_GEN_NPATHS; i++)
		if (!path[i])
			CHECK_FAIL_("no host with data path %s", sim_gen_path_name(i));
	CHECK(max_gap >= 1500 && min_w < 50 && max_w > 450);
	CHECK(au[6] && au[12]); /* 512 KiB and 16 MiB AUs */
	CHECK(open[1] && open[8]);
	CHECK(one_bit && uhs && preerase && periodic && isolated);
}

/* Time of n single-block writes from lba (CMD24 each). */
static uint64_t write_ns(struct simh *s, uint32_t lba, uint32_t n, uint32_t step)
{
	static uint8_t buf[512];
	uint64_t t0 = sim_now_ns();
	uint32_t i;

	for (i = 0; i < n; i++)
		CHECK_EQ_I(sd_write_blocks(&s->card, lba + i * step, 1, buf, SD_STOP_NONE, NULL), 0);
	return sim_now_ns() - t0;
}

TEST(new_profile_keys_cost_what_they_say)
{
	static struct sim_profile p;
	struct simh s;
	uint64_t base, stalled, isolated, multi;
	static uint8_t buf[64 * 512];

	/* an instant card, then one stall of 20 ms every 16 blocks */
	sim_gen_card(1, &p);
	memset(&p.write_single, 0, sizeof(p.write_single));
	memset(&p.write_next, 0, sizeof(p.write_next));
	memset(&p.write_last, 0, sizeof(p.write_last));
	memset(&p.write_isolated, 0, sizeof(p.write_isolated));
	memset(&p.write_cross_eb, 0, sizeof(p.write_cross_eb));
	memset(&p.periodic_stall, 0, sizeof(p.periodic_stall));
	p.cache_blocks = 0;
	p.open_aus = 0;
	p.periodic_stall_blocks = 0;
	CHECK_EQ_I(simh_start_p(&s, &p, NULL), 0);
	base = write_ns(&s, 4096, 32, 1);
	p.periodic_stall_blocks = 16;
	p.periodic_stall.min_ns = 20000000;
	CHECK_EQ_I(simh_start_p(&s, &p, NULL), 0);
	stalled = write_ns(&s, 4096, 32, 1);
	printf("  32 single-block writes: %llu ns, with a 20 ms stall every 16 blocks %llu ns\n",
	       (unsigned long long)base, (unsigned long long)stalled);
	CHECK(stalled + 1000 >= base + 2 * 20000000ull && stalled < base + 2 * 20000000ull + 1000000);
	/* isolated short writes: each CMD24 away from the last one pays 5 ms */
	p.periodic_stall_blocks = 0;
	p.write_isolated.min_ns = 5000000;
	CHECK_EQ_I(simh_start_p(&s, &p, NULL), 0);
	isolated = write_ns(&s, 4096, 8, 64);
	printf("  8 isolated single-block writes with write_isolated = 5 ms: %llu ns\n",
	       (unsigned long long)isolated);
	CHECK(isolated >= base / 8 + 8 * 5000000ull);
	CHECK(write_ns(&s, 8192, 8, 1) < 5000000ull + base); /* sequential: once */
	/* a multi-block write crossing an erase block pays write_cross_eb */
	p.write_isolated.min_ns = 0;
	p.erase_block_bytes = 16 * 512;
	p.write_cross_eb.min_ns = 3000000;
	CHECK_EQ_I(simh_start_p(&s, &p, NULL), 0);
	{
		uint64_t t0 = sim_now_ns();

		CHECK_EQ_I(sd_write_blocks(&s.card, 4096, 64, buf, SD_STOP_AUTO12, NULL), 0);
		multi = sim_now_ns() - t0;
	}
	/* blocks 16, 32, 48 start erase blocks (the first block does not pay) */
	CHECK(multi >= 3 * 3000000ull && multi < 4 * 3000000ull);
}

/* Generated A2 cards carry a command queue and a cache, with scheduling
 * costs and, now and then, each broken behaviour (sim_gen.c card_perf,
 * card_task_cost); an SDSC card never has the extension registers. */
TEST(generated_a2_cards_have_queues_and_their_failures)
{
	unsigned queues = 0, caches = 0, tasks = 0, tmo = 0, reo = 0, ign = 0, rej = 0;
	uint64_t s;

	for (s = 1; s <= 400; s++) {
		struct sim_profile p;

		sim_gen_card(s, &p);
		if (p.kind == SIM_SDSC_V2 && p.ext_regs)
			CHECK_FAIL_("card seed %llu: SDSC with extension registers",
				    (unsigned long long)s);
		if (p.cq_depth >= 2) {
			queues++;
			CHECK(p.app_class == 2 && p.ext_regs);
			CHECK(p.cq_depth <= 32 && p.cq_lanes >= 1);
			CHECK(!p.cq_timeout_depth || p.cq_timeout_depth < p.cq_depth);
		}
		caches += p.perf_cache_blocks != 0;
		tasks += p.cq_task.min_ns != 0;
		tmo += p.cq_timeout_depth != 0;
		reo += p.flush_reorders;
		ign += p.flush_ignored;
		rej += p.cq_rejects_cmd44;
	}
	CHECK(queues >= 40 && caches >= queues && tasks >= queues / 2 && tasks < queues);
	CHECK(tmo && reo && ign && rej);
}
