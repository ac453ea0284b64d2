#!/bin/sh
# Fetch Debian's arm64 kernel and busybox-static into build/linux/ for the
# Linux side-by-side measurement (qemu/linux/), without touching the
# system's dpkg: apt-get runs with its own package lists and cache
# (-o Dir::State::Lists, -o Dir::Cache) and arm64 as its only
# architecture; the system's source list is only read. The packages are
# unpacked with `dpkg -x` (nothing is installed).
#
# Prints build/linux's absolute path on stdout when it holds
#   Image            the uncompressed arm64 kernel (QEMU's -kernel takes it)
#   dtbs/            broadcom/bcm2837-rpi-3-b.dtb, bcm2711-rpi-4-b.dtb
#   modules/         the kernel's module tree (lib/modules/<version>)
#   busybox          busybox-static for arm64
#   version          the kernel package's name and version
# Quick when they are already there.
#
#   tools/fetch-linux-arm64.sh          fetch if needed
#   tools/fetch-linux-arm64.sh --check  exit status 1 if not fetched yet
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
dest=$root/build/linux
say() { echo "fetch-linux-arm64: $*" >&2; }
die() { say "$*"; exit 1; }

ready() {
	[ -f "$dest/Image" ] && [ -x "$dest/busybox" ] && [ -f "$dest/version" ] &&
		[ -f "$dest/dtbs/broadcom/bcm2837-rpi-3-b.dtb" ]
}
if ready; then echo "$dest"; exit 0; fi
[ "${1:-}" = --check ] && die "no arm64 kernel in build/linux yet (run tools/fetch-linux-arm64.sh)"
command -v apt-get >/dev/null && command -v dpkg >/dev/null || die "needs apt-get and dpkg (Debian)"

mkdir -p "$root/build"
exec 9>"$root/build/linux.lock"
flock 9
if ready; then echo "$dest"; exit 0; fi

tmp=$root/build/linux.tmp
rm -rf "$tmp"
mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/debs" "$tmp/root"
apt="apt-get -q -o Dir::State::Lists=$tmp/lists -o Dir::Cache=$tmp/cache
	-o Dir::State::status=/dev/null
	-o APT::Architecture=arm64 -o APT::Architectures::=arm64"
[ "$(id -u)" = 0 ] && apt="$apt -o APT::Sandbox::User=root"
say "reading the package lists for arm64 (private lists in build/linux.tmp)"
# A source that has no arm64 index only warns; the download below decides.
# shellcheck disable=SC2086 # $apt: options without spaces
$apt update >"$tmp/update.log" 2>&1 || say "apt-get update reported errors (see $tmp/update.log); trying the download"
# linux-image-arm64 depends on the current signed kernel package; its
# -unsigned twin holds the same kernel and modules.
# shellcheck disable=SC2086
signed=$(apt-cache -o Dir::State::Lists="$tmp/lists" -o Dir::Cache="$tmp/cache" \
	-o Dir::State::status=/dev/null -o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
	depends linux-image-arm64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-arm64\)$/\1/p' | head -n 1)
[ -n "$signed" ] || die "no arm64 kernel package in the lists (apt-cache depends linux-image-arm64 found nothing; $tmp/update.log)"
pkg=$signed-unsigned
say "downloading $pkg and busybox-static (arm64)"
# shellcheck disable=SC2086
(cd "$tmp/debs" && $apt download "$pkg" busybox-static >&2) ||
	die "apt-get download $pkg busybox-static failed"
for deb in "$tmp"/debs/*.deb; do
	dpkg -x "$deb" "$tmp/root"
done
img=$(ls "$tmp"/root/boot/vmlinuz-* 2>/dev/null | head -n 1)
[ -n "$img" ] || die "no /boot/vmlinuz-* in $pkg"
# Debian's arm64 vmlinuz is the uncompressed Image (a gzip one is unpacked).
if [ "$(head -c 2 "$img" | od -An -tx1 | tr -d ' ')" = 1f8b ]; then
	gzip -dc "$img" >"$tmp/Image"
else
	cp "$img" "$tmp/Image"
fi
kver=${img##*/vmlinuz-}
mkdir -p "$tmp/dtbs"
cp -r "$tmp/root/usr/lib/linux-image-$kver/broadcom" "$tmp/dtbs/" ||
	die "no broadcom device trees in $pkg"
mv "$tmp/root/lib/modules/$kver" "$tmp/modules" 2>/dev/null ||
	mv "$tmp/root/usr/lib/modules/$kver" "$tmp/modules" || die "no modules in $pkg"
cp "$tmp/root/bin/busybox" "$tmp/busybox" 2>/dev/null ||
	cp "$tmp/root/usr/bin/busybox" "$tmp/busybox" || die "no busybox in busybox-static"
echo "$pkg $kver" >"$tmp/version"
rm -rf "$tmp/root" "$tmp/debs" "$tmp/cache" "$tmp/lists"
rm -rf "$dest"
mv "$tmp" "$dest"
say "kernel $kver in build/linux"
echo "$dest"
