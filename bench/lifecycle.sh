#!/usr/bin/env bash
# lifecycle.sh measures the lifecycle's performance goals on a generated repository, beside
# the git CLI in the same run:
#   publish   `skillgit publish ID` of an approved candidate that patches one skill, against
#             git's object-level merge (merge-tree --write-tree, commit-tree, update-ref; goal:
#             skillgit within 2x) and against `git merge --no-ff` in a checkout of main (goal:
#             skillgit at least 5x faster). Each runs on a fresh candidate branch made on the
#             current tip before the timer starts, in a bare copy of the repository.
#   log       `skillgit log NAME` with its trail cache and without (goal: under 0.5 s), and
#             `git log --first-parent -- skills/NAME` for context.
#   candidates `skillgit candidates` with 1,000 open candidates (goal: under 0.5 s), and
#             `git for-each-ref` over their tips' trailers for context.
# Every repetition runs each command once, in turn, so that load from other work on the
# machine falls on all of them alike; the table shows medians. Every command, skillgit's and
# git's, runs through one `bash -c`, so both carry the same start-up cost. The copy with
# 1,000 candidates is built once with skillgit propose/approve (a few minutes) and reused; the
# publish copy is made afresh on every run.
#
# Usage: bench/lifecycle.sh            (from anywhere)
# Settings, from the environment: RUNS, SKILLS, SEED, BENCH_DIR and SKILLGIT_BIN as in
# bench/lib.sh, and
#   COMMITS=20000    commits in the generated repository (20,000 here, as the goals say)
#   CANDIDATES=1000  open candidates for the candidates row
set -euo pipefail

COMMITS=${COMMITS:-20000}
CANDIDATES=${CANDIDATES:-1000}

source "$(dirname "$0")/lib.sh"

export GIT_AUTHOR_NAME="Bench Merger" GIT_AUTHOR_EMAIL="merger@example.com"
export GIT_COMMITTER_NAME="Bench Merger" GIT_COMMITTER_EMAIL="merger@example.com"
PROPOSER="Bench Proposer <proposer@example.com>"
APPROVER="Bench Approver <approver@example.com>"
WORK="$BENCH_DIR/lifecycle-$NAME"
PUB="$WORK/publish.git"
WT="$WORK/checkout"
REVS="$WORK/revisions"
CAND="$BENCH_DIR/candidates${CANDIDATES}-$NAME.git"

# bare_copy SRC DST copies the git folder of the repository SRC into a bare repository DST.
bare_copy() {
	rm -rf "$2"
	cp -a "$(git -C "$1" rev-parse --path-format=absolute --git-common-dir)" "$2"
	git -C "$2" config core.bare true
}

# revision N REL writes skill folder REL of the plain copy, with one line added to its
# SKILL.md, under $REVS and prints the folder. Each skill is patched at most once per copy, so
# the plain copy is still what the publish branch holds.
revision() {
	local dst
	dst="$REVS/$1/$(basename "$2")"
	mkdir -p "$(dirname "$dst")"
	cp -r "$TREE/$2" "$dst"
	printf '\nRevision %s: the steps above were checked again.\n' "$1" >>"$dst/SKILL.md"
	echo "$dst"
}

# propose REPO N prints the id of a new candidate in REPO that patches the N-th skill.
propose() {
	local out
	out=$("$BIN" -C "$1" propose --from "$(revision "$2" "${SKILL_DIRS[$2]}")" --author "$PROPOSER" --json 2>/dev/null) ||
		die "skillgit propose of ${SKILL_DIRS[$2]} failed"
	grep -o '"id": *"[^"]*"' <<<"$out" | sed -n 1p | sed 's/.*"\([^"]*\)"$/\1/'
}

approve() {
	"$BIN" -C "$1" approve "$2" --author "$APPROVER" >/dev/null 2>&1 || die "skillgit approve $2 failed"
}

