package targetdir

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/filenames"
)

// leaveKilledSync writes the manifest a sync killed while installing alpha leaves behind:
// alpha marked pending, with pending as the hash the install was to write ("" for the
// manifests of versions that did not record it).
func leaveKilledSync(t *testing.T, target, pending string) {
	t.Helper()
	if err := os.MkdirAll(target, 0o755); err != nil {
		t.Fatal(err)
	}
	m := manifest{Version: 1, Skills: map[string]manifestEntry{
		"alpha": {Written: pendingHash, Pending: pending, Mode: Copy},
	}}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	writeMode(t, filepath.Join(target, filenames.Manifest), string(data), 0o644)
}

// userFolder makes folder alpha in target as a user would, by hand.
func userFolder(t *testing.T, target string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(target, "alpha"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(target, "alpha", catalog.FileName)
	writeMode(t, p, "my own alpha\n", 0o644)
	return p
}

// TestPendingEntryNeverOverwritesUserFolder: a sync is killed after marking alpha pending and
// before writing it; the user then makes a folder alpha. The next sync must leave it alone
// without --force, naming the folder, whichever manifest version the killed sync wrote.
func TestPendingEntryNeverOverwritesUserFolder(t *testing.T) {
	for _, tc := range []struct{ name, pending string }{
		{"without recorded hash", ""},
		{"with recorded hash", "expected"},
		{"with recorded tree", "tree"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, target := t.TempDir(), t.TempDir()
			skills := writeSource(t, src, "v1", "alpha")
			pending := tc.pending
			switch pending {
			case "expected":
				h, err := hashFolder(os.DirFS(src), "alpha", os.Readlink, nil)
				if err != nil {
					t.Fatal(err)
				}
				pending = h
			case "tree":
				skills[0].Hash = treeOf(t, src, "alpha")
				pending = pendingTree + skills[0].Hash
			}
			leaveKilledSync(t, target, pending)
			mine := userFolder(t, target)
			p, err := Plan(os.DirFS(src), skills, target, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if err := p.Apply(); err != nil {
				t.Fatal(err)
			}
			a := p.Actions[0]
			if a.Action != ActionConflict || a.Path != filepath.Join(target, "alpha") || !strings.Contains(a.Reason, "--force") {
				t.Fatalf("action %+v; want a conflict naming the folder and --force", a)
			}
			if readBody(t, mine) != "my own alpha\n" {
				t.Fatal("the user's folder was overwritten without --force")
			}
			p.Close()
			if got := syncOnce(t, src, skills, target, Options{Force: true}); got["alpha"] != ActionUpdate {
				t.Fatalf("with --force: %v; want update", got["alpha"])
			}
			if readBody(t, mine) == "my own alpha\n" {
				t.Fatal("--force did not overwrite the folder")
			}
		})
	}
}

// TestPendingEntryAdoptsWhatItWrote: a sync killed after writing alpha whole, before its
// manifest said so: the next sync recognises the folder as its own, with no conflict, from
// the tree id it recorded as from the hash older versions recorded.
func TestPendingEntryAdoptsWhatItWrote(t *testing.T) {
	for _, recorded := range []string{"hash", "tree"} {
		t.Run(recorded, func(t *testing.T) {
			src, target := t.TempDir(), t.TempDir()
			skills := writeSource(t, src, "v1", "alpha")
			skills[0].Hash = treeOf(t, src, "alpha")
			pending := pendingTree + skills[0].Hash
			if recorded == "hash" {
				h, err := hashFolder(os.DirFS(src), "alpha", os.Readlink, nil)
				if err != nil {
					t.Fatal(err)
				}
				pending = h
			}
			leaveKilledSync(t, target, pending)
			if out, err := exec.Command("cp", "-a", filepath.Join(src, "alpha"), filepath.Join(target, "alpha")).CombinedOutput(); err != nil {
				t.Fatalf("cp: %v\n%s", err, out)
			}
			if got := syncOnce(t, src, skills, target, Options{}); got["alpha"] == ActionConflict {
				t.Fatal("a folder the interrupted sync wrote is a conflict")
			}
			if got := syncOnce(t, src, skills, target, Options{}); got["alpha"] != ActionKeep {
				t.Fatalf("after adoption: %v; want keep", got["alpha"])
			}
		})
	}
}

// treeOf is the git tree id of folder name of dir.
func treeOf(t *testing.T, dir, name string) string {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	id, _, err := catalog.TreeHash(root, name, catalog.TreeHashOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestInstallRecordsPendingHash shows the manifest an install writes before it writes the
// skill: the git tree id of the version it is about to write, which is what the folder then
// holds.
func TestInstallRecordsPendingHash(t *testing.T) {
	src, target := t.TempDir(), t.TempDir()
	skills := writeSource(t, src, "v1", "alpha")
	skills[0].Hash = treeOf(t, src, "alpha")
	var seen manifestEntry
	spy := func(root *os.Root) Writer { return manifestSpy{Writer: NewRootWriter(root), root: root, seen: &seen} }
	p, err := Plan(os.DirFS(src), skills, target, Options{Disk: realDisk{wrap: spy}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(target)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if seen.Written != pendingHash || seen.Pending != pendingTree+skills[0].Hash {
		t.Fatalf("manifest before the write: %+v; want pending with tree %s", seen, skills[0].Hash)
	}
	if got := treeOf(t, target, "alpha"); got != skills[0].Hash {
		t.Fatalf("the installed folder is tree %s; the pending entry recorded %s", got, skills[0].Hash)
	}
}

// manifestSpy notes the entry of alpha in the manifest when the skill's first file is written.
type manifestSpy struct {
	Writer
	root *os.Root
	seen *manifestEntry
}

func (s manifestSpy) Mkdir(name string) error {
	if strings.HasPrefix(name, filenames.SkillTempPrefix+"alpha") && s.seen.Written == "" {
		m, err := readManifest(s.root, ".")
		if err != nil {
			return err
		}
		*s.seen = m.Skills["alpha"]
	}
	return s.Writer.Mkdir(name)
}
