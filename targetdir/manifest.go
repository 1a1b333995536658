package targetdir

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/filenames"
)

// maxManifestSize bounds how much of a manifest is read.
const maxManifestSize = 64 << 20

// pendingHash is the written hash of a skill whose install began and may not have finished;
// the entry's Pending field then holds the hash of what the install writes.
const pendingHash = "pending"

// manifest is what a target folder's manifest file holds.
type manifest struct {
	Version int                      `json:"version"`
	Skills  map[string]manifestEntry `json:"skills"`
	// ref is the manifest file's modification time in nanoseconds when it was read: a stamp
	// not older than that is racy.
	ref int64
}

// manifestEntry records one installed skill: the source folder hash it was installed from,
// the hash of what was written, and how. For an install that began and may not have
// finished, Written is pendingHash and Pending the hash of what the install writes, so that
// the next sync tells a folder it wrote from one a user put there in the meantime. Stat
// records the stamps of the folder's entries (see stamp) taken when their content was
// Written; an entry without them, such as one of an older manifest, is hashed.
type manifestEntry struct {
	Source  string `json:"source"`
	Written string `json:"written"`
	Mode    Mode   `json:"mode"`
	Pending string `json:"pending,omitempty"`
	Stat    string `json:"stat,omitempty"`
}

// pendingTree prefixes the Pending field of an unfinished install that records the git tree
// id of the version it writes, rather than the hash of what it writes: knowing that hash
// before writing would take reading every file twice, and the tree id is known already.
const pendingTree = "tree:"

// wrote reports whether got, the hash of the installed folder name of root, is what skillgit
// wrote there: the recorded hash, or for an unfinished install the hash that install writes
// or the git tree id of the version it writes. A folder the install left out a file of (a
// link outside the skill) hashes to another tree, and is taken for someone else's: a sync
// then asks for --force rather than guess.
func (e manifestEntry) wrote(root *os.Root, name, got string) bool {
	if e.Written != pendingHash {
		return got == e.Written
	}
	tree, ok := strings.CutPrefix(e.Pending, pendingTree)
	if !ok {
		return e.Pending != "" && got == e.Pending
	}
	id, _, err := catalog.TreeHash(root, name, catalog.TreeHashOptions{})
	return err == nil && tree != "" && id == tree
}

// readManifest reads the manifest of root; a folder without one has an empty manifest.
func readManifest(root *os.Root, dir string) (*manifest, error) {
	m := &manifest{Version: 1, Skills: map[string]manifestEntry{}}
	if root == nil {
		return m, nil
	}
	info, err := root.Lstat(filenames.Manifest)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() || info.Size() > maxManifestSize {
		return nil, manifestError(dir, "is not a regular file within 64 MiB")
	}
	data, err := root.ReadFile(filenames.Manifest)
	if err != nil {
		return nil, err
	}
	if err := decodeManifest(data, m); err != nil || m.Version != 1 {
		return nil, manifestError(dir, "cannot be read")
	}
	m.ref = info.ModTime().UnixNano()
	return m, m.check(dir)
}

// check refuses a manifest naming a skill that could not be a folder name.
func (m *manifest) check(dir string) error {
	if m.Skills == nil {
		m.Skills = map[string]manifestEntry{}
	}
	for name := range m.Skills {
		if err := catalog.ValidateName(name); err != nil {
			return manifestError(dir, fmt.Sprintf("lists an invalid skill: %v", err))
		}
	}
	return nil
}

func manifestError(dir, what string) error {
	return fmt.Errorf("%s/%s %s; move it away to start over (skillgit then owns nothing in that folder)", dir, filenames.Manifest, what)
}

// writeManifest replaces the manifest atomically: written aside, then renamed over.
func writeManifest(w Writer, m *manifest) error {
	data, err := encodeManifest(m)
	if err != nil {
		return err
	}
	tmp := filenames.ManifestDraftPrefix + randSuffix()
	defer w.Track(tmp, false)()
	if err := w.WriteFile(tmp, bytes.NewReader(append(data, '\n')), 0o644); err != nil {
		return err
	}
	if err := w.Rename(tmp, filenames.Manifest); err != nil {
		_ = w.RemoveAll(tmp)
		return err
	}
	return nil
}

// randSuffix returns 8 random hex digits for a temporary name.
func randSuffix() string {
	var b [4]byte
	_, _ = io.ReadFull(rand.Reader, b[:])
	return hex.EncodeToString(b[:])
}

// leftoverPrefixes begin the names of the entries a sync writes in the folder for an
// instant, which only an interrupted sync leaves behind.
var leftoverPrefixes = filenames.AgentFolderLeftoverPrefixes()

// isLeftover reports an entry that only an interrupted sync leaves behind.
func isLeftover(name string) bool {
	for _, p := range leftoverPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// IsOwnFile reports whether name, an entry of a sync's target folder, is one of the files a
// sync keeps there for itself rather than a skill (filenames.AgentFolderFiles): the
// manifest, the folder's mutex and its break file. Only these exact names are; what an
// interrupted sync leaves behind is IsLeftover.
func IsOwnFile(name string) bool {
	return name == filenames.Manifest || name == filenames.FolderMutex || name == filenames.MutexBreak
}

// IsLeftover reports whether name, an entry of a sync's target folder, is one that a
// sync writes for an instant and only an interrupted sync leaves behind; the next sync, or
// `skillgit doctor --fix`, removes it.
func IsLeftover(name string) bool { return isLeftover(name) }
