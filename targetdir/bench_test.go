package targetdir

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/catalog"
)

func benchSource(b *testing.B, n int) (string, []Skill) {
	src := b.TempDir()
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("skill-%05d", i)
	}
	return src, writeSource(b, src, "v1", names...)
}

// BenchmarkSyncFull1000 installs 1,000 skills into an empty folder.
func BenchmarkSyncFull1000(b *testing.B) {
	src, skills := benchSource(b, 1000)
	for i := 0; b.Loop(); i++ {
		syncOnce(b, src, skills, filepath.Join(b.TempDir(), fmt.Sprint(i)), Options{})
	}
}

// BenchmarkSyncOneChanged10000 syncs 10,000 installed skills after one of them changed.
func BenchmarkSyncOneChanged10000(b *testing.B) {
	src, skills := benchSource(b, 10000)
	target := b.TempDir()
	syncOnce(b, src, skills, target, Options{})
	for i := 0; b.Loop(); i++ {
		writeMode(b, filepath.Join(src, skills[0].Name, catalog.FileName), fmt.Sprintf("---\nname: %s\ndescription: d\n---\n%d\n", skills[0].Name, i), 0o644)
		skills[0].Hash = fmt.Sprint("changed-", i)
		syncOnce(b, src, skills, target, Options{})
	}
}