# build_candidates makes the copy with $CANDIDATES open candidates, half of them approved.
build_candidates() {
	if [ -d "$CAND" ] && [ "$(git -C "$CAND" for-each-ref refs/heads/candidate/ | wc -l)" -ge "$CANDIDATES" ]; then
		say "reusing $CAND"
		return
	fi
	say "building $CAND: $CANDIDATES open candidates with skillgit propose and approve"
	bare_copy "$REPO" "$CAND"
	local i have id
	have=$(git -C "$CAND" for-each-ref refs/heads/candidate/ | wc -l)
	for ((i = have; i < CANDIDATES; i++)); do
		id=$(propose "$CAND" $((${#SKILL_DIRS[@]} - 1 - i)))
		[ -n "$id" ] || die "skillgit propose printed no id"
		if ((i % 2 == 0)); then approve "$CAND" "$id"; fi
		if ((i % 100 == 0)); then printf '.' >&2; fi
	done
	printf '\n' >&2
}

# check prepares the copies and makes sure every measured command works before anything is
# timed.
check() {
	GITDIR=$(git -C "$REPO" rev-parse --path-format=absolute --git-common-dir)
	mapfile -t SKILL_DIRS < <(cd "$TREE" && find . -name SKILL.md -printf '%h\n' | sed 's|^\./||' | sort)
	[ "${#SKILL_DIRS[@]}" -ge $((3 * RUNS + 3 + CANDIDATES)) ] || die "$TREE holds too few skills"
	rm -rf "$WORK"
	mkdir -p "$WORK"
	REVS="$WORK/revisions"
	bare_copy "$REPO" "$PUB"
	git -C "$PUB" worktree add -q "$WT" main
	build_candidates
	rm -rf "$REVS"
	NEXT=0
	LOGNAME_=$(git -C "$REPO" log --first-parent main --format='%(trailers:key=Skillgit-Skill,valueonly,separator=%x20)' |
		awk 'NF && !n { n = $1 } END { print n }')
	[ -n "$LOGNAME_" ] || die "no publish on main of $REPO"
	LOGPATH=skills/$(cd "$TREE" && find . -type d -name "$LOGNAME_" -printf '%P\n' | sed -n 1p)
	[ "$LOGPATH" != skills/ ] || die "$LOGNAME_ is not in $TREE"
	LOGN=$("$BIN" -C "$REPO" log "$LOGNAME_" | wc -l)
	[ "$LOGN" -gt 0 ] || die "skillgit log $LOGNAME_ printed nothing"
	local n
	n=$("$BIN" -C "$CAND" candidates | wc -l)
	[ "$n" -ge "$CANDIDATES" ] || die "skillgit candidates lists $n lines; want at least $CANDIDATES"
	export PUB WT REPO CAND BIN APPROVER LOGNAME_ LOGPATH
	# One publish of each kind, untimed, so that a failure shows here.
	prepare_publishes
	bash -c sgpublish && bash -c mergetree && sync_checkout && bash -c mergenoff || die "a publish failed; see above"
	say "log of $LOGNAME_ ($LOGPATH): $LOGN lines; candidates: $n lines"
}

# prepare_publishes makes three fresh candidates on the current tip: an approved one for
# skillgit and two plain branches for git.
prepare_publishes() {
	export SGID GITID NFFID
	SGID=$(propose "$PUB" "$NEXT")
	approve "$PUB" "$SGID"
	GITID=$(propose "$PUB" $((NEXT + 1)))
	NFFID=$(propose "$PUB" $((NEXT + 2)))
	NEXT=$((NEXT + 3))
}

# sync_checkout brings the checkout of main to where the other publishes moved main.
sync_checkout() { git -C "$WT" reset -q --hard; }

sgpublish() { "$BIN" -C "$PUB" publish "$SGID" --author "$APPROVER" >/dev/null; }
mergetree() {
	local tree new
	tree=$(git -C "$PUB" merge-tree --write-tree main "candidate/$GITID") &&
		new=$(git -C "$PUB" commit-tree -p main -p "candidate/$GITID" -m "merge candidate/$GITID" "$tree") &&
		git -C "$PUB" update-ref refs/heads/main "$new" "$new^1"
}
mergenoff() { git -C "$WT" merge -q --no-ff -m "merge candidate/$NFFID" "candidate/$NFFID" >/dev/null; }
sglog() { "$BIN" -C "$REPO" log "$LOGNAME_" >/dev/null; }
gitlog() { git -C "$REPO" log --first-parent --format=%H main -- "$LOGPATH" >/dev/null; }
sgcand() { "$BIN" -C "$CAND" candidates >/dev/null; }
gitcand() { git -C "$CAND" for-each-ref --format='%(refname) %(contents:trailers)' refs/heads/candidate/ >/dev/null; }
export -f sgpublish mergetree mergenoff sglog gitlog sgcand gitcand

one_round() {
	prepare_publishes
	measure publish bash -c sgpublish
	measure mergetree bash -c mergetree
	sync_checkout
	measure mergenoff bash -c mergenoff
	rm -f "$GITDIR"/skillgit/cache/trail-*
	measure logcold bash -c sglog
	measure log bash -c sglog
	measure gitlog bash -c gitlog
	measure candidates bash -c sgcand
	measure gitcand bash -c gitcand
}

report() {
	local p m n l c
	p=$(median publish)
	m=$(median mergetree)
	n=$(median mergenoff)
	l=$(median log)
	c=$(median candidates)
	printf '\nskillgit lifecycle benchmark: %s skills, %s commits, %s runs, %s CPUs, load %s\n' \
		"$SKILLS" "$COMMITS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'repository %s (%s packed); publishes in a bare copy, %s candidates in %s\n\n' \
		"$REPO" "$(du -sh "$GITDIR/objects" | cut -f1)" "$CANDIDATES" "$CAND"
	table_head
	row "skillgit publish ID" publish "" ""
	row "git merge-tree + commit-tree + update-ref" mergetree "(baseline)" ""
	row "git merge --no-ff (checkout of main)" mergenoff "(baseline)" ""
	row "skillgit log NAME, trail cache removed" logcold "< 0.5 s" "$(verdict "$(median logcold)" 0.5)"
	row "skillgit log NAME" log "< 0.5 s" "$(verdict "$l" 0.5)"
	row "git log --first-parent -- skills/NAME" gitlog "(context)" ""
	row "skillgit candidates ($CANDIDATES open)" candidates "< 0.5 s" "$(verdict "$c" 0.5)"
	row "git for-each-ref, tips' trailers" gitcand "(context)" ""
	printf '\npublish / object-level git merge: %s (goal <= 2: %s)\n' "$(ratio "$p" "$m")" \
		"$(awk -v a="$p" -v b="$m" 'BEGIN { print (a / b <= 2) ? "met" : "MISSED" }')"
	printf 'git merge --no-ff / publish: %s (goal >= 5: %s)\n' "$(ratio "$n" "$p")" \
		"$(awk -v a="$n" -v b="$p" 'BEGIN { print (a / b >= 5) ? "met" : "MISSED" }')"
	printf 'log / git log: %s (warm), %s (trail cache removed); candidates / for-each-ref: %s\n' \
		"$(ratio "$l" "$(median gitlog)")" "$(ratio "$(median logcold)" "$(median gitlog)")" "$(ratio "$c" "$(median gitcand)")"
	if [ "$HAVE_TIME" = 1 ]; then
		local pk
		pk=$(for k in publish logcold log candidates; do peak "$k"; done | sort -n | tail -1)
		printf 'peak memory of skillgit: %s MiB\n' "$pk"
	fi
	echo "every row runs through one bash -c; storage after 1,000 publishes: go test -bench PublishStorage ./lifecycle/"
}

run_bench
