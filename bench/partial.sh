#!/usr/bin/env bash
# partial.sh measures what an application project that selects 5 skills fetches from a
# generated skill repository served by git daemon (uploadpack.allowFilter on, packed with
# bitmaps as a server keeps it), against `git clone --bare` of the same repository, in bytes
# transferred and in time, in the same rounds. Goal for the first sync: at most 5 % of the
# bytes and 10 % of the time of the clone, stated for 100,000 skills (SKILLS=100000). It also
# measures a sync from the lock that first sync wrote, into a fresh cache, as a fresh clone of
# the project or its CI makes. Bytes are counted both ways by a proxy in front of the daemon
# (bench/byteproxy). The 5 skills are spread evenly over the repository's skills by name.
#
# Usage: bench/partial.sh            (from anywhere)
# Settings, from the environment:
#   RUNS=3           repetitions
#   SKILLS=10000     skills in the generated repository; 100000 is the stated setting
#                    (generating it takes some 7 minutes on two cores, once)
#   COMMITS=3000     commits in the generated repository
#   SEED=1           generator seed
#   BENCH_DIR=/tmp/skillgit-bench   where the binary, repository and servers' copy live
#   SKILLGIT_BIN=    measure this skillgit binary instead of building one
set -euo pipefail

RUNS=${RUNS:-3}
source "$(dirname "$0")/lib.sh"

SRVBASE="$BENCH_DIR/partial-srv-$NAME"
SRV="$SRVBASE/skills.git"
WORK="$BENCH_DIR/partial-work"
BYTES="$WORK/bytes.log"
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT

# serve copies the generated repository into a bare one packed as a server keeps it, once,
# and serves it with git daemon behind byteproxy.
serve() {
	if [ ! -e "$SRVBASE/done" ]; then
		say "copying $REPO into $SRV and packing it with bitmaps"
		rm -rf "$SRVBASE"
		mkdir -p "$SRVBASE"
		git clone -q --bare "$REPO" "$SRV"
		git -C "$SRV" repack -a -d -b -q
		touch "$SRVBASE/done"
	fi
	git -C "$SRV" config uploadpack.allowFilter true
	(cd "$ROOT" && go build -o "$BENCH_DIR/byteproxy" ./bench/byteproxy)
	local port
	for _ in 1 2 3 4 5; do
		port=$(shuf -i 20000-59999 -n 1)
		"$(git --exec-path)/git-daemon" --reuseaddr --listen=127.0.0.1 --port="$port" --export-all \
			--base-path="$SRVBASE" "$SRVBASE" 2>/dev/null &
		PIDS+=($!)
		for _ in $(seq 50); do
			git ls-remote "git://127.0.0.1:$port/skills.git" HEAD >/dev/null 2>&1 && break 2
			sleep 0.1
		done
	done
	git ls-remote "git://127.0.0.1:$port/skills.git" HEAD >/dev/null 2>&1 || die "git daemon does not start"
	rm -f "$WORK/port"
	"$BENCH_DIR/byteproxy" -to "127.0.0.1:$port" -log "$BYTES" -port-file "$WORK/port" &
	PIDS+=($!)
	for _ in $(seq 50); do [ -s "$WORK/port" ] && break; sleep 0.1; done
	URL="git://127.0.0.1:$(cat "$WORK/port")/skills.git"
}

# pick chooses 5 skills of the skills folder itself, spread evenly by name.
pick() {
	git -C "$SRV" ls-tree -r --name-only main -- skills | awk -F/ 'NF == 3 && $3 == "SKILL.md" { print $2 }' >"$WORK/names"
	awk -v n="$(wc -l <"$WORK/names")" 'NR % int(n / 5) == 1' "$WORK/names" | head -5 | paste -sd, - | sed 's/,/, /g'
}

check() {
	rm -rf "$WORK"
	mkdir -p "$WORK"
	serve
	SELECTED=$(pick)
	say "the project selects: $SELECTED"
	PROJECT="$WORK/app"
	first_sync_project
	env XDG_CACHE_HOME="$WORK/cache-check" "$BIN" -C "$PROJECT" sync >/dev/null 2>&1 || die "skillgit sync failed in $PROJECT"
	[ "$(ls "$PROJECT/.claude/skills" | wc -l)" = 5 ] || die "the sync did not install 5 skills"
}

# first_sync_project makes the application project anew, with no lock and nothing installed.
first_sync_project() {
	rm -rf "$PROJECT"
	mkdir -p "$PROJECT"
	git -C "$PROJECT" init -q
	printf 'repository: %s\nagents: [claude-code]\nskills: [%s]\n' "$URL" "$SELECTED" >"$PROJECT/.skillgit-sync.yaml"
}

# bytes NAME CMD... measures CMD as NAME and records the bytes it transferred.
bytes() {
	local name=$1
	shift
	: >"$BYTES"
	measure "$name" "$@"
	sleep 0.3 # the proxy logs a connection once both its sides are closed
	awk '{ s += $1 } END { print s + 0 }' "$BYTES" >>"$RESULTS/$name.bytes"
}

one_round() {
	first_sync_project
	rm -rf "$WORK/cache" "$WORK/clone.git"
	sync_fs
	bytes first env XDG_CACHE_HOME="$WORK/cache" "$BIN" -C "$PROJECT" sync
	rm -rf "$WORK/cache" "$PROJECT/.claude"
	sync_fs
	bytes frozen env XDG_CACHE_HOME="$WORK/cache" "$BIN" -C "$PROJECT" sync --frozen
	sync_fs
	bytes clone git clone -q --bare "$URL" "$WORK/clone.git"
}

sync_fs() { sync -f "$BENCH_DIR" 2>/dev/null || sync; }

# median_bytes NAME is the median of NAME's byte counts.
median_bytes() {
	sort -n "$RESULTS/$1.bytes" | awk '{ b[NR] = $1 } END { n = NR; print (n % 2) ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2 }'
}

report() {
	local c cb f fb z zb
	c=$(median clone)
	cb=$(median_bytes clone)
	f=$(median first)
	fb=$(median_bytes first)
	z=$(median frozen)
	zb=$(median_bytes frozen)
	printf '\nskillgit partial fetch benchmark: %s skills, %s commits, 5 selected, %s runs, %s CPUs, load %s\n\n' \
		"$SKILLS" "$COMMITS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	table_head
	row "git clone --bare" clone "" ""
	row "skillgit sync, first, 5 skills" first "<= 0.10x clone" "$(verdict "$(ratio "$f" "$c")" 0.10)"
	row "skillgit sync --frozen, fresh cache" frozen "" ""
	printf '\nbytes transferred (medians): clone %s, first sync %s (%s of the clone, goal 0.05: %s), sync --frozen %s (%s)\n' \
		"$cb" "$fb" "$(ratio "$fb" "$cb")" "$(verdict "$(ratio "$fb" "$cb")" 0.05)" "$zb" "$(ratio "$zb" "$cb")"
	printf 'time: first sync %s of the clone (goal 0.10), sync --frozen %s\n' "$(ratio "$f" "$c")" "$(ratio "$z" "$c")"
}

run_bench
