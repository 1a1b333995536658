#!/usr/bin/env bash
# publish-scale.sh measures how `skillgit publish` grows with the repository when the publish
# branch is checked out, so that the publish also updates the working tree and the index:
#   publish   `skillgit publish ID` of an approved candidate that patches one skill, run in a
#             checkout of main of the repository of SMALL skills and in one of LARGE skills
#             (goal: the publish at LARGE within 2x the publish at SMALL)
#   merge     `git merge --no-ff` of a candidate branch in a checkout of the same repository,
#             the baseline (goal: skillgit's publish faster at LARGE)
# and the peak memory of the publish at LARGE (goal: under 400 MiB). Every repetition makes
# a fresh candidate per command on the current tip before the timer starts, then runs each
# command once, in turn, at both sizes, so that load from other work on the machine falls on
# all of them alike; the table shows medians. Each command has its own checkout, a copy of
# the generated repository made afresh on every run, so that each meets the index it leaves
# itself: git's merge writes the index's cache of every folder's tree, which a publish
# leaves out for a folder of more than 1,000 skills, and each would otherwise pay for the
# other's. After the last round git must find every checkout clean.
#
# Usage: bench/publish-scale.sh            (from anywhere)
# Settings, from the environment: RUNS, COMMITS, SEED, BENCH_DIR and SKILLGIT_BIN as in
# bench/lib.sh, and
#   SMALL=10000    skills in the smaller repository
#   LARGE=100000   skills in the larger one (generating it takes about ten minutes, once)
set -euo pipefail

SMALL=${SMALL:-10000}
LARGE=${LARGE:-100000}

source "$(dirname "$0")/lib.sh"

export GIT_AUTHOR_NAME="Bench Merger" GIT_AUTHOR_EMAIL="merger@example.com"
export GIT_COMMITTER_NAME="Bench Merger" GIT_COMMITTER_EMAIL="merger@example.com"
PROPOSER="Bench Proposer <proposer@example.com>"
APPROVER="Bench Approver <approver@example.com>"
WORK="$BENCH_DIR/publish-scale"
RESULTS="$BENCH_DIR/results-publish-scale"

# use_size N points SKILLS, NAME, REPO, TREE and STAMP at the repository of N skills, and CO
# and REVS at its checkout and revised skills.
use_size() {
	SKILLS=$1
	NAME="s${SKILLS}-c${COMMITS}-seed${SEED}-g2"
	REPO="$BENCH_DIR/repo-$NAME"
	TREE="$BENCH_DIR/tree-$NAME"
	STAMP="$BENCH_DIR/done-$NAME"
	CO="$WORK/checkout-$SKILLS"
	GCO="$WORK/git-checkout-$SKILLS"
	REVS="$WORK/revisions-$SKILLS"
}

prepare() {
	local n
	for n in "$SMALL" "$LARGE"; do
		use_size "$n"
		generate
	done
}

# check copies each repository into a fresh checkout of main and makes sure every measured
# command works there before anything is timed.
check() {
	local n
	rm -rf "$WORK"
	mkdir -p "$WORK"
	for n in "$SMALL" "$LARGE"; do
		use_size "$n"
		say "copying $REPO into $CO and $GCO"
		cp -a "$REPO" "$CO"
		cp -a "$REPO" "$GCO"
		[ "$(git -C "$CO" symbolic-ref HEAD)" = refs/heads/main ] || die "$REPO does not have main checked out"
		[ -z "$(git -C "$CO" status --porcelain)" ] || die "$CO is not clean after the copy"
		mapfile -t DIRS < <(cd "$TREE" && find . -name SKILL.md -printf '%h\n' | sed 's|^\./||' | sort | head -$((2 * RUNS + 2)))
		[ "${#DIRS[@]}" -ge $((2 * RUNS + 2)) ] || die "$TREE holds too few skills"
		eval "DIRS_$n=(\"\${DIRS[@]}\")"
		eval "NEXT_$n=0"
	done
	export BIN APPROVER
	# One of each, untimed, so that a failure shows here.
	for n in "$SMALL" "$LARGE"; do
		prepare_publishes "$n"
		bash -c sgpublish && bash -c mergenoff || die "a publish at $n skills failed; see above"
	done
}

# revision REL writes skill folder REL of the plain copy, with one line added to its
# SKILL.md, under $REVS and prints the folder. Each skill is patched once per checkout, so
# the plain copy is still what main holds there.
revision() {
	local dst
	dst="$REVS/$(basename "$1")"
	mkdir -p "$REVS"
	cp -r "$TREE/$1" "$dst"
	printf '\nRevision: the steps above were checked again.\n' >>"$dst/SKILL.md"
	echo "$dst"
}

