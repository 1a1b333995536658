#!/usr/bin/env bash
# interrupt.sh measures what the lock bookkeeping costs a publish: the owner record written
# beside each lock file skillgit takes, the registration of every lock and temporary file for
# removal on a signal, and the signal handler. It builds skillgit twice, at BASE (the commit
# before the bookkeeping) and at the working tree's HEAD, and times `skillgit publish ID` of an
# approved one-skill candidate with each build on the same checked-out repository.
# Every repetition makes two fresh candidates on the current tip (untimed, with the HEAD
# build), then publishes one with each build, the order alternating between repetitions, so
# that load from other work on the machine and the growing history fall on both alike. Both
# run through one `bash -c`. The table shows medians, and the ratio HEAD / BASE.
#
# Usage: bench/interrupt.sh            (from anywhere)
# Settings, from the environment: RUNS, SEED and BENCH_DIR as in bench/lib.sh, and
#   RUNS=21          repetitions (21 here)
#   SKILLS=3000      skills in the generated repository (3,000 here)
#   COMMITS=1000     commits in the generated repository (1,000 here)
#   BASE=5552143     the commit to compare with (the one before the lock bookkeeping)
set -euo pipefail

RUNS=${RUNS:-21}
SKILLS=${SKILLS:-3000}
COMMITS=${COMMITS:-1000}
BASE=${BASE:-5552143}

source "$(dirname "$0")/lib.sh"

export GIT_AUTHOR_NAME="Bench Merger" GIT_AUTHOR_EMAIL="merger@example.com"
export GIT_COMMITTER_NAME="Bench Merger" GIT_COMMITTER_EMAIL="merger@example.com"
PROPOSER="Bench Proposer <proposer@example.com>"
APPROVER="Bench Approver <approver@example.com>"
WORK="$BENCH_DIR/interrupt-$NAME"
COPY="$WORK/repo"
REVS="$WORK/revisions"
BASEBIN="$BENCH_DIR/skillgit-base"
HEADBIN="$BENCH_DIR/skillgit-head"

# build_both builds skillgit at BASE, from an exported copy of that commit, and at HEAD, from
# the working tree, and the generator.
build_both() {
	mkdir -p "$BENCH_DIR"
	local src
	src=$(mktemp -d)
	say "building skillgit at $BASE and at HEAD"
	git -C "$ROOT" archive "$BASE" | tar -x -C "$src"
	(cd "$src" && go build -o "$BASEBIN" ./cmd/skillgit)
	rm -rf "$src"
	(cd "$ROOT" && go build -o "$HEADBIN" ./cmd/skillgit)
	(cd "$ROOT" && go build -o "$BENCH_DIR/gen" ./bench/gen)
	BIN=$HEADBIN
}

# revision N REL writes skill folder REL of the plain copy, with one line added to its
# SKILL.md, under $REVS and prints the folder.
revision() {
	local dst
	dst="$REVS/$1/$(basename "$2")"
	mkdir -p "$(dirname "$dst")"
	cp -r "$TREE/$2" "$dst"
	printf '\nRevision %s: the steps above were checked again.\n' "$1" >>"$dst/SKILL.md"
	echo "$dst"
}

# candidate N prints the id of a new approved candidate in the copy that patches the N-th
# skill.
candidate() {
	local out id
	out=$("$HEADBIN" -C "$COPY" propose --from "$(revision "$1" "${SKILL_DIRS[$1]}")" --author "$PROPOSER" --json 2>/dev/null) ||
		die "skillgit propose of ${SKILL_DIRS[$1]} failed"
	id=$(grep -o '"id": *"[^"]*"' <<<"$out" | sed -n 1p | sed 's/.*"\([^"]*\)"$/\1/')
	[ -n "$id" ] || die "skillgit propose printed no id"
	"$HEADBIN" -C "$COPY" approve "$id" --author "$APPROVER" >/dev/null 2>&1 || die "skillgit approve $id failed"
	echo "$id"
}

check() {
	mapfile -t SKILL_DIRS < <(cd "$TREE" && find . -name SKILL.md -printf '%h\n' | sed 's|^\./||' | sort)
	[ "${#SKILL_DIRS[@]}" -ge $((2 * RUNS + 2)) ] || die "$TREE holds too few skills"
	rm -rf "$WORK"
	mkdir -p "$WORK"
	cp -a "$REPO" "$COPY"
	NEXT=0
	export COPY APPROVER BASEBIN HEADBIN
	# One publish with each build, untimed, so that a failure shows here.
	prepare_publishes
	bash -c basepublish && bash -c headpublish || die "a publish failed; see above"
	local locks
	locks=$(find "$COPY/.git" -name '*.lock' | wc -l)
	[ "$locks" = 0 ] || die "lock files left in $COPY/.git after the publishes"
}

prepare_publishes() {
	export BASEID HEADID
	BASEID=$(candidate "$NEXT")
	HEADID=$(candidate $((NEXT + 1)))
	NEXT=$((NEXT + 2))
}

basepublish() { "$BASEBIN" -C "$COPY" publish "$BASEID" --author "$APPROVER" >/dev/null; }
headpublish() { "$HEADBIN" -C "$COPY" publish "$HEADID" --author "$APPROVER" >/dev/null; }
export -f basepublish headpublish

ROUND=0
one_round() {
	prepare_publishes
	ROUND=$((ROUND + 1))
	if ((ROUND % 2)); then
		measure base bash -c basepublish
		measure head bash -c headpublish
	else
		measure head bash -c headpublish
		measure base bash -c basepublish
	fi
}

report() {
	local b h
	b=$(median base)
	h=$(median head)
	printf '\nskillgit interrupt benchmark: %s skills, %s commits, %s runs, %s CPUs, load %s\n' \
		"$SKILLS" "$COMMITS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'repository %s, publishes in a checked-out copy\n\n' "$COPY"
	table_head
	row "skillgit publish ID, $(git -C "$ROOT" rev-parse --short "$BASE")" base "(baseline)" ""
	row "skillgit publish ID, $(git -C "$ROOT" rev-parse --short HEAD)" head "<= 1.05 x baseline" \
		"$(awk -v a="$h" -v b="$b" 'BEGIN { print (a / b <= 1.05) ? "met" : "MISSED" }')"
	printf '\npublish with lock bookkeeping / without: %s\n' "$(ratio "$h" "$b")"
}

# The two builds take the place of lib.sh's one.
build() { build_both; }
run_bench
