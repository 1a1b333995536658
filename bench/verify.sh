#!/usr/bin/env bash
# verify.sh measures `skillgit sync --verify` on an application project with 1,000 installed
# skills and a lock against reading and hashing the same files with sha1sum
# (find DIR -type f -print0 | xargs -0 sha1sum). Every repetition runs each command once, in
# turn; the table shows medians and the ratio, whose goal is at most 1.5.
#
# Usage: bench/verify.sh            (from anywhere)
# Settings, from the environment:
#   RUNS=10          repetitions
#   SKILLS=1000      installed skills (each a SKILL.md of a few KiB and two reference files)
#   SEED=1           generator seed
#   BENCH_DIR=/tmp/skillgit-bench   where the binary and the project live
#   SKILLGIT_BIN=    measure this skillgit binary instead of building one
set -euo pipefail

SKILLS=${SKILLS:-1000}
source "$(dirname "$0")/lib.sh"

PROJECT="$BENCH_DIR/verify-project-s${SKILLS}-seed${SEED}"
TARGET="$PROJECT/.claude/skills"

# prepare writes the project: the skills installed in .claude/skills, a sync file, and a lock
# whose tree ids git computes from a repository holding the same skills.
prepare() {
	if [ -e "$PROJECT/.done" ]; then
		say "reusing $PROJECT"
		return
	fi
	rm -rf "$PROJECT"
	mkdir -p "$TARGET"
	say "generating $SKILLS installed skills into $PROJECT"
	awk -v n="$SKILLS" -v seed="$SEED" -v dir="$TARGET" '
	function para(k,   s, i) { s = ""; for (i = 0; i < k; i++) s = s w[int(rand() * nw)] (i % 12 == 11 ? ".\n" : " "); return s "\n" }
	BEGIN {
		srand(seed)
		nw = split("agent skill file review the a of to and form table report parse check build test data run step " \
			"input output value field section result error folder commit publish channel project install verify", w, " ")
		for (s = 0; s < n; s++) {
			name = sprintf("skill-%04d", s)
			d = dir "/" name
			system("mkdir -p " d "/references")
			f = d "/SKILL.md"
			printf "---\nname: %s\ndescription: Generated skill %d for the verify benchmark.\n---\n# %s\n\n", name, s, name > f
			for (p = 0; p < 6 + int(rand() * 6); p++) printf "%s", para(60) > f
			close(f)
			for (r = 1; r <= 2; r++) {
				f = d "/references/ref-" r ".md"
				for (p = 0; p < 2 + int(rand() * 6); p++) printf "%s", para(50) > f
				close(f)
			}
		}
	}'
	printf 'repository: ../skills\nagents: [claude-code]\n' >"$PROJECT/.skillgit-sync.yaml"
	local src="$BENCH_DIR/verify-src-s${SKILLS}"
	rm -rf "$src"
	mkdir -p "$src"
	git -C "$src" init -q
	cp -r "$TARGET" "$src/skills"
	git -C "$src" add -A
	git -C "$src" -c user.name=Bench -c user.email=bench@example.com commit -q -m skills
	local commit
	commit=$(git -C "$src" rev-parse HEAD)
	{
		printf 'version: 1\nrepository: ../skills\nchannel: main\ncommit: %s\n' "$commit"
		printf 'targets:\n  - agent: claude-code\n    dir: .claude/skills\nskills:\n'
		git -C "$src" ls-tree -d HEAD skills/ | LC_ALL=C sort -k4 |
			awk -v c="$commit" '{ sub("^skills/", "", $4); printf "  - name: %s\n    tree: %s\n    commit: %s\n", $4, $3, c }'
	} >"$PROJECT/.skillgit-sync.lock"
	rm -rf "$src"
	touch "$PROJECT/.done"
}

check() {
	"$BIN" sync --verify --project "$PROJECT" >/dev/null || die "skillgit sync --verify failed on $PROJECT"
	local files bytes
	files=$(find "$TARGET" -type f | wc -l)
	bytes=$(du -sb "$TARGET" | cut -f1)
	say "$files files, $((bytes / 1024)) KiB in $TARGET"
}

hash_all() { find "$TARGET" -type f -print0 | xargs -0 sha1sum >/dev/null; }

one_round() {
	measure verify "$BIN" sync --verify --project "$PROJECT"
	measure sha1sum bash -c "$(declare -f hash_all); TARGET='$TARGET' hash_all"
}

report() {
	local v s
	v=$(median verify)
	s=$(median sha1sum)
	printf '\nskillgit sync --verify benchmark: %s skills, %s runs, %s CPUs, load %s\n\n' \
		"$SKILLS" "$RUNS" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
	table_head
	row "find | xargs sha1sum" sha1sum "" ""
	row "skillgit sync --verify" verify "<= 1.5x sha1sum" "$(verdict "$(awk -v a="$v" -v b="$s" 'BEGIN{print a/b}')" 1.5000001)"
	printf '\nratio verify/sha1sum %s (CPU time: verify %s s, sha1sum %s s)\n' "$(ratio "$v" "$s")" "$(cpu verify)" "$(cpu sha1sum)"
}

run_bench
