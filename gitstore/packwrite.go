package gitstore

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// packWindow is how many neighbouring objects the encoder tries as delta
// bases, git's pack.window.
const packWindow = 10

// writePack writes the loose objects ids into objects/pack as one pack and its index, both
// flushed to disk, and returns the index.
func writePack(objDir string, ids []Hash) (*idxfile.MemoryIndex, error) {
	idx, err := newPack(filepath.Join(objDir, "pack"), func(f *os.File) (*idxfile.MemoryIndex, error) {
		if err := encodePack(f, objDir, ids); err != nil {
			return nil, err
		}
		return indexPack(f)
	})
	if err != nil {
		return nil, fmt.Errorf("packing loose objects: %w", err)
	}
	return idx, nil
}

// newPack makes a pack in packDir: write writes it into a temporary file and returns its
// index, then the pack is flushed, its index written and flushed beside it, and both given
// their final, read-only names. Readers use a pack only once its index exists, so the index
// is renamed into place last; a crash before that leaves only temporary files, named as git
// names them so that git gc removes them.
func newPack(packDir string, write func(*os.File) (*idxfile.MemoryIndex, error)) (*idxfile.MemoryIndex, error) {
	if err := os.MkdirAll(packDir, 0o777); err != nil {
		return nil, err
	}
	pack, untrackPack, err := interrupt.CreateTemp(packDir, "tmp_pack_")
	if err != nil {
		return nil, err
	}
	defer untrackPack()
	defer os.Remove(pack.Name()) // fails once renamed
	defer pack.Close()
	if tempMade != nil {
		tempMade(pack.Name())
	}
	idx, err := write(pack)
	if err == nil {
		err = pack.Sync()
	}
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", pack.Name(), err)
	}
	idxName, untrackIdx, err := writeIndex(packDir, idx)
	if err != nil {
		return nil, err
	}
	defer untrackIdx()
	defer os.Remove(idxName) // fails once renamed
	return idx, publishPack(packDir, pack.Name(), idxName, idx)
}

// encodePack writes ids into f as a pack with deltas.
func encodePack(f *os.File, objDir string, ids []Hash) error {
	bw := bufio.NewWriterSize(f, 1<<16)
	enc := packfile.NewEncoder(bw, newLooseStore(objDir), false)
	if _, err := enc.Encode(ids, packWindow); err != nil {
		return err
	}
	return bw.Flush()
}

// indexPack reads back the pack in f, resolving every delta and hashing
// every object, and returns its index: an object is in the index only if
// the pack really holds it.
func indexPack(f *os.File) (*idxfile.MemoryIndex, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	w := new(idxfile.Writer)
	p, err := packfile.NewParser(packfile.NewScanner(f), w)
	if err != nil {
		return nil, err
	}
	if _, err := p.Parse(); err != nil {
		return nil, err
	}
	return w.Index()
}

// writeIndex writes idx to a temporary file in packDir, flushed to disk,
// and returns its name and the function that forgets its registration for
// removal on a signal.
func writeIndex(packDir string, idx *idxfile.MemoryIndex) (string, func(), error) {
	f, untrack, err := interrupt.CreateTemp(packDir, "tmp_idx_")
	if err != nil {
		return "", nil, fmt.Errorf("writing pack index: %w", err)
	}
	if tempMade != nil {
		tempMade(f.Name())
	}
	bw := bufio.NewWriter(f)
	_, err = idxfile.NewEncoder(bw).Encode(idx)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		untrack()
		return "", nil, fmt.Errorf("writing pack index %s: %w", f.Name(), err)
	}
	return f.Name(), untrack, nil
}

// publishPack gives the pack and its index their final, read-only names,
// the index last, and flushes the folder so that the renames reach the
// disk before any loose object is deleted.
func publishPack(packDir, packTmp, idxTmp string, idx *idxfile.MemoryIndex) error {
	base := filepath.Join(packDir, fmt.Sprintf("pack-%x", idx.PackfileChecksum))
	for _, mv := range [][2]string{{packTmp, base + ".pack"}, {idxTmp, base + ".idx"}} {
		if err := os.Chmod(mv[0], 0o444); err != nil {
			return fmt.Errorf("publishing pack: %w", err)
		}
		if err := os.Rename(mv[0], mv[1]); err != nil {
			return fmt.Errorf("publishing pack: %w", err)
		}
	}
	return syncDir(packDir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("flushing %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("flushing %s: %w", dir, err)
	}
	return nil
}
