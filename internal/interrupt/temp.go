package interrupt

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxTempTries bounds the names CreateTemp and MkdirTemp try before giving up.
const maxTempTries = 100

// CreateTemp creates a new file in dir, as os.CreateTemp does (the last "*" of pattern
// replaced by a random string, else one appended), registered for removal before it
// exists, so that no signal can come between its creation and its registration. Call
// untrack once the file is renamed into place or removed.
func CreateTemp(dir, pattern string) (f *os.File, untrack func(), err error) {
	return CreateTempMode(dir, pattern, 0o600)
}

// CreateTempMode is CreateTemp of a file with permissions perm (before the umask), for a file
// that keeps them once in place: a read-only file is still written through the descriptor
// that created it, which spares changing its mode afterwards.
func CreateTempMode(dir, pattern string, perm fs.FileMode) (f *os.File, untrack func(), err error) {
	err = tempName(dir, pattern, false, func(name string) error {
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		return err
	}, &untrack)
	return f, untrack, err
}

// MkdirTemp creates a new folder in dir as os.MkdirTemp does, registered for removal with
// everything below it before it exists.
func MkdirTemp(dir, pattern string) (name string, untrack func(), err error) {
	err = tempName(dir, pattern, true, func(n string) error {
		name = n
		return os.Mkdir(n, 0o700)
	}, &untrack)
	return name, untrack, err
}

// tempName registers random names made from pattern in dir until make creates one, and
// leaves the registration of that one in *untrack.
func tempName(dir, pattern string, isDir bool, make func(string) error, untrack *func()) error {
	if dir == "" {
		dir = os.TempDir()
	}
	if strings.ContainsRune(pattern, os.PathSeparator) {
		return &fs.PathError{Op: "createtemp", Path: pattern, Err: errors.New("pattern contains a path separator")}
	}
	prefix, suffix := pattern, ""
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for range maxTempTries {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36)+suffix)
		forget := st.track(name, isDir)
		err := make(name)
		if err == nil {
			*untrack = forget
			return nil
		}
		forget()
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	return &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, pattern), Err: fs.ErrExist}
}
