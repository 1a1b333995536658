package targetdir

import (
	"os"
)

// Digests tells whether skills installed in one skills folder hold the same files as
// skills elsewhere, reading the folder's manifest once: a skill sync installed there, whose
// recorded stamps show it unchanged since, has the hash the manifest records, and its files
// are not read.
type Digests struct {
	root  *os.Root
	man   *manifest
	check *stampChecker
}

// OpenDigests opens the skills folder dir. A manifest that is missing or cannot be read
// only means that every skill is hashed.
func OpenDigests(dir string) (*Digests, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	d := &Digests{root: root}
	if d.man, err = readManifest(root, dir); err != nil {
		d.man, _ = readManifest(nil, dir)
	}
	if d.check, err = newStampChecker(root); err != nil {
		d.check = nil
	}
	return d, nil
}

// Digest is the content hash of skill folder rel (a slash path) of the skills folder: every
// file with its path, execute bit and bytes, and every symbolic link with its target. Two
// folders of one digest hold the same files.
func (d *Digests) Digest(rel string) (string, error) {
	if m, ok := d.man.Skills[rel]; ok && m.Mode != Symlink {
		found := inspectInstalled(d.root, d.check, rel, m, d.man.ref)
		return found.hash, found.err
	}
	return hashInstalled(d.root, rel)
}

// Close closes the folder.
func (d *Digests) Close() error {
	if d.check != nil {
		d.check.close()
	}
	return d.root.Close()
}
