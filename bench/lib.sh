# lib.sh holds what the benchmark scripts share: settings, the generated repository, and
# measuring and reporting runs. Source it; do not run it.
#
# Settings, from the environment:
#   RUNS=10          repetitions
#   SKILLS=10000     skills in the generated repository
#   COMMITS=3000     commits in the generated repository
#   SEED=1           generator seed
#   BENCH_DIR=/tmp/skillgit-bench   where the binary, repository and plain copy live; a
#                    repository generated with the same settings is reused
#   SKILLGIT_BIN=    measure this skillgit binary instead of building one, to compare builds

# --help prints the header comment of the script that sources this file.
case "${1:-}" in
-h | --help)
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
esac

RUNS=${RUNS:-10}
SKILLS=${SKILLS:-10000}
COMMITS=${COMMITS:-3000}
SEED=${SEED:-1}
BENCH_DIR=${BENCH_DIR:-/tmp/skillgit-bench}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NAME="s${SKILLS}-c${COMMITS}-seed${SEED}-g2"
REPO="$BENCH_DIR/repo-$NAME"
TREE="$BENCH_DIR/tree-$NAME"
STAMP="$BENCH_DIR/done-$NAME"
BIN=${SKILLGIT_BIN:-$BENCH_DIR/skillgit}
RESULTS="$BENCH_DIR/results"

say() { printf '%s\n' "$*" >&2; }
die() {
	say "$(basename "$0"): $*"
	exit 1
}

need_tools() {
	command -v git >/dev/null || die "git is not installed; install it (apt-get install git) and rerun"
	command -v go >/dev/null || die "go is not installed; install Go 1.26 and rerun"
	if ! /usr/bin/time -f %M true >/dev/null 2>&1; then
		if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
			say "installing GNU time for peak-memory figures"
			{ apt-get install -y -qq time || { apt-get update -qq && apt-get install -y -qq time; }; } >/dev/null 2>&1 || true
		fi
	fi
	if /usr/bin/time -f %M true >/dev/null 2>&1; then HAVE_TIME=1; else
		HAVE_TIME=0
		say "GNU time (/usr/bin/time) is missing: peak memory is not measured"
	fi
}

build() {
	mkdir -p "$BENCH_DIR"
	if [ -z "${SKILLGIT_BIN:-}" ]; then
		say "building skillgit"
		(cd "$ROOT" && go build -o "$BIN" ./cmd/skillgit)
	fi
	(cd "$ROOT" && go build -o "$BENCH_DIR/gen" ./bench/gen)
}

generate() {
	if [ -e "$STAMP" ] && [ -d "$REPO" ] && [ -d "$TREE" ]; then
		say "reusing $REPO"
		return
	fi
	rm -rf "$REPO" "$TREE" "$STAMP"
	say "generating $SKILLS skills and $COMMITS commits into $REPO"
	"$BENCH_DIR/gen" -skills "$SKILLS" -commits "$COMMITS" -seed "$SEED" -out "$REPO" -tree "$TREE" -skillgit "$BIN" >&2
	touch "$STAMP"
}

# measure NAME CMD... runs CMD once, appending its wall time in microseconds, its peak RSS in
# KiB and its CPU time (user + system) in seconds to $RESULTS/NAME. Exit statuses other than
# those in $OK_CODES (default 0) are failures.
measure() {
	local name=$1
	shift
	local start end rc mem=0 cpu=0
	start=$(date +%s%N)
	if [ "$HAVE_TIME" = 1 ]; then
		/usr/bin/time -f '%M %U %S' -o "$RESULTS/mem.tmp" "$@" >/dev/null 2>&1 && rc=0 || rc=$?
	else
		"$@" >/dev/null 2>&1 && rc=0 || rc=$?
	fi
	end=$(date +%s%N)
	case " ${OK_CODES:-0} " in *" $rc "*) ;; *) die "$name failed (exit $rc): $*" ;; esac
	if [ "$HAVE_TIME" = 1 ]; then
		read -r mem u s < <(tail -1 "$RESULTS/mem.tmp")
		cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
	fi
	echo "$(((end - start) / 1000)) $mem $cpu" >>"$RESULTS/$name"
}

# summarize NAME prints the median time in seconds, min and max, and the largest peak RSS in
# MiB.
summarize() {
	sort -n "$RESULTS/$1" | awk '{ t[NR] = $1; if ($2 > m) m = $2 } END {
		n = NR
		med = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
		printf "%.3f %.3f %.3f %.0f\n", med / 1e6, t[1] / 1e6, t[n] / 1e6, m / 1024
	}'
}

