package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"io/fs"
	"strconv"
	"sync"
)

// maxHashBytes bounds what is read of one file to bind a finding to its
// content; beyond it, the size stands for the rest.
const maxHashBytes = 64 << 20

// bindFileContent makes the findings about a file as a whole (a script,
// a binary, a file too large to audit) depend on the file's bytes, not
// only its path: accepting "scripts/run.py is a script" must not accept
// another run.py, or this one once it changes. Findings about a folder
// or the whole skill depend on the list of its files.
func bindFileContent(fsys fs.FS, t *treeScan) {
	regular := make(map[string]bool, len(t.entries))
	for _, e := range t.entries {
		regular[e.path] = e.mode.IsRegular()
	}
	sums := map[string]string{}
	for i := range t.hits {
		h := &t.hits[i]
		if h.start >= 0 {
			continue
		}
		isRegular, isEntry := regular[h.File]
		if isEntry && !isRegular {
			continue // a link or gitlink: its content names its target already
		}
		key := h.File
		if !isEntry {
			key = "" // a folder or the whole skill: bound to the listing
		}
		sum, ok := sums[key]
		if !ok {
			sum, ok = t.sums[key]
		}
		if !ok {
			sum = contentSum(fsys, t, key)
		}
		sums[key] = sum
		h.content += "\x00" + sum
	}
}

// contentSum is fileSum of a regular file, or for "" a hash of the
// tree's listing (every path read, with its mode and size): a finding
// about a folder or the whole skill, such as "too many files", then
// changes when files come or go.
func contentSum(fsys fs.FS, t *treeScan, file string) string {
	if file != "" {
		return fileSum(fsys, file)
	}
	h := sha256.New()
	for i := range t.entries {
		e := &t.entries[i]
		writeField(h, e.path)
		writeInt(h, int(e.mode))
		writeInt(h, int(e.sizeOf()))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// copyBuffers hold the buffers that file hashes are read through.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// fileSum returns a hash of the file's bytes (the first maxHashBytes and
// the size), or a marker when it cannot be read: such a file is already
// a finding of its own.
func fileSum(fsys fs.FS, name string) string {
	f, err := fsys.Open(name)
	if err != nil {
		return "unreadable"
	}
	defer f.Close()
	h := sha256.New()
	buf := copyBuffers.Get().(*[]byte)
	n, err := io.CopyBuffer(h, io.LimitReader(f, maxHashBytes), *buf)
	copyBuffers.Put(buf)
	if err != nil {
		return "unreadable"
	}
	if info, err := f.Stat(); err == nil && info.Size() > n {
		n = info.Size()
	}
	return sumString(h, n)
}

// sumString is what fileSum returns for the hash h of a file's bytes and its size.
func sumString(h hash.Hash, size int64) string {
	return hex.EncodeToString(h.Sum(nil)) + ":" + strconv.FormatInt(size, 10)
}

// keepSums makes scanEntry keep fileSum of the files it read whole that findings about the
// whole file name, so that bindFileContent need not read them again; tests turn it off to
// compare.
var keepSums = true

// keepSum records fileSum of the file e from data, all of its bytes, when one of the hits
// from t.hits[from:] is about the whole file.
func (t *treeScan) keepSum(e *treeEntry, data []byte, from int) {
	if !keepSums || int64(len(data)) != e.sizeOf() || len(data) > maxHashBytes {
		return
	}
	for i := from; i < len(t.hits); i++ {
		if h := &t.hits[i]; h.start < 0 && h.File == e.path {
			sum := sha256.New()
			sum.Write(data)
			if t.sums == nil {
				t.sums = map[string]string{}
			}
			t.sums[e.path] = sumString(sum, int64(len(data)))
			return
		}
	}
}
