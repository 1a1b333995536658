package gitstore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillgit/skillgit/internal/osfile"
	"github.com/skillgit/skillgit/internal/procowner"
)

// OwnersDir is the folder, in the common git folder, that holds an owner record for each
// lock file skillgit holds: git's lock files hold the new content, so the owner cannot be
// written into them, and a file beside a ref's lock would be taken for a ref.
const OwnersDir = "skillgit/locks"

// maxOwnerRecord bounds the owner records read.
const maxOwnerRecord = 4096

// breakStaleAge is the age after which a break file is taken for one left by a process that
// died while it cleared a stale lock.
const breakStaleAge = 10 * time.Second

// ownerPath is where the owner of lockPath is recorded.
func (r *Locks) ownerPath(lockPath string) string {
	abs, err := filepath.Abs(lockPath)
	if err != nil {
		abs = lockPath
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(r.commonDir, filepath.FromSlash(OwnersDir), hex.EncodeToString(sum[:8]))
}

// writeOwner records this process as the owner of the lock file f at lockPath, with the
// file's identity, and returns the record's path; "" when it could not be written, which
// leaves the lock one that only git's rule can clear.
func (r *Locks) writeOwner(lockPath string, f *os.File) string {
	id, ok := fileID(f)
	if !ok {
		return ""
	}
	rec := procowner.Self().Marshal()
	rec = fmt.Appendf(rec, "lock %s\nfile %s\n", lockPath, id)
	path := r.ownerPath(lockPath)
	// Written in place, in one write, to keep short the moment a lock has no record: a
	// record cut short by a crash lacks its last lines, does not name the lock's file,
	// and leaves the lock to git's rule, which is the safe side.
	err := osfile.WriteFile(path, rec, 0o666)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(filepath.Dir(path), 0o777); err == nil {
			err = osfile.WriteFile(path, rec, 0o666)
		}
	}
	if err != nil {
		return ""
	}
	return path
}

// fileID identifies an open file by device, inode and change time, so that a record is never
// taken for a later lock of the same name, though the system may give it the same inode.
func fileID(f *os.File) (string, bool) {
	fi, err := f.Stat()
	if err != nil {
		return "", false
	}
	return statID(fi)
}

// LockOwner is what skillgit knows of who holds a lock file.
type LockOwner struct {
	// Path is the lock file.
	Path string
	// Recorded says whether skillgit recorded an owner for this very file.
	Recorded bool
	// Owner is the recorded owner.
	Owner procowner.Owner
	// Gone says whether the recorded owner has certainly exited.
	Gone bool
	// Age is how long ago the lock file was last written.
	Age time.Duration
}

// Describe says, for a message, who holds the lock.
func (o LockOwner) Describe() string {
	switch {
	case !o.Recorded:
		return "no owner record: git's own lock, or one of a process that died"
	case o.Gone:
		return fmt.Sprintf("left by skillgit %s, which is gone", o.Owner)
	}
	return fmt.Sprintf("held by skillgit %s, still running", o.Owner)
}

// Inspect reads what is known of the owner of the lock file at lockPath: a git lock's
// from its owner record, skillgit's pack lock's from the lock itself.
func (r *Locks) Inspect(lockPath string) (LockOwner, error) {
	out := LockOwner{Path: lockPath}
	fi, err := os.Lstat(lockPath)
	if err != nil {
		return out, err
	}
	out.Age = time.Since(fi.ModTime())
	if lockPath == filepath.Join((*Objects)(r).objectsDir(), packLockName) {
		// The pack lock is skillgit's own file and holds its owner's record itself.
		data, err := readBounded(lockPath, maxOwnerRecord)
		if owner, _, perr := procowner.Parse(data); err == nil && perr == nil {
			out.Recorded, out.Owner, out.Gone = true, owner, owner.Gone()
		}
		return out, nil
	}
	id, ok := statID(fi)
	data, err := readBounded(r.ownerPath(lockPath), maxOwnerRecord)
	if !ok || err != nil {
		return out, nil
	}
	owner, extra, err := procowner.Parse(data)
	if err != nil || extra["file"] != id || extra["lock"] != lockPath {
		return out, nil
	}
	out.Recorded, out.Owner, out.Gone = true, owner, owner.Gone()
	return out, nil
}

