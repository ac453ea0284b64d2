"""One settings path (bench/settings.c): the console's "set" applies a key
to the running system exactly as sdbench.txt does at boot, or refuses it
with the reason and where it came from; "ok" only when every key applied.
Driven through the serial port under QEMU raspi2b (EMMC with DMA, SDHOST)."""
import json

import harness
import console_session

MACHINE = "raspi2b"
PROMPT = r"sdbench> "


def records(text):
    out = []
    for line in text.replace("\r", "").splitlines():
        if line.startswith("@ "):
            out.append(json.loads(line[2:]))
    return out


def of(text, kind):
    return [r for r in records(text) if r["type"] == kind]


def open_console(tmp_path, size="256M", lines=()):
    img = harness.make_image(str(tmp_path / "sd.img"), size,
                             sdbench=["suite = none", "console_wait = 3"] + list(lines),
                             console_wait=None)
    s = console_session.Session(MACHINE, img, timeout=400)
    s.expect(r"press Enter within 3 s for the console", 30)
    s.send("\r")
    s.expect(PROMPT)
    return s


def halt(s):
    s.send("halt\r")
    assert s.wait_exit(30) == 0, s.text[-2000:]
    run = s.run()
    assert run.records[-1]["type"] == "done"
    assert not run.bad_records
    assert run.sd_guest_errors() == [], run.guest_errors
    return run


def show_line(s, key):
    for line in s.command("show").replace("\r", "").splitlines():
        if line.strip().startswith(key + " "):
            return line
    raise AssertionError("no %s in show" % key)


def test_set_data_path_dma_then_seq_read_runs_by_dma(tmp_path):
    s = open_console(tmp_path)
    try:
        # auto under QEMU: PIO (its DMA models copy inside the start write)
        out = s.command("run seq-read seed=1", timeout=120)
        assert {r["data_path"] for r in of(out, "result")} == {"pio"}
        out = s.command("set data_path=dma")
        dp = of(out, "data_path")
        assert dp and dp[-1]["path"] == "dma" and dp[-1]["requested"] == "dma", out
        assert "auto_note" not in dp[-1], dp
        assert out.rstrip().endswith("ok\r\n" + "sdbench>") or "\nok" in out.replace("\r", "")
        assert "(set here)" in show_line(s, "data_path")
        out = s.command("run seq-read seed=1", timeout=120)
        res = of(out, "result")
        assert res and {r["data_path"] for r in res} == {"dma"}, res
        out = s.command("set data_path=pio")
        dp = of(out, "data_path")
        assert dp[-1]["path"] == "pio" and dp[-1]["requested"] == "pio", out
        # back to the board's choice, and why it is PIO here
        out = s.command("set data_path=auto")
        dp = of(out, "data_path")[-1]
        assert dp["path"] == "pio" and dp["auto_note"].startswith("under QEMU"), dp
        assert "data path: PIO (auto): under QEMU" in out
        halt(s)
    finally:
        s.close()


def test_set_host_sdhost_moves_the_card(tmp_path):
    s = open_console(tmp_path)
    try:
        out = s.command("set host=sdhost", timeout=60)
        assert "host = sdhost: the card moves to sdhost" in out, out
        assert [h["name"] for h in of(out, "host")] == ["sdhost"]
        assert of(out, "card")[-1]["host"] == "sdhost"
        assert "\nok" in out.replace("\r", "")
        assert "sdhost" in show_line(s, "host") and "(set here)" in show_line(s, "host")
        assert "sdhost at 0x3f202000" in s.command("hosts")
        assert of(out, "data_path")[-1]["host"] == "sdhost"
        out = s.command("run seq-read seed=2", timeout=180)
        res = of(out, "result")
        assert res and all(r["errors"] == 0 for r in res), res
        assert of(s.command("info"), "card")[-1]["host"] == "sdhost"
        out = s.command("set host=auto", timeout=60)
        assert of(out, "card")[-1]["host"] == "emmc"
        halt(s)
    finally:
        s.close()


