package gitstore

import "sync"

// sharedIndexes keeps the shared index files this process mapped, by path. A shared index
// is named by the hash of its bytes and never written again, only removed when it expires,
// which leaves a map of it valid; so a map is kept for the life of the process and the names
// of its entries, which point into it, never outlive it.
var sharedIndexes = struct {
	sync.Mutex
	byPath map[string][]byte
}{byPath: map[string][]byte{}}

// maxMappedShared bounds the shared indexes kept mapped; past it they are read into memory,
// so that a long-lived process that sees many does not hold them all.
const maxMappedShared = 4

// readSharedIndex returns the bytes of the shared index file at path, mapped when it can be.
// Reading the shared index of 100,000 entries (11 MB) into new memory costs a publish more
// than what it changes in the split file.
func readSharedIndex(path string) ([]byte, error) {
	sharedIndexes.Lock()
	defer sharedIndexes.Unlock()
	if b, ok := sharedIndexes.byPath[path]; ok {
		return b, nil
	}
	if len(sharedIndexes.byPath) >= maxMappedShared {
		return readIndexFile(path)
	}
	f, size, err := openIndexFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > 0 {
		if b, ok := mapReadOnly(f, int(size)); ok {
			sharedIndexes.byPath[path] = b
			return b, nil
		}
	}
	return readOpenIndex(f, size, path)
}
