"""The launchers tell the truth (qemu/run.sh, make run, make run-image):
a run that QEMU ends before the done record is not a success; a kernel that
does not fit the machine or does not exist is refused with a clear message
before QEMU starts; make run-image boots the image it is given, firmware
files included. (make image's messages: tests/test_card_image.py.)"""
import hashlib
import os
import pty
import select
import subprocess
import time

import harness

ROOT = harness.ROOT
RUN_SH = os.path.join(ROOT, "qemu", "run.sh")
MIB = 1 << 20
BOOT_OFFSET = 4 * MIB       # make image's boot partition


def env(**kw):
    # A make started by `make test` must not inherit its jobserver.
    e = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    e["MTOOLS_SKIP_CHECK"] = "1"
    e.update(kw)
    return e


def run(args, timeout=60, **kw):
    return subprocess.run(args, cwd=ROOT, env=env(**kw), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=timeout)


def test_aarch64_kernel_on_a_32bit_machine_is_refused():
    for machine in ("raspi0", "raspi1ap", "raspi2b"):
        for k in ("build/kernel8.img", "build/kernel_2712.img"):
            t0 = time.monotonic()
            p = run([RUN_SH, machine], SDB_KERNEL=k)
            assert p.returncode == 2, p.stdout
            assert ("%s is an AArch64 image; %s has a 32-bit core" % (k, machine)) in p.stdout
            assert "raspi3b, raspi3ap or raspi4b" in p.stdout
            assert time.monotonic() - t0 < 10      # refused before QEMU starts


def test_missing_kernel_is_refused_without_a_traceback():
    p = run(["make", "-s", "run", "MACHINE=raspi2b", "KERNEL=build/nonexist.img"], timeout=300)
    assert p.returncode != 0
    assert "qemu/run.sh: no kernel build/nonexist.img" in p.stdout, p.stdout
    assert "Traceback" not in p.stdout
    p = run([RUN_SH, "raspi2b"], SDB_IMAGE="build/nonexist-card.img")
    assert p.returncode == 2 and "no card image build/nonexist-card.img" in p.stdout, p.stdout
    assert "Traceback" not in p.stdout


