"""Made-up sdbench logs for the card database's tests: a board, a card
with the CID and SD Status asked for, and one result (with latency,
phases and verdict) per workload at the MB/s asked for. What the
database derives from them is checked against the numbers given here."""
import json

PI4 = {"model": "Raspberry Pi 4 Model B", "revision": "0x00c03114", "soc": "BCM2711",
       "emulated": False}
# QEMU's raspi4b: the same board family, but emulation speed.
PI4_QEMU = {"model": "Raspberry Pi 4 Model B", "revision": "0x00b03115", "soc": "BCM2711",
            "emulated": True, "mac": "52:54:00:12:34:57"}


def rec(**kw):
    return "@ " + json.dumps(kw, separators=(",", ":"))


def card(serial, pnm="SU04G", mid=3, manufacturer="SanDisk", oid="SD", prv="8.0",
         mdt="2014-09", bus_mode="hs", speed_class=10, uhs_grade=1, video_class=10,
         app="A1", au=4 << 20, host="emmc2"):
    return dict(type="card", present=True, initialised=True, host=host, rca="0x1234",
                capacity_bytes=31914983424, blocks=62333952, width=4, timing=bus_mode.upper(),
                clock_hz=50000000, bus_mode=bus_mode, signal_mv=3300,
                cid={"raw": "03534453553034478%07x00" % (serial & 0xfffffff), "mid": mid,
                     "manufacturer": manufacturer, "oid": oid, "pnm": pnm, "prv": prv,
                     "psn": serial, "psn_hex": "0x%08x" % serial, "mdt": mdt,
                     "mdt_raw": "0x%03x" % (((int(mdt[:4]) - 2000) << 4) | int(mdt[5:])),
                     "crc_ok": "absent"},
                csd={"card_type": "SDHC"}, scr={"sd_spec": "3.0x"},
                ssr={"speed_class": speed_class, "uhs_grade": uhs_grade,
                     "video_class": video_class, "app_perf_class": app,
                     "au_size_bytes": au})


def workload(name, mbs, xfer=65536, op="read"):
    ops = 64
    ns = int(xfer * ops / (mbs * 1e6) * 1e9)
    return [
        rec(type="result", workload=name, kind="seq" if name.startswith("seq") else "random",
            op=op, cmd="auto-cmd12", xfer_bytes=xfer, ops=ops, bytes=xfer * ops,
            elapsed_ns=ns, mbs=mbs, iops=round(ops / (ns / 1e9), 1), errors=0,
            data_path="dma"),
        rec(type="latency", workload=name, count=ops, min_ns=ns // ops - 10,
            mean_ns=ns // ops, p50_ns=ns // ops, p90_ns=ns // ops, p99_ns=ns // ops + 50,
            p999_ns=ns // ops + 60, max_ns=ns // ops + 60, stddev_ns=12),
        rec(type="phases", workload=name, ops=ops, total_ns=ns, card_pct=80, bus_pct=15,
            host_pct=5),
        rec(type="verdict", workload=name, bottleneck="card", pct=80,
            text="card-bound - card 80%, bus 15%, host 5%", emulated=False),
    ]


def log_text(serial, values, board=PI4, nonce=0, simulated=False,
             summary=True, with_card=True, end=True, headline=None, **card_kw):
    """A run's console text; values: {workload name: MB/s} in order."""
    b = dict(type="board", **board)
    if simulated:
        b = dict(type="board", model="simulator", soc="sim", profile="made-up", host="pi4",
                 simulated=True, emulated=False)
    lines = ["sdbench 0.1 - SD card benchmark at the protocol layer", rec(**b)]
    if with_card:
        lines.append(rec(**card(serial, **card_kw)))
    lines.append(rec(type="data_path", host="emmc2", requested="auto", path="dma",
                     available=["pio", "dma"]))
    for name, mbs in values.items():
        lines += workload(name, mbs)
    if summary and values:
        first = next(iter(values))
        lines.append(rec(type="summary", emulated=bool(board.get("emulated")),
                         seq_read={"workload": first, "mbs": values[first]}))
    if headline:
        lines.append(rec(type="headline", **headline))
    if end:
        lines.append(rec(type="done", errors=0, elapsed_us=1000000 + nonce))
    return "\n".join(lines) + "\n"


def write(path, serial, values, **kw):
    with open(path, "w") as f:
        f.write(log_text(serial, values, **kw))
    return str(path)


def linux_text(values, nonce=0, model="Raspberry Pi 4 Model B Rev 1.4"):
    """What the Linux companion prints: the same records with "source":
    "linux" (test_area's own "source" says where the area is), a board
    record from the device tree's model, and no card record (no CID)."""
    lines = ["sdblinux: %s, Linux 6.1.0-rpi7 aarch64, device /dev/mmcblk0" % model,
             rec(type="board", source="linux", model=model, kernel="6.1.0-rpi7-rpi-v8",
                 arch="aarch64", device="/dev/mmcblk0", emulated=False),
             rec(type="test_area", usable=True, source="unpartitioned", first_lba=1056768,
                 count=2097152)]
    for name, v in values.items():
        # v: MB/s, or (MB/s, transfer bytes, "read" / "write")
        for line in workload(name, *(v if isinstance(v, tuple) else (v,))):
            r = json.loads(line[2:])
            if r["type"] in ("result", "latency"):
                lines.append(rec(source="linux", **r))
    lines.append(rec(type="done", source="linux", errors=0, elapsed_us=2000000 + nonce))
    return "\n".join(lines) + "\n"


def write_linux(path, values, **kw):
    with open(path, "w") as f:
        f.write(linux_text(values, **kw))
    return str(path)
