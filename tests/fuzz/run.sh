#!/bin/sh
# tests/fuzz/run.sh BUILDDIR SECONDS TARGET... - replay each target's
# committed corpus (tests/fuzz/corpus/TARGET: seeds and regression inputs),
# then fuzz it for SECONDS on one core; print executions per target. Fails
# on the first crash, leak, sanitizer report or broken property; the input
# that did it is left in BUILDDIR/crashes/.
set -eu
bdir=$1 secs=$2
shift 2
here=$(dirname "$0")
mkdir -p "$bdir/crashes"
summary=""
for t in "$@"; do
	seeds="$here/corpus/$t"
	work="$bdir/corpus/$t"
	mkdir -p "$work"
	dict=""
	[ -f "$here/$t.dict" ] && dict="-dict=$here/$t.dict"
	log="$bdir/$t.log"
	echo "== $t: replay $(ls "$seeds" | wc -l) committed inputs, then fuzz ${secs}s"
	if ! "$bdir/$t" -runs=0 $dict "$seeds" >"$log.replay" 2>&1; then
		tail -40 "$log.replay"
		echo "fuzz: $t fails on a committed input" >&2
		exit 1
	fi
	if ! "$bdir/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
		-max_len=262144 -print_final_stats=1 $dict \
		-artifact_prefix="$bdir/crashes/$t-" "$work" "$seeds" >"$log" 2>&1; then
		tail -60 "$log"
		echo "fuzz: $t crashed; the input is in $bdir/crashes/" >&2
		exit 1
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	summary="$summary$(printf '%-14s %10s executions in %ss, %s' "$t" "$execs" "$secs" "$cov")
"
done
echo "fuzz summary (no crashes):"
printf '%s' "$summary"
