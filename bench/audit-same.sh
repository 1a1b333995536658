#!/usr/bin/env bash
# audit-same.sh shows that two skillgit binaries find the same things: it audits, with each
# binary and the cache off, the skills of every folder under CORPUS (every folder holding a
# SKILL.md, dot-folders too, in one run per folder), every skill of the generated repository's publish
# branch (`audit --rev main`), the plain copy of it, and the audit's own test skills, and
# compares the JSON reports byte for byte, and the exit statuses. Use it when a change to the
# audit must leave detection as it was, such as a change for speed.
#
# Usage: bench/audit-same.sh OLD_BIN NEW_BIN
# Settings, from the environment: CORPUS names a folder whose folders hold real
# skills; SKILLS, COMMITS, SEED and BENCH_DIR name the generated repository as in bench/lib.sh
# (it is left out when it has not been generated). KEEP=1 keeps the reports.
# Exit status 0 when every report is the same, 1 when one differs.
set -euo pipefail

case "${1:-}" in
-h | --help | "")
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	[ -n "${1:-}" ] && exit 0
	exit 2
	;;
esac
OLD=$1
NEW=${2:?usage: bench/audit-same.sh OLD_BIN NEW_BIN}
for b in "$OLD" "$NEW"; do [ -x "$b" ] || { echo "audit-same: $b is not an executable" >&2; exit 2; }; done

CORPUS=${CORPUS:-}
[ -n "$CORPUS" ] || echo "audit-same: CORPUS is not set; only the test skills and the generated repository are compared" >&2
SKILLS=${SKILLS:-10000}
COMMITS=${COMMITS:-3000}
SEED=${SEED:-1}
BENCH_DIR=${BENCH_DIR:-/tmp/skillgit-bench}
NAME="s${SKILLS}-c${COMMITS}-seed${SEED}-g2"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(mktemp -d)
if [ "${KEEP:-}" = 1 ]; then echo "reports kept in $OUT" >&2; else trap 'rm -rf "$OUT"' EXIT; fi

# run BIN LABEL ARGS... audits with BIN from an empty folder, so that no repository around the
# caller is taken for the skills' own, and writes the report and the exit status under OUT.
run() {
	local bin=$1 label=$2 rc=0
	shift 2
	(cd "$OUT" && "$bin" "$@" --no-cache --format json >"$OUT/$label.json" 2>"$OUT/$label.err") || rc=$?
	echo "$rc" >"$OUT/$label.rc"
}

differ=0 compared=0
# compare NAME ARGS... audits with both binaries and reports whether the results are the same.
compare() {
	local name=$1 label
	shift
	label=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')
	run "$OLD" "old-$label" "$@"
	run "$NEW" "new-$label" "$@"
	local rcs findings
	rcs="$(cat "$OUT/old-$label.rc")/$(cat "$OUT/new-$label.rc")"
	findings=$(grep -c '"rule_id":' "$OUT/new-$label.json" || true)
	compared=$((compared + 1))
	if cmp -s "$OUT/old-$label.json" "$OUT/new-$label.json" && cmp -s "$OUT/old-$label.rc" "$OUT/new-$label.rc" &&
		[ -s "$OUT/new-$label.json" ]; then
		printf 'same       %-60s exit %s, %s findings, %s bytes of JSON\n' "$name" "$rcs" "$findings" "$(wc -c <"$OUT/new-$label.json")"
		return
	fi
	differ=$((differ + 1))
	printf 'DIFFERENT  %-60s exit %s\n' "$name" "$rcs"
	diff "$OUT/old-$label.json" "$OUT/new-$label.json" | head -20 || true
	head -3 "$OUT/old-$label.err" "$OUT/new-$label.err" || true
}

for d in ${CORPUS:+"$CORPUS"/*/}; do
	[ -d "$d" ] || continue
	mapfile -t skills < <(find "${d%/}" -name SKILL.md -type f -printf '%h\n' | sort -u)
	[ "${#skills[@]}" -gt 0 ] && compare "${d%/} (${#skills[@]} skill folders)" audit "${skills[@]}"
done
for d in "$ROOT"/audit/testdata/*/; do
	[ -d "$d" ] && find "$d" -name SKILL.md -print -quit | grep -q . && compare "${d%/}" audit "${d%/}"
done
if [ -d "$BENCH_DIR/repo-$NAME" ]; then
	compare "$BENCH_DIR/repo-$NAME --rev main" -C "$BENCH_DIR/repo-$NAME" audit --rev main
	compare "$BENCH_DIR/tree-$NAME" audit "$BENCH_DIR/tree-$NAME"
else
	echo "no generated repository at $BENCH_DIR/repo-$NAME: run bench/audit.sh once to make it" >&2
fi

if [ "$differ" -gt 0 ]; then
	echo "$differ of $compared reports differ" >&2
	exit 1
fi
echo "all $compared reports are the same"
