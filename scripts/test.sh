#!/usr/bin/env bash
# Runs every check and test of skillgit. Installs what the tests need on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null 2>&1; }
apt_install() {
  if [ "$(id -u)" = 0 ] && need apt-get; then
    echo "installing $* ..." >&2
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "please install: $*" >&2; exit 1
  fi
}
need git || apt_install git
# Real SSH keys for the signed-approval tests.
need ssh-keygen || apt_install openssh-client
# The pre-commit framework, which the hooks tests run against .pre-commit-hooks.yaml.
need pre-commit || apt_install pre-commit
# tmux, less and bash-completion, which the screen test drives a terminal session with.
need tmux || apt_install tmux
need less || apt_install less
[ -f /usr/share/bash-completion/bash_completion ] || apt_install bash-completion

# The SARIF 2.1.0 JSON schema that the audit's SARIF test validates against, from the npm registry.
sarif_dir="${XDG_CACHE_HOME:-$HOME/.cache}/skillgit-ci/jest-sarif"
if [ ! -f "$sarif_dir/package/lib/schemas/sarif-2.1.0-rtm.5.json" ]; then
  need npm || apt_install npm
  mkdir -p "$sarif_dir"
  npm pack --silent --pack-destination "$sarif_dir" @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null
  tar -xzf "$sarif_dir/microsoft-jest-sarif-1.0.0-beta.0.tgz" -C "$sarif_dir"
fi
export SKILLGIT_SARIF_SCHEMA="$sarif_dir/package/lib/schemas/sarif-2.1.0-rtm.5.json"

# The openskills CLI, a loader of skills that agents without skill support use, which the
# sync_app_openskills script runs against what sync installs.
openskills_dir="${XDG_CACHE_HOME:-$HOME/.cache}/skillgit-ci/openskills"
if [ ! -x "$openskills_dir/node_modules/.bin/openskills" ]; then
  need npm || apt_install npm
  mkdir -p "$openskills_dir"
  npm install --silent --no-audit --no-fund --prefix "$openskills_dir" openskills@1.5.0
fi
export SKILLGIT_OPENSKILLS="$openskills_dir/node_modules/.bin/openskills"

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi

echo "== go vet"
go vet ./...

packages=$(go list ./... | grep -v '/cmd/skillgit$')

# The race detector makes code ten times slower and sees only the goroutines of the process it
# is built into. These tests spend their time in one goroutine over large inputs (the audit's
# differential and hostile-input checks, packing a long history), in processes they start and kill (publishers racing
# each other or killed mid-publish), or in programs not written in Go (the pre-commit framework,
# a GitHub Actions workflow): they run once, without it, in the next step.
without_race='^(TestStartsFindAll|FuzzStartsFindAll|TestRuleExamples|TestHostileInputBounded|TestConcurrentPublishes|TestCrashPublishKilled|TestPackLooseShrinksHistory|TestPreCommitFramework|TestGitHubActionWorkflow)$'

echo "== package tests (-race)"
go test -race -skip "$without_race" $packages

# The end-to-end scripts run without the race detector too: every exec in a script would start
# an instrumented binary.
echo "== package tests that gain nothing from -race, and the end-to-end scripts"
go test -run "$without_race" $packages
go test ./cmd/skillgit/

# The audit reads hostile text: its whole scan is fuzzed for a bounded time on every run,
# starting from its seeds, and must neither crash nor report a file it failed on. Each run keeps
# its corpus in a folder of its own, removed after, so that it starts from the seeds on every
# machine: with thousands of inputs kept from earlier runs in the Go cache, the fuzzer's workers
# stopped for the last seconds of the run, though none of those inputs takes a tenth of a second.
fuzz_corpus=$(mktemp -d)
trap 'rm -rf "$fuzz_corpus"' EXIT
echo "== fuzzing the audit's scan (45 s)"
go test ./audit -run '^$' -fuzz '^FuzzScan$' -fuzztime 45s -test.fuzzcachedir="$fuzz_corpus"

# Python and JavaScript are read as programs by tree-sitter, which needs cgo; the same fuzzing
# bounds that reading, and a build without cgo must fall back to the text rules and say so.
echo "== fuzzing the code reader (30 s)"
go test ./audit/codeflow -run '^$' -fuzz '^FuzzAnalyze$' -fuzztime 30s -test.fuzzcachedir="$fuzz_corpus"
echo "== the audit built without cgo"
CGO_ENABLED=0 go test ./audit/codeflow ./audit -run '^(TestWithoutParsers|TestParsersNote|TestRuleExamples|TestCache.*)$'
