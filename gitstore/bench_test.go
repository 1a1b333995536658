package gitstore

import (
	"fmt"
	"io/fs"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

const benchSkills = 10_000

// benchRepos returns a repository in memory and one on disk.
func benchRepos(b *testing.B) map[string]*Repo {
	r, err := Init(b.TempDir(), InitOptions{Bare: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	return map[string]*Repo{"memory": OpenMemory(), "disk": r}
}

// skillsTree writes a root tree holding skills/<name>/SKILL.md for
// benchSkills skills of about 2 KB each.
func skillsTree(b *testing.B, r *Repo) Hash {
	b.Helper()
	filler := make([]byte, 2000)
	for i := range filler {
		filler[i] = 'a' + byte(i%26)
	}
	entries := make([]TreeEntry, 0, benchSkills)
	for i := range benchSkills {
		name := fmt.Sprintf("skill-%05d", i)
		blob := mustBlob(b, r, fmt.Sprintf("---\nname: %s\ndescription: skill %d\n---\n%s\n", name, i, filler))
		entries = append(entries, dir(name, mustTree(b, r, file("SKILL.md", blob))))
	}
	skills := mustTree(b, r, entries...)
	return mustTree(b, r, dir("skills", skills), file(".skillgit.yaml", mustBlob(b, r, "mode: manual\n")))
}

func BenchmarkReplacePath(b *testing.B) {
	for name, r := range benchRepos(b) {
		b.Run(name, func(b *testing.B) {
			root := skillsTree(b, r)
			i := 0
			for b.Loop() {
				i++
				blob := mustBlob(b, r, fmt.Sprintf("---\nname: skill-05000\ndescription: v%d\n---\n", i))
				if _, err := r.Writes().ReplacePath(root, "skills/skill-05000/SKILL.md", &TreeEntry{Mode: filemode.Regular, Hash: blob}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkTreeFSReadDir(b *testing.B) {
	for name, r := range benchRepos(b) {
		root := skillsTree(b, r)
		for _, cold := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/cold=%v", name, cold), func(b *testing.B) {
				for b.Loop() {
					if cold {
						r.trees = newTreeCache(treeCacheEntries)
					}
					entries, err := fs.ReadDir(r.Objects().TreeFS(root), "skills")
					if err != nil || len(entries) != benchSkills {
						b.Fatalf("ReadDir = %d entries, %v", len(entries), err)
					}
				}
			})
		}
	}
}

func BenchmarkUpdateRef(b *testing.B) {
	for name, r := range benchRepos(b) {
		b.Run(name, func(b *testing.B) {
			tree := mustTree(b, r)
			c1, c2 := mustCommit(b, r, tree, "1"), mustCommit(b, r, tree, "2")
			if err := r.Updates().Update("refs/heads/main", c1, ZeroHash, ""); err != nil {
				b.Fatal(err)
			}
			cur, next := c1, c2
			for b.Loop() {
				if err := r.Updates().Update("refs/heads/main", next, cur, "bench"); err != nil {
					b.Fatal(err)
				}
				cur, next = next, cur
			}
		})
	}
}
