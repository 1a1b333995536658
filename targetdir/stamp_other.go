//go:build !linux

package targetdir

import (
	"io"
	"io/fs"
	"os"
)

// sysStamp gives no stamp on systems whose stat data this package does not read: every
// installed folder is hashed.
func sysStamp(fs.FileInfo) (stamp, bool) { return stamp{}, false }

// stampChecker trusts no stamps on these systems.
type stampChecker struct{}

func newStampChecker(*os.Root) (*stampChecker, error) { return &stampChecker{}, nil }

func (*stampChecker) trust(string, string, int64) bool { return false }

func (*stampChecker) close() error { return nil }

// fastFolder is never used on these systems: folders are written through their Writer.
type fastFolder struct{}

func (*stampChecker) newFolder(string) *fastFolder { return nil }

func (*fastFolder) mkdir(string) error                             { return nil }
func (*fastFolder) writeFile(string, io.Reader, fs.FileMode) error { return nil }
func (*fastFolder) symlink(string, string) error                   { return nil }
func (*fastFolder) written() error                                 { return nil }
func (*fastFolder) placed() string                                 { return "" }
func (*fastFolder) close()                                         {}
