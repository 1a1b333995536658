#!/usr/bin/env bash
# packs.sh measures what a pack of many new skills costs: `pack update` of a local pack of
# SKILLS skills, none of them published yet, against a git baseline that fetches the same pack
# and writes as many commits on as many branches with `git fast-import` (goals: at most
# 10 s and at most 10x the baseline), then `approve --pack` and `publish --pack` of the
# candidates it made (goal: at most 10 s together) against a git baseline that writes the same
# merge commits on the checked-out publish branch with `git fast-import`, deletes the branches
# in one `git update-ref --stdin` transaction and brings the files up to date with
# `git read-tree -m -u`, and peak memory (goal: under 200 MiB). It also times the floor under
# `publish --pack`: hashing, as git names objects, every version of the skills folder the
# publishes left on the publish branch (bench/treehash); each publish's merge commit names a
# tree that holds a new version of that folder, which must be hashed whole.
# The pack's source is the generated skill tree (bench/gen) committed as it is; each round
# starts from a fresh copy of a repository made by `skillgit init` and `pack add`, copied
# outside the timer. The table shows medians.
#
# Usage: bench/packs.sh            (from anywhere)
# Settings, from the environment:
#   RUNS=3           repetitions
#   SKILLS=1000      skills in the pack
#   COMMITS=300      commits of the generated repository the skills are taken from
#   SEED=1           generator seed
#   BENCH_DIR=/tmp/skillgit-bench   where the binary and repositories live
#   SKILLGIT_BIN=    measure this skillgit binary instead of building one
set -euo pipefail

RUNS=${RUNS:-3}
SKILLS=${SKILLS:-1000}
COMMITS=${COMMITS:-300}
source "$(dirname "$0")/lib.sh"

RESULTS="$BENCH_DIR/results-packs"
BUILT="$BENCH_DIR/packs-$NAME"
WORK="$BENCH_DIR/packs-work"
PROPOSER="Ada Lovelace <ada@example.com>"
APPROVER="Grace Hopper <grace@example.com>"

prepare() {
	generate
	(cd "$ROOT" && go build -o "$BENCH_DIR/treehash" ./bench/treehash)
	if [ -e "$BUILT/done" ]; then
		[ -e "$BUILT/fast-import-publish" ] || publish_stream >"$BUILT/fast-import-publish"
		return
	fi
	say "making the pack's source and a repository that names it in $BUILT"
	rm -rf "$BUILT"
	mkdir -p "$BUILT"
	git init -q "$BUILT/src"
	cp -r "$TREE" "$BUILT/src/skills"
	git -C "$BUILT/src" add -A
	git -C "$BUILT/src" -c user.name=Bench -c user.email=bench@example.com commit -q -m skills
	"$BIN" init --no-hooks "$BUILT/skills" >/dev/null
	"$BIN" -C "$BUILT/skills" pack add bench ../src --path skills --author "$PROPOSER" >/dev/null
	stream >"$BUILT/fast-import"
	publish_stream >"$BUILT/fast-import-publish"
	touch "$BUILT/done"
}

# publish_stream writes the publish baseline's fast-import input: for each skill folder of
# the pack, a merge commit on main of the branch stream made for it, that adds the folder.
publish_stream() {
	local when hash path from="from refs/heads/main^0"
	when=$(date +%s)
	while read -r hash path; do
		printf 'commit refs/heads/main\ncommitter %s %s +0000\ndata <<EOT\npublish: %s\nEOT\n' "$APPROVER" "$when" "${path##*/}"
		[ -n "$from" ] && printf '%s\n' "$from"
		printf 'merge refs/heads/candidate/%s\nM 040000 %s %s\n\n' "${path##*/}" "$hash" "$path"
		from=""
	done < <(skill_folders "$BUILT/src" HEAD)
}

# stream writes the baseline's fast-import input: for each skill folder of the pack (a folder
# with a SKILL.md), a commit on a branch of its own, on the publish branch, that adds that
# folder.
stream() {
	local main when hash path
	main=$(git -C "$BUILT/skills" rev-parse main)
	when=$(date +%s)
	while read -r hash path; do
		printf 'commit refs/heads/candidate/%s\ncommitter %s %s +0000\ndata <<EOT\npropose: %s\nEOT\nfrom %s\nM 040000 %s %s\n\n' \
			"${path##*/}" "$PROPOSER" "$when" "${path##*/}" "$main" "$hash" "$path"
	done < <(skill_folders "$BUILT/src" HEAD)
}

# skill_folders REPO REV lists the tree hash and path of each folder of REV's skills/ that
# holds a SKILL.md.
skill_folders() {
	git -C "$1" ls-tree -r -t "$2" skills/ | awk -F'\t' '
		{ split($1, f, " "); if (f[2] == "tree") tree[$2] = f[3]; else if ($2 ~ /\/SKILL\.md$/) { d = $2; sub(/\/SKILL\.md$/, "", d); want[d] = 1 } }
		END { for (d in want) print tree[d], d }' | sort -k2
}

