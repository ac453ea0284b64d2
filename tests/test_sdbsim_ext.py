"""The SD 6.00 extension registers as sdbench reports them (drivers/sd/
sd_ext.c, bench/card_report.c) on the simulator: the card report's EXT
line and the card record's `ext` sub-object for a card with a cache and a
command queue, an A2 card with neither (no CMD48 support), one whose
registers list a cache but no queue, and a card that claims no class (no
`ext` sub-object, no CMD48 sent: QEMU's card is such a card, its SCR lists
no CMD48, hw/sd/sd.c sd_set_scr). suite = none: the card report only."""
import json
import os
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SDBSIM = os.path.join(ROOT, "build", "host", "sdbsim")


def run(tmp_path, profile):
    if not os.path.exists(SDBSIM):
        pytest.skip("build/host/sdbsim not built: run make first")
    cfg = tmp_path / "sdbench.txt"
    cfg.write_text("suite = none\n")
    out = subprocess.run([SDBSIM, "--profile", profile, "--config", str(cfg)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=120).stdout
    cards = [json.loads(l[2:]) for l in out.splitlines()
             if l.startswith("@ ") and '"type":"card"' in l]
    assert len(cards) == 1, out[-2000:]
    return out, cards[0]


def test_card_with_cache_and_queue(tmp_path):
    out, card = run(tmp_path, "sdxc-a2-cq-64g")
    ext = card["ext"]
    assert ext["cmd48"] and ext["read"] and ext["error"] is None
    assert ext["perf"]["cache"] and ext["perf"]["cq_depth"] == 32
    assert ext["a2_lacks"] is None
    assert "cache yes, command queue of depth 32" in out
    assert "claims A2" not in out


def test_a2_card_without_extension_registers(tmp_path):
    out, card = run(tmp_path, "sdxc-a2-64g")
    assert card["ext"]["cmd48"] is False and card["ext"]["perf"] is None
    assert "no command queue" in card["ext"]["a2_lacks"]
    assert "EXT  none (the SCR lists no CMD48/49): no cache, no command queue" in out
    assert "claims A2 (SD Status) but has no extension registers" in out


def test_a2_card_with_a_cache_and_no_queue(tmp_path):
    text = subprocess.run([SDBSIM, "--dump-profile", "sdxc-a2-cq-64g"], stdout=subprocess.PIPE,
                          text=True, check=True).stdout
    lines = [l for l in text.splitlines() if not l.startswith(("cq_depth", "name"))]
    prof = tmp_path / "a2-noq.txt"
    prof.write_text("name = a2-noq\n" + "\n".join(lines) + "\n")
    out, card = run(tmp_path, str(prof))
    assert card["ext"]["read"] and card["ext"]["perf"]["cq_depth"] == 0
    assert card["ext"]["perf"]["cache"] is True
    assert card["ext"]["a2_lacks"] == "no command queue"
    assert "cache yes, no command queue" in out
    assert "claims A2 (SD Status) but has no command queue" in out


def test_card_claiming_no_class(tmp_path):
    out, card = run(tmp_path, "qemu-like-1g")
    assert "ext" not in card
    assert "EXT  none" in out
