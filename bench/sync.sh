#!/usr/bin/env bash
# sync.sh measures the sync goals on a generated repository: a full sync into an empty folder
# against cp -r of the same files, a sync after one skill changed, and peak memory. Every
# repetition runs each command once, in turn; the table shows medians.
#
# Usage: bench/sync.sh            (from anywhere)
# Settings, from the environment:
#   RUNS=10          repetitions
#   SKILLS=10000     skills in the generated repository
#   COMMITS=3000     commits in the generated repository
#   SEED=1           generator seed
#   BENCH_DIR=/tmp/skillgit-bench   where the binary, repository and plain copy live
#   SKILLGIT_BIN=    measure this skillgit binary instead of building one
set -euo pipefail

source "$(dirname "$0")/lib.sh"

check() {
	OUT="$BENCH_DIR/sync-out"
	WORK="$BENCH_DIR/sync-repo-$NAME"
	rm -rf "$OUT" "$WORK"
	# Publishes go into a copy, so the generated repository stays as it was made.
	cp -r "$REPO" "$WORK"
	"$BIN" -C "$WORK" sync --dir "$OUT/check" >/dev/null || die "skillgit sync failed on $WORK"
	CHANGED="$OUT/changed"
	"$BIN" -C "$WORK" sync --dir "$CHANGED" >/dev/null
	ONE=$(ls "$CHANGED" | grep -v '^\.' | awk 'NR == 1')
	DRAFT="$OUT/draft/$ONE"
	ROUND=0
}

# publish_one publishes a new version of one skill through the lifecycle (propose, approve,
# publish), so that the next sync has exactly one published change to install.
publish_one() {
	ROUND=$((ROUND + 1))
	mkdir -p "$DRAFT"
	printf -- '---\nname: %s\ndescription: Version %s of this skill, published by the sync benchmark.\n---\n# %s\n\nRound %s.\n' \
		"$ONE" "$ROUND" "$ONE" "$ROUND" >"$DRAFT/SKILL.md"
	local id
	id=$("$BIN" -C "$WORK" propose --from "$DRAFT" --author "Bench Proposer <proposer@example.com>" 2>/dev/null) ||
		die "propose failed"
	"$BIN" -C "$WORK" approve "$id" --author "Bench Approver <approver@example.com>" >/dev/null 2>&1 || die "approve failed"
	"$BIN" -C "$WORK" publish "$id" --author "Bench Approver <approver@example.com>" >/dev/null 2>&1 || die "publish failed"
}

one_round() {
	rm -rf "$OUT/full" "$OUT/cp"
	measure full "$BIN" -C "$WORK" sync --dir "$OUT/full"
	measure cp cp -r "$TREE" "$OUT/cp"
	publish_one
	measure one "$BIN" -C "$WORK" sync --dir "$CHANGED"
}

report() {
	local f c o
	f=$(median full)
	c=$(median cp)
	o=$(median one)
	printf '\nskillgit sync benchmark: %s skills, %s runs, %s CPUs, load %s\n\n' \
		"$SKILLS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	table_head
	row "cp -r skills folder" cp "" ""
	row "skillgit sync, empty target" full "< 1.5x cp -r" "$(verdict "$(awk -v a="$f" -v b="$c" 'BEGIN{print a/b}')" 1.5)"
	row "skillgit sync after one publish" one "< 0.100 s" "$(verdict "$o" 0.100)"
	printf '\nratio full/cp %s; peak memory goal < 200 MiB: %s MiB\n' "$(ratio "$f" "$c")" "$(peak full)"
}

run_bench
