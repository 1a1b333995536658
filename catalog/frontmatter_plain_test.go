package catalog

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// reused is memory the plain reader reuses across checkPlainSame's calls, as a loader does.
var reused plainScratch

// checkPlainSame checks that the plain-frontmatter reader, wherever it accepts the
// frontmatter of data (a whole SKILL.md), builds exactly the tree the YAML library builds.
// It reports whether the reader accepted it.
func checkPlainSame(t *testing.T, label string, data []byte) bool {
	t.Helper()
	open := openingLen(data)
	if open == 0 {
		return false
	}
	end := findClose(data, open)
	if end == 0 {
		return false
	}
	block := data[:end]
	got, ok := plainFrontmatter(block, nil)
	if !ok {
		return false
	}
	if again, ok := plainFrontmatter(block, &reused); !ok || !cmp.Equal(got, again) {
		t.Errorf("%s: the plain reader builds another tree in reused memory:\n%s", label, cmp.Diff(got, again))
	}
	want, err := decodeBlock(block)
	if err != nil {
		t.Errorf("%s: the plain reader accepts frontmatter the YAML library rejects (%v):\n%s", label, err, block)
		return true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: the plain reader and the YAML library differ (-library +plain):\n%s\nfrontmatter:\n%s", label, diff, block)
		return true
	}
	for _, mode := range []Mode{Strict, Lenient} {
		lib, plain := newChecker("skills/pdf-tools", mode), newChecker("skills/pdf-tools", mode)
		if diff := cmp.Diff(outcome(lib.result(lib.document(want))), outcome(plain.result(plain.document(got))), cmp.AllowUnexported(Skill{})); diff != "" {
			t.Errorf("%s: the skills read through the plain reader and the YAML library differ in %s mode (-library +plain):\n%s", label, mode, diff)
		}
	}
	return true
}

// outcome gathers what a checker returns, for comparing.
func outcome(s *Skill, problems []Problem) any {
	return struct {
		Skill    *Skill
		Problems []Problem
	}{s, problems}
}

// FuzzPlainFrontmatter holds the plain-frontmatter reader to the YAML library on arbitrary
// frontmatter bodies.
func FuzzPlainFrontmatter(f *testing.F) {
	for _, body := range plainSeeds {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		checkPlainSame(t, "fuzz", []byte("---\n"+body+"\n---\n# Body\n"))
	})
}

// plainSeeds are frontmatter bodies at the edge of the plain subset, on both sides.
var plainSeeds = []string{
	"name: pdf-tools\ndescription: Reads PDF files. Use when asked about PDFs.",
	"name: pdf-tools\ndescription: \"Reads PDF files: forms and tables.\"\nlicense: 'MIT'",
	"name: x\ndescription: y\nmetadata:\n  author: A. Person\n  version: \"1.0\"\nallowed-tools: Read Grep",
	"name: x\n\ndescription: y\nmetadata:\n    a: b\n\n    c: d\n",
	"name: x\ndescription: y # comment",
	"name: x\ndescription: C# and F#",
	"name: x\ndescription: a: b",
	"name: x\ndescription: a\n  continued",
	"name: x\ndescription: 'it''s'",
	"name: x\ndescription: \"tab\\there\"",
	"name: x\ndescription: |\n  block",
	"name: x\ndescription: [a, b]",
	"name: &a x\ndescription: *a",
	"name: x\nname: y\ndescription: z",
	"name: x\ndescription: y\nmetadata:\n  a: 1\n   b: 2",
	"name: x\ndescription: y\nmetadata:\n",
	"name: x\ndescription: y\nmetadata:\nlicense: MIT",
	"name: x\ndescription: ~\nlicense: null\ncompatibility: true\nmetadata:\n  n: 0x1F\n  d: 2001-12-14\n  f: .inf",
	"name: x\ndescription: é — ünïcode 日本\u2028z",
	"name: x\ndescription: a\u0085b",
	"name: x\ndescription:  spaced   out   ",
	"name: x\ndescription: \"\"\nlicense: ''",
	"name: x\n<<: y\ndescription: z",
	"1: x\ntrue: y\nnull: z\ndescription: d",
	"name: x\ndescription: y\n...\n",
	"%YAML 1.2\nname: x",
	"name:x\ndescription: y",
	" name: x\ndescription: y",
}

