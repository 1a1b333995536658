// Package cachefile reads the files of skillgit's caches, which are safe to delete: a file is
// read whole or not at all, and anything amiss is a miss.
package cachefile

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/skillgit/skillgit/internal/buildinfo"
)

// Read reads name whole, unless it is missing, unreadable or larger than limit bytes. One read
// of the whole file costs fewer system calls than a buffered reader's.
func Read(name string, limit int64) ([]byte, bool) {
	f, err := os.Open(name)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() > limit {
		return nil, false
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, false
	}
	return data, true
}

// BuildID names the running build of skillgit: its recorded version and toolchain, and the
// size and time of its executable. A cache records it, so that a new skillgit never trusts
// what an older one wrote, even a build from a changed work tree, which records the same
// version as the build before it.
var BuildID = sync.OnceValue(func() string {
	i := buildinfo.Read()
	id := i.String() + " " + i.Go
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			id += fmt.Sprintf(" %d %d", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return id
})
