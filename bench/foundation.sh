#!/usr/bin/env bash
# foundation.sh measures the foundation's performance goals on a generated repository:
# validate against a find/head floor, list cold and warm, peak memory, and git ls-tree for
# context. Every repetition runs each command once, in turn, so that load from other work on
# the machine falls on all of them alike; the table shows medians.
#
# Usage: bench/foundation.sh            (from anywhere)
# Settings, from the environment:
#   RUNS=10          repetitions
#   SKILLS=10000     skills in the generated repository
#   COMMITS=3000     commits in the generated repository
#   SEED=1           generator seed
#   BENCH_DIR=/tmp/skillgit-bench   where the binary, repository and plain copy live; a
#                    repository generated with the same settings is reused
#   DROP_CACHES=1    also measure list with the page cache dropped, when this user may
#                    (set 0 to skip: it slows everything else on the machine for a moment)
#   SKILLGIT_BIN=    measure this skillgit binary instead of building one, to compare builds
set -euo pipefail

RUNS=${RUNS:-10}
SKILLS=${SKILLS:-10000}
COMMITS=${COMMITS:-3000}
SEED=${SEED:-1}
BENCH_DIR=${BENCH_DIR:-/tmp/skillgit-bench}
DROP_CACHES=${DROP_CACHES:-1}

case "${1:-}" in
-h | --help)
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
esac

ROOT=$(cd "$(dirname "$0")/.." && pwd)
NAME="s${SKILLS}-c${COMMITS}-seed${SEED}"
REPO="$BENCH_DIR/repo-$NAME"
TREE="$BENCH_DIR/tree-$NAME"
STAMP="$BENCH_DIR/done-$NAME"
BIN=${SKILLGIT_BIN:-$BENCH_DIR/skillgit}
RESULTS="$BENCH_DIR/results"

say() { printf '%s\n' "$*" >&2; }
die() {
	say "foundation.sh: $*"
	exit 1
}

need_tools() {
	command -v git >/dev/null || die "git is not installed; install it (apt-get install git) and rerun"
	command -v go >/dev/null || die "go is not installed; install Go 1.26 and rerun"
	if ! /usr/bin/time -f %M true >/dev/null 2>&1; then
		if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
			say "installing GNU time for peak-memory figures"
			{ apt-get install -y -qq time || { apt-get update -qq && apt-get install -y -qq time; }; } >/dev/null 2>&1 || true
		fi
	fi
	if /usr/bin/time -f %M true >/dev/null 2>&1; then HAVE_TIME=1; else
		HAVE_TIME=0
		say "GNU time (/usr/bin/time) is missing: peak memory is not measured"
	fi
}

build() {
	mkdir -p "$BENCH_DIR"
	if [ -z "${SKILLGIT_BIN:-}" ]; then
		say "building skillgit"
		(cd "$ROOT" && go build -o "$BIN" ./cmd/skillgit)
	fi
	(cd "$ROOT" && go build -o "$BENCH_DIR/gen" ./bench/gen)
}

generate() {
	if [ -e "$STAMP" ] && [ -d "$REPO" ] && [ -d "$TREE" ]; then
		say "reusing $REPO"
		return
	fi
	rm -rf "$REPO" "$TREE" "$STAMP"
	say "generating $SKILLS skills and $COMMITS commits into $REPO"
	"$BENCH_DIR/gen" -skills "$SKILLS" -commits "$COMMITS" -seed "$SEED" -out "$REPO" -tree "$TREE" -skillgit "$BIN" >&2
	touch "$STAMP"
}

# check makes sure every measured command works before anything is timed.
check() {
	local listed counted
	listed=$("$BIN" -C "$REPO" list | wc -l)
	counted=$(git -C "$REPO" ls-tree -r main --name-only | grep -c 'SKILL.md$')
	[ "$listed" = "$counted" ] || die "list shows $listed skills but main holds $counted SKILL.md files"
	"$BIN" validate --lenient "$TREE" >/dev/null 2>&1 || die "validate --lenient $TREE failed"
	GITDIR=$(git -C "$REPO" rev-parse --path-format=absolute --git-common-dir)
	CACHE="$GITDIR/skillgit/cache"
	CAN_DROP=0
	if [ "$DROP_CACHES" = 1 ] && [ -w /proc/sys/vm/drop_caches ]; then CAN_DROP=1; fi
}

# measure NAME CMD... runs CMD once, appending its wall time in seconds and its peak RSS in
# KiB to $RESULTS/NAME.
measure() {
	local name=$1
	shift
	local start end mem=0
	start=$(date +%s%N)
	if [ "$HAVE_TIME" = 1 ]; then
		/usr/bin/time -f %M -o "$RESULTS/mem.tmp" "$@" >/dev/null 2>&1 || die "$name failed: $*"
	else
		"$@" >/dev/null 2>&1 || die "$name failed: $*"
	fi
	end=$(date +%s%N)
	if [ "$HAVE_TIME" = 1 ]; then mem=$(tail -1 "$RESULTS/mem.tmp"); fi
	echo "$(((end - start) / 1000)) $mem" >>"$RESULTS/$name"
}

