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

DROP_CACHES=${DROP_CACHES:-1}

source "$(dirname "$0")/lib.sh"

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

report() {
	local f v c w
	f=$(median floor)
	v=$(median validate)
	c=$(median cold)
	w=$(median warm)
	printf '\nskillgit foundation benchmark: %s skills, %s commits, %s runs, %s CPUs, load %s\n' \
		"$SKILLS" "$COMMITS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'repository %s (%s packed), plain copy %s\n\n' "$REPO" "$(du -sh "$GITDIR/objects" | cut -f1)" "$TREE"
	table_head
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

run_bench
