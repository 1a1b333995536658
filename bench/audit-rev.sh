#!/usr/bin/env bash
# audit-rev.sh measures `skillgit audit --rev main` on a generated repository: with nothing
# changed and the cache warm (goal: at most 0.1 s), after one publish with the cache warm from
# before it (goal: at most 0.2 s), and with no audit cache at all, against a floor that only
# lists the publish branch, git ls-tree -r main, and peak memory (goal: under 200 MiB at
# 10,000 skills, under 400 MiB at 100,000). Before measuring it checks that the report after a
# publish, served from the cache, is the report of a full audit, byte for byte, in text and in
# JSON. Every repetition runs each command once, in turn; the table shows medians.
#
# Usage: bench/audit-rev.sh       (from anywhere)
# Settings, from the environment:
#   RUNS=10          repetitions
#   SKILLS=10000     skills in the generated repository
#   COMMITS=3000     commits in the generated repository
#   SEED=1           generator seed
#   BENCH_DIR=/tmp/skillgit-bench   where the binary and repository live; publishes go into a
#                    copy of the repository
#   SKILLGIT_BIN=    measure this skillgit binary instead of building one
#   BASE_BIN=        also measure this skillgit binary, a baseline, in the same rounds
set -euo pipefail

source "$(dirname "$0")/lib.sh"

check() {
	WORK="$BENCH_DIR/auditrev-repo-$NAME"
	OUT="$BENCH_DIR/auditrev-out"
	rm -rf "$WORK" "$OUT"
	mkdir -p "$OUT"
	# Publishes go into a copy, so the generated repository stays as it was made.
	cp -r "$REPO" "$WORK"
	CACHE="$(git -C "$WORK" rev-parse --absolute-git-dir)/skillgit/cache/audit"
	ONE=$(git -C "$WORK" ls-tree --name-only main:skills | grep -v '^\.' | awk 'NR == 1')
	DRAFT="$OUT/draft/$ONE"
	ROUND=0
	say "auditing $WORK once, publishing one skill and checking the report against a full audit"
	"$BIN" -C "$WORK" audit --rev main >/dev/null || die "skillgit audit --rev main failed on $WORK"
	publish_one
	# The text report after a publish is printed from the one before it; the JSON report is
	# printed from the cached results. Both must be a full audit's, byte for byte.
	"$BIN" -C "$WORK" audit --rev main >"$OUT/cached.txt" || die "skillgit audit failed"
	"$BIN" -C "$WORK" audit --rev main --format json >"$OUT/cached.json" || die "skillgit audit failed"
	"$BIN" -C "$WORK" audit --rev main --no-cache >"$OUT/full.txt" || die "skillgit audit --no-cache failed"
	"$BIN" -C "$WORK" audit --rev main --format json --no-cache >"$OUT/full.json" || die "skillgit audit --no-cache failed"
	for f in txt json; do
		cmp -s "$OUT/cached.$f" "$OUT/full.$f" ||
			die "the report after a publish differs from a full audit: compare $OUT/cached.$f and $OUT/full.$f"
	done
	if [ -n "${BASE_BIN:-}" ]; then
		"$BASE_BIN" -C "$WORK" audit --rev main >/dev/null || die "$BASE_BIN audit --rev main failed"
	fi
}

# audit_as NAME BIN measures BIN's audit of main as NAME.
audit_as() { measure "$1" "$2" -C "$WORK" audit --rev main; }

one_round() {
	measure floor git -C "$WORK" ls-tree -r main
	audit_as unchanged "$BIN"
	[ -z "${BASE_BIN:-}" ] || audit_as unchanged-base "$BASE_BIN"
	publish_one
	audit_as one "$BIN"
	[ -z "${BASE_BIN:-}" ] || audit_as one-base "$BASE_BIN"
	# A first run finds no audit cache; it leaves the cache warm for the next round.
	rm -rf "$CACHE"
	audit_as first "$BIN"
	if [ -n "${BASE_BIN:-}" ]; then
		rm -rf "$CACHE"
		audit_as first-base "$BASE_BIN"
		"$BIN" -C "$WORK" audit --rev main >/dev/null
	fi
}

report() {
	local mem_goal=200
	[ "$SKILLS" -le 10000 ] || mem_goal=400
	printf '\nskillgit audit --rev main benchmark: %s skills, %s runs, %s CPUs, load %s\n\n' \
		"$SKILLS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	table_head
	row "floor: git ls-tree -r main" floor "" ""
	row "audit --rev main, nothing changed" unchanged "<= 0.100 s" "$(verdict "$(median unchanged)" 0.1005)"
	[ -z "${BASE_BIN:-}" ] || row "  baseline binary" unchanged-base "" ""
	row "audit --rev main after one publish" one "<= 0.200 s" "$(verdict "$(median one)" 0.2005)"
	[ -z "${BASE_BIN:-}" ] || row "  baseline binary" one-base "" ""
	row "audit --rev main, no cache" first "" ""
	[ -z "${BASE_BIN:-}" ] || row "  baseline binary" first-base "" ""
	printf '\nratios to the floor: nothing changed %s, after one publish %s, no cache %s\n' \
		"$(ratio "$(median unchanged)" "$(median floor)")" "$(ratio "$(median one)" "$(median floor)")" \
		"$(ratio "$(median first)" "$(median floor)")"
	printf 'CPU seconds (user + system), medians: nothing changed %s, after one publish %s, no cache %s\n' \
		"$(cpu unchanged)" "$(cpu one)" "$(cpu first)"
	local worst
	worst=$(printf '%s\n' "$(peak unchanged)" "$(peak one)" "$(peak first)" | sort -n | tail -1)
	printf 'peak memory goal < %s MiB: nothing changed %s MiB, after one publish %s MiB, no cache %s MiB: %s\n' \
		"$mem_goal" "$(peak unchanged)" "$(peak one)" "$(peak first)" "$(verdict "$worst" "$mem_goal")"
}

run_bench
