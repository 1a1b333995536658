#!/usr/bin/env bash
# peer.sh measures the first sync of the generated repository (10,000 skills) into an empty
# agent folder against skillshare, the fastest peer, a Go skill manager that installs skills
# from a git repository. Goal: skillgit at most the peer's time, peak memory under 200 MiB.
# Both read the repository from git daemon on loopback (a bare copy packed as a server keeps
# it, uploadpack.allowFilter on) and write copies into .claude/skills of a project:
#   cold  skillgit: `sync` in an application project with no lock, into an empty cache
#         (XDG_CACHE_HOME) and an empty folder. skillshare: a new project with its own HOME and
#         XDG folders, `init -p --targets claude --mode copy` (not timed), then
#         `install URL -p --track --skip-audit` (one shallow clone; its audit skipped, its
#         fastest install) and `sync -p`, timed apart and together.
#   warm  skillgit: the cached clone kept, the installed folder and the lock removed, `sync`.
#         skillshare: its source folder kept, the installed folder removed, `sync -p`.
# skillshare takes no git:// URL: it is given http://127.0.0.1:PORT/bench/skills.git, which
# git rewrites to the daemon (url.insteadOf in the peer's own HOME). Every round checks that
# each tool wrote every SKILL.md of the repository. Every repetition runs each command once,
# in turn; the table shows medians.
#
# Usage: SKILLSHARE=/path/to/skillshare bench/peer.sh            (from anywhere)
# Without SKILLSHARE only skillgit is measured, and how to build skillshare is printed.
# Settings, from the environment:
#   RUNS=5           repetitions
#   SKILLS=10000     skills in the generated repository
#   COMMITS=3000     commits in the generated repository
#   SEED=1           generator seed
#   BENCH_DIR=/tmp/skillgit-bench   where the binary, repository and server's copy live
#   SKILLGIT_BIN=    measure this skillgit binary instead of building one
#   SKILLSHARE=      the skillshare binary to measure against
set -euo pipefail

RUNS=${RUNS:-5}
source "$(dirname "$0")/lib.sh"

RESULTS="$BENCH_DIR/results-peer"
SRVBASE="$BENCH_DIR/peer-srv-$NAME"
WORK="$BENCH_DIR/peer-work"
APP="$WORK/app"
PEER_HOME="$WORK/peer-home"
PEER_PROJECT="$WORK/peer-app"
trap 'kill "${GIT_DAEMON_PID:-}" 2>/dev/null || true' EXIT

# peer_usage says why only skillgit is measured, and how to get the peer.
peer_usage() {
	say "SKILLSHARE is not set: measuring skillgit only. skillshare is not on the Go module proxy;"
	say "build it from its source and point SKILLSHARE at the binary:"
	say "  git clone https://github.com/runkids/skillshare && (cd skillshare && go build -o skillshare ./cmd/skillshare)"
	say "  SKILLSHARE=\$PWD/skillshare/skillshare bench/peer.sh"
}

check() {
	rm -rf "$WORK"
	mkdir -p "$WORK"
	server_copy "$REPO" "$SRVBASE/skills.git"
	serve_git "$SRVBASE" skills.git
	URL="git://127.0.0.1:$GIT_PORT/skills.git"
	PEER_URL="http://127.0.0.1:$GIT_PORT/bench/skills.git"
	WANT=$(git -C "$SRVBASE/skills.git" ls-tree -r --name-only HEAD -- skills | grep -c '/SKILL\.md$') || true
	[ "$WANT" -gt 0 ] || die "$SRVBASE/skills.git publishes no SKILL.md under skills/"
	say "the repository publishes $WANT skills"
	if [ -n "${SKILLSHARE:-}" ]; then
		[ -x "$SKILLSHARE" ] || die "SKILLSHARE=$SKILLSHARE is not an executable file"
		PEER=(env -C "$PEER_PROJECT" HOME="$PEER_HOME" XDG_CONFIG_HOME="$PEER_HOME/.config"
			XDG_DATA_HOME="$PEER_HOME/.local/share" XDG_CACHE_HOME="$PEER_HOME/.cache"
			XDG_STATE_HOME="$PEER_HOME/.local/state" NO_COLOR=1 "$SKILLSHARE")
	else
		peer_usage
	fi
	say "one unmeasured round"
	cold_app
	env XDG_CACHE_HOME="$WORK/cache" "$BIN" -C "$APP" sync >/dev/null 2>&1 || die "skillgit sync failed in $APP"
	count "$APP/.claude/skills" skillgit
	[ -z "${SKILLSHARE:-}" ] || {
		cold_peer
		"${PEER[@]}" install "$PEER_URL" -p --track --skip-audit </dev/null >"$WORK/peer-install.log" 2>&1 ||
			die "skillshare install failed; see $WORK/peer-install.log"
		"${PEER[@]}" sync -p </dev/null >"$WORK/peer-sync.log" 2>&1 || die "skillshare sync failed; see $WORK/peer-sync.log"
		count "$PEER_PROJECT/.claude/skills" skillshare
	}
}

# count DIR WHO fails unless DIR holds one SKILL.md for every skill of the repository.
count() {
	local n
	n=$(find "$1" -name SKILL.md | wc -l)
	[ "$n" = "$WANT" ] || die "$2 wrote $n SKILL.md files into $1, not $WANT"
}

