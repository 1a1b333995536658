package odb

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentReads reads the same and different objects from many
// goroutines at once through one DB with a small cache, so that entries
// are evicted while others read them; run it with -race.
func TestConcurrentReads(t *testing.T) {
	dir := generatedRepo(t)
	var objs []gitObject
	eachGitObject(t, dir, func(o gitObject) { objs = append(objs, o) })
	db := openDB(t, dir)
	db.cache = newBaseCache(4 << 20)
	readAllConcurrently(t, db, objs, 16)
}

// readAllConcurrently reads objs through db from workers goroutines at once, each its share
// (see readShare), and fails on the first object that differs from git's.
func readAllConcurrently(t *testing.T, db *DB, objs []gitObject, workers int) {
	t.Helper()
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { errs <- readShare(db, objs, w, workers) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// readShare reads every object whose position is w modulo workers, then
// a set of objects common to all workers, and compares them with git's.
// It gives every buffer back once compared (Release), as the readers of
// files do: an object that shared memory with the cache would then be
// overwritten by the next read, and a later read of a delta on it differ.
func readShare(db *DB, objs []gitObject, w, workers int) error {
	check := func(o gitObject) error {
		typ, data, err := db.Read(o.id, -1)
		if err != nil || typ.String() != o.typ || !bytes.Equal(data, o.data) {
			return fmt.Errorf("worker %d: Read(%s) = %v, %d bytes, %v", w, hexID(o.id), typ, len(data), err)
		}
		Release(data)
		if _, size, err := db.Size(o.id); err != nil || size != int64(len(o.data)) {
			return fmt.Errorf("worker %d: Size(%s) = %d, %v", w, hexID(o.id), size, err)
		}
		return nil
	}
	for i := w; i < len(objs); i += workers {
		if err := check(objs[i]); err != nil {
			return err
		}
	}
	for i := 0; i < len(objs); i += 31 {
		if err := check(objs[(i+w*13)%len(objs)]); err != nil {
			return err
		}
	}
	return nil
}
