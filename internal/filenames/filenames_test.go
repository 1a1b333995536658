package filenames

import (
	"slices"
	"strings"
	"testing"
)

// TestNamesAreDistinct makes sure no two of the names skillgit writes are one name, even on a
// file system that ignores case, and that none begins like an entry written for an instant:
// the next sync, or doctor --fix, would remove it as left behind.
func TestNamesAreDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, n := range Names() {
		key := strings.ToLower(n)
		if other, dup := seen[key]; dup {
			t.Errorf("%s and %s are one name", n, other)
		}
		seen[key] = n
		for _, p := range Prefixes() {
			if strings.HasPrefix(key, strings.ToLower(p)) {
				t.Errorf("%s begins with %s, the prefix of what an interrupted command leaves behind", n, p)
			}
		}
	}
	for _, want := range []string{FolderMutex, ProjectLock} {
		if !slices.Contains(Names(), want) {
			t.Fatalf("the list lacks %s: %v", want, Names())
		}
	}
}

// TestPrefixesAreDistinct makes sure that no prefix of a draft begins another, so that each
// leftover is known for what it is.
func TestPrefixesAreDistinct(t *testing.T) {
	ps := Prefixes()
	for i, a := range ps {
		for j, b := range ps {
			if i != j && strings.HasPrefix(strings.ToLower(b), strings.ToLower(a)) {
				t.Errorf("%s begins with %s", b, a)
			}
		}
	}
}