// TestPlainFrontmatterRandom holds the reader to the YAML library on frontmatter put
// together at random from pieces at the edge of the plain subset, and checks that it
// accepts a good share of them, so that the comparison is not empty.
func TestPlainFrontmatterRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	accepted := 0
	const cases = 30000
	for i := range cases {
		body := randomFrontmatter(rng)
		if checkPlainSame(t, "random", []byte("---\n"+body+"---\nbody\n")) {
			accepted++
		}
		if t.Failed() {
			t.Fatalf("case %d failed", i)
		}
	}
	if accepted < cases/20 {
		t.Fatalf("the plain reader accepted %d of %d random frontmatters; the comparison is too thin", accepted, cases)
	}
	t.Logf("accepted %d of %d", accepted, cases)
}

var (
	randomKeys = []string{"name", "description", "license", "metadata", "allowed-tools", "compatibility",
		"x", "a.b", "_k", "-k", ".k", "k-", "1", "0x10", "true", "null", "y", "on", "~", "<<", "k k", "é", "name"}
	randomSeps   = []string{": ", ": ", ": ", ": ", ":  ", ":   ", ":", " : ", ":\t", ":\r", "::", ": :"}
	randomPieces = []string{"word", "Two words", "1.0", "\"quoted: text\"", "'single'", "é 日本 🙂", "0x1F", "1e3", ".inf", "~", "null", "Null", "true", "no",
		"2001-12-14", "2001-12-14t21:59:43.10-05:00", "-foo", "- foo", "foo: bar", "foo:", "a #b", "a#b", "C#", "\"quoted\"",
		"\"", "'", "'single'", "'it''s'", "\"esc\\n\"", "\"a\\\"b\"", "[a, b]", "{a: 1}", "&anc", "*anc", "!tag", "!!str",
		"|", ">", "?", "? x", "%", "@", "`", ",", "]", "}", "é", "日本", "\u2028", "\u0085", "\u00a0", "\ufeff", "\t", "\r",
		"\x7f", "\x01", ":", "a:b", "http://x.y/z", "<<", "=", "...", "---", " ", "  ", "#", "a\\b", "\"x\" y", "'x' y", "\"\"", "''"}
)

// randomFrontmatter puts a frontmatter body together from random keys, separators,
// values and indentation; each line ends with a newline.
func randomFrontmatter(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.IntN(7) {
		switch rng.IntN(10) {
		case 0:
			b.WriteString(strings.Repeat(" ", rng.IntN(3)) + "\n")
			continue
		case 1:
			b.WriteString(pick(rng, randomKeys) + ":\n")
			indent := strings.Repeat(" ", 1+rng.IntN(4))
			for range rng.IntN(4) {
				if rng.IntN(8) == 0 {
					indent += " "
				}
				b.WriteString(indent + randomLine(rng))
			}
			continue
		case 2:
			b.WriteString(strings.Repeat(" ", rng.IntN(3)))
		}
		b.WriteString(randomLine(rng))
	}
	return b.String()
}

// randomLine returns one "key: value" line, often malformed.
func randomLine(rng *rand.Rand) string {
	var b strings.Builder
	odd := rng.IntN(6) == 0 // most lines are plain, so that the reader accepts some frontmatter
	b.WriteString(pickSome(rng, randomKeys, odd))
	if rng.IntN(2) == 0 {
		b.WriteString(strconv.Itoa(rng.IntN(100)))
	}
	b.WriteString(pickSome(rng, randomSeps, odd))
	for j := range 1 + rng.IntN(3) {
		if j > 0 && rng.IntN(2) == 0 {
			b.WriteByte(' ')
		}
		b.WriteString(pickSome(rng, randomPieces, odd))
	}
	if rng.IntN(6) == 0 {
		b.WriteString(strings.Repeat(" ", 1+rng.IntN(2)))
	}
	b.WriteByte('\n')
	return b.String()
}

func pick(rng *rand.Rand, from []string) string { return from[rng.IntN(len(from))] }

// pickSome picks from the whole of from when odd, else from its first six, which are plain.
func pickSome(rng *rand.Rand, from []string, odd bool) string {
	if odd {
		return pick(rng, from)
	}
	return pick(rng, from[:6])
}

// TestPlainFrontmatterFiles holds the reader to the YAML library on every SKILL.md of the
// project's own skills and test data, and of the folders named in
// SKILLGIT_FRONTMATTER_CORPUS (separated by the list separator), such as a collection of
// published skills; it fails when no file was accepted.
func TestPlainFrontmatterFiles(t *testing.T) {
	roots := []string{"..", "testdata"}
	if env := os.Getenv("SKILLGIT_FRONTMATTER_CORPUS"); env != "" {
		roots = append(roots, filepath.SplitList(env)...)
	}
	files, accepted := 0, 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".md") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files++
			if checkPlainSame(t, p, data) {
				accepted++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if accepted == 0 {
		t.Fatalf("the plain reader accepted none of %d files; the comparison is empty", files)
	}
	t.Logf("accepted %d of %d files", accepted, files)
}
