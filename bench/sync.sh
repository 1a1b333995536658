#!/usr/bin/env bash
# sync.sh measures the sync goals on a generated repository: a full sync into an empty folder
# against cp -r of the same files (goal: at most 1.3x, stated for 1,000 skills: run with
# SKILLS=1000), a re-sync of the installed skills with nothing changed against a floor that
# only reads them, find | xargs head -5 (goal: at most 0.5x), a sync after one skill changed,
# and peak memory. Every repetition runs each command once, in turn; the table shows medians.
#
# Usage: bench/sync.sh            (from anywhere)
# Settings, from the environment:
#   RUNS=10          repetitions
#   SKILLS=10000     skills in the generated repository; SKILLS=1000 for the full-sync goal
#   COMMITS=3000     commits in the generated repository
#   SEED=1           generator seed
#   BENCH_DIR=/tmp/skillgit-bench   where the binary, repository and plain copy live
#   SKILLGIT_BIN=    measure this skillgit binary instead of building one
#   BASE_BIN=        also measure this skillgit binary, a baseline, in the same rounds
set -euo pipefail

source "$(dirname "$0")/lib.sh"

check() {
	OUT="$BENCH_DIR/sync-out"
	WORK="$BENCH_DIR/sync-repo-$NAME"
	rm -rf "$OUT" "$WORK"
	# Publishes go into a copy, so the generated repository stays as it was made.
	cp -r "$REPO" "$WORK"
	"$BIN" -C "$WORK" sync --dir "$OUT/check" >/dev/null || die "skillgit sync failed on $WORK"
	# The unchanged target is synced from the generated repository, which never changes.
	export UNCHANGED="$OUT/unchanged"
	"$BIN" -C "$REPO" sync --dir "$UNCHANGED" >/dev/null
	"$BIN" -C "$REPO" sync --dir "$UNCHANGED" >/dev/null
	if [ -n "${BASE_BIN:-}" ]; then
		"$BASE_BIN" -C "$REPO" sync --dir "$OUT/unchanged-base" >/dev/null || die "$BASE_BIN sync failed"
		"$BASE_BIN" -C "$REPO" sync --dir "$OUT/unchanged-base" >/dev/null
	fi
	CHANGED="$OUT/changed"
	"$BIN" -C "$WORK" sync --dir "$CHANGED" >/dev/null
	ONE=$(ls "$CHANGED" | grep -v '^\.' | awk 'NR == 1')
	DRAFT="$OUT/draft/$ONE"
	ROUND=0
}

# floor reads what a re-sync has to look at, the SKILL.md of every installed skill.
floor() { find "$UNCHANGED" -name SKILL.md -print0 | xargs -0 head -5 >/dev/null; }
export -f floor

one_round() {
	rm -rf "$OUT/full" "$OUT/cp" "$OUT/full-base"
	sync_fs
	measure full "$BIN" -C "$WORK" sync --dir "$OUT/full"
	sync_fs
	measure cp cp -r "$TREE/." "$OUT/cp"
	if [ -n "${BASE_BIN:-}" ]; then
		sync_fs
		measure full-base "$BASE_BIN" -C "$WORK" sync --dir "$OUT/full-base"
	fi
	measure floor bash -c floor
	measure unchanged "$BIN" -C "$REPO" sync --dir "$UNCHANGED"
	if [ -n "${BASE_BIN:-}" ]; then
		measure unchanged-base "$BASE_BIN" -C "$REPO" sync --dir "$OUT/unchanged-base"
	fi
	publish_one
	measure one "$BIN" -C "$WORK" sync --dir "$CHANGED"
}

# sync_fs writes out what the removal of the last round's folders left to the disk, so that
# it is not charged to the next command.
sync_fs() { sync -f "$BENCH_DIR" 2>/dev/null || sync; }

report() {
	local f c o u l rf ru
	f=$(median full)
	c=$(median cp)
	o=$(median one)
	u=$(median unchanged)
	l=$(median floor)
	rf=$(awk -v a="$f" -v b="$c" 'BEGIN{print a/b}')
	ru=$(awk -v a="$u" -v b="$l" 'BEGIN{print a/b}')
	printf '\nskillgit sync benchmark: %s skills, %s runs, %s CPUs, load %s\n\n' \
		"$SKILLS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	table_head
	row "cp -r skills folder" cp "" ""
	row "skillgit sync, empty target" full "<= 1.3x cp -r" "$(verdict "$rf" 1.3)"
	[ -z "${BASE_BIN:-}" ] || row "  baseline binary" full-base "" ""
	row "floor: find | xargs head -5" floor "" ""
	row "skillgit sync, nothing changed" unchanged "<= 0.5x floor" "$(verdict "$ru" 0.5)"
	[ -z "${BASE_BIN:-}" ] || row "  baseline binary" unchanged-base "" ""
	row "skillgit sync after one publish" one "< 0.100 s" "$(verdict "$o" 0.100)"
	printf '\nratio full/cp %s (goal 1.3, stated for 1,000 skills); unchanged/floor %s (goal 0.5)\n' \
		"$(ratio "$f" "$c")" "$(ratio "$u" "$l")"
	printf 'CPU seconds (user + system), medians: full %s, cp %s, unchanged %s, floor %s\n' \
		"$(cpu full)" "$(cpu cp)" "$(cpu unchanged)" "$(cpu floor)"
	if [ -n "${BASE_BIN:-}" ]; then
		printf 'baseline binary: full/cp %s, unchanged/floor %s\n' \
			"$(ratio "$(median full-base)" "$c")" "$(ratio "$(median unchanged-base)" "$l")"
	fi
	printf 'peak memory goal < 200 MiB: full %s MiB, unchanged %s MiB\n' "$(peak full)" "$(peak unchanged)"
}

run_bench
