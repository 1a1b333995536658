#!/usr/bin/env bash
# match.sh measures listing and skill selection on a generated repository: `skillgit list` and
# `skillgit match TASK` cold (the catalog cache removed; goal 0.3 s each) and as usual (the
# cache kept up to date by every publish), beside `git grep` of the task's words over the same
# skills for context; `skillgit list` in a fresh clone (made once per run with
# `git clone --no-local`, outside the timer, its .git/skillgit removed before every measured
# run; goal 0.3 s) beside `git ls-tree -r | git cat-file --batch` reading the same SKILL.md
# files; the CPU time and peak RSS of every skillgit command
# (goal under 200 MiB); and `skillgit mcp` answering match_skills on a warm server, timed by an
# MCP client over stdio (bench/mcpclient). Every repetition runs each command once, in turn;
# the table shows medians.
#
# Usage: bench/match.sh            (from anywhere)
# Settings, from the environment:
#   RUNS=10          repetitions
#   SKILLS=10000     skills in the generated repository
#   COMMITS=3000     commits in the generated repository
#   SEED=1           generator seed
#   CALLS=200        timed match_skills calls on the warm server
#   BENCH_DIR=/tmp/skillgit-bench   where the binary and repository live; a repository
#                    generated with the same settings is reused
#   SKILLGIT_BIN=    measure this skillgit binary instead of building one, to compare builds
set -euo pipefail

CALLS=${CALLS:-200}
TASK="review the database migration scripts and write release notes for the deploy"

source "$(dirname "$0")/lib.sh"

# check makes sure every measured command works before anything is timed.
check() {
	GITDIR=$(git -C "$REPO" rev-parse --path-format=absolute --git-common-dir)
	CACHE="$GITDIR/skillgit/cache"
	local n
	n=$("$BIN" -C "$REPO" match --json --limit 5 "$TASK" | grep -c '"name"' || true)
	[ "$n" -gt 0 ] || die "skillgit match found nothing for \"$TASK\" in $REPO"
	(cd "$ROOT" && go build -o "$BENCH_DIR/mcpclient" ./bench/mcpclient)
	FRESH="$BENCH_DIR/fresh-$NAME"
	rm -rf "$FRESH"
	git clone -q --no-local "$REPO" "$FRESH"
	"$BIN" -C "$FRESH" list >/dev/null || die "skillgit list fails in the fresh clone $FRESH"
}

# catskills reads every SKILL.md of the fresh clone's publish branch with git: the same-run
# baseline of the fresh-clone listing.
catskills() {
	git -C "$FRESH" ls-tree -r HEAD -- skills | awk '$4 ~ /\/SKILL\.md$/ { print $3 }' |
		git -C "$FRESH" cat-file --batch >/dev/null
}
export -f catskills

grepwords() { git -C "$REPO" grep -l -i -e review -e database -e migration -e release -e deploy main -- 'skills/*SKILL.md' >/dev/null; }
export -f grepwords
export REPO FRESH

one_round() {
	rm -rf "$CACHE"
	measure listcold "$BIN" -C "$REPO" list
	measure listwarm "$BIN" -C "$REPO" list
	rm -rf "$CACHE"
	measure cold "$BIN" -C "$REPO" match --limit 5 "$TASK"
	measure usual "$BIN" -C "$REPO" match --limit 5 "$TASK"
	measure grep bash -c grepwords
	rm -rf "$FRESH/.git/skillgit"
	measure listfresh "$BIN" -C "$FRESH" list
	measure catfresh bash -c catskills
}

report() {
	local c u l
	c=$(median cold)
	u=$(median usual)
	l=$(median listcold)
	printf '\nskillgit list and match benchmark: %s skills, %s commits, %s runs, %s CPUs, load %s\n\n' \
		"$SKILLS" "$COMMITS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	table_head
	row "skillgit list, cold (cache removed)" listcold "< 0.300 s" "$(verdict "$l" 0.300)"
	row "skillgit list, fresh clone" listfresh "< 0.300 s" "$(verdict "$(median listfresh)" 0.300)"
	row "skillgit match, cold (cache removed)" cold "< 0.300 s" "$(verdict "$c" 0.300)"
	row "skillgit match, cache kept by publishes" usual "< 0.300 s" "$(verdict "$u" 0.300)"
	row "skillgit list, cache kept by publishes" listwarm "(context)" ""
	row "git grep -l -i (5 words) main -- skills" grep "(context)" ""
	row "git ls-tree -r | cat-file --batch, fresh" catfresh "(baseline)" ""
	printf '\nratios: match cold/git grep %.2f, match usual/git grep %.2f, list fresh/git cat-file %.2f\n' \
		"$(ratio "$c" "$(median grep)")" "$(ratio "$u" "$(median grep)")" "$(ratio "$(median listfresh)" "$(median catfresh)")"
	printf 'CPU time (user + system), medians: list cold %s s, list fresh clone %s s, match cold %s s, list cached %s s, match cached %s s, git cat-file %s s\n' \
		"$(cpu listcold)" "$(cpu listfresh)" "$(cpu cold)" "$(cpu listwarm)" "$(cpu usual)" "$(cpu catfresh)"
	if [ "$HAVE_TIME" = 1 ]; then
		local lm fm cm lw uw
		lm=$(peak listcold)
		fm=$(peak listfresh)
		cm=$(peak cold)
		lw=$(peak listwarm)
		uw=$(peak usual)
		printf 'peak RSS (goal < 200 MiB): list cold %s MiB %s, list fresh clone %s MiB %s, match cold %s MiB %s, list cached %s MiB %s, match cached %s MiB %s\n' \
			"$lm" "$(verdict "$lm" 200)" "$fm" "$(verdict "$fm" 200)" "$cm" "$(verdict "$cm" 200)" "$lw" "$(verdict "$lw" 200)" "$uw" "$(verdict "$uw" 200)"
	fi
	printf '\nskillgit mcp, match_skills on a warm server (goal < 20 ms): '
	"$BENCH_DIR/mcpclient" -skillgit "$BIN" -repo "$REPO" -calls "$CALLS" -task "$TASK"
}

run_bench
