package gitstore

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore/internal/odb"
)

// heldObjectBytes bounds the memory of the objects held: past it, they are written out as
// one pack. The trees a batch rewrites are kept as deltas of each other, so it is rarely met.
const heldObjectBytes = 64 << 20

// heldRecent is how many of the latest large objects keep their content, as the bases the
// next one is tried against.
const heldRecent = 4

// heldObject is an object written while objects are held, kept in memory until it is packed:
// its content, or a delta of an earlier held object (base, -1 when none) and, while it is
// among the latest large ones or the first of a chain, its content too.
type heldObject struct {
	h     Hash
	t     plumbing.ObjectType
	size  int
	data  []byte
	base  int
	delta []byte
	depth int
}

// heldObjects are the objects written while refs are held, in the order they were written,
// to be written as one pack rather than a loose file each. It guards itself: reads go round
// objMu.
type heldObjects struct {
	mu   sync.Mutex
	on   bool
	byID map[Hash]int
	list []heldObject
	// recent are the latest large objects, which keep their content, newest last.
	recent []int
	bytes  int64
	// packs are the packs held objects were written to since they were last joined.
	packs []string
}

// start starts holding the objects written from now on.
func (s *heldObjects) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on = true
}

// info returns the type and size of held object h.
func (s *heldObjects) info(h Hash) (plumbing.ObjectType, int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.byID[h]
	if !ok {
		return 0, 0, false
	}
	return s.list[i].t, int64(s.list[i].size), true
}

// read returns the type and content of held object h; the caller must not change it.
func (s *heldObjects) read(h Hash) (plumbing.ObjectType, []byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.byID[h]
	if !ok {
		return 0, nil, false
	}
	data, err := s.content(i)
	if err != nil {
		// A delta made here that does not apply is a bug; the object is then read as
		// missing rather than wrong.
		return 0, nil, false
	}
	return s.list[i].t, data, true
}

// content is the content of held object i, built from its chain of deltas when it kept
// none; the caller holds mu and may not change it.
func (s *heldObjects) content(i int) ([]byte, error) {
	o := &s.list[i]
	if o.data != nil {
		return o.data, nil
	}
	base, err := s.content(o.base)
	if err != nil {
		return nil, err
	}
	return odb.ApplyDelta(base, o.delta)
}

// keep keeps object h of type t, content data, when objects are held, and reports whether it
// did and whether the held objects now pass heldObjectBytes. Owned data, which the caller
// never changes again, is kept as it is; other data is copied.
func (s *heldObjects) keep(t plumbing.ObjectType, h Hash, data []byte, owned bool) (held, full bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.on {
		return false, false
	}
	if _, ok := s.byID[h]; !ok {
		if !owned {
			data = bytes.Clone(data)
		}
		s.add(heldObject{h: h, t: t, size: len(data), data: data, base: -1})
	}
	return true, s.bytes > heldObjectBytes
}

// add adds o, as a delta of one of the recent large objects when one shares most of its
// bytes; the caller holds mu.
func (s *heldObjects) add(o heldObject) {
	if s.byID == nil {
		s.byID = map[Hash]int{}
	}
	i := len(s.list)
	if len(o.data) >= deltaMin {
		if b := s.bestBase(o); b >= 0 {
			o.base, o.depth, o.delta = b, s.list[b].depth+1, makeDelta(s.list[b].data, o.data)
			s.bytes += int64(len(o.delta))
		}
		s.recent = append(s.recent, i)
		if len(s.recent) > heldRecent {
			s.forgetContent(s.recent[0])
			s.recent = s.recent[1:]
		}
	}
	s.byID[o.h] = i
	s.list = append(s.list, o)
	s.bytes += int64(len(o.data))
}

// bestBase is the recent large object of o's type, newest first, that shares at least
// half of o's bytes at its start and end, the most of them; -1 when none does.
func (s *heldObjects) bestBase(o heldObject) int {
	best, most := -1, len(o.data)/2
	for k := len(s.recent) - 1; k >= 0; k-- {
		j := s.recent[k]
		b := s.list[j]
		if b.t != o.t || b.depth >= maxDeltaDepth {
			continue
		}
		if pre, suf := sharedEnds(b.data, o.data); pre+suf > most {
			best, most = j, pre+suf
		}
	}
	return best
}

// forgetContent drops the content of held object i when it is a delta: it is built again
// from its chain when read.
func (s *heldObjects) forgetContent(i int) {
	if o := &s.list[i]; o.base >= 0 && o.data != nil {
		s.bytes -= int64(len(o.data))
		o.data = nil
	}
}

// pack writes the held objects into objDir as one pack and forgets them; with keepOn,
// objects written next are held again. The pack is complete and flushed before they are
// forgotten, so a reader finds each object in memory or in the pack.
// It returns the packs it joined into the new one and removed.
func (s *heldObjects) pack(objDir string, keepOn bool) (removed []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.list) > 0 {
		name, err := writeHeldPack(objDir, s)
		if err != nil {
			return nil, fmt.Errorf("writing the objects of the held ref moves: %w", err)
		}
		removed = s.made(objDir, name)
	}
	s.list, s.byID, s.recent, s.bytes = nil, nil, nil, 0
	s.on = keepOn
	return removed, nil
}

// drop forgets the held objects and stops holding them.
func (s *heldObjects) drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on, s.byID, s.list, s.recent, s.bytes = false, nil, nil, nil, 0
}

// holdObject keeps object h of type t, content data, in memory when objects are held, and
// writes the held objects as a pack once they pass heldObjectBytes; false when objects are
// not held. owned is as for keep.
func (r *Writes) holdObject(t plumbing.ObjectType, h Hash, data []byte, owned bool) (bool, error) {
	held, full := r.heldObj.keep(t, h, data, owned)
	if full {
		return true, r.packHeld(true)
	}
	return held, nil
}

// packHeld writes the held objects as one pack and forgets them (see heldObjects.pack).
func (r *Writes) packHeld(keepOn bool) error {
	removed, err := r.heldObj.pack((*Objects)(r).objectsDir(), keepOn)
	if err != nil {
		return err
	}
	if r.objects != nil {
		if len(removed) > 0 {
			r.objects.Retire(removed)
		}
		// Writes look only in the packs opened (HasSeen), so the new pack is opened now;
		// a failure to look costs at most objects written twice.
		_ = r.objects.Rescan()
	}
	(*Packs)(r).reindex()
	return nil
}