def test_refusals_name_the_console_and_say_no_ok(tmp_path):
    s = open_console(tmp_path)
    try:
        area = of(s.command("area"), "test_area")[0]
        assert area["usable"]
        out = s.command("set write_tests=on test_area=0-100")
        text = out.replace("\r", "")
        line = [l for l in text.split("\n") if l.startswith("test_area = 0+101 (console)")]
        # the reason once: "refused" is not said twice
        assert line == ["test_area = 0+101 (console) refused: it includes LBA 0 (the MBR)"], text
        assert "sdbench.txt" not in text
        assert "\nok\n" not in text and "not applied: 1 of the keys" in text
        # the area and the value stay as they were
        assert of(s.command("area"), "test_area")[0] == area
        assert "(set here)" not in show_line(s, "test_area")
        # a host the board lacks
        out = s.command("set host=emmc2", timeout=60).replace("\r", "")
        assert "host = emmc2 (console) refused: the card is on emmc" in out
        assert "\nok\n" not in out
        assert "auto" in show_line(s, "host")
        # a syntax error changes nothing
        out = s.command("set seed=9 data_path=d").replace("\r", "")
        assert "data_path = d: not one of auto|pio|dma (nothing changed; writes are off " \
            "until set write_tests=on)" in out
        assert "(set here)" not in show_line(s, "seed")
        halt(s)
    finally:
        s.close()


def test_write_tests_off_says_writes_are_off(tmp_path):
    s = open_console(tmp_path)
    try:
        assert "\nok" in s.command("set write_tests=off").replace("\r", "")
        assert of(s.command("area"), "test_area")[0]["usable"]
        out = s.command("run seq-write")
        sk = of(out, "skipped")
        assert sk and sk[0]["reason"] == "writes are off (write_tests = off)", out
        halt(s)
    finally:
        s.close()


# Every key the console accepts: a value, what "show" prints, and what the
# running system or the next run shows of it (None: show only; the key is
# read by the next configured run, tests/qemu/test_config.py).
def _check_area(s, out):
    ta = of(out, "test_area")
    assert ta and ta[-1]["source"] == "config" and ta[-1]["first_lba"] == 400000, out


def _check_clock(s, out):
    assert "max_clock_hz: SD clock" in out and "at most 10000000 Hz" in out, out


def _check_bus(s, out):
    assert "bus_mode = ds: initialising the card again" in out
    assert of(out, "card")[-1]["bus_mode"] == "ds", of(out, "card")


def _check_dma_pio(s, out):
    assert of(out, "data_path")[-1]["dma_pio_blocks"] == 7


def _check_compare(s, out):
    out = s.command("suite quick", timeout=900)
    assert of(out, "hosts"), "no host comparison after set compare_hosts=on"


KEYS = [
    ("suite", "selftest", "selftest", None),
    ("test_area", "400000+40000", "400000+40000", _check_area),
    ("span", "8M", "8M", None),
    ("write_tests", "off", "off", None),
    ("verify", "off", "off", None),
    ("max_clock_hz", "10M", "10MHz", _check_clock),
    ("seed", "11", "11", None),
    ("selftest_lbas", "0:8,100", "0:8,100:1", None),
    ("selftest_write", "300000+16", "300000+16", None),
    ("end", "console", "console", None),
    ("host", "emmc", "emmc", None),
    ("data_path", "pio", "pio", None),
    ("dma_pio_blocks", "7", "7", _check_dma_pio),
    ("bus_mode", "ds", "ds", _check_bus),
    ("compare_hosts", "on", "on", None),
    ("results_file", "off", "off", None),
    ("console_wait", "5", "5", None),
    ("console_idle", "0", "0", None),
    ("led", "off", "off", None),
    ("confirm", "off", "off", None),
]


def test_every_key_the_console_accepts(tmp_path):
    s = open_console(tmp_path)
    try:
        shown = s.command("show")
        names = [l.split()[0] for l in shown.replace("\r", "").splitlines()
                 if l.startswith("  ") and "=" in l]
        assert sorted(names) == sorted(k for k, _, _, _ in KEYS), names
        for key, value, text, check in KEYS:
            out = s.command("set %s=%s" % (key, value), timeout=60)
            assert "\nok" in out.replace("\r", ""), (key, out)
            line = show_line(s, key)
            assert line.split("=", 1)[1].split()[0] == text and "(set here)" in line, line
            if check:
                check(s, out)
        # the next run reflects them: seed, verify off, PIO, span, no writes
        out = s.command("run random", timeout=300)
        res = of(out, "result")
        assert res and all(r["data_path"] == "pio" and r["writes"] == 0 for r in res), res
        sk = of(out, "skipped")
        assert sk and sk[0]["reason"] == "writes are off (write_tests = off)"
        run = halt(s)
        # led = off: the LED left to the firmware, and the record says why.
        led = run.one("led")
        assert led["driven"] is False and led["reason"] == "led = off", led
    finally:
        s.close()


def test_set_compare_hosts_on_is_measured_by_the_console_suite(tmp_path):
    s = open_console(tmp_path, lines=["span = 8M"])
    try:
        assert "\nok" in s.command("set compare_hosts=on").replace("\r", "")
        out = s.command("suite quick", timeout=1200)
        assert of(out, "hosts"), out[-2000:]
        halt(s)
    finally:
        s.close()
