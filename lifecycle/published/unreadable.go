package published

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// ErrUnreadableSkill reports a published skill whose files cannot be read from git: an
// object is missing or corrupt. Sync then changes nothing, rather than take the skill for
// one no longer published and remove its installed copy.
var ErrUnreadableSkill = errors.New("cannot be read from git")

// fsckHint is what to do about an object git cannot read.
const fsckHint = "the repository is damaged: run `git fsck` to find the damage and restore the object (such as by fetching from another clone)"

// unreadable returns an ErrUnreadableSkill naming the first skill of res that failed to load
// because a git object could not be read, or nil when every failure, if any, is about what a
// skill holds. label names the version read.
func unreadable(res *catalog.Result, label string) error {
	bad := res.Unreadable()
	if len(bad) == 0 {
		return nil
	}
	p := bad[0]
	dir := p.File
	if path.Base(dir) == catalog.FileName {
		dir = path.Dir(dir)
	}
	more := ""
	if len(bad) > 1 {
		more = fmt.Sprintf(" (and %d more objects)", len(bad)-1)
	}
	return fmt.Errorf("%s: skill %s (%s) %w%s: %s", label, path.Base(dir), p.File, ErrUnreadableSkill, more, p.Message)
}

// isObjectError reports whether err is a git object that could not be read.
func isObjectError(err error) bool {
	var oe *gitstore.ObjectError
	return errors.As(err, &oe)
}

// WithObjectHint adds to an error about a git object that cannot be read what to do about
// it, unless it says so already.
func WithObjectHint(err error) error {
	if !isObjectError(err) || strings.Contains(err.Error(), "git fsck") {
		return err
	}
	return fmt.Errorf("%w; %s", err, fsckHint)
}

// cacheable reports whether a listing may be cached: not when a git object could not be read,
// because restoring the object changes the listing without changing any tree id.
func cacheable(res *catalog.Result) bool {
	return len(res.Unreadable()) == 0
}

// FirstObjectError reads every file below dir of fsys, a git tree, and returns the first error
// that is a git object which could not be read; other errors, such as a file over the size
// limit, are for the audit to report.
func FirstObjectError(fsys fs.FS, dir string) error {
	var found error
	fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.Type()&fs.ModeSymlink != 0:
			_, err = fs.ReadLink(fsys, p)
		case d.Type().IsRegular():
			_, err = fs.ReadFile(fsys, p)
		}
		if isObjectError(err) {
			found = err
			return fs.SkipAll
		}
		return nil
	})
	return found
}