// breakStaleLock removes the lock file at lockPath when skillgit recorded its owner and that
// process is gone, saying so on stderr, and reports whether it did. A break file makes sure
// that only one process clears a given lock, and the record names the very file, so a lock
// another process has just taken is never removed.
func (r *Locks) breakStaleLock(lockPath string) bool {
	o, ok := r.removeStale(lockPath)
	if ok {
		fmt.Fprintf(os.Stderr, "skillgit: removed the stale lock %s (%s)\n", lockPath, o.Describe())
	}
	return ok
}

// removeStale removes the lock at lockPath when its recorded skillgit owner is gone, and
// returns what was known of it.
func (r *Locks) removeStale(lockPath string) (LockOwner, bool) {
	o, err := r.Inspect(lockPath)
	if err != nil || !o.Recorded || !o.Gone {
		return o, false
	}
	brk := r.ownerPath(lockPath) + ".break"
	if err := os.MkdirAll(filepath.Dir(brk), 0o777); err != nil {
		return o, false
	}
	f, err := os.OpenFile(brk, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		if fi, serr := os.Lstat(brk); serr == nil && time.Since(fi.ModTime()) > breakStaleAge {
			os.Remove(brk)
		}
		return o, false
	}
	f.Close()
	defer os.Remove(brk)
	if again, err := r.Inspect(lockPath); err != nil || !again.Recorded || !again.Gone || again.Owner != o.Owner {
		return o, false
	}
	if err := os.Remove(lockPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return o, false
	}
	os.Remove(r.ownerPath(lockPath))
	return o, true
}

// RemoveStale removes the lock at lockPath if skillgit recorded its owner and that
// process is gone, and reports whether it did. It prints nothing: the caller says what it did.
func (r *Locks) RemoveStale(lockPath string) bool {
	_, ok := r.removeStale(lockPath)
	return ok
}

// lockedError is the error of a lock that stayed held: it names the lock and every other
// lock file of the repository at once, each with what is known of its owner, so that none is
// met only on the next try.
func (r *Locks) lockedError(lockPath string) error {
	o, _ := r.Inspect(lockPath)
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %v (%s)", lockPath, ErrLocked, o.Describe())
	others, _ := r.List()
	for _, p := range others {
		if p == lockPath {
			continue
		}
		po, _ := r.Inspect(p)
		fmt.Fprintf(&b, "; also locked: %s (%s)", p, po.Describe())
	}
	b.WriteString("; if no git or skillgit process is running, remove the lock files listed, or run `skillgit doctor --fix`")
	return &lockError{msg: b.String()}
}

// lockError is a lock held too long; it matches ErrLocked.
type lockError struct{ msg string }

func (e *lockError) Error() string        { return e.msg }
func (e *lockError) Is(target error) bool { return target == ErrLocked }

// maxLockScan bounds the entries List looks at.
const maxLockScan = 200_000

// List lists the lock files of the repository: those of its refs, its index, HEAD,
// packed-refs and config, in the git folder and the common one, and skillgit's pack lock.
func (r *Locks) List() ([]string, error) {
	var out []string
	seen := 0
	for _, dir := range uniqueDirs(r.gitDir, r.commonDir) {
		for _, name := range []string{"index", "HEAD", "packed-refs", "config", "ORIG_HEAD", "MERGE_HEAD"} {
			if _, err := os.Lstat(filepath.Join(dir, name+".lock")); err == nil {
				out = append(out, filepath.Join(dir, name+".lock"))
			}
		}
		err := filepath.WalkDir(filepath.Join(dir, "refs"), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if seen++; seen > maxLockScan {
				return filepath.SkipAll
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".lock") {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return out, err
		}
	}
	if p := filepath.Join((*Objects)(r).objectsDir(), packLockName); fileExists(p) {
		out = append(out, p)
	}
	return out, nil
}

func uniqueDirs(a, b string) []string {
	if a == b || b == "" {
		return []string{a}
	}
	return []string{a, b}
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// readBounded reads a file of at most limit bytes.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, larger than %d", path, fi.Size(), limit)
	}
	return readSized(f, fi.Size(), limit)
}