floor() { find "$TREE" -name SKILL.md | xargs head -5 >/dev/null; }
lstree() { git -C "$REPO" ls-tree -r main --name-only | grep -c SKILL.md >/dev/null; }
export -f floor lstree
export TREE REPO

one_round() {
	measure floor bash -c floor
	measure validate "$BIN" validate --lenient "$TREE"
	measure lstree bash -c lstree
	rm -rf "$CACHE"
	measure cold "$BIN" -C "$REPO" list
	measure warm "$BIN" -C "$REPO" list
	if [ "$CAN_DROP" = 1 ]; then
		rm -rf "$CACHE"
		sync
		echo 3 >/proc/sys/vm/drop_caches
		measure dropped "$BIN" -C "$REPO" list
		# Warm the page cache again, so that the next round's floor is not the one paying.
		floor
		lstree
		"$BIN" validate --lenient "$TREE" >/dev/null 2>&1 || true
	fi
}

# summarize NAME prints the median time in seconds, min and max, and the largest peak RSS in
# MiB.
summarize() {
	sort -n "$RESULTS/$1" | awk '{ t[NR] = $1; if ($2 > m) m = $2 } END {
		n = NR
		med = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
		printf "%.3f %.3f %.3f %.0f\n", med / 1e6, t[1] / 1e6, t[n] / 1e6, m / 1024
	}'
}

row() {
	local label=$1 name=$2 goal=$3 verdict=$4
	read -r med min max mem <<<"$(summarize "$name")"
	[ "$HAVE_TIME" = 1 ] || mem="-"
	printf '%-40s %8s %8s %8s %8s  %-22s %s\n' "$label" "$med" "$min" "$max" "$mem" "$goal" "$verdict"
}

median() { summarize "$1" | cut -d' ' -f1; }
peak() { summarize "$1" | cut -d' ' -f4; }
verdict() { awk -v v="$1" -v lim="$2" 'BEGIN { print (v < lim) ? "met" : "MISSED" }'; }

report() {
	local f v c w
	f=$(median floor)
	v=$(median validate)
	c=$(median cold)
	w=$(median warm)
	printf '\nskillgit foundation benchmark: %s skills, %s commits, %s runs, %s CPUs, load %s\n' \
		"$SKILLS" "$COMMITS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'repository %s (%s packed), plain copy %s\n\n' "$REPO" "$(du -sh "$GITDIR/objects" | cut -f1)" "$TREE"
	printf '%-40s %8s %8s %8s %8s  %-22s %s\n' "command" "median s" "min s" "max s" "peak MiB" "goal" "verdict"
	row "floor: find | xargs head -5" floor "" ""
	row "skillgit validate --lenient TREE" validate "< 2x floor" "$(verdict "$(awk -v a="$v" -v b="$f" 'BEGIN{print a/b}')" 2)"
	row "skillgit list, cold (cache removed)" cold "< 1 s" "$(verdict "$c" 1)"
	if [ "$CAN_DROP" = 1 ]; then
		row "skillgit list, cold + page cache dropped" dropped "< 1 s" "$(verdict "$(median dropped)" 1)"
	fi
	row "skillgit list, warm" warm "< 0.150 s" "$(verdict "$w" 0.150)"
	row "git ls-tree -r main | grep -c SKILL.md" lstree "(context)" ""
	printf '\nratios: validate/floor %.2f, list cold/ls-tree %.1f, list warm/ls-tree %.1f\n' \
		"$(awk -v a="$v" -v b="$f" 'BEGIN{print a/b}')" \
		"$(awk -v a="$c" -v b="$(median lstree)" 'BEGIN{print a/b}')" \
		"$(awk -v a="$w" -v b="$(median lstree)" 'BEGIN{print a/b}')"
	if [ "$HAVE_TIME" = 1 ]; then
		local p
		p=$(for n in validate cold warm; do peak "$n"; done | sort -n | tail -1)
		printf 'peak memory of skillgit: %s MiB (goal < 200 MiB: %s)\n' "$p" "$(verdict "$p" 200)"
	fi
	if [ "$CAN_DROP" = 1 ]; then
		echo "cold runs: skillgit's cache removed; the 'page cache dropped' row also empties the OS page cache first"
	else
		echo "cold runs: skillgit's cache removed; the OS page cache stays warm (dropping it is not permitted here or DROP_CACHES=0)"
	fi
}

main() {
	need_tools
	build
	generate
	check
	rm -rf "$RESULTS"
	mkdir -p "$RESULTS"
	say "measuring, $RUNS rounds"
	for ((i = 1; i <= RUNS; i++)); do
		one_round
		printf '.' >&2
	done
	printf '\n' >&2
	report
}

main "$@"
