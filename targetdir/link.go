package targetdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// putSymlink installs s as a link to its copy in the link store, writing that copy first
// when it is missing. A copy is named by the source hash, so it never changes once written
// and a link always points at one whole version.
func (p *Folder) putSymlink(w Writer, s *Skill) (string, error) {
	target := p.linkTarget(s)
	if err := p.ensureStored(s, filepath.Dir(target)); err != nil {
		return "", err
	}
	if err := putLink(w, target, s.Name); err != nil {
		return "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	return linkHash(target), nil
}

// ensureStored writes the copy of s into folder dir of the link store unless it is there.
func (p *Folder) ensureStored(s *Skill, dir string) error {
	if info, err := os.Lstat(filepath.Join(dir, s.Name)); err == nil && info.IsDir() {
		return nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return p.opts.Disk.store(p, dir, func(w Writer) error {
		var warn []string
		_, _, err := put(w, nil, p.src, s, s.Name, &warn)
		return err
	})
}