check() {
	local n
	n=$(skill_folders "$BUILT/src" HEAD | wc -l)
	[ "$n" -gt 0 ] || die "the pack's source $BUILT/src holds no skills; remove $BUILT and rerun"
	WANT=$n
}

# baseline fetches the pack into the copy $WORK/git and writes the stream's commits.
baseline() {
	git -C "$WORK/git" fetch -q "$BUILT/src" HEAD
	git -C "$WORK/git" fast-import --quiet <"$BUILT/fast-import"
}
export -f baseline

# publish_baseline merges the baseline's branches into the checked-out main with
# fast-import, deletes them in one transaction, and brings the index and files up to date.
publish_baseline() {
	local old
	old=$(git -C "$WORK/git" rev-parse main)
	git -C "$WORK/git" fast-import --quiet <"$BUILT/fast-import-publish"
	git -C "$WORK/git" for-each-ref --format='delete %(refname)' refs/heads/candidate/ |
		git -C "$WORK/git" update-ref --stdin
	git -C "$WORK/git" read-tree -m -u "$old" main
}
export -f publish_baseline
export WORK BUILT

# folder_floor hashes every version of the skills folder on the publish branch of
# $WORK/skills, as a publish must, and records the seconds the hashing took (floor) and the
# number and bytes of the versions (floor-size).
folder_floor() {
	local n bytes secs
	read -r n bytes secs < <(git -C "$WORK/skills" rev-list --first-parent main | sed 's/$/:skills/' |
		git -C "$WORK/skills" cat-file --batch | "$BENCH_DIR/treehash") ||
		die "hashing the versions of the skills folder of $WORK/skills failed"
	echo "$(awk -v s="$secs" 'BEGIN { printf "%d", s * 1e6 }') 0 0" >>"$RESULTS/floor"
	echo "$n $bytes" >"$RESULTS/floor-size"
}

one_round() {
	rm -rf "$WORK"
	mkdir -p "$WORK"
	cp -r "$BUILT/skills" "$WORK/skills"
	ln -s "$BUILT/src" "$WORK/src" # the pack's path in the configuration is ../src
	cp -r "$BUILT/skills" "$WORK/git"
	sync_fs
	measure baseline bash -c baseline
	sync_fs
	measure update "$BIN" -C "$WORK/skills" pack update bench --author "$PROPOSER"
	local n
	n=$(git -C "$WORK/skills" for-each-ref refs/heads/candidate/ | wc -l)
	[ "$n" = "$WANT" ] || die "pack update made $n candidates, not $WANT"
	measure approve "$BIN" -C "$WORK/skills" approve --pack bench --author "$APPROVER"
	measure publish "$BIN" -C "$WORK/skills" publish --pack bench --author "$APPROVER"
	n=$(skill_folders "$WORK/skills" main | wc -l)
	[ "$n" = "$WANT" ] || die "publish --pack published $n skills, not $WANT"
	folder_floor
	sync_fs
	measure pubbase bash -c publish_baseline
	n=$(skill_folders "$WORK/git" main | wc -l)
	[ "$n" = "$WANT" ] || die "the publish baseline merged $n skills, not $WANT"
	[ -z "$(git -C "$WORK/git" status --porcelain)" ] || die "the publish baseline left the files of $WORK/git behind main"
	paste -d' ' "$RESULTS/approve" "$RESULTS/publish" | tail -1 |
		awk '{ print $1 + $4, ($2 > $5 ? $2 : $5), $3 + $6 }' >>"$RESULTS/both"
}

report() {
	local u b a r
	u=$(median update)
	b=$(median baseline)
	a=$(median both)
	r=$(ratio "$u" "$b")
	printf '\nskillgit pack benchmark: %s new skills, %s runs, %s CPUs, load %s\n\n' \
		"$WANT" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	table_head
	row "git fetch + fast-import (baseline)" baseline "" ""
	row "skillgit pack update" update "<= 10 s, <= 10x git" "$(verdict "$u" 10.0000001) $(verdict "$r" 10.0000001)"
	row "skillgit approve --pack" approve "" ""
	row "git fast-import merges (baseline)" pubbase "" ""
	row "skillgit publish --pack" publish "" ""
	row "approve --pack + publish --pack" both "<= 10 s" "$(verdict "$a" 10.0000001)"
	printf '\nratio update/baseline %s (goal 10), publish/publish baseline %s; CPU seconds (user + system), medians: update %s, baseline %s, approve %s, publish %s, publish baseline %s\n' \
		"$r" "$(ratio "$(median publish)" "$(median pubbase)")" "$(cpu update)" "$(cpu baseline)" "$(cpu approve)" "$(cpu publish)" "$(cpu pubbase)"
	printf 'peak memory goal < 200 MiB: update %s MiB, approve %s MiB, publish %s MiB\n' \
		"$(peak update)" "$(peak approve)" "$(peak publish)"
	local versions bytes
	read -r versions bytes <"$RESULTS/floor-size"
	printf 'floor under publish --pack: hashing the %s versions of the skills folder it left on main (%s MB) as git names them: %s s (median)\n' \
		"$versions" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')" "$(median floor)"
}

run_bench
