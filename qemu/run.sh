#!/bin/sh
# Boot build/kernel.img under QEMU on a freshly made SD card image, with the
# console on this terminal. QEMU exits by itself when the run ends (status 0
# when the run had no errors).
#
#   qemu/run.sh [raspi2b|raspi0|raspi1ap|raspi3b|raspi3ap|raspi4b] [extra QEMU options...]
#
# raspi0/raspi1ap/raspi2b: qemu-system-arm loads kernel.img at 0x8000 like the
# Pi firmware (-bios). raspi3b/raspi3ap/raspi4b (Cortex-A53/A72, which QEMU
# starts only in AArch64): qemu-system-aarch64 runs build/shim64.bin
# (qemu/shim/), which switches to AArch32 and enters kernel.img, loaded raw
# at 0x8000. raspi4b: the card is on EMMC2 (0xFE340000), the SD slot of a
# real Pi 4.
#
# The serial console is this terminal, input included (sdbench's console:
# Enter within 3 s after the test area line); Ctrl-C goes to sdbench, Ctrl-A x
# quits QEMU. The exit status is QEMU's (0 when the run had no errors), and
# not 0 when QEMU ended before the run's done record (kept in
# build/qemu/console-MACHINE.log). A kernel that does not fit the machine
# (kernel8.img on raspi0/raspi1ap/raspi2b) or is missing is refused (status 2).
#
# Environment: SDB_IMAGE_SIZE (default 512M), SDB_SDBENCH ("key=value;..."
# lines for sdbench.txt; default "compare_hosts = on", so the main job ends
# with the host comparison table; SDB_SDBENCH= gives a card without
# sdbench.txt, the firmware's defaults), SDB_TIMEOUT (seconds, default 600), SDB_QEMU
# (which QEMU: "system", the one on PATH; "10", one with raspi4b, fetched
# into build/qemu10 by tools/fetch-qemu10.sh when the system one has none;
# or a directory holding qemu-system-arm and qemu-system-aarch64). The
# default is "system", and "10" for raspi4b.
# SDB_KERNEL=build/kernel8.img: boot the AArch64 image instead (raspi3b,
# raspi3ap, raspi4b: QEMU's -kernel loads it at 0x80000 and starts it in
# EL2, as the Pi firmware does with arm_64bit=1; no shim).
# SDB_IMAGE=build/sdbench.img (make run-image): boot a copy of that card
# image instead, with the kernel.img found on it (the image is not changed).
# SDB_RUN_DIR (default build/qemu): where the run's card image, console log,
# guest-errors log and sdbench.txt go (two runs of one machine at once need
# two directories).
set -eu
cd "$(dirname "$0")/.."
machine=${1:-raspi2b}
[ $# -gt 0 ] && shift
flavour=${SDB_QEMU:-}
[ -z "$flavour" ] && [ "$machine" = raspi4b ] && flavour=10
case "${flavour:-system}" in
system) prefix= ;;
10) prefix=$(tools/fetch-qemu10.sh)/ ;;
*) if [ -d "$flavour" ]; then prefix=${flavour%/}/; else prefix=$flavour; fi ;;
esac
dir=${SDB_RUN_DIR:-build/qemu}
img=$dir/sd-$machine.img
kernel=${SDB_KERNEL:-build/kernel.img}
die() {
	echo "qemu/run.sh: $*" >&2
	exit 2
}
# kernel8.img and kernel_2712.img are AArch64 images: only the machines
# with a 64-bit core can start them.
is64=no
case "$(basename "$kernel")" in
kernel8*.img | kernel_2712*.img) is64=yes ;;
esac
case "$machine" in
raspi0 | raspi1ap | raspi2b)
	[ $is64 = no ] || die "$kernel is an AArch64 image; $machine has a 32-bit core" \
		"(ARM1176 or Cortex-A7): boot build/kernel.img there, or $kernel on" \
		"raspi3b, raspi3ap or raspi4b"
	;;
esac
if [ -n "${SDB_IMAGE:-}" ]; then
	[ -f "$SDB_IMAGE" ] || die "no card image $SDB_IMAGE (make image builds build/sdbench.img)"
elif [ ! -f "$kernel" ]; then
	die "no kernel $kernel (make builds build/kernel.img, build/kernel8.img" \
		"and build/kernel_2712.img)"
fi
mkdir -p build/qemu "$dir"
if [ -n "${SDB_IMAGE:-}" ]; then
	kernel=$dir/kernel-from-image.img
	/usr/bin/python3 tools/sdbcard.py extract "$SDB_IMAGE" kernel.img "$kernel"
fi
case "$machine" in
raspi0 | raspi1ap | raspi2b)
	set -- "${prefix}qemu-system-arm" -M "$machine" -bios "$kernel" \
		-drive "file=$img,if=sd,format=raw" "$@"
	;;
raspi3b | raspi3ap | raspi4b)
	if [ $is64 = yes ]; then
		# Cores 1-3 wait in QEMU's spin-table stub, a WFE loop that QEMU
		# runs as a yield (target/arm/tcg/op_helper.c): one TCG thread for
		# all cores keeps them from taking three host cores (see
		# tests/qemu/harness.py, SINGLE_THREAD_TCG).
		load="-kernel $kernel -accel tcg,thread=single"
	else
		load="-kernel build/shim64.bin -device loader,file=$kernel,addr=0x8000,force-raw=on"
	fi
	;;