# cold_app makes the application project anew, with no lock, nothing installed, no cache.
cold_app() {
	rm -rf "$APP" "$WORK/cache"
	mkdir -p "$APP"
	git -C "$APP" init -q
	printf 'repository: %s\nagents: [claude-code]\n' "$URL" >"$APP/.skillgit-sync.yaml"
}

# cold_peer makes the peer's project and HOME anew: nothing installed, nothing cached.
cold_peer() {
	rm -rf "$PEER_HOME" "$PEER_PROJECT"
	mkdir -p "$PEER_HOME" "$PEER_PROJECT"
	git -C "$PEER_PROJECT" init -q
	git config --file "$PEER_HOME/.gitconfig" "url.git://127.0.0.1:$GIT_PORT/.insteadOf" "http://127.0.0.1:$GIT_PORT/bench/"
	"${PEER[@]}" init -p --targets claude --mode copy </dev/null >/dev/null 2>&1 || die "skillshare init -p failed"
}

one_round() {
	cold_app
	sync_fs
	measure cold env XDG_CACHE_HOME="$WORK/cache" "$BIN" -C "$APP" sync </dev/null
	count "$APP/.claude/skills" "skillgit sync (cold)"
	if [ -n "${SKILLSHARE:-}" ]; then
		cold_peer
		sync_fs
		measure peer-install "${PEER[@]}" install "$PEER_URL" -p --track --skip-audit </dev/null
		measure peer-sync "${PEER[@]}" sync -p </dev/null
		count "$PEER_PROJECT/.claude/skills" "skillshare install + sync (cold)"
	fi
	rm -rf "$APP/.claude" "$APP/.skillgit-sync.lock"
	sync_fs
	measure warm env XDG_CACHE_HOME="$WORK/cache" "$BIN" -C "$APP" sync </dev/null
	count "$APP/.claude/skills" "skillgit sync (warm)"
	if [ -n "${SKILLSHARE:-}" ]; then
		rm -rf "$PEER_PROJECT/.claude/skills"
		sync_fs
		measure peer-warm "${PEER[@]}" sync -p </dev/null
		count "$PEER_PROJECT/.claude/skills" "skillshare sync (warm)"
	fi
}

# add_runs OUT A B writes, per round, the sum of A's and B's times and CPU times and the larger
# of their peaks: the two commands as one install.
add_runs() {
	paste -d' ' "$RESULTS/$2" "$RESULTS/$3" |
		awk '{ print $1 + $4, ($2 > $5 ? $2 : $5), $3 + $6 }' >"$RESULTS/$1"
}

# judge NAME PEER prints met when NAME took at most PEER's median time and peaked under
# 200 MiB, else what it missed; with no PEER, the memory goal alone.
judge() {
	local missed=()
	if [ -n "${2:-}" ] && [ "$(verdict "$(ratio "$(median "$1")" "$(median "$2")")" 1.0000001)" != met ]; then
		missed+=(time)
	fi
	[ "$HAVE_TIME" != 1 ] || [ "$(verdict "$(peak "$1")" 200)" = met ] || missed+=(memory)
	if [ ${#missed[@]} = 0 ]; then echo met; else echo "MISSED ${missed[*]}"; fi
}

report() {
	printf '\nskillgit against skillshare, first sync: %s skills, %s runs, %s CPUs, load %s\n\n' \
		"$WANT" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	table_head
	if [ -z "${SKILLSHARE:-}" ]; then
		row "skillgit sync, empty cache (cold)" cold "< 200 MiB" "$(judge cold)"
		row "skillgit sync, cache kept (warm)" warm "< 200 MiB" "$(judge warm)"
		printf '\nskillshare not measured (SKILLSHARE is not set)\n'
		return
	fi
	add_runs peer-cold peer-install peer-sync
	row "skillshare install --track" peer-install "" ""
	row "skillshare sync (copy)" peer-sync "" ""
	row "skillshare install + sync (cold)" peer-cold "" ""
	row "skillgit sync, empty cache (cold)" cold "<= 1.0x peer, <200 MiB" "$(judge cold peer-cold)"
	row "skillshare sync, source kept (warm)" peer-warm "" ""
	row "skillgit sync, cache kept (warm)" warm "<= 1.0x peer, <200 MiB" "$(judge warm peer-warm)"
	printf '\nratio skillgit/skillshare: cold %s, warm %s (goal 1.0)\n' \
		"$(ratio "$(median cold)" "$(median peer-cold)")" "$(ratio "$(median warm)" "$(median peer-warm)")"
	printf 'CPU seconds (user + system), medians: skillgit cold %s, warm %s; skillshare cold %s, warm %s\n' \
		"$(cpu cold)" "$(cpu warm)" "$(cpu peer-cold)" "$(cpu peer-warm)"
	printf 'peak memory goal < 200 MiB: skillgit cold %s MiB, warm %s MiB; skillshare cold %s MiB, warm %s MiB\n' \
		"$(peak cold)" "$(peak warm)" "$(peak peer-cold)" "$(peak peer-warm)"
}

run_bench
