#!/usr/bin/env bash
# audit.sh measures the security audit's performance goals on a generated repository: every
# skill of the publish branch audited with the cache off (throughput per CPU-second: MB of skill
# files, as git ls-tree -l counts them, over the user and system time of the run),
# the same run served from the cache, a working-tree copy audited from disk, and peak memory.
# The cache hit is timed twice: served from the whole result of the skills folder (one entry)
# and, as a baseline, from the per-skill entries (the whole result removed before each run).
# The plain copy is also scanned by gitleaks (`gitleaks dir`), the secret scanner the audit is
# shaped after, as the speed to beat; when gitleaks is not on PATH the script installs it once
# into BENCH_DIR with `go install` (for this benchmark only: tests never need it).
# The same cold audit is timed with skillgit built without cgo, which has no Python and JavaScript
# parsers, for the parsers' share (SKILLGIT_NOPARSE_BIN=path measures that build instead).
# For context it times `git grep` of a few of the audit's keywords over the same tree, and
# `cat` of every file of the plain copy. Every repetition runs each command once, in turn, so
# that load from other work on the machine falls on all of them alike; the table shows medians.
#
# Usage: bench/audit.sh            (from anywhere)
# Settings, from the environment: RUNS, SKILLS, COMMITS, SEED, BENCH_DIR and SKILLGIT_BIN as
# in bench/lib.sh (RUNS defaults to 5 here); GITLEAKS=path measures that gitleaks binary,
# GITLEAKS_VERSION (default v8.30.1) is the version installed when there is none.
set -euo pipefail

RUNS=${RUNS:-5}
MBPS_GOAL=25 # MB of skill files audited per CPU-second (user + system), cache off
GITLEAKS_VERSION=${GITLEAKS_VERSION:-v8.30.1}

source "$(dirname "$0")/lib.sh"

# find_gitleaks sets GITLEAKS: the setting, else gitleaks on PATH, else the copy installed in
# BENCH_DIR, installing it there first when it is missing.
find_gitleaks() {
	if [ -n "${GITLEAKS:-}" ]; then
		[ -x "$GITLEAKS" ] || die "GITLEAKS=$GITLEAKS is not an executable"
		return
	fi
	if GITLEAKS=$(command -v gitleaks); then return; fi
	GITLEAKS="$BENCH_DIR/gobin/gitleaks"
	[ -x "$GITLEAKS" ] && return
	say "installing gitleaks $GITLEAKS_VERSION into $BENCH_DIR/gobin"
	GOBIN="$BENCH_DIR/gobin" GOFLAGS=-mod=mod go install "github.com/zricethezav/gitleaks/v8@$GITLEAKS_VERSION" >&2 ||
		die "gitleaks could not be installed; install it (https://github.com/gitleaks/gitleaks) or set GITLEAKS=path, and rerun"
}

# check makes sure every measured command works before anything is timed, and finds the size
# of what is audited.
check() {
	# A plain copy reached through a symbolic link is measured where it lies: find and
	# gitleaks do not descend a link named on their command line.
	TREE=$(cd "$TREE" && pwd -P)
	GITDIR=$(git -C "$REPO" rev-parse --path-format=absolute --git-common-dir)
	CACHE="$GITDIR/skillgit/cache/audit"
	BYTES=$(git -C "$REPO" ls-tree -r -l main -- skills | awk '$4 != "-" { s += $4 } END { print s }')
	FILES=$(git -C "$REPO" ls-tree -r main -- skills | wc -l)
	local rc=0
	"$BIN" -C "$REPO" audit --rev main --format json >"$BENCH_DIR/audit.json" 2>/dev/null || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 3 ] || die "skillgit audit --rev main failed (exit $rc)"
	SCANNED=$(grep -c '"name":' "$BENCH_DIR/audit.json" || true)
	[ "$SCANNED" -gt 0 ] || die "skillgit audit --rev main reported no skills"
	find_gitleaks
	noparse_build
	GITLEAKS_RUN=("$GITLEAKS" dir "$TREE" --no-banner --exit-code 0 --log-level error)
	"${GITLEAKS_RUN[@]}" >/dev/null 2>&1 || die "${GITLEAKS_RUN[*]} failed"
}

grepfloor() { git -C "$REPO" grep -c -i -E 'curl|wget|ignore (all|previous)|base64|\.ssh|token' main -- skills >/dev/null || true; }
catfloor() { find "$TREE" -type f -print0 | xargs -0 cat >/dev/null; }
export -f grepfloor catfloor
export TREE REPO

