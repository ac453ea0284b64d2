#!/bin/sh
# Install what sdbench needs to build, run under QEMU and test, from
# Debian's packages (Debian 12 or newer). Uses sudo when not run as root.
# gcc-aarch64-linux-gnu + picolibc-aarch64-linux-gnu (headers only): kernel8.img.
# libc6-dev-arm64-cross, gcc-arm-linux-gnueabihf + libc6-dev-armhf-cross:
# sdblinux, the static Linux companion (arm64 and armhf); device-tree-compiler
# (fdtput): the device trees of the Linux boots under QEMU (qemu/linux/);
# qemu-user: the armhf and arm64 sdblinux builds tested on the host.
# python3-serial: sdbcapture; python3-matplotlib: sdbreport's charts;
# python3-jinja2: the HTML pages of sdbreport and sdbdb (their templates);
# python3-hypothesis: the host tools' property tests; python3-venv and
# python3-setuptools, python3-wheel: the test that pip-installs the host tools;
# python3-psycopg2: sdbdb on a PostgreSQL server; postgresql: the server the
# card database's tests start in a temporary directory;
# chromium (headless) and its fonts: the test that opens the HTML report;
# clang and libclang-rt-dev (libFuzzer, ASan, UBSan): make fuzz;
# console-setup-linux: the console font the screen's font is made from.
set -eu
if [ "$(id -u)" != 0 ]; then
	exec sudo "$0" "$@"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	make gcc libc6-dev gcc-arm-none-eabi libnewlib-arm-none-eabi binutils-arm-none-eabi \
	gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu picolibc-aarch64-linux-gnu \
	libc6-dev-arm64-cross gcc-arm-linux-gnueabihf libc6-dev-armhf-cross device-tree-compiler qemu-user \
	qemu-system-arm python3 python3-pytest python3-pytest-xdist python3-matplotlib python3-serial \
	python3-jinja2 \
	python3-hypothesis python3-venv python3-setuptools python3-wheel python3-psycopg2 postgresql \
	mtools dosfstools \
	fdisk coreutils chromium fonts-dejavu-core clang libclang-rt-dev \
	console-setup-linux >/dev/null
# The QEMU tests run under QEMU 10 as well (raspi4b): when the system QEMU
# has no raspi4b (Debian 12), let apt know Debian's bookworm-backports so
# that `make test` can fetch QEMU 10 into build/qemu10 (nothing installed).
"$(dirname "$0")/fetch-qemu10.sh" --apt-source
echo "sdbench: build dependencies installed"
