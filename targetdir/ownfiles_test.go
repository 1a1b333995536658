package targetdir

import (
	"testing"

	"github.com/skillgit/skillgit/internal/filenames"
)

func TestIsOwnFile(t *testing.T) {
	for name, want := range map[string]bool{
		filenames.Manifest: true, filenames.FolderMutex: true, filenames.MutexBreak: true, filenames.SkillTempPrefix + "x": false, filenames.SkillOldPrefix + "y": false,
		filenames.Manifest + ".bak": false, "pdf": false, ".skillgit": false, ".hidden": false,
	} {
		if got := IsOwnFile(name); got != want {
			t.Errorf("IsOwnFile(%q) = %v", name, got)
		}
	}
	for name, want := range map[string]bool{
		filenames.SkillTempPrefix + "x": true, filenames.SkillOldPrefix + "y": true, filenames.ManifestDraftPrefix + "1": true,
		filenames.Manifest: false, filenames.FolderMutex: false, ".skillgit-tmp": false, "pdf": false,
	} {
		if got := IsLeftover(name); got != want {
			t.Errorf("IsLeftover(%q) = %v", name, got)
		}
	}
}
