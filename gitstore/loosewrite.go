package gitstore

import (
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// writeLoose stores an object as a loose file the way git does: compressed at zlib's fastest
// level (git's core.looseCompression default; go-git uses the default level, three times
// slower on a large tree), written to a temporary file in its fan-out folder and linked into
// place, so a reader never sees part of it. An object already stored is left alone.
func (r *Writes) writeLoose(t plumbing.ObjectType, h Hash, data []byte) error {
	final := loosePath((*Objects)(r).objectsDir(), h)
	var err error
	for range maxLooseTries {
		if err = writeLooseFile(final, t, data); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		// PackLoose in another process removed the fan-out folder it emptied.
	}
	if err != nil {
		return fmt.Errorf("writing %s %s: %w", t, h, err)
	}
	r.loose.wrote()
	return nil
}

// maxLooseTries bounds the writes of one object that a fan-out folder
// vanishing under it may undo; each try costs one compression, and a
// loaded machine can lose several races in a row.
const maxLooseTries = 16

// tempMade, when a test sets it, is called with the path of each temporary file of the
// object store and of the working tree just after it is made and registered.
var tempMade func(path string)

func writeLooseFile(final string, t plumbing.ObjectType, data []byte) error {
	if _, err := os.Lstat(final); err == nil {
		return nil
	}
	// The object is created read-only, as git leaves it; its fan-out folder is made only
	// when missing, which spares a look at it for each object of a batch.
	dir := filepath.Dir(final)
	tmp, untrack, err := interrupt.CreateTempMode(dir, "tmp_obj_", 0o444)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o755); err == nil {
			tmp, untrack, err = interrupt.CreateTempMode(dir, "tmp_obj_", 0o444)
		}
	}
	if err != nil {
		return err
	}
	defer untrack()
	defer os.Remove(tmp.Name())
	if tempMade != nil {
		tempMade(tmp.Name())
	}
	if err := compressObject(tmp, t, data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// A link fails rather than replace an object another writer put there first; where the
	// file system has no links, a rename puts the same bytes in place.
	err = os.Link(tmp.Name(), final)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return nil
	}
	return os.Rename(tmp.Name(), final)
}

// storedTreeMin is the size from which a tree is stored in zlib's stored blocks, not
// compressed. A tree is a fifth 20-byte ids, which do not compress: a folder of 100,000
// skills is a 4.7 MB tree that compresses to 2.6 MB at the fastest level but takes 50 ms to
// compress and 30 ms to inflate, against 3 ms each way stored, and every publish writes one
// and reads two; a batch that publishes 10,000 new skills into one folder compressed 2.5 GB
// of trees, 29 s of its 204. Any zlib reader, git's included, reads stored blocks; `git gc`
// packs and compresses them as any other object. Below this size (a folder of about 1,300
// skills) compressing costs under a millisecond.
const storedTreeMin = 64 << 10

// zlibWriters keeps compressors for reuse: making one allocates and clears some hundreds of
// kilobytes, more than compressing a small object costs, and a batch writes thousands. The
// stored ones copy without compressing.
var (
	zlibWriters   = writerPool(zlib.BestSpeed)
	storedWriters = writerPool(zlib.NoCompression)
)

func writerPool(level int) *sync.Pool {
	return &sync.Pool{New: func() any {
		zw, _ := zlib.NewWriterLevel(io.Discard, level) // a valid level cannot fail
		return zw
	}}
}

func compressObject(f *os.File, t plumbing.ObjectType, data []byte) error {
	pool := zlibWriters
	if t == plumbing.TreeObject && len(data) >= storedTreeMin {
		pool = storedWriters
	}
	zw := pool.Get().(*zlib.Writer)
	defer pool.Put(zw)
	zw.Reset(f)
	header := append([]byte(t.String()+" "), strconv.Itoa(len(data))...)
	if _, err := zw.Write(append(header, 0)); err != nil {
		return err
	}
	if _, err := zw.Write(data); err != nil {
		return err
	}
	return zw.Close()
}
