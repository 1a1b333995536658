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
	rm -rf "$OUT"
	"$BIN" -C "$REPO" sync --dir "$OUT/check" >/dev/null || die "skillgit sync failed on $REPO"
	SKILLS_DIR=$(git -C "$REPO" show main:.skillgit.yaml | awk '/^skills_dir:/ { print $2 }')
	CHANGED="$OUT/changed"
	"$BIN" -C "$REPO" sync --dir "$CHANGED" >/dev/null
	ONE=$(ls "$CHANGED" | grep -v '^\.' | awk 'NR == 1')
}

# touch_one edits one installed skill's manifest record away, so that the next sync rewrites
# exactly that skill, as after one published change.
touch_one() {
	python3 - "$CHANGED/.skillgit-manifest.json" "$ONE" <<'PY'
import json, sys
p, name = sys.argv[1], sys.argv[2]
m = json.load(open(p))
m["skills"][name]["source"] = "changed"
json.dump(m, open(p, "w"))
PY
}

one_round() {
	rm -rf "$OUT/full" "$OUT/cp"
	measure full "$BIN" -C "$REPO" sync --dir "$OUT/full"
	measure cp cp -r "$TREE" "$OUT/cp"
	touch_one
	measure one "$BIN" -C "$REPO" sync --dir "$CHANGED"
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
	row "skillgit sync, one skill changed" one "< 0.100 s" "$(verdict "$o" 0.100)"
	printf '\nratio full/cp %s; peak memory goal < 200 MiB: %s MiB\n' "$(ratio "$f" "$c")" "$(peak full)"
}

run_bench
