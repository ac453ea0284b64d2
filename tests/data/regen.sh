#!/bin/sh
# Regenerate the console logs in tests/data/ from real QEMU runs (what
# `make run` prints), for the host tools' tests: `make fixtures`.
#
#   qemu-raspi2b-run.log        make run exactly (raspi2b, 512 MiB, run.sh's default
#                               sdbench.txt: quick suite and host comparison); the
#                               README's sample output (make readme-sample)
#   qemu-raspi2b-quick.log      make run (raspi2b, 512 MiB SDSC card, quick suite)
#   qemu-raspi0-quick-4g.log    make run MACHINE=raspi0 with a 4 GiB SDHC card
#   qemu-raspi2b-selftest.log   suite = selftest with reads and a write in the test area
#   qemu-raspi0-exception.log   the deliberate-fault build (an exception ends the run)
#   sim-sdhost-hosts.log        build/host/sdbsim: quick suite + host comparison through SDHOST
#
# Every number in them is QEMU's emulation speed; the tests check how the
# tools read and present records, never the figures themselves.
set -eu
cd "$(dirname "$0")/../.."
out=tests/data
run() {
	# $1 = output log, then qemu/run.sh arguments; environment set by the caller.
	log=$1
	shift
	echo "tests/data/regen.sh: $log" >&2
	SDB_RECORDS=show qemu/run.sh "$@" >"$out/$log.tmp"
	mv "$out/$log.tmp" "$out/$log"
}
(unset SDB_SDBENCH; SDB_IMAGE_SIZE=512M run qemu-raspi2b-run.log raspi2b)
SDB_SDBENCH="" SDB_IMAGE_SIZE=512M run qemu-raspi2b-quick.log raspi2b
SDB_SDBENCH="" SDB_IMAGE_SIZE=4G run qemu-raspi0-quick-4g.log raspi0
SDB_SDBENCH="suite = selftest;selftest_lbas = 0:1, 8192:8, 1048568:8;selftest_write = 139264+64" \
	SDB_IMAGE_SIZE=512M run qemu-raspi2b-selftest.log raspi2b
# The fault build stops with an exception record; QEMU exits with status 3.
echo "tests/data/regen.sh: qemu-raspi0-exception.log" >&2
status=0
timeout 60 qemu-system-arm -M raspi0 -bios build/fault/kernel.img -display none \
	-monitor none -serial stdio -semihosting >"$out/qemu-raspi0-exception.log.tmp" || status=$?
[ "$status" = 3 ] || { echo "regen.sh: fault run ended with $status, expected 3" >&2; exit 1; }
mv "$out/qemu-raspi0-exception.log.tmp" "$out/qemu-raspi0-exception.log"
# The host comparison on the simulator (SDHOST by PIO and by DMA), after
# the quick suite: build/host/sdbsim, no QEMU.
echo "tests/data/regen.sh: sim-sdhost-hosts.log" >&2
printf 'suite = quick\nseed = 3\ncompare_hosts = on\n' >"$out/sim-sdhost-hosts.txt.tmp"
build/host/sdbsim --profile sdhc-c10-16g --controller sdhost \
	--config "$out/sim-sdhost-hosts.txt.tmp" >"$out/sim-sdhost-hosts.log.tmp"
rm -f "$out/sim-sdhost-hosts.txt.tmp"
mv "$out/sim-sdhost-hosts.log.tmp" "$out/sim-sdhost-hosts.log"
