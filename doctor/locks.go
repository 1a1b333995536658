package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/boundedfile"
	"github.com/skillgit/skillgit/internal/procowner"
)

// breakFileAge is the age after which a break file, held for an instant by a process that
// clears a stale lock, is taken for one a process that died left behind.
const breakFileAge = 10 * time.Second

// maxRecord bounds the owner records and pack lock read.
const maxRecord = 4096

// checkLocks looks at every lock file of the repository.
func (d *doctor) checkLocks() error {
	locks, err := d.git.Locks().List()
	if err != nil {
		return fmt.Errorf("listing the lock files: %w", err)
	}
	for _, p := range locks {
		o, err := d.git.Locks().Inspect(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue // released meanwhile
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		d.checkLock(p, o)
	}
	return nil
}

// checkLock judges one lock file of git's kind by what skillgit recorded of its owner.
func (d *doctor) checkLock(p string, o gitstore.LockOwner) {
	switch {
	case o.Recorded && o.Gone:
		d.fixWith(FindingLock, p, "stale, skillgit's own: "+o.Describe(), func() error {
			if !d.git.Locks().RemoveStale(p) && exists(p) {
				return errors.New("it changed hands meanwhile; run doctor again")
			}
			return nil
		})
	case o.Recorded:
		d.leave(FindingLock, p, o.Describe(), "in use; it goes when that process finishes")
	default:
		d.checkUnowned(p, "no owner record: git's own lock, or one of a process that died before recording itself")
	}
}

// checkUnowned judges a lock file nobody recorded: it is removed only when no process of
// this host has it open, no git process runs in the repository (git closes some locks it
// still holds, such as index.lock while a commit's editor is open), and it is older than a
// git command holds a lock.
func (d *doctor) checkUnowned(p, detail string) {
	fi, err := os.Lstat(p)
	if err != nil {
		return
	}
	age := time.Since(fi.ModTime())
	d.removeIfIdle(idleFile{
		kind: FindingLock, path: p, info: fi, detail: detail, minAge: unownedLockAge,
		inUse:  "; it goes when that process finishes",
		git:    "may hold it",
		recent: fmt.Sprintf("written %s ago, so a git command may still hold it; run doctor again in a few seconds", age.Round(time.Millisecond)),
		idle:   fmt.Sprintf("%s; no process has it open, written %s ago", detail, roughAge(age)),
	})
}

// idleFile is a file the doctor removes only once nothing may still be using it.
type idleFile struct {
	kind, path string
	info       fs.FileInfo
	// detail describes the file while it is left; idle, once it can go.
	detail, idle string
	// minAge is the age under which a process may still be about to use it.
	minAge time.Duration
	// inUse follows "open in process N"; git follows "git process N runs in this repository
	// and"; recent says why a file younger than minAge is left.
	inUse, git, recent string
}

// removeIfIdle removes f (with --fix) when no process of this host has it open, no git
// process runs in the repository, it is at least f.minAge old and it is still the file
// f.info describes; otherwise it is left, saying why.
func (d *doctor) removeIfIdle(f idleFile) {
	pids, known := openers(f.path)
	switch {
	case !known:
		d.leave(f.kind, f.path, f.detail, "this system does not tell which processes have it open; if no git or skillgit process is running, remove it")
	case len(pids) > 0:
		d.leave(f.kind, f.path, f.detail, fmt.Sprintf("open in process %s%s", joinInts(pids), f.inUse))
	case len(d.gits()) > 0:
		d.leave(f.kind, f.path, f.detail, fmt.Sprintf("git process %s runs in this repository and %s; run doctor again when it is done", joinInts(d.gits()), f.git))
	case time.Since(f.info.ModTime()) < f.minAge:
		d.leave(f.kind, f.path, f.detail, f.recent)
	default:
		d.fixWith(f.kind, f.path, f.idle, func() error { return removeIfUnchanged(f.path, f.info) })
	}
}

// gits lists, once, the git processes that run in the repository's folders.
func (d *doctor) gits() []int {
	if d.gitPIDs == nil {
		dirs := []string{d.git.GitDir(), d.git.CommonDir()}
		if wt := d.git.WorktreeDir(); wt != "" {
			dirs = append(dirs, wt)
		}
		for i, dir := range dirs {
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dirs[i] = real
			}
		}
		d.gitPIDs = append([]int{}, gitsIn(dirs)...)
	}
	return d.gitPIDs
}

// checkOwnerRecords looks for owner records whose lock file is gone, or is another file.
func (d *doctor) checkOwnerRecords() error {
	dir := filepath.Join(d.git.CommonDir(), filepath.FromSlash(gitstore.OwnersDir))
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			d.checkOwnerRecord(filepath.Join(dir, e.Name()))
		}
	}
	return nil
}

// checkOwnerRecord judges one owner record: it is an orphan when its lock is gone or its
// record does not describe the lock there now, and removable when its owner is gone too or
// it is older than any lock is held without its record.
func (d *doctor) checkOwnerRecord(rec string) {
	data, err := readSmall(rec)
	if err != nil {
		return
	}
	fi, err := os.Lstat(rec)
	if err != nil {
		return
	}
	age := time.Since(fi.ModTime())
	old := age > unownedLockAge
	if strings.HasSuffix(rec, ".break") {
		if age > breakFileAge {
			d.fixWith(FindingLockRecord, rec, "a break file of a process that died clearing a stale lock", func() error {
				return removeIfSame(rec, data)
			})
		}
		return
	}
	o, extra, perr := procowner.Parse(data)
	lock := extra["lock"]
	if perr != nil || lock == "" {
		if old {
			d.fixWith(FindingLockRecord, rec, "an unfinished owner record, older than any lock takes to record its owner", func() error {
				return removeIfSame(rec, data)
			})
		}
		return
	}
	if cur, err := d.git.Locks().Inspect(lock); err == nil && cur.Recorded && cur.Owner == o {
		return // the record of a lock that is there
	}
	if !o.Gone() && !old {
		return // its owner is releasing or taking the lock right now
	}
	d.fixWith(FindingLockRecord, rec, fmt.Sprintf("owner record of %s, whose lock is gone (skillgit %s)", lock, o), func() error {
		return removeIfSame(rec, data)
	})
}

// readSmall reads a regular file of at most maxRecord bytes.
func readSmall(p string) ([]byte, error) {
	data, _, err := boundedfile.Read(p, maxRecord)
	return data, err
}

// removeIfSame removes file p if it still holds data.
func removeIfSame(p string, data []byte) error {
	now, err := readSmall(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if string(now) != string(data) {
		return errors.New("it changed meanwhile; run doctor again")
	}
	return removeFile(p)
}

// removeIfUnchanged removes file p if it is still the file fi describes.
func removeIfUnchanged(p string, fi fs.FileInfo) error {
	now, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !os.SameFile(now, fi) || !now.ModTime().Equal(fi.ModTime()) {
		return errors.New("it changed meanwhile; run doctor again")
	}
	return removeFile(p)
}

func removeFile(p string) error {
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

// roughAge says how long ago something was, in the largest unit that fits.
func roughAge(d time.Duration) string {
	switch {
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		return units(int(d/time.Minute), "minute")
	case d < 48*time.Hour:
		return units(int(d/time.Hour), "hour")
	}
	return units(int(d/(24*time.Hour)), "day")
}

// units says "1 minute" or "5 minutes".
func units(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
