#!/bin/sh
# tests/fuzz/run.sh BUILDDIR SECONDS TARGET... - replay each target's
# committed corpus (tests/fuzz/corpus/TARGET: seeds and regression inputs),
# then fuzz it for SECONDS on one core; print executions per target. Fails
# on the first crash, leak, sanitizer report or broken property; the input
# that did it is left in BUILDDIR/crashes/.
# FUZZ_JOBS (default 1) targets run at a time, each on its own core: every
# target still fuzzes for SECONDS of wall time on one core.
set -eu
bdir=$1 secs=$2
shift 2
here=$(dirname "$0")
jobs=${FUZZ_JOBS:-1}
mkdir -p "$bdir/crashes"

# one TARGET: replay, then fuzz; its summary line goes to BUILDDIR/TARGET.sum
one() {
	t=$1
	seeds="$here/corpus/$t"
	work="$bdir/corpus/$t"
	mkdir -p "$work"
	dict=""
	[ -f "$here/$t.dict" ] && dict="-dict=$here/$t.dict"
	log="$bdir/$t.log"
	rm -f "$bdir/$t.sum"
	echo "== $t: replay $(ls "$seeds" | wc -l) committed inputs, then fuzz ${secs}s"
	if ! "$bdir/$t" -runs=0 $dict "$seeds" >"$log.replay" 2>&1; then
		tail -40 "$log.replay"
		echo "fuzz: $t fails on a committed input" >&2
		return 1
	fi
	if ! "$bdir/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
		-max_len=262144 -print_final_stats=1 $dict \
		-artifact_prefix="$bdir/crashes/$t-" "$work" "$seeds" >"$log" 2>&1; then
		tail -60 "$log"
		echo "fuzz: $t crashed; the input is in $bdir/crashes/" >&2
		return 1
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	printf '%-14s %10s executions in %ss, %s\n' "$t" "$execs" "$secs" "$cov" >"$bdir/$t.sum"
}

# up to $jobs targets at a time; every one is waited for and its status kept
targets="$*"
failed=0
set -- "$@" ""
while [ -n "$1" ]; do
	pids=""
	n=0
	while [ -n "$1" ] && [ "$n" -lt "$jobs" ]; do
		one "$1" &
		pids="$pids $!"
		n=$((n + 1))
		shift
	done
	for p in $pids; do
		wait "$p" || failed=1
	done
	[ "$failed" -eq 0 ] || exit 1
done
echo "fuzz summary (no crashes):"
for t in $targets; do cat "$bdir/$t.sum"; done
