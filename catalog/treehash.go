package catalog

import (
	"bytes"
	"cmp"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// DefaultTreeFileLimit is the largest file TreeHash reads unless told otherwise.
const DefaultTreeFileLimit = 64 << 20

// maxTreeDepth bounds how deep TreeHash descends into nested folders.
const maxTreeDepth = 64

// The git modes of the entries of a tree.
const (
	ModeFile       = "100644"
	ModeExecutable = "100755"
	ModeSymlink    = "120000"
	modeTree       = "40000"
)

// TreeFile is one file or symbolic link of a hashed folder.
type TreeFile struct {
	// Path is the file's path below the folder, with forward slashes.
	Path string
	// Mode is the git mode: ModeFile, ModeExecutable or ModeSymlink.
	Mode string
	// ID is the git blob id of the file's bytes, or of a link's target.
	ID string
}

// TreeHashOptions tune TreeHash.
type TreeHashOptions struct {
	// MaxFileSize is the largest file read; 0 means DefaultTreeFileLimit.
	MaxFileSize int64
}

// UnexpectedTypeError reports an entry git cannot hold in a tree, such as a named pipe,
// a socket or a device.
type UnexpectedTypeError struct {
	// Path is the entry's path below the hashed folder.
	Path string
	// Type is its file type.
	Type fs.FileMode
}

func (e *UnexpectedTypeError) Error() string {
	return fmt.Sprintf("%s: a %s, not a file, folder or symbolic link", e.Path, typeName(e.Type))
}

func typeName(t fs.FileMode) string {
	switch {
	case t&fs.ModeNamedPipe != 0:
		return "named pipe"
	case t&fs.ModeSocket != 0:
		return "socket"
	case t&fs.ModeDevice != 0:
		return "device"
	}
	return "special file (" + t.String() + ")"
}

// TreeHash computes the git tree id that folder dir of root would have once added and
// committed: files with their bytes and execute bit, symbolic links with their target,
// empty folders left out. It returns the id and every file and link, in the order of Path.
// Nothing outside root is read; a file larger than the limit is refused.
func TreeHash(root *os.Root, dir string, opts TreeHashOptions) (string, []TreeFile, error) {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultTreeFileLimit
	}
	h := &treeHasher{opts: opts}
	top, err := root.OpenRoot(dir)
	if err != nil {
		return "", nil, err
	}
	defer top.Close()
	id, _, err := h.tree(top, "", 0)
	if err != nil {
		return "", nil, err
	}
	slices.SortFunc(h.files, func(a, b TreeFile) int { return cmp.Compare(a.Path, b.Path) })
	return id, h.files, nil
}

// treeHasher walks one folder, each folder below it opened as a root of its own, so that
// every file is opened by its name alone and nothing escapes the folder.
type treeHasher struct {
	opts  TreeHashOptions
	files []TreeFile
}

// treeEntry is one entry of a tree object being built.
type treeEntry struct {
	name string
	mode string
	id   []byte
}

// sortKey is the name git sorts an entry by: a folder's name ends in "/".
func (e treeEntry) sortKey() string {
	if e.mode == modeTree {
		return e.name + "/"
	}
	return e.name
}

// tree hashes folder dir (rel below the base); empty reports a folder with no files at all.
func (h *treeHasher) tree(dir *os.Root, rel string, depth int) (id string, empty bool, err error) {
	if depth > maxTreeDepth {
		return "", false, fmt.Errorf("%s: folders nested deeper than %d", rel, maxTreeDepth)
	}
	f, err := dir.Open(".")
	if err != nil {
		return "", false, err
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return "", false, err
	}
	entries := make([]treeEntry, 0, len(ents))
	for _, d := range ents {
		e, skip, err := h.entry(dir, joinRel(rel, d.Name()), d, depth)
		if err != nil {
			return "", false, err
		}
		if !skip {
			entries = append(entries, e)
		}
	}
	slices.SortFunc(entries, func(a, b treeEntry) int { return strings.Compare(a.sortKey(), b.sortKey()) })
	sum := treeObjectID(entries)
	return hex.EncodeToString(sum), len(entries) == 0, nil
}