# propose DIR REL prints the id of a new candidate in checkout DIR that patches skill folder
# REL.
propose() {
	local out
	out=$("$BIN" -C "$1" propose --from "$(revision "$2")" --author "$PROPOSER" --json 2>/dev/null) ||
		die "skillgit propose of $2 in $1 failed"
	grep -o '"id": *"[^"]*"' <<<"$out" | sed -n 1p | sed 's/.*"\([^"]*\)"$/\1/'
}

# prepare_publishes N makes, on the current tip of each checkout of N skills, an approved
# candidate for skillgit and a candidate branch for git, and exports what the commands use.
prepare_publishes() {
	use_size "$1"
	local next dirs
	next=$(eval "echo \$NEXT_$1")
	eval "dirs=(\"\${DIRS_$1[@]}\")"
	SGID=$(propose "$CO" "${dirs[$next]}")
	"$BIN" -C "$CO" approve "$SGID" --author "$APPROVER" >/dev/null 2>&1 || die "skillgit approve $SGID failed"
	NFFID=$(propose "$GCO" "${dirs[$((next + 1))]}")
	eval "NEXT_$1=$((next + 2))"
	export CO GCO SGID NFFID
}

sgpublish() { "$BIN" -C "$CO" publish "$SGID" --author "$APPROVER" >/dev/null; }
mergenoff() { git -C "$GCO" merge -q --no-ff -m "merge candidate/$NFFID" "candidate/$NFFID" >/dev/null; }
export -f sgpublish mergenoff

one_round() {
	local n
	for n in "$SMALL" "$LARGE"; do
		prepare_publishes "$n"
		measure "publish-$n" bash -c sgpublish
		measure "merge-$n" bash -c mergenoff
	done
}

report() {
	local ps pl ml n d
	for n in "$SMALL" "$LARGE"; do
		use_size "$n"
		for d in "$CO" "$GCO"; do
			[ -z "$(git -C "$d" status --porcelain)" ] || die "git status in $d is not clean after the rounds"
			git -C "$d" diff --cached --quiet || die "git diff --cached in $d is not empty after the rounds"
			[ "$(git -C "$d" write-tree)" = "$(git -C "$d" rev-parse 'HEAD^{tree}')" ] || die "git write-tree in $d is not HEAD's tree"
		done
	done
	ps=$(median "publish-$SMALL")
	pl=$(median "publish-$LARGE")
	ml=$(median "merge-$LARGE")
	printf '\nskillgit publish at scale: %s and %s skills, %s commits, %s runs, %s CPUs, load %s\n' \
		"$SMALL" "$LARGE" "$COMMITS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'checkouts of main in %s; index %s and %s\n\n' "$WORK" \
		"$(du -h "$WORK/checkout-$SMALL/.git/index" | cut -f1)" "$(du -h "$WORK/checkout-$LARGE/.git/index" | cut -f1)"
	table_head
	row "skillgit publish ID ($SMALL skills)" "publish-$SMALL" "" ""
	row "git merge --no-ff ($SMALL skills)" "merge-$SMALL" "(baseline)" ""
	row "skillgit publish ID ($LARGE skills)" "publish-$LARGE" "<= 2x at $SMALL" \
		"$(awk -v a="$pl" -v b="$ps" 'BEGIN { print (a / b <= 2) ? "met" : "MISSED" }')"
	row "git merge --no-ff ($LARGE skills)" "merge-$LARGE" "(baseline)" ""
	printf '\npublish at %s / publish at %s: %s (goal <= 2)\n' "$LARGE" "$SMALL" "$(ratio "$pl" "$ps")"
	printf 'CPU time of the publish (median): %s s at %s, %s s at %s, ratio %s\n' "$(cpu "publish-$SMALL")" "$SMALL" \
		"$(cpu "publish-$LARGE")" "$LARGE" "$(ratio "$(cpu "publish-$LARGE")" "$(cpu "publish-$SMALL")")"
	printf 'git merge --no-ff / publish at %s: %s (goal > 1: %s)\n' "$LARGE" "$(ratio "$ml" "$pl")" \
		"$(awk -v a="$ml" -v b="$pl" 'BEGIN { print (a > b) ? "met" : "MISSED" }')"
	if [ "$HAVE_TIME" = 1 ]; then
		printf 'peak memory of skillgit publish at %s: %s MiB (goal < 400: %s)\n' "$LARGE" "$(peak "publish-$LARGE")" \
			"$(awk -v m="$(peak "publish-$LARGE")" 'BEGIN { print (m < 400) ? "met" : "MISSED" }')"
	fi
	echo "every row runs through one bash -c; git status, git diff --cached and git write-tree agree with HEAD in every checkout"
}

run_bench
