package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// FindingObjectTemp is a temporary file a writer of git objects left in the objects folder:
// git and skillgit write each loose object as tmp_obj_* and each pack as tmp_pack_* and
// tmp_idx_*, and rename it into place once complete, so one left behind is the remains of
// a process that was killed while it wrote. A shared index of a split index, written as
// sharedindex_* beside the index, is one too.
const FindingObjectTemp = "object-temp"

// objectTempAge is how old a temporary object file must be before the doctor takes it for a
// leftover: a writer renames it within moments, and keeps it open while it writes.
const objectTempAge = time.Hour

// maxObjectTemps bounds the leftovers reported, as a damaged folder may hold many.
const maxObjectTemps = 1000

// objectTempPrefixes are the names writers of git objects give their temporary files.
var objectTempPrefixes = []string{"tmp_obj_", "tmp_pack_", "tmp_idx_"}

// checkObjectTemps looks for temporary files of object writers in the objects folder: in
// each fan-out folder and in pack/.
func (d *doctor) checkObjectTemps() error {
	objects := filepath.Join(d.git.CommonDir(), "objects")
	dirs, err := readNames(objects)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", objects, err)
	}
	found := d.checkSharedIndexTemps()
	for _, dir := range dirs {
		if !isFanout(dir) && dir != "pack" {
			continue
		}
		names, err := readNames(filepath.Join(objects, dir))
		if err != nil {
			continue // a file, or unreadable: not ours to judge
		}
		for _, name := range names {
			if !isObjectTemp(name) {
				continue
			}
			if found++; found > maxObjectTemps {
				return nil
			}
			d.checkObjectTemp(filepath.Join(objects, dir, name))
		}
	}
	return nil
}

// sharedIndexTempPrefix is the name git and skillgit give a shared index being written.
const sharedIndexTempPrefix = "sharedindex_"

// checkSharedIndexTemps looks for temporary shared index files beside the index, and
// returns how many it found.
func (d *doctor) checkSharedIndexTemps() int {
	names, err := readNames(d.git.GitDir())
	if err != nil {
		return 0
	}
	found := 0
	for _, name := range names {
		if strings.HasPrefix(name, sharedIndexTempPrefix) && len(name) > len(sharedIndexTempPrefix) {
			found++
			d.checkObjectTemp(filepath.Join(d.git.GitDir(), name))
		}
	}
	return found
}

// checkObjectTemp judges one temporary object file: removed only when it is a regular file
// no process of this host has open, no git process runs in the repository, and it is older
// than a writer keeps one.
func (d *doctor) checkObjectTemp(p string) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	detail := fmt.Sprintf("temporary file of an object writer, %d bytes, written %s ago", fi.Size(), roughAge(time.Since(fi.ModTime())))
	d.removeIfIdle(idleFile{
		kind: FindingObjectTemp, path: p, info: fi, detail: detail, minAge: objectTempAge,
		inUse:  ", which is writing it",
		git:    "may be writing it",
		recent: "recent, so a writer may still rename it; run doctor again in an hour",
		idle:   detail + "; no process has it open",
	})
}

// isFanout reports a folder name of two hexadecimal digits, where git keeps loose objects.
func isFanout(name string) bool {
	return len(name) == 2 && strings.Trim(name, "0123456789abcdef") == ""
}

func isObjectTemp(name string) bool {
	for _, p := range objectTempPrefixes {
		if strings.HasPrefix(name, p) && len(name) > len(p) {
			return true
		}
	}
	return false
}

// readNames lists the names in folder dir without stating them.
func readNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