// entry hashes one entry of a folder; skip reports an empty folder, which git leaves out.
func (h *treeHasher) entry(dir *os.Root, rel string, d fs.DirEntry, depth int) (treeEntry, bool, error) {
	t, p := d.Type(), d.Name()
	switch {
	case t.IsDir():
		sub, err := dir.OpenRoot(p)
		if err != nil {
			return treeEntry{}, false, err
		}
		id, empty, err := h.tree(sub, rel, depth+1)
		sub.Close()
		if err != nil || empty {
			return treeEntry{}, true, err
		}
		raw, _ := hex.DecodeString(id)
		return treeEntry{name: d.Name(), mode: modeTree, id: raw}, false, nil
	case t&fs.ModeSymlink != 0:
		target, err := dir.Readlink(p)
		if err != nil {
			return treeEntry{}, false, err
		}
		return h.file(d.Name(), rel, ModeSymlink, blobID([]byte(target))), false, nil
	case t.IsRegular():
		mode, id, err := h.blob(dir, p, rel)
		if err != nil {
			return treeEntry{}, false, err
		}
		return h.file(d.Name(), rel, mode, id), false, nil
	}
	return treeEntry{}, false, &UnexpectedTypeError{Path: rel, Type: t}
}

func (h *treeHasher) file(name, rel, mode string, id []byte) treeEntry {
	h.files = append(h.files, TreeFile{Path: rel, Mode: mode, ID: hex.EncodeToString(id)})
	return treeEntry{name: name, mode: mode, id: id}
}

// copyBuffers are the buffers files are read through.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// blob hashes regular file p, read once, and returns its git mode and blob id.
func (h *treeHasher) blob(dir *os.Root, p, rel string) (string, []byte, error) {
	f, err := dir.Open(p)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", nil, err
	}
	if !st.Mode().IsRegular() {
		return "", nil, &UnexpectedTypeError{Path: rel, Type: st.Mode().Type()}
	}
	if st.Size() > h.opts.MaxFileSize {
		return "", nil, fmt.Errorf("%s: %d bytes, larger than the limit of %d MiB; a skill holds no file that large", rel, st.Size(), h.opts.MaxFileSize>>20)
	}
	s := sha1.New()
	fmt.Fprintf(s, "blob %d\x00", st.Size())
	if err := copyExactly(s, f, st.Size()); err != nil {
		return "", nil, fmt.Errorf("%s: %w", rel, err)
	}
	mode := ModeFile
	if st.Mode()&0o100 != 0 {
		mode = ModeExecutable
	}
	return mode, s.Sum(nil), nil
}

// copyExactly copies size bytes of r into h, failing if r holds more or fewer.
func copyExactly(h hash.Hash, r io.Reader, size int64) error {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	n, err := io.CopyBuffer(h, io.LimitReader(r, size+1), *buf)
	if err != nil {
		return err
	}
	if n != size {
		return errors.New("the file changed while it was read")
	}
	return nil
}

// blobID is the git blob id of data.
func blobID(data []byte) []byte {
	s := sha1.New()
	fmt.Fprintf(s, "blob %d\x00", len(data))
	s.Write(data)
	return s.Sum(nil)
}

// treeObjectID is the git id of the tree object holding entries, in git's order.
func treeObjectID(entries []treeEntry) []byte {
	var body bytes.Buffer
	for _, e := range entries {
		body.WriteString(e.mode)
		body.WriteByte(' ')
		body.WriteString(e.name)
		body.WriteByte(0)
		body.Write(e.id)
	}
	s := sha1.New()
	s.Write([]byte("tree " + strconv.Itoa(body.Len()) + "\x00"))
	s.Write(body.Bytes())
	return s.Sum(nil)
}
