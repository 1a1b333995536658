package doctor

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
)

// maxRefScan bounds the entries checkRefs looks at under refs/.
const maxRefScan = 200_000

// maxPackedFindings bounds the lines of packed-refs reported one by one.
const maxPackedFindings = 20

// maxPackedRefs bounds the packed-refs file read.
const maxPackedRefs = 256 << 20

// checkRefs looks for refs that do not parse: HEAD, the loose refs of the git folder and
// the common one, and the lines of packed-refs. It never changes a ref.
func (d *doctor) checkRefs() error {
	dirs := []string{d.git.GitDir()}
	if d.git.CommonDir() != d.git.GitDir() {
		dirs = append(dirs, d.git.CommonDir())
	}
	d.checkRefFile(filepath.Join(d.git.GitDir(), "HEAD"), "HEAD")
	for _, dir := range dirs {
		if err := d.walkRefs(dir); err != nil {
			return err
		}
	}
	return d.checkPackedRefs(filepath.Join(d.git.CommonDir(), "packed-refs"))
}

// walkRefs checks every loose ref below dir/refs.
func (d *doctor) walkRefs(dir string) error {
	seen := 0
	err := filepath.WalkDir(filepath.Join(dir, "refs"), func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if seen++; seen > maxRefScan {
			return filepath.SkipAll
		}
		if e.IsDir() || strings.HasSuffix(e.Name(), ".lock") {
			return nil // lock files are checkLocks' part
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if err := gitstore.CheckRefName(name); err != nil {
			d.leave(FindingRef, p, fmt.Sprintf("not a valid ref name: %v", err), misplacedRef)
			return nil
		}
		if !e.Type().IsRegular() {
			d.leave(FindingRef, p, fmt.Sprintf("%s: not a regular file", name), misplacedRef)
			return nil
		}
		d.checkRefFile(p, name)
		return nil
	})
	if err != nil {
		return fmt.Errorf("checking the refs in %s: %w", dir, err)
	}
	return nil
}

// checkRefFile checks that the loose ref name, at p, holds an object id or a valid
// symbolic ref.
func (d *doctor) checkRefFile(p, name string) {
	data, err := readSmall(p)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		d.leaveRef(p, fmt.Sprintf("%s: cannot be read: %v", name, err), name)
		return
	}
	if why := refContentProblem(data); why != "" {
		d.leaveRef(p, fmt.Sprintf("%s: %s (%.40q)", name, why, data), name)
	}
}

// refContentProblem says why git would not read data as a ref; "" when it would.
func refContentProblem(data []byte) string {
	line, ok := bytes.CutSuffix(data, []byte("\n"))
	switch {
	case len(data) == 0:
		return "the file is empty"
	case !ok:
		return "the file does not end its line"
	}
	s := string(line)
	if target, sym := strings.CutPrefix(s, "ref: "); sym {
		if err := gitstore.CheckRefName(target); err != nil && target != "HEAD" {
			return "a symbolic ref to an invalid name"
		}
		return ""
	}
	if !isObjectID(s) {
		return "neither an object id nor a symbolic ref"
	}
	return ""
}

// isObjectID reports a full lower-case hexadecimal object id, SHA-1 or SHA-256.
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// misplacedRef is what to do with a file git does not read as a ref.
const misplacedRef = "skillgit never changes refs: git does not read this file as a ref; while no git or skillgit command runs, move it out of the git folder (if it names a commit you need, give it a valid name with `git update-ref refs/heads/NAME COMMIT`)"

// leaveRef records a ref that does not parse, and what the user can do: git refuses to
// update or delete a broken ref, so the file itself has to go.
func (d *doctor) leaveRef(p, detail, name string) {
	why := fmt.Sprintf("skillgit never changes refs: while no git or skillgit command runs, remove the file, then, if the ref is needed, recreate it with `git update-ref %s COMMIT` (the last line of logs/%s in the git folder, if there, names its last commit)", name, name)
	if name == "HEAD" {
		why = "skillgit never changes refs: write the line `ref: refs/heads/BRANCH` into it, naming the branch to check out"
	}
	d.leave(FindingRef, p, detail, why)
}

// checkPackedRefs checks each line of packed-refs: a header, an id and a ref name, or a
// peeled id after a ref.
func (d *doctor) checkPackedRefs(p string) error {
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxPackedRefs {
		d.leave(FindingRef, p, "packed-refs is not a regular file within 256 MiB", "move it away and restore it from a backup")
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if len(data) == 0 {
		return nil
	}
	afterRef, bad := false, 0
	for n, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		why, isRef := packedLineProblem(n, line, afterRef)
		afterRef = isRef
		if why != "" {
			if bad++; bad > maxPackedFindings {
				continue
			}
			d.leave(FindingRef, p, fmt.Sprintf("line %d: %s (%.60q)", n+1, why, line),
				"skillgit never changes refs here: correct or delete that line with an editor while no git or skillgit command runs, then check with `git fsck`")
		}
	}
	if bad > maxPackedFindings {
		d.leave(FindingRef, p, fmt.Sprintf("%d more lines that do not parse", bad-maxPackedFindings),
			"restore packed-refs from a backup, or rebuild it from the loose refs with `git pack-refs --all` once they are sound")
	}
	return nil
}

// packedLineProblem says why line n of packed-refs is not one git reads, "" when it is, and
// whether it is a ref that a peeled line may follow.
func packedLineProblem(n int, line []byte, afterRef bool) (string, bool) {
	switch {
	case n == 0 && bytes.HasPrefix(line, []byte("# pack-refs with:")):
		return "", false
	case len(line) > 0 && line[0] == '^':
		if !afterRef || !isObjectID(string(line[1:])) {
			return "a peeled id that follows no ref, or is no object id", false
		}
		return "", false
	}
	id, name, ok := bytes.Cut(line, []byte(" "))
	if !ok || !isObjectID(string(id)) || gitstore.CheckRefName(string(name)) != nil {
		return "not an object id followed by a valid ref name", false
	}
	return "", true
}
