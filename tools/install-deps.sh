#!/bin/sh
# Install what sdbench needs to build, run under QEMU and test, from
# Debian's packages (Debian 12 or newer). Uses sudo when not run as root.
set -eu
if [ "$(id -u)" != 0 ]; then
	exec sudo "$0" "$@"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	make gcc libc6-dev gcc-arm-none-eabi libnewlib-arm-none-eabi binutils-arm-none-eabi \
	qemu-system-arm python3 python3-pytest python3-matplotlib mtools dosfstools fdisk \
	coreutils >/dev/null
echo "sdbench: build dependencies installed"
