#!/usr/bin/env bash
# trust.sh measures what verified installs cost: the first sync of a skill repository of 1,000
# skills into an empty folder by an application project without trust: and by one whose
# trust: asks for one approval signed by a key of its own allowed-signers file. Goal: the
# verified sync at most 10 % over the unverified one (ratio <= 1.10).
# The skill repository is built once, with skillgit and SSH keys made by ssh-keygen:
# approvals.signed on, the skills of the generated repository (bench/gen) added as a local
# pack, `pack update` proposes each skill as a candidate signed by the proposer's key,
# `approve --pack` approves them all with the approver's key and `publish --pack` publishes
# them (some five minutes for 1,000 skills on two cores; later runs reuse it). Both projects
# read it by URL from git daemon on loopback, through one cached clone that stays, and that
# keeps the proofs of publishes verified before; each round removes their installed folder
# and lock and syncs each once, taking turns, then syncs the verified project once more
# with no proofs kept, as a fresh machine would. The table shows medians.
#
# Usage: bench/trust.sh            (from anywhere)
# Settings, from the environment:
#   RUNS=7           repetitions
#   SKILLS=1000      skills in the skill repository
#   COMMITS=300      commits of the generated repository the skills are taken from
#   SEED=1           generator seed
#   BENCH_DIR=/tmp/skillgit-bench   where the binary and repositories live
#   SKILLGIT_BIN=    measure this skillgit binary instead of building one
set -euo pipefail

RUNS=${RUNS:-7}
SKILLS=${SKILLS:-1000}
COMMITS=${COMMITS:-300}
source "$(dirname "$0")/lib.sh"

RESULTS="$BENCH_DIR/results-trust"
BUILT="$BENCH_DIR/trust-$NAME"
SRVBASE="$BUILT/srv"
WORK="$BENCH_DIR/trust-work"
PROPOSER="Ada Lovelace <ada@example.com>"
APPROVER="Grace Hopper <grace@example.com>"
trap 'kill "${GIT_DAEMON_PID:-}" 2>/dev/null || true' EXIT

prepare() {
	command -v ssh-keygen >/dev/null || die "ssh-keygen is missing; install openssh-client and rerun"
	generate
	[ -e "$BUILT/done" ] && return
	say "building a skill repository of $SKILLS skills published with signed approvals in $BUILT"
	rm -rf "$BUILT"
	mkdir -p "$BUILT/keys"
	local p
	for p in ada grace; do ssh-keygen -q -t ed25519 -N '' -C "$p" -f "$BUILT/keys/$p"; done
	# The pack's source: the generated skills, committed as they are.
	git init -q "$BUILT/src"
	cp -r "$TREE" "$BUILT/src/skills"
	git -C "$BUILT/src" add -A
	git -C "$BUILT/src" -c user.name=Bench -c user.email=bench@example.com commit -q -m skills
	local skills="$BUILT/skills"
	"$BIN" init --no-hooks "$skills" >/dev/null
	git -C "$skills" config user.name "Grace Hopper"
	git -C "$skills" config user.email grace@example.com
	sed -i 's/^  signed: false$/  signed: true/' "$skills/.skillgit.yaml"
	grep -q '^  signed: true$' "$skills/.skillgit.yaml" || die "could not turn approvals.signed on in $skills/.skillgit.yaml"
	mkdir -p "$skills/.skillgit"
	for p in ada grace; do printf '%s@example.com namespaces="git" %s\n' "$p" "$(cat "$BUILT/keys/$p.pub")"; done \
		>"$skills/.skillgit/allowed_signers"
	git -C "$skills" add -A
	git -C "$skills" commit -q -m "policy: signed approvals"
	say "proposing (pack update), approving and publishing $SKILLS skills"
	"$BIN" -C "$skills" pack add bench ../src --path skills --author "$PROPOSER" >/dev/null
	git -C "$skills" config user.signingkey "$BUILT/keys/ada"
	"$BIN" -C "$skills" pack update bench --author "$PROPOSER" >"$BUILT/propose.log" 2>&1 ||
		die "pack update failed; see $BUILT/propose.log"
	git -C "$skills" config user.signingkey "$BUILT/keys/grace"
	"$BIN" -C "$skills" approve --pack bench --author "$APPROVER" >"$BUILT/approve.log" 2>&1 ||
		die "approve --pack failed; see $BUILT/approve.log"
	"$BIN" -C "$skills" publish --pack bench --author "$APPROVER" >"$BUILT/publish.log" 2>&1 ||
		die "publish --pack failed; see $BUILT/publish.log"
	server_copy "$skills" "$SRVBASE/skills.git"
	touch "$BUILT/done"
}

