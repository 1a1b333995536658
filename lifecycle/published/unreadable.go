package published

import (
	"errors"
	"fmt"
	"path"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// ErrUnreadableSkill reports a published skill whose files cannot be read from git: an
// object is missing or corrupt. Sync then changes nothing, rather than take the skill for
// one no longer published and remove its installed copy.
var ErrUnreadableSkill = errors.New("cannot be read from git")

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

// WithObjectHint adds to an error about a git object that cannot be read what to do about
// it, unless it says so already.
func WithObjectHint(err error) error { return gitstore.WithFsckHint(err) }

// cacheable reports whether a listing may be cached: not when a git object could not be read,
// because restoring the object changes the listing without changing any tree id.
func cacheable(res *catalog.Result) bool {
	return len(res.Unreadable()) == 0
}
