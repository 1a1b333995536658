#!/usr/bin/env bash
# match.sh measures listing and skill selection on a generated repository: `skillgit list` and
# `skillgit match TASK` cold (the catalog cache removed, as in a fresh clone; goal 0.3 s each)
# and as usual (the cache kept up to date by every publish), beside `git grep` of the task's
# words over the same skills for context; the CPU time and peak RSS of every skillgit command
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
}

grepwords() { git -C "$REPO" grep -l -i -e review -e database -e migration -e release -e deploy main -- 'skills/*SKILL.md' >/dev/null; }
export -f grepwords
export REPO

one_round() {
	rm -rf "$CACHE"
	measure listcold "$BIN" -C "$REPO" list
	measure listwarm "$BIN" -C "$REPO" list
	rm -rf "$CACHE"
	measure cold "$BIN" -C "$REPO" match --limit 5 "$TASK"
	measure usual "$BIN" -C "$REPO" match --limit 5 "$TASK"
	measure grep bash -c grepwords
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
	row "skillgit match, cold (cache removed)" cold "< 0.300 s" "$(verdict "$c" 0.300)"
	row "skillgit match, cache kept by publishes" usual "< 0.300 s" "$(verdict "$u" 0.300)"
	row "skillgit list, cache kept by publishes" listwarm "(context)" ""
	row "git grep -l -i (5 words) main -- skills" grep "(context)" ""
	printf '\nratios: match cold/git grep %.2f, match usual/git grep %.2f\n' \
		"$(ratio "$c" "$(median grep)")" "$(ratio "$u" "$(median grep)")"
	printf 'CPU time (user + system), medians: list cold %s s, match cold %s s, list cached %s s, match cached %s s\n' \
		"$(cpu listcold)" "$(cpu cold)" "$(cpu listwarm)" "$(cpu usual)"
	if [ "$HAVE_TIME" = 1 ]; then
		local lm cm lw uw
		lm=$(peak listcold)
		cm=$(peak cold)
		lw=$(peak listwarm)
		uw=$(peak usual)
		printf 'peak RSS (goal < 200 MiB): list cold %s MiB %s, match cold %s MiB %s, list cached %s MiB %s, match cached %s MiB %s\n' \
			"$lm" "$(verdict "$lm" 200)" "$cm" "$(verdict "$cm" 200)" "$lw" "$(verdict "$lw" 200)" "$uw" "$(verdict "$uw" 200)"
	fi
	printf '\nskillgit mcp, match_skills on a warm server (goal < 20 ms): '
	"$BENCH_DIR/mcpclient" -skillgit "$BIN" -repo "$REPO" -calls "$CALLS" -task "$TASK"
}

run_bench
