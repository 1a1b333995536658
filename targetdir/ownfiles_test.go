package targetdir

import "testing"

func TestIsOwnFile(t *testing.T) {
	for name, want := range map[string]bool{
		ManifestFile: true, LockFile: true, breakFile: true, tmpPrefix + "x": false, oldPrefix + "y": false,
		ManifestFile + ".bak": false, "pdf": false, ".skillgit": false, ".hidden": false,
	} {
		if got := IsOwnFile(name); got != want {
			t.Errorf("IsOwnFile(%q) = %v", name, got)
		}
	}
	for name, want := range map[string]bool{
		tmpPrefix + "x": true, oldPrefix + "y": true, manifestTmpPrefix + "1": true,
		ManifestFile: false, LockFile: false, ".skillgit-tmp": false, "pdf": false,
	} {
		if got := IsLeftover(name); got != want {
			t.Errorf("IsLeftover(%q) = %v", name, got)
		}
	}
}
