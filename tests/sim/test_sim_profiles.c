/*
 * test_sim_profiles.c - card and host profiles as text (sim_profile_text.c):
 * every built-in file parses and survives a round trip through the
 * formatter; a bad file gets an error that names the file, the line and
 * the key; files load from a path; host files change only what they name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"
#include "tests/unit/check.h"

static char err[400];

static const char *const base_card =
	"name = t\n"
	"kind = sdhc\n"
	"capacity = 4GiB\n"
	"write_next = 0ns\n";

/* Parse base_card + extra; return the error text ("" when it parsed). */
static const char *card_error(const char *extra)
{
	char text[2048];
	struct sim_profile p;

	snprintf(text, sizeof(text), "%s%s", base_card, extra);
	err[0] = 0;
	if (sim_profile_parse(text, "t.txt", &p, err, sizeof(err)) == 0)
		return "";
	return err;
}

static void expect_error(const char *extra, const char *want)
{
	const char *e = card_error(extra);

	if (!strstr(e, want))
		CHECK_FAIL_("'%s': got error '%s', want one containing '%s'", extra, e, want);
}

TEST(every_builtin_profile_round_trips)
{
	static char text[8192];
	unsigned i;

	CHECK(sim_profile_count() >= 26);
	for (i = 0; i < sim_profile_count(); i++) {
		const struct sim_profile *p = sim_profile_get(i);
		struct sim_profile q;
		size_t n = sim_profile_format(p, text, sizeof(text));

		CHECK(n > 0 && n < sizeof(text));
		CHECK_EQ_I(sim_profile_parse(text, p->name, &q, err, sizeof(err)), 0);
		if (memcmp(p, &q, sizeof(q)))
			CHECK_FAIL_("%s: formatted and parsed again, it differs", p->name);
		CHECK(sim_profile_find(p->name) == p);
	}
	/* The 25 original profiles are among them. */
	CHECK(sim_profile_find("sdhc-c10-16g") && sim_profile_find("sdxc-2t") &&
	      sim_profile_find("fake-64g-8g") && sim_profile_find("sdsc-v1-128m"));
	CHECK(sim_profile_find("no-such-card") == NULL);
}

TEST(values_and_units)
{
	struct sim_profile p;
	const char *t =
		"# a comment\n"
		"name = units\n"
		"desc = \"  spaces kept  \"\n"
		"kind = sdxc\n"
		"capacity = 64GiB   # trailing comment\n"
		"pnm = \"AB  C\"\n"
		"mdt = 2021-07\n"
		"ncr_clocks = 0x10\n"
		"bus4 = yes\n"
		"init_busy = 1.5ms\n"
		"read_first = 180 us exp 60us stall 500ppm 2ms..8ms\n"
		"erase_per_au = 0.25ms\n"
		"erase_block = 4 MiB\n"
		"open_aus = 3\n"
		"write_next = 0ns\n"
		"write_next_preerased = 1us\n";

	CHECK_EQ_I(sim_profile_parse(t, "u.txt", &p, err, sizeof(err)), 0);
	CHECK_STR(p.name, "units");
	CHECK_STR(p.desc, "  spaces kept  ");
	CHECK_EQ_I(p.kind, SIM_SDXC);
	CHECK_EQ_U(p.capacity_bytes, 64ull << 30);
	CHECK_STR(p.pnm, "AB  C");
	CHECK_EQ_U(p.mdt_year, 2021);
	CHECK_EQ_U(p.mdt_month, 7);
	CHECK_EQ_U(p.ncr_clocks, 16);
	CHECK(p.bus4);
	CHECK_EQ_U(p.init_busy_us, 1500);
	CHECK_EQ_U(p.read_first.min_ns, 180000);
	CHECK_EQ_U(p.read_first.mean_extra_ns, 60000);
	CHECK_EQ_U(p.read_first.stall_ppm, 500);
	CHECK_EQ_U(p.read_first.stall_min_ns, 2000000);
	CHECK_EQ_U(p.read_first.stall_max_ns, 8000000);
	CHECK_EQ_U(p.erase_per_au_ns, 250000);
	CHECK_EQ_U(p.erase_block_bytes, 4u << 20);
	CHECK_EQ_U(p.open_aus, 3);
	CHECK(p.preerase);
	CHECK_EQ_U(p.write_next_preerased.min_ns, 1000);
	/* N_CR defaults to the protocol's minimum. */
	CHECK_EQ_I(sim_profile_parse(base_card, "b.txt", &p, err, sizeof(err)), 0);
	CHECK_EQ_U(p.ncr_clocks, 2);
}