check() {
	serve_git "$SRVBASE" skills.git
	WANT=$(git -C "$SRVBASE/skills.git" ls-tree -r --name-only HEAD -- skills | grep -c '/SKILL\.md$') || true
	[ "$WANT" = "$SKILLS" ] || die "$SRVBASE/skills.git publishes $WANT skills, not $SKILLS; remove $BUILT and rerun"
	rm -rf "$WORK"
	PLAIN="$WORK/plain"
	VERIFIED="$WORK/verified"
	project "$PLAIN" ""
	project "$VERIFIED" "$(printf 'trust:\n  signers: .skillgit/trusted_signers\n  approvals: 1\n')"
	mkdir -p "$VERIFIED/.skillgit"
	printf 'grace@example.com namespaces="git" %s\n' "$(cat "$BUILT/keys/grace.pub")" >"$VERIFIED/.skillgit/trusted_signers"
	# The first syncs fill the cached clone that every round keeps.
	first_sync "$PLAIN" >"$WORK/plain.log" 2>&1 || die "skillgit sync failed in $PLAIN; see $WORK/plain.log"
	first_sync "$VERIFIED" >"$WORK/verified.log" 2>&1 || die "skillgit sync failed in $VERIFIED; see $WORK/verified.log"
	grep -q 'installs are not verified' "$WORK/plain.log" || die "the sync without trust: did not say it is unverified"
	! grep -q 'installs are not verified' "$WORK/verified.log" || die "the sync with trust: says it is unverified"
	local keys
	keys=$(grep -c 'SHA256:' "$VERIFIED/.skillgit-sync.lock") || true
	[ "$keys" = "$SKILLS" ] || die "the verified lock records $keys keys, not one for each of $SKILLS skills"
	count "$PLAIN"
	count "$VERIFIED"
}

# project DIR EXTRA makes an application project naming the served repository, with EXTRA
# lines in its sync file.
project() {
	mkdir -p "$1"
	git -C "$1" init -q
	printf 'repository: git://127.0.0.1:%s/skills.git\nagents: [claude-code]\n%s\n' "$GIT_PORT" "$2" >"$1/.skillgit-sync.yaml"
}

# first_sync DIR syncs the project DIR with nothing installed and no lock.
first_sync() {
	rm -rf "$1/.claude" "$1/.skillgit-sync.lock"
	env XDG_CACHE_HOME="$WORK/cache" "$BIN" -C "$1" sync
}

# count DIR fails unless the project DIR has every skill installed.
count() {
	local n
	n=$(find "$1/.claude/skills" -name SKILL.md | wc -l)
	[ "$n" = "$WANT" ] || die "sync wrote $n SKILL.md files into $1/.claude/skills, not $WANT"
}

# one_round syncs each project once. The disk writes what the removal and the other sync
# left before each sync starts, and the two take turns going first, so that neither is
# charged the other's writes.
ROUND=0
one_round() {
	ROUND=$((ROUND + 1))
	rm -rf "$PLAIN/.claude" "$PLAIN/.skillgit-sync.lock" "$VERIFIED/.claude" "$VERIFIED/.skillgit-sync.lock"
	if [ $((ROUND % 2)) = 1 ]; then
		measure_sync plain "$PLAIN"
		measure_sync verified "$VERIFIED"
	else
		measure_sync verified "$VERIFIED"
		measure_sync plain "$PLAIN"
	fi
	count "$PLAIN"
	count "$VERIFIED"
	# Once more with none of the proofs earlier rounds kept: what a fresh machine (CI) pays.
	rm -rf "$VERIFIED/.claude" "$VERIFIED/.skillgit-sync.lock" "$WORK"/cache/skillgit/repos/*/skillgit/cache/proofs
	measure_sync unproven "$VERIFIED"
	count "$VERIFIED"
}

# measure_sync NAME DIR measures a first sync of the project DIR as NAME.
measure_sync() {
	sync_fs
	measure "$1" env XDG_CACHE_HOME="$WORK/cache" "$BIN" -C "$2" sync
}

report() {
	local r
	r=$(ratio "$(median verified)" "$(median plain)")
	printf '\nskillgit verified install benchmark: %s skills, %s runs, %s CPUs, load %s\n\n' \
		"$SKILLS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	table_head
	row "skillgit sync, no trust:" plain "" ""
	row "skillgit sync, trust: 1 signed approval" verified "<= 1.10x no trust:" "$(verdict "$r" 1.1000001)"
	row "  with no proofs kept from earlier syncs" unproven "" ""
	printf '\nratio verified/unverified %s (goal 1.10), %s with no proofs kept; CPU seconds (user + system), medians: %s, %s and %s\n' \
		"$r" "$(ratio "$(median unproven)" "$(median plain)")" "$(cpu verified)" "$(cpu unproven)" "$(cpu plain)"
}

run_bench