one_round() {
	measure grep bash -c grepfloor
	measure cat bash -c catfloor
	OK_CODES="0 3" measure cold "$BIN" -C "$REPO" audit --rev main --no-cache
	rm -rf "$CACHE"
	OK_CODES="0 3" "$BIN" -C "$REPO" audit --rev main >/dev/null 2>&1 || true
	OK_CODES="0 3" measure warm "$BIN" -C "$REPO" audit --rev main
	rm -rf "$CACHE/all"
	OK_CODES="0 3" measure perskill "$BIN" -C "$REPO" audit --rev main
	OK_CODES="0 3" measure disk "$BIN" audit "$TREE" --no-cache
	OK_CODES="0 3" measure noparse "$NOPARSE_BIN" -C "$REPO" audit --rev main --no-cache
	measure gitleaks "${GITLEAKS_RUN[@]}"
}

# noparse_build sets NOPARSE_BIN: the same skillgit built without cgo, whose audit reads Python
# and JavaScript with the text rules only, so that the code parsers' share of the audit shows.
noparse_build() {
	NOPARSE_BIN=${SKILLGIT_NOPARSE_BIN:-$BENCH_DIR/skillgit-nocgo}
	if [ -z "${SKILLGIT_NOPARSE_BIN:-}" ]; then
		say "building skillgit without cgo (no code parsers)"
		(cd "$ROOT" && CGO_ENABLED=0 go build -o "$NOPARSE_BIN" ./cmd/skillgit)
	fi
}

report() {
	local c w mbps
	c=$(median cold)
	w=$(median warm)
	mbps=$(awk -v b="$BYTES" -v t="$(cpu cold)" 'BEGIN { printf "%.1f", b / 1e6 / t }')
	printf '\nskillgit audit benchmark: %s skills audited (%s files, %.1f MB), %s runs, %s CPUs, load %s\n' \
		"$SCANNED" "$FILES" "$(awk -v b="$BYTES" 'BEGIN { print b / 1e6 }')" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'repository %s, plain copy %s\n\n' "$REPO" "$TREE"
	table_head
	row "audit --rev main, cache off" cold ">= $MBPS_GOAL MB/CPU-s" "$(awk -v m="$mbps" -v g="$MBPS_GOAL" 'BEGIN { print (m >= g) ? "met" : "MISSED" }')"
	row "audit --rev main, cache hit" warm "< 0.1 s" "$(verdict "$w" 0.1)"
	row "  the same from per-skill entries" perskill "" ""
	row "audit TREE (from disk), cache off" disk "<= gitleaks" "$(verdict "$(median disk)" "$(median gitleaks)")"
	row "  cache off, without the code parsers" noparse "" ""
	row "gitleaks dir TREE" gitleaks "" ""
	row "git grep -c 6 keywords main (context)" grep "" ""
	row "cat every file of TREE (context)" cat "" ""
	printf '\nthroughput, cache off: %s MB per CPU-second (%.2f s CPU, %.2f s wall, %.1f MB/s wall; goal >= %s MB per CPU-second: %s)\n' \
		"$mbps" "$(cpu cold)" "$c" "$(awk -v b="$BYTES" -v t="$c" 'BEGIN { print b / 1e6 / t }')" "$MBPS_GOAL" \
		"$(awk -v m="$mbps" -v g="$MBPS_GOAL" 'BEGIN { print (m >= g) ? "met" : "MISSED" }')"
	printf 'code parsers (tree-sitter, Python and JavaScript): cache off with / without them %s wall, %s CPU (goal: they add at most 30%%)\n' \
		"$(ratio "$c" "$(median noparse)")" "$(ratio "$(cpu cold)" "$(cpu noparse)")"
	printf 'ratios: cache off / git grep %s, cache hit / git grep %s, whole-result hit / per-skill hit %s\n' \
		"$(ratio "$c" "$(median grep)")" "$(ratio "$w" "$(median grep)")" "$(ratio "$w" "$(median perskill)")"
	printf 'against %s (default rules) over the plain copy: skillgit / gitleaks %s wall, %s CPU (below 1 is faster)\n' \
		"$GITLEAKS" "$(ratio "$(median disk)" "$(median gitleaks)")" "$(ratio "$(cpu disk)" "$(cpu gitleaks)")"
	if [ "$HAVE_TIME" = 1 ]; then
		local p
		p=$(for n in cold warm disk; do peak "$n"; done | sort -n | tail -1)
		printf 'peak memory of skillgit: %s MiB (goal < 200 MiB: %s)\n' "$p" "$(verdict "$p" 200)"
	fi
}

run_bench
