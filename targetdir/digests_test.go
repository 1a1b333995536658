package targetdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/filenames"
)

// digestOf is the digest of skill rel of skills folder dir.
func digestOf(t *testing.T, dir, rel string) string {
	t.Helper()
	d, err := OpenDigests(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	got, err := d.Digest(rel)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestFolderDigests checks that a skill installed by sync, read through its manifest, and a
// plain copy of it have one digest, and that a change of bytes or of the execute bit in
// either, without a change of size, makes them differ.
func TestFolderDigests(t *testing.T) {
	src, target := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	skills := writeSource(t, src, "v1", "alpha")
	syncOnce(t, src, skills, target, Options{})
	if a, b := digestOf(t, target, "alpha"), digestOf(t, src, "alpha"); a != b {
		t.Fatalf("installed %s, copy %s: want one digest", a, b)
	}
	// Read twice: the second read may trust the stamps the first recorded nowhere; it must
	// agree either way.
	if a, b := digestOf(t, target, "alpha"), digestOf(t, src, "alpha"); a != b {
		t.Fatalf("installed %s, copy %s on the second read", a, b)
	}

	body := readBody(t, filepath.Join(target, "alpha", catalog.FileName))
	writeMode(t, filepath.Join(target, "alpha", catalog.FileName), strings.Replace(body, "v1", "v9", 1), 0o644)
	if a, b := digestOf(t, target, "alpha"), digestOf(t, src, "alpha"); a == b {
		t.Fatal("a byte changed in the installed copy, and the digests still agree")
	}

	if err := os.Chmod(filepath.Join(src, "alpha", "scripts", "run.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	writeSource(t, other, "v1", "alpha")
	if a, b := digestOf(t, other, "alpha"), digestOf(t, src, "alpha"); a == b {
		t.Fatal("the execute bit changed, and the digests still agree")
	}
}

// TestFolderDigestsBadManifest checks that a manifest that cannot be read only means the
// skills are hashed.
func TestFolderDigestsBadManifest(t *testing.T) {
	src := t.TempDir()
	writeSource(t, src, "v1", "alpha")
	plain := digestOf(t, src, "alpha")
	writeMode(t, filepath.Join(src, filenames.Manifest), "{not json", 0o644)
	if got := digestOf(t, src, "alpha"); got != plain {
		t.Fatalf("with a broken manifest %s, without %s", got, plain)
	}
}
