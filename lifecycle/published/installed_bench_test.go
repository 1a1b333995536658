package published_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/plan"
	"github.com/skillgit/skillgit/lifecycle/published"
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
// LoadAndMatch is what one `skillgit match` run does without the cache of installed skills:
// read every skill's frontmatter, build the index, rank. LoadAndMatchWarm is the same with the
// cache filled by an earlier run, so that no SKILL.md is read; LoadAndMatchFill is the run that
// fills an empty cache. Match ranks again with the index
// built, as a caller matching many plan items does.
func BenchmarkInstalledMatch10k(b *testing.B) {
	dir := b.TempDir()
	installedTree(b, dir, 10_000)
	task := benchText(rand.New(rand.NewPCG(5, 6)), 200)
	o := published.InstalledOptions{Dir: dir}
	published.UseInstalledCache(b, "")
	loadInstalled(b, o) // warm the page cache
	b.Run("LoadAndMatch", func(b *testing.B) {
		for b.Loop() {
			if res := loadInstalled(b, o).Match(task, catalog.MatchOptions{Limit: 5}); len(res.Matches) == 0 {
				b.Fatal("no match")
			}
		}
	})
	b.Run("LoadAndMatchWarm", func(b *testing.B) {
		published.UseInstalledCache(b, b.TempDir())
		loadInstalled(b, o) // fill the cache
		for b.Loop() {
			if res := loadInstalled(b, o).Match(task, catalog.MatchOptions{Limit: 5}); len(res.Matches) == 0 {
				b.Fatal("no match")
			}
		}
	})
	b.Run("LoadAndMatchFill", func(b *testing.B) {
		for b.Loop() {
			published.UseInstalledCache(b, b.TempDir())
			if res := loadInstalled(b, o).Match(task, catalog.MatchOptions{Limit: 5}); len(res.Matches) == 0 {
				b.Fatal("no match")
			}
		}
	})
	b.Run("Match", func(b *testing.B) {
		in := loadInstalled(b, o)
		in.Match(task, catalog.MatchOptions{Limit: 5})
		for b.Loop() {
			if res := in.Match(task, catalog.MatchOptions{Limit: 5}); len(res.Matches) == 0 {
				b.Fatal("no match")
			}
		}
	})
}

// loadInstalled loads the 10,000 skills installedTree wrote.
func loadInstalled(b *testing.B, o published.InstalledOptions) *published.Installed {
	in, err := published.LoadInstalled(o)
	if err != nil {
		b.Fatal(err)
	}
	if len(in.Skills) != 10_000 {
		b.Fatalf("loaded %d skills, want 10000", len(in.Skills))
	}
	return in
}

// benchPlan writes a Markdown plan of 200 items of about 25 words each: 120 done, then 60
// open, the first of them with 4 nested items, and a Verification section of 16 items that
// are not tasks. It returns the plan's path and the text of its next task.
func benchPlan(b *testing.B, dir string) (string, string) {
	r := rand.New(rand.NewPCG(7, 8))
	var md strings.Builder
	var next string
	md.WriteString("# Plan\n\nMigrate the service.\n")
	for i := range 184 {
		if i%20 == 0 {
			fmt.Fprintf(&md, "\n## Phase %d\n\n", i/20+1)
		}
		mark, indent, text := " ", "", benchText(r, 25)
		switch {
		case i < 120:
			mark = "x"
		case i > 120 && i <= 124:
			indent = "  "
		}
		if i == 121 {
			next = text
		}
		fmt.Fprintf(&md, "%s- [%s] %s\n", indent, mark, text)
	}
	md.WriteString("\n## Verification\n\n")
	for range 16 {
		fmt.Fprintf(&md, "- [ ] check that %s\n", benchText(r, 12))
	}
	path := filepath.Join(dir, "PLAN.md")
	if err := os.WriteFile(path, []byte(md.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path, next
}

// BenchmarkPlanSelect10k is what one `skillgit match --plan` run does after the process
// starts, with the cache of installed skills warm: read a 200-item plan and find its next
// task, load the 10,000 installed skills, and rank them for the task.
func BenchmarkPlanSelect10k(b *testing.B) {
	dir := b.TempDir()
	installedTree(b, dir, 10_000)
	path, want := benchPlan(b, dir)
	o := published.InstalledOptions{Dir: dir}
	published.UseInstalledCache(b, b.TempDir())
	loadInstalled(b, o) // fill the cache
	for b.Loop() {
		data, err := plan.Read(path)
		if err != nil {
			b.Fatal(err)
		}
		t, ok := plan.Next(data)
		if !ok || t.Text != want {
			b.Fatalf("next task %q, want %q", t.Text, want)
		}
		if res := loadInstalled(b, o).Match(t.Text, catalog.MatchOptions{Limit: 5}); len(res.Matches) == 0 {
			b.Fatal("no match")
		}
	}
}
