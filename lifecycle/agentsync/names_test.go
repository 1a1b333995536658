package agentsync

import (
	"slices"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/targetdir"
)

// writtenNames are the names of every file and folder skillgit writes where an application
// project's files may meet: the project's top holds its sync file and lock, and it is a sync
// target too with `sync --dir .`, where the target's own files join them; a project may be a
// skill repository as well, with its configuration.
func writtenNames() []string {
	return append([]string{SyncFileName, LockFileName, policy.ConfigFile, policy.Dir}, targetdir.Files()...)
}

// TestWrittenNamesAreDistinct makes sure no two of the files skillgit writes share a name,
// and that none begins like an entry a sync removes as left behind: a sync that took the
// project's lock for its own target's lock once removed it.
func TestWrittenNamesAreDistinct(t *testing.T) {
	names := writtenNames()
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("%s is written for two purposes", n)
		}
		seen[n] = true
		for _, p := range targetdir.LeftoverPrefixes() {
			if strings.HasPrefix(n, p) {
				t.Errorf("%s begins with %s, the prefix of what an interrupted sync leaves behind", n, p)
			}
		}
	}
	if !slices.Contains(names, targetdir.LockFile) || !slices.Contains(names, LockFileName) {
		t.Fatalf("the list lacks the target's lock or the project's: %v", names)
	}
}