TEST(errors_name_the_file_line_and_key)
{
	/* the line number counts from the top of the text: base_card has 4 */
	expect_error("read_frist = 1us\n", "t.txt:5: read_frist: unknown key");
	expect_error("ncr_clocks = 1\n", "t.txt:5: ncr_clocks: 1 is out of range (2..64)");
	expect_error("ncr_clocks = 65\n", "ncr_clocks: 65 is out of range");
	expect_error("ncr_clocks = ten\n", "ncr_clocks: 'ten' is not a number");
	expect_error("ncr_clocks = -3\n", "ncr_clocks: '-3' is not a number");
	expect_error("\n\nread_first = 180\n", "t.txt:7: read_first: '180' needs a unit");
	expect_error("read_first = 180usec\n", "read_first: unknown unit 'usec'");
	expect_error("read_first = 1.5ns\n", "read_first: '1.5ns' is not a whole number of ns");
	expect_error("read_first = 1us exp\n", "read_first: 'exp' needs a mean time");
	expect_error("read_first = 1us stall 5 1ms..2ms\n", "stall rate '5' is not");
	expect_error("read_first = 1us stall 5ppm 2ms..1ms\n", "stall range ends before it starts");
	expect_error("read_first = 1us stall 5ppm 2ms\n", "stall range '2ms' is not 'low..high'");
	expect_error("read_first = 1us lots\n", "read_first: 'lots' unexpected");
	expect_error("bus4 = maybe\n", "bus4: 'maybe' is not yes or no");
	expect_error("oid = ABC\n", "oid: 'ABC' must be exactly 2 characters");
	expect_error("mdt = 1999-01\n", "mdt: '1999-01' is not YYYY-MM");
	expect_error("erase_block = 1000\n", "erase_block: must be a multiple of 512 bytes");
	expect_error("erase_block = 4 Mib\n", "erase_block: unknown unit 'Mib' in '4 Mib'");
	expect_error("desc = \"open\n", "desc: unterminated quote");
	expect_error("hs = yes\nhs = no\n", "t.txt:6: hs: given twice");
	expect_error("just words\n", "t.txt:5: 'just words' is not 'key = value'");
	expect_error("= 3\n", "t.txt:5: a value without a key");
	expect_error("hs =\n", "t.txt:5: hs: no value");
	{
		struct sim_profile p;

		CHECK_EQ_I(sim_profile_parse("name = x\nkind = sdhc\n", "m.txt", &p, err,
					     sizeof(err)), -1);
		CHECK_STR(err, "m.txt: capacity: missing (every profile needs it)");
		CHECK_EQ_I(sim_profile_parse("name = x\nkind = sdhc\ncapacity = 1000000\n",
					     "c.txt", &p, err, sizeof(err)), -1);
		CHECK(strstr(err, "c.txt: capacity: an SDHC/SDXC capacity is a multiple of 512 KiB"));
		CHECK_EQ_I(sim_profile_parse("name = x\nkind = sdhd\ncapacity = 1GiB\n", "k.txt",
					     &p, err, sizeof(err)), -1);
		CHECK_STR(err, "k.txt:2: kind: 'sdhd' is not sdsc-v1, sdsc-v2, sdhc or sdxc");
		/* writes without timing: an error naming the key, unless the
		 * card refuses writes */
		CHECK_EQ_I(sim_profile_parse("name = x\nkind = sdhc\ncapacity = 1GiB\n", "w.txt",
					     &p, err, sizeof(err)), -1);
		CHECK(strstr(err, "w.txt: write_next: missing: writes need") != NULL);
		CHECK_EQ_I(sim_profile_parse("name = x\nkind = sdhc\ncapacity = 1GiB\n"
					     "csd_tmp_wp = yes\n", "w.txt", &p, err, sizeof(err)), 0);
	}
}

/* Every timing key is printed, at its default too: a dumped profile says
 * what the simulator uses. */
TEST(dump_prints_every_timing_key)
{
	static char text[8192];
	struct sim_profile p;
	static const char *const keys[] = { "read_next = 0ns", "read_gap_clocks = 0",
		"busy_min_clocks = 0", "write_last = 0ns", "au_switch = 0ns",
		"periodic_stall_blocks = 0", "periodic_stall = 0ns", "write_cross_eb = 0ns",
		"write_isolated = 0ns", "ncr_clocks = 2", NULL };
	unsigned i;

	CHECK_EQ_I(sim_profile_parse(base_card, "b.txt", &p, err, sizeof(err)), 0);
	sim_profile_format(&p, text, sizeof(text));
	for (i = 0; keys[i]; i++)
		if (!strstr(text, keys[i]))
			CHECK_FAIL_("dumped profile lacks '%s':\n%s", keys[i], text);
	CHECK(strstr(text, "write_next_preerased") == NULL); /* it would switch pre-erase on */
}