row() {
	local label=$1 name=$2 goal=$3 verdict=$4
	read -r med min max mem <<<"$(summarize "$name")"
	[ "$HAVE_TIME" = 1 ] || mem="-"
	printf '%-40s %8s %8s %8s %8s  %-22s %s\n' "$label" "$med" "$min" "$max" "$mem" "$goal" "$verdict"
}

median() { summarize "$1" | cut -d' ' -f1; }
peak() { summarize "$1" | cut -d' ' -f4; }
verdict() { awk -v v="$1" -v lim="$2" 'BEGIN { print (v < lim) ? "met" : "MISSED" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# cpu NAME prints the median CPU time of NAME's runs in seconds.
cpu() { awk '{ print $3 }' "$RESULTS/$1" | sort -n | awk '{ t[NR] = $1 } END { n = NR; print (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2 }'; }


table_head() { printf '%-40s %8s %8s %8s %8s  %-22s %s\n' "command" "median s" "min s" "max s" "peak MiB" "goal" "verdict"; }

# run_bench builds, generates, checks, runs $RUNS rounds and reports, with the check, one_round
# and report functions of the script that sources this file; a script that defines prepare
# runs it in place of generate.
run_bench() {
	need_tools
	build
	if declare -F prepare >/dev/null; then prepare; else generate; fi
	check
	rm -rf "$RESULTS"
	mkdir -p "$RESULTS"
	say "measuring, $RUNS rounds"
	for ((i = 1; i <= RUNS; i++)); do
		one_round
		printf '.' >&2
	done
	printf '\n' >&2
	report
}

# serve_git BASE REPO serves the repositories below BASE with git daemon on a free loopback
# port, waits until REPO answers, and sets GIT_PORT and GIT_DAEMON_PID; the caller stops the
# daemon (kill "$GIT_DAEMON_PID", from an EXIT trap).
serve_git() {
	local base=$1 repo=$2 port
	for _ in 1 2 3 4 5; do
		port=$(shuf -i 20000-59999 -n 1)
		"$(git --exec-path)/git-daemon" --reuseaddr --listen=127.0.0.1 --port="$port" --export-all \
			--base-path="$base" "$base" 2>/dev/null &
		GIT_DAEMON_PID=$!
		for _ in $(seq 50); do
			if git ls-remote "git://127.0.0.1:$port/$repo" HEAD >/dev/null 2>&1; then
				GIT_PORT=$port
				return
			fi
			kill -0 "$GIT_DAEMON_PID" 2>/dev/null || break # the port was taken
			sleep 0.1
		done
		kill "$GIT_DAEMON_PID" 2>/dev/null || true
	done
	die "git daemon does not serve $base/$repo on a loopback port; is git-daemon installed (git --exec-path)?"
}

# server_copy SRC DEST makes DEST a bare copy of repository SRC packed as a server keeps it
# (one pack with bitmaps, uploadpack.allowFilter on), once: a copy already made is reused.
server_copy() {
	local src=$1 dest=$2
	[ -e "$dest.done" ] && [ -d "$dest" ] && return
	say "copying $src into $dest and packing it with bitmaps"
	rm -rf "$dest"
	git clone -q --bare "$src" "$dest"
	git -C "$dest" repack -a -d -b -q
	git -C "$dest" config uploadpack.allowFilter true
	touch "$dest.done"
}

# publish_one publishes a new version of skill $ONE of repository $WORK through the lifecycle
# (propose from the folder $DRAFT, approve, publish), so that the publish branch changes in
# exactly one skill. It counts rounds in ROUND, which the caller sets to 0 first.
publish_one() {
	ROUND=$((ROUND + 1))
	mkdir -p "$DRAFT"
	printf -- '---\nname: %s\ndescription: Version %s of this skill, published by a benchmark.\n---\n# %s\n\nRound %s.\n' \
		"$ONE" "$ROUND" "$ONE" "$ROUND" >"$DRAFT/SKILL.md"
	local id
	id=$("$BIN" -C "$WORK" propose --from "$DRAFT" --author "Bench Proposer <proposer@example.com>" 2>/dev/null) ||
		die "propose failed"
	"$BIN" -C "$WORK" approve "$id" --author "Bench Approver <approver@example.com>" >/dev/null 2>&1 || die "approve failed"
	"$BIN" -C "$WORK" publish "$id" --author "Bench Approver <approver@example.com>" >/dev/null 2>&1 || die "publish failed"
}

# sync_fs writes out what removing the last round's folders left to the disk, so that it is
# not charged to the next command.
sync_fs() { sync -f "$BENCH_DIR" 2>/dev/null || sync; }
