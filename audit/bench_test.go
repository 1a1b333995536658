package audit

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"
)

// Sentences and commands of the kinds real skills hold, including the
// words that benign skills share with attacks (curl, env, base64, sudo).
var (
	benchProse = []string{
		"Read the input file and check that it is valid before converting it.",
		"Ask the user before overwriting an existing file in the project.",
		"The API returns JSON; show the relevant fields in a short table.",
		"Keep the original file and write the result next to it with a new suffix.",
		"If the command fails, read the error message and explain the likely cause.",
		"Use the environment variable for the token and never print its value.",
		"Large files are processed in chunks so memory stays bounded.",
		"Run the tests after every change and summarise the failures by file.",
		"Dates are written in ISO 8601 and times in UTC unless the user asks otherwise.",
		"The reference below lists every option with its default value.",
		"Base64 is used by the API for binary attachments; decode them to files.",
		"Prefer the official client library over hand-written HTTP requests.",
	}
	benchCode = []string{
		"curl -s -H \"Authorization: Bearer $API_TOKEN\" \"https://api.example.com/v1/items?limit=50\" | jq '.items[]'",
		"git log --oneline -n 20", "go test -race ./...", "python -m pytest -q -x",
		"sudo apt-get install -y poppler-utils", "docker compose up -d db",
		"pandoc input.md -o output.pdf --pdf-engine=xelatex", "npm ci && npm test",
		"base64 -d attachment.b64 > attachment.pdf", "kubectl get pods -n shop -o wide",
		"rg --json 'TODO' src/ | jq -r '.data.path.text'", "env FOO=bar make build",
	}
)

func genSkill(r *rand.Rand, i int) fstest.MapFS {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: skill-%d\ndescription: Converts and checks files of kind %d for the team. Use when the user asks for it.\n---\n\n# Skill %d\n\n", i, i, i)
	for s := range 6 + r.IntN(6) {
		fmt.Fprintf(&b, "## Step %d\n\n", s+1)
		for range 2 + r.IntN(4) {
			b.WriteString(benchProse[r.IntN(len(benchProse))] + " ")
		}
		b.WriteString("\n\n```bash\n")
		for range 1 + r.IntN(3) {
			b.WriteString(benchCode[r.IntN(len(benchCode))] + "\n")
		}
		b.WriteString("```\n\nSee [the reference](references/REFERENCE.md) and <https://docs.example.com/guide>.\n\n")
	}
	var ref strings.Builder
	ref.WriteString("# Reference\n\n| option | default | meaning |\n|---|---|---|\n")
	for k := range 20 + r.IntN(30) {
		fmt.Fprintf(&ref, "| `--opt-%d` | %d | %s |\n", k, r.IntN(100), benchProse[r.IntN(len(benchProse))])
	}
	return fstest.MapFS{
		"SKILL.md":                {Data: []byte(b.String())},
		"references/REFERENCE.md": {Data: []byte(ref.String())},
	}
}

func benchSkills(n int) ([]fstest.MapFS, int64) {
	r := rand.New(rand.NewPCG(7, 11))
	skills := make([]fstest.MapFS, n)
	var size int64
	for i := range skills {
		skills[i] = genSkill(r, i)
		for _, f := range skills[i] {
			size += int64(len(f.Data))
		}
	}
	return skills, size
}

func benchmarkScan(b *testing.B, noPrefilter bool) {
	skills, size := benchSkills(100)
	b.SetBytes(size)
	b.ReportAllocs()
	var st Stats
	for b.Loop() {
		for _, s := range skills {
			if _, err := Scan(s, Options{Stats: &st, noPrefilter: noPrefilter}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(st.RegexEvals)/float64(b.N), "regex-evals/op")
	b.ReportMetric(float64(st.PrefilterHits)/float64(b.N), "keyword-hits/op")
}

// BenchmarkScan measures throughput with every rule on, over 100
// generated skills per operation.
func BenchmarkScan(b *testing.B) { benchmarkScan(b, false) }

// BenchmarkScanNoPrefilter runs every pattern over every whole file, to
// show what the keyword prefilter saves.
func BenchmarkScanNoPrefilter(b *testing.B) { benchmarkScan(b, true) }

func BenchmarkMatcher(b *testing.B) {
	skills, _ := benchSkills(20)
	var text []byte
	for _, s := range skills {
		text = append(text, s["SKILL.md"].Data...)
	}
	m := compiled().m
	var tail []kwEnd
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		m.scan(text, &tail, func(int, int) {})
	}
}

// BenchmarkCompileEngine builds the keyword automaton of every rule, which each process that
// scans a skill does once before its first scan.
func BenchmarkCompileEngine(b *testing.B) {
	for b.Loop() {
		newEngine(ruleList)
	}
}