TEST(load_from_a_file_or_by_name)
{
	char path[] = "/tmp/sdbsim-profile-XXXXXX";
	int fd = mkstemp(path);
	struct sim_profile p;
	FILE *f;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	fputs("name = from-file\nkind = sdhc\ncapacity = 2GiB\nread_first = 50us\n"
	      "write_next = 0ns\n", f);
	fclose(f);
	CHECK_EQ_I(sim_profile_load(path, &p, err, sizeof(err)), 0);
	CHECK_STR(p.name, "from-file");
	CHECK_EQ_U(p.read_first.min_ns, 50000);
	CHECK_EQ_I(sim_profile_load("sdhc-a1-32g", &p, err, sizeof(err)), 0);
	CHECK_STR(p.name, "sdhc-a1-32g");
	CHECK_EQ_I(sim_profile_load("no-such-card", &p, err, sizeof(err)), -1);
	CHECK(strstr(err, "no built-in card profile 'no-such-card'") != NULL);
	CHECK_EQ_I(sim_profile_load("/nonexistent/x.txt", &p, err, sizeof(err)), -1);
	CHECK(strstr(err, "/nonexistent/x.txt: cannot open") != NULL);
	/* An error in a file names the file. */
	f = fopen(path, "w");
	fputs("name = bad\nkind = sdhc\ncapacity = 2GiB\nwrite_next = 3\n", f);
	fclose(f);
	CHECK_EQ_I(sim_profile_load(path, &p, err, sizeof(err)), -1);
	CHECK(strncmp(err, path, strlen(path)) == 0);
	CHECK(strstr(err, ":4: write_next: '3' needs a unit") != NULL);
	unlink(path);
}

TEST(hosts)
{
	struct sim_config c;
	unsigned i;
	bool seen[6] = { false };
	static const char *const want[] = { "pi0", "pi1", "pi2", "pi3", "pi4", "sim" };

	for (i = 0; i < sim_host_count(); i++) {
		unsigned k;

		CHECK(sim_host_desc(i) && sim_host_desc(i)[0]);
		for (k = 0; k < 6; k++)
			if (!strcmp(sim_host_name(i), want[k]))
				seen[k] = true;
		sim_config_default(&c);
		CHECK_EQ_I(sim_host_load(sim_host_name(i), &c, err, sizeof(err)), 0);
		CHECK_STR(c.host_name, sim_host_name(i));
		CHECK(c.data_read_ns > 0 && c.cmd_gap_clocks >= 8 && c.write_nwr_clocks >= 2);
	}
	for (i = 0; i < 6; i++)
		CHECK(seen[i]);
	/* The "sim" host file says what sim_config_default() does. */
	{
		struct sim_config d;

		sim_config_default(&d);
		sim_config_default(&c);
		CHECK_EQ_I(sim_host_load("sim", &c, err, sizeof(err)), 0);
		CHECK_EQ_I(memcmp(&c, &d, sizeof(c)), 0);
	}
	/* The CPU-paced boards are slower per data-port word than the bus
	 * needs at 41.67 MHz 4-bit (25 us per 128 words), the others faster. */
	sim_config_default(&c);
	CHECK_EQ_I(sim_host_load("pi1", &c, err, sizeof(err)), 0);
	CHECK(c.data_read_ns * 128 > 25000);
	sim_config_default(&c);
	CHECK_EQ_I(sim_host_load("pi4", &c, err, sizeof(err)), 0);
	CHECK(c.data_read_ns * 128 < 25000);
	/* A host file changes only what it names. */
	sim_config_default(&c);
	c.seed = 77;
	CHECK_EQ_I(sim_host_parse("name = mine\ndata_read = 1us\n", "h.txt", &c, err,
				  sizeof(err)), 0);
	CHECK_STR(c.host_name, "mine");
	CHECK_EQ_U(c.data_read_ns, 1000);
	CHECK_EQ_U(c.mmio_read_ns, 100);
	CHECK_EQ_U(c.seed, 77);
	/* Errors, and the protocol minimums. */
	CHECK_EQ_I(sim_host_parse("name = x\ncmd_gap_clocks = 4\n", "h.txt", &c, err,
				  sizeof(err)), -1);
	CHECK_STR(err, "h.txt:2: cmd_gap_clocks: 4 is out of range (8..65535)");
	CHECK_EQ_I(sim_host_parse("data_read = 1us\n", "h.txt", &c, err, sizeof(err)), -1);
	CHECK_STR(err, "h.txt: name: missing (every host needs it)");
	CHECK_EQ_I(sim_host_parse("name = x\ndata_reed = 1us\n", "h.txt", &c, err,
				  sizeof(err)), -1);
	CHECK_STR(err, "h.txt:2: data_reed: unknown key");
	CHECK_EQ_U(c.data_read_ns, 1000); /* a failed parse changes nothing */
	CHECK_EQ_I(sim_host_load("pi9", &c, err, sizeof(err)), -1);
	CHECK(strstr(err, "no built-in host 'pi9'") != NULL);
}