esac
case "$machine" in
raspi0 | raspi1ap | raspi2b) ;;
raspi3b | raspi3ap)
	# shellcheck disable=SC2086 # $load: options without spaces
	set -- "${prefix}qemu-system-aarch64" -M "$machine" $load \
		-drive "file=$img,if=sd,format=raw" "$@"
	;;
raspi4b)
	# The card on EMMC2; the drive id must not be sd0, which raspi4b has.
	# shellcheck disable=SC2086
	set -- "${prefix}qemu-system-aarch64" -M "$machine" $load \
		-drive "if=none,id=card0,file=$img,format=raw" \
		-device sd-card,drive=card0,bus=/generic-sdhci/sd-bus "$@"
	;;
*)
	echo "qemu/run.sh: unknown machine '$machine' (raspi0, raspi1ap, raspi2b, raspi3b, raspi3ap, raspi4b)" >&2
	exit 2
	;;
esac
if ! "$1" -M help 2>/dev/null | grep -q "^$machine "; then
	echo "qemu/run.sh: $1 ($("$1" --version 2>/dev/null | head -n 1)) has no machine $machine" \
		"(raspi4b: QEMU 9.0 or newer; SDB_QEMU=10 fetches one)" >&2
	exit 2
fi
log=$dir/guest-errors-$machine.log
if [ -n "${SDB_IMAGE:-}" ]; then
	# The run writes into the test area: give QEMU a copy.
	cp --sparse=always "$SDB_IMAGE" "$img"
	echo "qemu/run.sh: $machine, a copy of $SDB_IMAGE: $img (the run writes the copy;" \
		"$SDB_IMAGE is not changed); protocol errors are logged to $log" >&2
else
	# sdbench.txt from SDB_SDBENCH: ';' separates lines, spaces are kept.
	# Unset: the quick suite plus the comparison of every host
	# configuration of the board (what separates the host from the card).
	SDB_SDBENCH="${SDB_SDBENCH-compare_hosts = on}"
	sdbench_file=$dir/sdbench-$machine.txt
	rm -f "$sdbench_file"
	if [ -n "${SDB_SDBENCH:-}" ]; then
		printf '%s\n' "$SDB_SDBENCH" | tr ';' '\n' >"$sdbench_file"
	fi
	/usr/bin/python3 qemu/mkimage.py -o "$img" --size "${SDB_IMAGE_SIZE:-512M}" \
		--kernel "$kernel" ${SDB_SDBENCH:+--file=sdbench.txt=$sdbench_file}
	echo "qemu/run.sh: $machine, SD image $img (${SDB_IMAGE_SIZE:-512M}); protocol errors are logged to $log" >&2
fi
echo "qemu/run.sh: $("$1" --version | head -n 1) ($1)" >&2
status=0
# The console is kept in a file too, records included: a run that ended
# without its done record (QEMU quit with Ctrl-A x, killed, timed out) is
# not a success. On a terminal the "@ " record lines (one JSON object each,
# for sdbreport and the capture tools) go only to that file
# (qemu/records_filter.py); SDB_RECORDS=show shows them, SDB_RECORDS=hide
# hides them from a pipe too. The firmware's output is the same either way.
conlog=$dir/console-$machine.log
rm -f "$conlog"
hide=no
case "${SDB_RECORDS:-}" in
show) ;;
hide) hide=yes ;;
*) [ -t 1 ] && hide=yes ;;
esac
if [ $hide = yes ]; then
	echo "qemu/run.sh: the whole console, records included, goes to $conlog;" \
		"the terminal shows it without the '@ ' record lines (SDB_RECORDS=show shows them)" >&2
	statusfile=$dir/status-$machine
	rm -f "$statusfile"
	{
		timeout --foreground "${SDB_TIMEOUT:-600}" "$@" \
			-display none -monitor none -semihosting \
			-chardev "stdio,id=con0,mux=on,signal=off,logfile=$conlog" -serial chardev:con0 \
			-d guest_errors -D "$log" || echo $? >"$statusfile"
	} | /usr/bin/python3 qemu/records_filter.py
	[ -f "$statusfile" ] && status=$(cat "$statusfile")
	rm -f "$statusfile"
else
	timeout --foreground "${SDB_TIMEOUT:-600}" "$@" \
		-display none -monitor none -semihosting \
		-chardev "stdio,id=con0,mux=on,signal=off,logfile=$conlog" -serial chardev:con0 \
		-d guest_errors -D "$log" || status=$?
fi
if [ -s "$log" ]; then
	echo "qemu/run.sh: QEMU reported guest errors:" >&2
	cat "$log" >&2
fi
if ! grep -q '^@ {"type":"done"' "$conlog" 2>/dev/null; then
	[ $status -eq 124 ] && echo "qemu/run.sh: timed out after ${SDB_TIMEOUT:-600} s" >&2
	echo "qemu/run.sh: QEMU ended before the run's done record (status $status)" >&2
	[ $status -eq 0 ] && status=1
fi
nrec=$(grep -c '^@ ' "$conlog" 2>/dev/null || true)
echo "qemu/run.sh: the whole console, ${nrec:-0}" \
	"records included: $conlog (build/host/sdbreport $conlog reads it)" >&2
if [ -n "${SDB_IMAGE:-}" ]; then
	echo "qemu/run.sh: the card image this run wrote: $img; its SDBENCH.LOG:" \
		"/usr/bin/python3 tools/sdbcard.py extract $img SDBENCH.LOG SDBENCH.LOG &&" \
		"build/host/sdbreport SDBENCH.LOG" >&2
fi
exit $status
