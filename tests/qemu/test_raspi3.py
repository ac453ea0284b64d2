"""QEMU's Cortex-A53 boards (raspi3b, raspi3ap) with both images: the
32-bit kernel.img, started through the AArch64 shim
(qemu/shim/aarch64_shim.S), and the AArch64 kernel8.img, started by QEMU's
-kernel at 0x80000 in EL2 like the Pi firmware starts it: the board
record, the exception dump and the quick suite without protocol errors;
for kernel.img also the parked secondary cores."""
import os
import shutil
import socket
import subprocess
import time

import pytest

import harness

ELF = os.path.join(harness.ROOT, "build", "kernel.elf")
SHIM_ADDR = 0x80000


def symbols():
    out = subprocess.run(["arm-none-eabi-nm", ELF], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    return syms


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    return harness.make_image(str(tmp_path_factory.mktemp("img") / "sd.img"), size="128M",
                              sdbench=["suite = none"])


@pytest.mark.parametrize("kernel", harness.KERNELS, ids=harness.KERNEL_IDS)
@pytest.mark.parametrize("machine", harness.AARCH64_MACHINES)
def test_boot_board_record(machine, kernel, image):
    run = harness.boot(machine, image, kernel=kernel, timeout=60)
    assert not run.timed_out, run.console[-2000:]
    assert run.console.count("sdbench 0.1 - SD card benchmark") == 1
    assert not run.bad_records, run.bad_records
    board = run.one("board")
    assert board["revision"] == harness.REVISIONS[machine]
    assert board["soc"] == "BCM2837" and board["periph_base"] == "0x3f000000"
    assert board["cpu"] == "Cortex-A53"
    assert board["emulated"] is True and board["mailbox"] == "ok"
    assert board["caches"] is True
    # kernel8.img drops from EL2 to EL1.
    if harness.is_aarch64_image(kernel):
        assert board["arch"] == "aarch64" and board["el"] == 1
    else:
        # kernel.img's board record is unchanged: no "arch" means AArch32.
        assert "arch" not in board and "el" not in board
    # The generic timer, readable from EL1 (the shim, or kernel8.img's own
    # start-up, opens CNTHCTL); the measured rate agrees with CNTFRQ (62.5
    # MHz under QEMU) to 1%.
    t = board["timer"]
    assert t["source"] == "cntpct"
    harness.assert_timer_calibrated(t)
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
    assert run.status == 0
    assert run.guest_errors == ""
    # The status LED of each board's device tree (docs/led.md): the Pi 3 B's
    # on the firmware's expander (line 2), the 3 A+'s on GPIO 29; the
    # record comes just before done.
    led = run.records[-2]
    assert led["type"] == "led", led
    want = {"raspi3b": ("expander", 2), "raspi3ap": ("gpio", 29)}[machine]
    assert (led["kind"], led["line"], led["active_low"]) == want + (False,), led
    if not led["driven"]:
        # A QEMU that does not know the expander tag: said, not fatal.
        assert machine == "raspi3b" and "0x00038041" in led["reason"], led
    assert led["code"] == "pass" and led["flashes"] == 1, led


@pytest.mark.parametrize("kernel", harness.KERNELS, ids=harness.KERNEL_IDS)
def test_exception_dump_raspi3b(kernel):
    run = harness.boot("raspi3b", None, kernel=harness.FAULT_KERNELS[kernel], timeout=60)
    assert not run.timed_out, run.console[-2000:]
    exc = run.one("exception")
    assert exc["exception"] == "data abort"
    if harness.is_aarch64_image(kernel):
        # A translation fault (the address is outside the identity map's
        # RAM and peripherals) taken at EL1: data abort from the current
        # EL (class 0x25), FAR = the address, every register dumped.
        assert "FAR_EL1 00000000dead0000" in run.console
        assert int(exc["esr"], 16) >> 26 == 0x25
        assert int(exc["far"], 16) == 0xdead0000
        assert exc["vector"] == 4
        assert 0x80000 <= int(exc["pc"], 16) < 0x80000 + os.path.getsize(harness.KERNEL8)
        for reg in ["x%-2d" % i for i in range(31)] + ["ELR_EL1", "SPSR_EL1", "SP"]:
            assert "  %s " % reg in run.console, reg
    else:
        assert "DFAR dead0000" in run.console
    assert run.console.count("sdbench 0.1") == 1
    assert run.status == 3


def test_shim_area_left_alone():
    """The shim at 0x80000 is still being run by the secondary cores while
    kernel.img starts: kernel.img's loaded image must end below it, and
    everything it writes later (BSS, stacks, MMU table, non-cacheable
    section) must start above the shim's page."""
    syms = symbols()
    shim_bytes = os.path.getsize(harness.SHIM64)
    assert 0 < shim_bytes <= 0x1000
    assert syms["__image_end"] <= SHIM_ADDR
    for start in ("__bss_start", "__exc_stack_bottom", "__ttb_start", "__nocache_start"):
        assert syms[start] >= SHIM_ADDR + 0x1000, start
    assert syms["__bss_start"] <= syms["__bss_end"] <= syms["__exc_stack_bottom"]


def monitor_command(path, command, deadline):
    """Send one command to QEMU's human monitor on a UNIX socket and return
    what it printed before the next prompt."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(1)
    s.connect(path)

    def read_to_prompt():
        data = b""
        while b"(qemu)" not in data and time.monotonic() < deadline:
            try:
                data += s.recv(65536)
            except socket.timeout:
                pass
        return data

    try:
        read_to_prompt()
        s.sendall(command.encode() + b"\n")
        data = read_to_prompt()
        s.sendall(b"quit\n")
    finally:
        s.close()
    return data.decode("utf-8", "replace")


def test_secondary_cores_parked(tmp_path, image):
    """Cores 1-3 leave QEMU's WFE spin table, go through the shim into
    kernel.img and sleep in start.S's WFI park loop in AArch32 SVC mode,
    while core 0 runs the program to its end (no semihosting: it idles)."""
    check_secondary_cores_parked(tmp_path, image, "raspi3b")


def check_secondary_cores_parked(tmp_path, image, machine):
    syms = symbols()
    park, primary = syms["park"], syms["primary"]
    out = tmp_path / "console.txt"
    err = tmp_path / "stderr.txt"
    mon = str(tmp_path / "mon.sock")
    card = str(tmp_path / "sd.img")
    shutil.copyfile(image, card)
    args = harness.qemu_command(machine) + [
        "-display", "none", "-monitor", "unix:%s,server,nowait" % mon,
        "-serial", "file:%s" % out] + harness.card_options(machine, card)
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=open(err, "wb"))
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            if out.exists() and "stopped (status" in out.read_text(errors="replace"):
                break
            time.sleep(0.2)
        console = out.read_text(errors="replace") if out.exists() else ""
        assert "stopped (status 0)" in console, (console[-2000:], err.read_text())
        regs = monitor_command(mon, "info registers -a", deadline)
    finally:
        if p.poll() is None:
            p.kill()
        p.wait(timeout=10)
    cpus = {}
    cpu = None
    for line in regs.splitlines():
        line = line.strip()
        if line.startswith("CPU#"):
            cpu = int(line[4:])
            cpus[cpu] = {}
        elif cpu is not None:
            for field in line.split():
                if "=" in field:
                    k, v = field.split("=", 1)
                    cpus[cpu].setdefault(k, v)
            if line.startswith("PSR="):
                cpus[cpu]["mode"] = line.split()[-1]
    assert sorted(cpus) == [0, 1, 2, 3], regs
    for n in (1, 2, 3):
        pc = int(cpus[n]["R15"], 16)
        assert park <= pc < primary, (n, hex(pc), regs)
        assert cpus[n]["mode"] == "svc32", (n, regs)
    assert cpus[0]["mode"] == "svc32", regs
    assert "*** EXCEPTION" not in console


@pytest.mark.parametrize("kernel", harness.KERNELS, ids=harness.KERNEL_IDS)
def test_quick_suite_raspi3b(tmp_path, kernel):
    img = str(tmp_path / "sd.img")
    harness.make_image(img, size="256M", sdbench=["suite=quick"])
    run = harness.boot("raspi3b", img, kernel=kernel, timeout=300)
    assert not run.timed_out, run.console[-3000:]
    assert not run.bad_records, run.bad_records[:3]
    done = run.records[-1]
    assert done["type"] == "done" and done["errors"] == 0, run.console[-3000:]
    assert run.status == 0
    # No protocol violation or other guest error reported by QEMU.
    assert run.guest_errors == "", run.guest_errors[:2000]
    assert run.one("board")["soc"] == "BCM2837"
    assert run.one("card")["initialised"] is True
    results = run.of_type("result")
    assert results and all(r["emulated"] is True and r["errors"] == 0 for r in results)
    for rec in run.of_type("integrity"):
        assert rec["ok"] == rec["blocks"], rec


def test_run_script_kernel8(tmp_path):
    """qemu/run.sh raspi3b with SDB_KERNEL=build/kernel8.img (what `make run
    MACHINE=raspi3b KERNEL=build/kernel8.img` calls): QEMU's -kernel starts
    the AArch64 image, no shim; it prints its board and exits by itself."""
    harness.require_machine("raspi3b")
    env = dict(os.environ, SDB_QEMU=harness.flavour(), SDB_SDBENCH="suite = none",
               SDB_IMAGE_SIZE="128M", SDB_TIMEOUT="120", SDB_KERNEL=harness.KERNEL8)
    p = subprocess.run([os.path.join(harness.ROOT, "qemu", "run.sh"), "raspi3b"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       env=env, timeout=180, cwd=harness.ROOT)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    assert p.returncode == 0, out[-2000:] + err[-2000:]
    run = harness.Run(p.returncode, out, "", False)
    board = run.one("board")
    assert board["arch"] == "aarch64" and board["el"] == 1 and board["soc"] == "BCM2837"
    assert run.records[-1]["type"] == "done" and run.records[-1]["errors"] == 0
    assert "QEMU reported guest errors" not in err
