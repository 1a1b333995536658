package lifecycle_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
)

// benchWords is the vocabulary of the generated skills and task.
var benchWords = func() []string {
	r := rand.New(rand.NewPCG(1, 2))
	words := make([]string, 3000)
	for i := range words {
		var b strings.Builder
		for range 4 + r.IntN(6) {
			b.WriteByte(byte('a' + r.IntN(26)))
		}
		words[i] = b.String()
	}
	return words
}()

// benchText returns n words of the vocabulary, chosen by r.
func benchText(r *rand.Rand, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = benchWords[r.IntN(len(benchWords))]
	}
	return strings.Join(parts, " ")
}

// installedTree writes n installed skills into the project's .claude/skills below dir.
func installedTree(b *testing.B, dir string, n int) {
	r := rand.New(rand.NewPCG(3, 4))
	root := filepath.Join(dir, ".claude", "skills")
	for i := range n {
		name := fmt.Sprintf("skill-%05d", i)
		d := filepath.Join(root, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		md := fmt.Sprintf("---\nname: %s\ndescription: %s. Use when a task needs %s.\n---\n# %s\n\n%s\n",
			name, benchText(r, 20), benchText(r, 3), name, benchText(r, 80))
		if err := os.WriteFile(filepath.Join(d, "SKILL.md"), []byte(md), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInstalledMatch10k selects skills for one task of about 200 words (an item of a long
// plan with its context) from 10,000 installed skills, the files warm in the page cache.
// LoadAndMatch is what one `skillgit match` run does: read every skill's frontmatter, build
// the index, rank. Match ranks again with the index built, as a caller matching many plan items
// does.
func BenchmarkInstalledMatch10k(b *testing.B) {
	dir := b.TempDir()
	installedTree(b, dir, 10_000)
	task := benchText(rand.New(rand.NewPCG(5, 6)), 200)
	o := lifecycle.InstalledOptions{Dir: dir}
	load := func(b *testing.B) *lifecycle.Installed {
		in, err := lifecycle.LoadInstalled(o)
		if err != nil {
			b.Fatal(err)
		}
		if len(in.Skills) != 10_000 {
			b.Fatalf("loaded %d skills, want 10000", len(in.Skills))
		}
		return in
	}
	load(b) // warm the page cache
	b.Run("LoadAndMatch", func(b *testing.B) {
		for b.Loop() {
			if res := load(b).Match(task, catalog.MatchOptions{Limit: 5}); len(res.Matches) == 0 {
				b.Fatal("no match")
			}
		}
	})
	b.Run("Match", func(b *testing.B) {
		in := load(b)
		in.Match(task, catalog.MatchOptions{Limit: 5})
		for b.Loop() {
			if res := in.Match(task, catalog.MatchOptions{Limit: 5}); len(res.Matches) == 0 {
				b.Fatal("no match")
			}
		}
	})
}
