#!/bin/sh
# Find a QEMU that has the raspi4b machine (QEMU 9.0 or newer; Debian 13
# ships 10.0) for the Pi 4 tests, without touching the system QEMU:
#
#   - the system's qemu-system-aarch64 when it already knows raspi4b
#     (Debian 13 or newer): nothing is fetched;
#   - otherwise (Debian 12, QEMU 7.2) QEMU from Debian's bookworm-backports,
#     unpacked into build/qemu10/ (never installed): qemu-system-arm,
#     qemu-system-data and qemu-system-common are downloaded with
#     `apt-get download` and extracted with `dpkg -x`, with the two small
#     display-module packages (opengl, spice): QEMU looks for a module it
#     lacks in the system's module directory as well, and 7.2's modules
#     there only print "Only modules from the same build can be loaded". If apt knows no
#     bookworm-backports source yet, one is added as
#     /etc/apt/sources.list.d/bookworm-backports.sources (Debian's own
#     archive, component main; sudo when not root) and its package list
#     is read. build/qemu10/bin/ then holds qemu-system-arm and
#     qemu-system-aarch64 wrappers that point the unpacked QEMU at its own
#     modules (QEMU_MODULE_DIR) and data files (-L).
#
# Prints the directory that holds the selected qemu-system-arm and
# qemu-system-aarch64 on stdout (one line), and which QEMU it selected
# with its version on stderr. Quick when build/qemu10 is already there.
#
#   tools/fetch-qemu10.sh               select (and fetch if needed)
#   tools/fetch-qemu10.sh --check       select only; exit status 1 if nothing
#                                       usable is there yet (no fetch, no sudo)
#   tools/fetch-qemu10.sh --apt-source  only make sure apt knows the backports
#                                       (tools/install-deps.sh, as root), so
#                                       that the fetch itself needs no root
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
dest=$root/build/qemu10
suite=bookworm-backports
packages="qemu-system-arm qemu-system-data qemu-system-common qemu-system-modules-opengl qemu-system-modules-spice"
apt_source=/etc/apt/sources.list.d/$suite.sources

say() { echo "fetch-qemu10: $*" >&2; }
die() { say "$*"; exit 1; }

has_raspi4b() { # $1: qemu-system-aarch64
	"$1" -M help 2>/dev/null | grep -q '^raspi4b '
}

selected() { # $1: directory, $2: what
	say "using $2: $("$1/qemu-system-aarch64" --version 2>/dev/null | head -n 1)"
	echo "$1"
	exit 0
}

mode=select
case "${1:-}" in
--check) mode=check ;;
--apt-source) mode=apt-source ;;
"") ;;
*) die "usage: tools/fetch-qemu10.sh [--check|--apt-source]" ;;
esac

sys=$(command -v qemu-system-aarch64 || true)
if [ -n "$sys" ] && has_raspi4b "$sys"; then
	[ "$mode" = apt-source ] && { say "the system QEMU has raspi4b: no apt source needed"; exit 0; }
	selected "$(dirname "$sys")" "the system QEMU ($sys has raspi4b)"
fi
if [ "$mode" != apt-source ] && [ -x "$dest/bin/qemu-system-aarch64" ] &&
	has_raspi4b "$dest/bin/qemu-system-aarch64"; then
	selected "$dest/bin" "QEMU from $suite in build/qemu10"
fi
[ "$mode" = check ] && die "no QEMU with raspi4b yet (the system QEMU has none; run tools/fetch-qemu10.sh)"

# ---- fetch ----------------------------------------------------------------
. /etc/os-release
[ "${VERSION_CODENAME:-}" = bookworm ] ||
	die "the system QEMU has no raspi4b and this is not Debian 12 (bookworm); install QEMU 9.0 or newer, or point SDB_QEMU at its directory"
command -v apt-get >/dev/null && command -v dpkg >/dev/null || die "needs apt-get and dpkg"

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		die "needs root for: $* (no sudo)"
	fi
}

backports_known() {
	apt-cache madison qemu-system-arm 2>/dev/null | grep -q "$suite/main"
}

ensure_apt_source() {
	backports_known && return 0
	if ! grep -qs "^[^#]*$suite" /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources; then
		say "adding the apt source $apt_source (Debian's $suite, main)"
		printf '%s\n' "Types: deb" "URIs: http://deb.debian.org/debian" "Suites: $suite" \
			"Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
			as_root tee "$apt_source" >/dev/null
	fi
	say "apt-get update"
	as_root apt-get update -qq >&2
	backports_known || die "apt knows no qemu-system-arm in $suite after apt-get update"
}

if [ "$mode" = apt-source ]; then
	ensure_apt_source
	say "apt knows QEMU in $suite; tools/fetch-qemu10.sh can fetch it"
	exit 0
fi

mkdir -p "$root/build"
# One fetch at a time (two test runs may start together).
exec 9>"$root/build/qemu10.lock"
flock 9
if [ -x "$dest/bin/qemu-system-aarch64" ] && has_raspi4b "$dest/bin/qemu-system-aarch64"; then
	selected "$dest/bin" "QEMU from $suite in build/qemu10"
fi
ensure_apt_source

version=$(apt-cache madison qemu-system-arm | awk -v s="$suite/main" '$0 ~ s { print $3; exit }')
say "fetching QEMU $version from $suite into build/qemu10 (the system QEMU is not touched)"
tmp=$root/build/qemu10.tmp
rm -rf "$tmp"
mkdir -p "$tmp/debs" "$tmp/root" "$tmp/bin"
# apt-get download writes to the current directory (as root it would
# warn that its sandbox user cannot write there).
sandbox=
[ "$(id -u)" = 0 ] && sandbox="-o APT::Sandbox::User=root"
(cd "$tmp/debs" && apt-get download -q $sandbox -t "$suite" $packages >&2) ||
	die "apt-get download failed"
for deb in "$tmp"/debs/*.deb; do
	dpkg -x "$deb" "$tmp/root"
done
moddir=$(ls -d "$tmp"/root/usr/lib/*/qemu 2>/dev/null | head -n 1)
[ -n "$moddir" ] || die "no QEMU module directory in the packages"
moddir=${moddir#"$tmp/"}
for q in qemu-system-arm qemu-system-aarch64; do
	[ -x "$tmp/root/usr/bin/$q" ] || die "$q is not in the packages"
	# The wrapper finds the tree relative to itself: build/qemu10 may move.
	cat >"$tmp/bin/$q" <<EOF
#!/bin/sh
# QEMU $version from Debian's $suite, unpacked by tools/fetch-qemu10.sh.
top=\$(dirname "\$(dirname "\$(readlink -f "\$0")")")
QEMU_MODULE_DIR=\$top/$moddir exec "\$top/root/usr/bin/$q" -L "\$top/root/usr/share/qemu" "\$@"
EOF
	chmod 755 "$tmp/bin/$q"
done
rm -rf "$tmp/debs"
has_raspi4b "$tmp/bin/qemu-system-aarch64" ||
	die "the fetched QEMU does not start or has no raspi4b: $("$tmp/bin/qemu-system-aarch64" --version 2>&1 | head -n 3)"
rm -rf "$dest"
mv "$tmp" "$dest"
selected "$dest/bin" "QEMU from $suite in build/qemu10"
