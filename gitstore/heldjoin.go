package gitstore

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

// heldPackJoin is how many packs of held objects may pile up before they are joined into
// one: a long batch writes one per group, and a lookup that misses tries every pack.
const heldPackJoin = 8

// made records name, a pack that held objects were written to in objDir, and joins the packs
// recorded into one once there are heldPackJoin of them; it returns the packs joined, now
// removed. A failure to join leaves them as they are, every object still readable, and
// forgets them. The caller holds mu.
func (s *heldObjects) made(objDir, name string) (removed []string) {
	s.packs = append(s.packs, name)
	if len(s.packs) < heldPackJoin {
		return nil
	}
	joined, err := joinPacks(filepath.Join(objDir, "pack"), s.packs)
	removed, s.packs = s.packs, nil
	if err != nil {
		return nil
	}
	s.packs = []string{joined}
	return removed
}

// joinPacks writes the packs names (paths without .pack or .idx) as one pack with its index,
// then removes them, and returns the new pack's name. Their entries are copied as they are,
// each pack's in one run: a delta's distance back to its base, within its own pack, stays
// the same. Only packs with no delta outside themselves can be joined so, as held objects
// make them.
func joinPacks(packDir string, names []string) (string, error) {
	idxs, total, err := readIndexes(names)
	if err != nil {
		return "", err
	}
	idx, err := newPack(packDir, func(f *os.File) (*idxfile.MemoryIndex, error) { return writeJoined(f, names, idxs, total) })
	if err != nil {
		return "", fmt.Errorf("joining packs: %w", err)
	}
	for _, n := range names {
		os.Remove(n + ".idx") // the index first: a reader then no longer looks in the pack
		os.Remove(n + ".pack")
	}
	return packName(packDir, idx), nil
}

// packName is the path, without extension, of the pack that idx indexes.
func packName(packDir string, idx *idxfile.MemoryIndex) string {
	return filepath.Join(packDir, fmt.Sprintf("pack-%x", idx.PackfileChecksum))
}

// readIndexes reads the index of each pack of names, and counts their objects.
func readIndexes(names []string) ([]*idxfile.MemoryIndex, uint32, error) {
	var total uint32
	idxs := make([]*idxfile.MemoryIndex, len(names))
	for i, n := range names {
		f, err := os.Open(n + ".idx")
		if err != nil {
			return nil, 0, err
		}
		idx := idxfile.NewMemoryIndex()
		err = idxfile.NewDecoder(bufio.NewReader(f)).Decode(idx)
		f.Close()
		if err != nil {
			return nil, 0, fmt.Errorf("%s.idx: %w", n, err)
		}
		c, err := idx.Count()
		if err != nil {
			return nil, 0, err
		}
		idxs[i], total = idx, total+uint32(c)
	}
	return idxs, total, nil
}

// writeJoined writes to w a pack of total objects, the entries of the packs names, whose
// indexes are idxs, one after the other, and returns its index.
func writeJoined(w io.Writer, names []string, idxs []*idxfile.MemoryIndex, total uint32) (*idxfile.MemoryIndex, error) {
	p, iw, err := startPack(w, total)
	if err != nil {
		return nil, err
	}
	for i, n := range names {
		if err := p.copyEntries(n+".pack", idxs[i], iw); err != nil {
			return nil, err
		}
	}
	return p.finish(iw)
}

// copyEntries copies the entries of the pack file, between its header and its checksum,
// and adds them to iw at their new offsets.
func (p *packWriter) copyEntries(file string, idx *idxfile.MemoryIndex, iw *idxfile.Writer) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	const headSize, sumSize = 12, 20
	if st.Size() < headSize+sumSize {
		return fmt.Errorf("%s: %d bytes, too short for a pack", file, st.Size())
	}
	shift := p.off - headSize
	if _, err := io.Copy(p, io.NewSectionReader(f, headSize, st.Size()-headSize-sumSize)); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	entries, err := idx.Entries()
	if err != nil {
		return err
	}
	defer entries.Close()
	for {
		e, err := entries.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		iw.Add(e.Hash, uint64(int64(e.Offset)+shift), e.CRC32)
	}
}