def _pty_make_run(args, envs, until, then, timeout=120):
    """make ARGS on a terminal: wait for `until`, type `then`; returns
    (exit status, output)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execvpe(args[0], args, env(**envs))
    buf = bytearray()
    sent = False
    end = time.monotonic() + timeout
    status = None
    try:
        while time.monotonic() < end:
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try:
                    b = os.read(fd, 4096)
                except OSError:
                    b = b""
                if not b:
                    break
                buf.extend(b)
            if not sent and until in buf:
                os.write(fd, then)
                sent = True
        _, st = os.waitpid(pid, 0)
        pid = 0
        status = os.WEXITSTATUS(st) if os.WIFEXITED(st) else -1
    finally:
        if pid:
            os.killpg(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
    return status, buf.decode("utf-8", "replace")


def test_make_run_fails_when_qemu_ends_before_the_done_record():
    """Ctrl-A x in the middle of the quick suite: QEMU itself exits 0,
    make run does not."""
    harness.require_machine("raspi2b")
    status, out = _pty_make_run(
        ["make", "-s", "run", "MACHINE=raspi2b"],
        {"SDB_IMAGE_SIZE": "256M", "SDB_SDBENCH": "suite = quick;console_wait = 0",
         "SDB_TIMEOUT": "120"},
        b"  seq read 512 B", b"\x01x")    # the suite's first result (text)
    assert status not in (0, None), out[-2000:]
    assert "QEMU ended before the run's done record" in out, out[-2000:]
    assert '"type":"done"' not in open(os.path.join(ROOT, "build/qemu/console-raspi2b.log"),
                                        errors="replace").read()


def test_make_run_succeeds_with_the_done_record():
    p = run([RUN_SH, "raspi2b"], timeout=120, SDB_IMAGE_SIZE="128M",
            SDB_SDBENCH="suite = none;console_wait = 0", SDB_TIMEOUT="60")
    assert p.returncode == 0, p.stdout[-2000:]
    assert "done record" not in p.stdout


def _sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def _mdir(img):
    p = run(["mdir", "-b", "-i", "%s@@%d" % (img, BOOT_OFFSET), "::/"])
    assert p.returncode == 0, p.stdout
    return sorted(n[3:] for n in p.stdout.split())


def test_make_run_image_keeps_the_image_it_is_given(tmp_path):
    """An image made with firmware files (FIRMWARE=) and a user's
    sdbench.txt boots as it is: nothing rebuilt, nothing lost."""
    fw = tmp_path / "fw"
    fw.mkdir()
    names = ["bootcode.bin", "start.elf", "fixup.dat", "start4.elf", "fixup4.dat"]
    for n in names:
        (fw / n).write_text("dummy %s\n" % n)
    img = str(tmp_path / "card.img")
    p = run(["make", "-s", "image", "IMAGE=" + img, "FIRMWARE=" + str(fw)], timeout=300)
    assert p.returncode == 0, p.stdout
    txt = tmp_path / "sdbench.txt"
    txt.write_text("suite = none\nconsole_wait = 0\n")
    p = run(["mcopy", "-o", "-i", "%s@@%d" % (img, BOOT_OFFSET), str(txt), "::/sdbench.txt"])
    assert p.returncode == 0, p.stdout
    before_files, before = _mdir(img), _sha(img)
    assert set(names) <= set(before_files)
    # its own run directory: other tests boot raspi2b at the same time
    rundir = str(tmp_path / "run")
    p = run(["make", "-s", "run-image", "IMAGE=" + img, "MACHINE=raspi2b"], timeout=300,
            SDB_TIMEOUT="60", SDB_RUN_DIR=rundir)
    assert p.returncode == 0, p.stdout[-3000:]
    assert "make run-image: %s as it is" % img in p.stdout
    assert "suite: none" in p.stdout and '"type":"done"' in p.stdout
    assert _mdir(img) == before_files and _sha(img) == before
    # the copy it wrote is named, with the command that reads its SDBENCH.LOG
    copy = rundir + "/sd-raspi2b.img"
    assert "a copy of %s: %s (the run writes the copy" % (img, copy) in p.stdout
    assert "the card image this run wrote: %s; its SDBENCH.LOG: /usr/bin/python3 " \
        "tools/sdbcard.py extract %s SDBENCH.LOG SDBENCH.LOG" % (copy, copy) in p.stdout
    out = tmp_path / "SDBENCH.LOG"
    p = run(["/usr/bin/python3", "tools/sdbcard.py", "extract", copy, "SDBENCH.LOG", str(out)])
    assert p.returncode == 0, p.stdout
    assert '"type":"done"' in out.read_text(errors="replace")


def test_make_run_on_a_terminal_shows_the_text_and_keeps_the_records():
    """qemu/run.sh (make run: raspi2b, the default sdbench.txt) on a
    terminal: no "@ " record line there, all of them in the log it names at
    the start and the end; under QEMU data_path = auto is PIO (QEMU's DMA
    models copy inside the start register write, which hides the split), and
    its reads take no time on the wire (the probe sees it: docs/silicon.md,
    read-wire), so at least 90% of the verdicts are a diagnosis and every
    silent one gives its reason, each printed as text."""
    harness.require_machine("raspi2b")
    envs = {"SDB_TIMEOUT": "900"}
    status, out = _pty_make_run([RUN_SH, "raspi2b"], envs, b"press Enter within", b"",
                                timeout=900)
    assert status == 0, out[-3000:]
    lines = out.replace("\r", "").split("\n")
    assert not [l for l in lines if l.startswith("@ ")], out[-3000:]
    conlog = "build/qemu/console-raspi2b.log"
    assert "the whole console, records included, goes to %s" % conlog in out
    recs = harness.Run(0, open(os.path.join(ROOT, conlog), errors="replace").read(),
                       "", False).records
    assert recs[-1]["type"] == "done", recs[-1]
    assert "the whole console, %d records included: %s" % (len(recs), conlog) in out
    dp = [r for r in recs if r["type"] == "data_path"][0]
    assert dp["requested"] == "auto" and dp["path"] == "pio" and dp["auto_note"], dp
    assert "data path: PIO (auto): under QEMU, whose DMA model copies" in out
    verdicts = [r for r in recs if r["type"] == "verdict"]
    valid = [v for v in verdicts if v["valid"]]
    silent = [v for v in verdicts if not v["valid"]]
    # QEMU's reads and writes take no time on the wire (docs/silicon.md,
    # read-wire): neither a read's Block Count look nor a write's DAT[0] /
    # Buffer Write Enable looks are needed, nearly every verdict a diagnosis.
    assert len(verdicts) >= 30 and len(valid) >= 0.9 * len(verdicts), [v["text"] for v in silent]
    assert all(v["text"].startswith("no diagnosis: ") and len(v["text"]) > 30
               for v in silent), silent
    assert not [v for v in silent if "Block Count was not seen to count" in v["text"] or
                "write looks (DAT[0] level, Buffer Write Enable)" in v["text"]], silent
    sil = [r for r in recs if r["type"] == "silicon"][0]
    assert sil["read_wire"] == "instant", sil
    flat = out.replace("\r", "")
    for v in verdicts:
        assert v["text"] in flat, v
