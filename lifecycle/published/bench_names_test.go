package published_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// BenchmarkSkillFolder looks up which folder holds a skill name, the check publish and the
// server make for every folder a publish writes, on a copy of the large repository: Warm with
// the listing of the tree cached, AfterPublish on a tree that differs from the cached one in
// one skill (the first check after a publish), and Cold with no cache at all.
func BenchmarkSkillFolder(b *testing.B) {
	dir := lifecycletest.BareCopy(b, benchRepo(b))
	r := lifecycletest.Open(b, dir)
	name := lifecycletest.LatestSkill(b, dir)
	want, err := skillFolder(r, r.Tree(), name)
	if err != nil || want == "" {
		b.Fatalf("SkillFolder(%s) = %q, %v; want its folder", name, want, err)
	}
	cache := filepath.Join(r.Git().CommonDir(), "skillgit", "cache")
	b.Run("Warm", func(b *testing.B) {
		for b.Loop() {
			lookUp(b, r, r.Tree(), name, want)
		}
	})
	b.Run("AfterPublish", func(b *testing.B) {
		i := 0
		for b.Loop() {
			b.StopTimer()
			i++
			blob, err := r.Git().Writes().WriteBlob(fmt.Appendf(nil, "notes %d\n", i))
			if err != nil {
				b.Fatal(err)
			}
			tree, err := r.Git().Writes().ReplacePath(r.Tree(), want+"/notes.md", &gitstore.TreeEntry{Mode: 0o100644, Hash: blob})
			if err != nil {
				b.Fatal(err)
			}
			lookUp(b, r, r.Tree(), name, want) // the tree before is the latest one cached
			b.StartTimer()
			lookUp(b, r, tree, name, want)
		}
	})
	b.Run("Cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			if err := os.RemoveAll(cache); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			lookUp(b, r, r.Tree(), name, want)
		}
	})
}

// skillFolder looks up the folder of the skill name in the skills folder of tree.
func skillFolder(r *lifecycle.Repo, tree gitstore.Hash, name string) (string, error) {
	return published.SkillFolder(r.Git(), tree, r.Config().SkillsDir, name, "bench")
}

func lookUp(b *testing.B, r *lifecycle.Repo, tree gitstore.Hash, name, want string) {
	if got, err := skillFolder(r, tree, name); err != nil || got != want {
		b.Fatalf("SkillFolder(%s) = %q, %v; want %q", name, got, err, want)
	}
}
