"""What build/host/sdbsim prints reads cleanly: a quick suite with the host
comparison, whose clock sweep at 400 kHz takes seconds per step and so
draws progress lines, gives a log the record reader reads with zero
warnings; every record starts a line of its own (also for `grep '^@ '`),
and the progress lines keep their '\\r' (drawn in place on a terminal)."""
import os
import subprocess

from sdbhost import records

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SDBSIM = os.path.join(ROOT, "build", "host", "sdbsim")


def test_long_steps_give_a_clean_log(tmp_path):
    cfg = tmp_path / "sdbench.txt"
    cfg.write_text("suite = quick\nseed = 11\ncompare_hosts = on\n")
    p = subprocess.run([SDBSIM, "--profile", "sdhc-c10-16g", "--controller", "sdhost",
                        "--config", str(cfg)], stdout=subprocess.PIPE, timeout=300)
    assert p.returncode == 0
    text = p.stdout.decode("utf-8")
    lines = text.split("\n")
    progress = [l for l in lines if l.startswith("\r") and "%" in l and "400 kHz" in l]
    assert progress, "no progress line at 400 kHz: the test would prove nothing"
    assert "\r\n" not in text          # Unix line ends, '\r' only for redraws
    glued = [l for l in lines if "@ {" in l and not l.startswith("@ {")]
    assert not glued, glued[:3]
    log = records.read_text(text, "sim.log")
    assert log.warnings == [], log.warnings[:5]
    assert len(log.runs) == 1 and log.runs[0].ok()
    assert any(r["clock_hz"] < 500000 for r in log.runs[0].all("sweep") if "fit" not in r)
    assert log.runs[0].one("hosts")


def test_a_small_test_area_is_shown_in_kib_not_as_0_mib(tmp_path):
    """test_area = 600000+101 (101 blocks, 51712 bytes): the console and the
    record's reason say 50.50 KiB, not "0 MiB"."""
    import json
    cfg = tmp_path / "sdbench.txt"
    cfg.write_text("suite = none\ntest_area = 600000+101\n")
    p = subprocess.run([os.path.join(ROOT, "build", "host", "sdbsim"), "--profile",
                        "instant-4g", "--config", str(cfg)], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    assert "test area (writes go only here): LBA 600000..600100, 50.50 KiB, config" \
        in p.stdout, p.stdout
    area = [json.loads(l[2:]) for l in p.stdout.splitlines()
            if l.startswith('@ {"type":"test_area"')][0]
    assert area["count"] == 101 and "(50.50 KiB, overlaps no partition)" in area["reason"]
    assert " 0 MiB" not in p.stdout
