package audit

import (
	"testing"
	"testing/fstest"
)

// benignShellScript is a build script of the kind skills ship: variables,
// quoting, a function, command substitutions and a here-doc, all benign.
const benignShellScript = `#!/usr/bin/env bash
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${OUT_DIR:-$ROOT/dist}"
NAME=report
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
mkdir -p "$OUT"
for f in "$ROOT"/docs/*.md; do
  base="$(basename "$f" .md)"
  log "converting $base"
  pandoc "$f" -o "$OUT/${base}.pdf" --pdf-engine=xelatex
done
if [[ -n "${API_TOKEN:-}" ]]; then
  curl -fsS -H "Authorization: Bearer $API_TOKEN" "https://api.example.com/v1/reports/$NAME" -o "$OUT/$NAME.json"
fi
cat > "$OUT/README.txt" <<EOF
Built $NAME on $(date -u +%Y-%m-%d).
EOF
log done
`

// BenchmarkScanShell scans the generated skills of BenchmarkScan, each
// with a shell script added, so that the shell parser's share shows.
func BenchmarkScanShell(b *testing.B) {
	benchScanWith(b, "scripts/build.sh", benignShellScript, func(f Finding) bool { return f.RuleID != "SG-TREE-006" })
}

// benchScanWith scans the generated skills of BenchmarkScan, each with file added, and
// fails on a finding about that file that wrong reports: the file is benign.
func benchScanWith(b *testing.B, file, data string, wrong func(Finding) bool) {
	skills, size := benchSkills(100)
	for _, s := range skills {
		s[file] = &fstest.MapFile{Data: []byte(data)}
		size += int64(len(data))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range skills {
			rep, err := Scan(s, Options{})
			if err != nil {
				b.Fatal(err)
			}
			for _, f := range rep.Findings {
				if f.File == file && wrong(f) {
					b.Fatalf("benign %s: %s %s %s", file, f.RuleID, f.Severity, f.Message)
				}
			}
		}
	}
}
