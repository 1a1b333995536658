package packs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage"

	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// defaultPackMaxBytes is the budget in force; tests lower it to stay fast.
var defaultPackMaxBytes = policy.DefaultPackMaxBytes

// errPackTooLarge marks a pack whose content is over its budget.
var errPackTooLarge = errors.New("pack content over its budget")

// packTooLarge is errPackTooLarge with the content counted when the budget ran out: the pack
// needs at least need bytes.
type packTooLarge struct {
	need int64
	msg  string
}

func (e *packTooLarge) Error() string { return e.msg }
func (e *packTooLarge) Unwrap() error { return errPackTooLarge }

// maxBytes is the pack's budget of inflated object content.
func maxBytes(p policy.Pack) int64 {
	if p.MaxBytes > 0 {
		return p.MaxBytes
	}
	return defaultPackMaxBytes
}

// budgetStorer is the in-memory store a pack is fetched into, taking the pack file whole
// (as storer.PackfileWriter) so that the size of every object can be read from its header
// before anything is inflated into memory. The pack file waits in a temporary file; objects
// are stored only once their declared sizes add up to no more than the budget.
type budgetStorer struct {
	storage.Storer
	budget int64
}

// PackfileWriter returns a writer that keeps the pack file on disk and, on Close, checks it
// against the budget and then stores its objects.
func (s *budgetStorer) PackfileWriter() (io.WriteCloser, error) {
	f, untrack, err := interrupt.CreateTemp("", "skillgit-pack-*.pack")
	if err != nil {
		return nil, fmt.Errorf("keeping the fetched pack file: %w", err)
	}
	return &budgetWriter{s: s, f: f, untrack: untrack}, nil
}

type budgetWriter struct {
	s       *budgetStorer
	f       *os.File
	untrack func()
	written int64
}

// Write keeps the pack file, refusing one whose compressed size alone is over the budget.
func (w *budgetWriter) Write(p []byte) (int, error) {
	w.written += int64(len(p))
	if w.written > w.s.budget {
		return 0, &packTooLarge{need: w.written, msg: "the pack file alone, compressed, is over " + sizeText(w.s.budget)}
	}
	return w.f.Write(p)
}

// Close checks the kept pack file's object sizes and stores its objects when they fit.
func (w *budgetWriter) Close() (err error) {
	defer func() {
		w.f.Close()
		os.Remove(w.f.Name())
		w.untrack()
	}()
	if _, err := w.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := checkPackSizes(w.f, w.s.budget); err != nil {
		return err
	}
	if _, err := w.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return storePack(w.f, w.s.Storer)
}

// storePack stores the objects of the pack file in r, inflating each once into a slice made for
// its declared size, so that the objects cost about their content in memory. A delta is applied
// to its base once the base is stored; git writes bases first, and a ref-delta whose base comes
// later waits for it.
func storePack(r io.Reader, s storer.EncodedObjectStorer) error {
	sc := packfile.NewScanner(r)
	_, count, err := sc.Header()
	if err != nil {
		return err
	}
	byOffset := make(map[int64]plumbing.Hash, count)
	type waiting struct {
		base  plumbing.Hash
		delta []byte
	}
	var later []waiting
	for range count {
		h, err := sc.NextObjectHeader()
		if err != nil {
			return err
		}
		// bytes.Buffer reads in steps of bytes.MinRead and doubles when a step finds no room.
		buf := bytes.NewBuffer(make([]byte, 0, h.Length+bytes.MinRead))
		if _, _, err := sc.NextObject(buf); err != nil {
			return err
		}
		var hash plumbing.Hash
		switch h.Type {
		case plumbing.OFSDeltaObject:
			base, ok := byOffset[h.OffsetReference]
			if !ok {
				return fmt.Errorf("a delta in the pack has no base at offset %d", h.OffsetReference)
			}
			hash, err = storeDelta(s, base, buf.Bytes())
		case plumbing.REFDeltaObject:
			if s.HasEncodedObject(h.Reference) != nil {
				later = append(later, waiting{h.Reference, buf.Bytes()})
				continue
			}
			hash, err = storeDelta(s, h.Reference, buf.Bytes())
		default:
			hash, err = storeObject(s, h.Type, buf.Bytes())
		}
		if err != nil {
			return err
		}
		byOffset[h.Offset] = hash
	}
	for len(later) > 0 {
		var still []waiting
		for _, d := range later {
			if s.HasEncodedObject(d.base) != nil {
				still = append(still, d)
				continue
			}
			if _, err := storeDelta(s, d.base, d.delta); err != nil {
				return err
			}
		}
		if len(still) == len(later) {
			return fmt.Errorf("the pack holds a delta on %s, an object neither it nor the repository has", still[0].base)
		}
		later = still
	}
	return nil
}

// storeDelta applies delta to the stored object base and stores the result.
func storeDelta(s storer.EncodedObjectStorer, base plumbing.Hash, delta []byte) (plumbing.Hash, error) {
	obj, err := s.EncodedObject(plumbing.AnyObject, base)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("the base %s of a delta in the pack: %w", base, err)
	}
	src, err := objectContent(obj)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	content, err := packfile.PatchDelta(src, delta)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("a delta on %s in the pack: %w", base, err)
	}
	return storeObject(s, obj.Type(), content)
}

// objectContent is an object's content: a fetched object's own slice, else a copy.
func objectContent(obj plumbing.EncodedObject) ([]byte, error) {
	if o, ok := obj.(*packObject); ok {
		return o.content, nil
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	buf := bytes.NewBuffer(make([]byte, 0, obj.Size()+bytes.MinRead))
	_, err = buf.ReadFrom(rd)
	return buf.Bytes(), err
}

// storeObject stores content as an object of type t, keeping the slice rather than a copy.
func storeObject(s storer.EncodedObjectStorer, t plumbing.ObjectType, content []byte) (plumbing.Hash, error) {
	return s.SetEncodedObject(&packObject{h: plumbing.ComputeHash(t, content), t: t, content: content})
}

// packObject is an object stored from a fetched pack. It holds the slice its content was
// inflated into, so that storing it costs no copy; it cannot be written to.
type packObject struct {
	h       plumbing.Hash
	t       plumbing.ObjectType
	content []byte
}

func (o *packObject) Hash() plumbing.Hash           { return o.h }
func (o *packObject) Type() plumbing.ObjectType     { return o.t }
func (o *packObject) SetType(t plumbing.ObjectType) { o.t = t }
func (o *packObject) Size() int64                   { return int64(len(o.content)) }
func (o *packObject) SetSize(int64)                 {}

// Reader reads the object's content.
func (o *packObject) Reader() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(o.content)), nil
}

// Writer refuses: a fetched object is what the pack holds.
func (o *packObject) Writer() (io.WriteCloser, error) {
	return nil, errors.New("an object fetched from a pack cannot be written to")
}

// checkPackSizes reads every object header of the pack file in r and adds up the sizes the
// objects take once inflated: a whole object's size is in its header, a delta's result size at
// the start of its delta data. It fails with errPackTooLarge as soon as the sum is over budget,
// before the object that crosses it is inflated. Objects are inflated only to find where the
// next one starts, a buffer at a time, and the scanner holds each to its declared size.
func checkPackSizes(r io.Reader, budget int64) error {
	sc := packfile.NewScanner(r)
	_, count, err := sc.Header()
	if err != nil {
		return err
	}
	var total int64
	for range count {
		h, err := sc.NextObjectHeader()
		if err != nil {
			return err
		}
		size := h.Length
		if h.Type == plumbing.OFSDeltaObject || h.Type == plumbing.REFDeltaObject {
			if size > budget {
				return tooLarge(h.Type, size, total, budget)
			}
			var head deltaHead
			if _, _, err := sc.NextObject(&head); err != nil {
				return err
			}
			if size, err = head.targetSize(); err != nil {
				return err
			}
			if total+size > budget {
				return tooLarge(h.Type, size, total, budget)
			}
			total += size
			continue
		}
		if total+size > budget {
			return tooLarge(h.Type, size, total, budget)
		}
		total += size
		if _, _, err := sc.NextObject(io.Discard); err != nil {
			return err
		}
	}
	return nil
}

func tooLarge(t plumbing.ObjectType, size, before, budget int64) error {
	return &packTooLarge{need: before + size, msg: fmt.Sprintf("an object of %s (%s) on top of the %s before it", sizeText(size), t, sizeText(before))}
}

// suggestMaxBytes is a max_bytes that holds what was counted of a refused pack: twice the need,
// in whole MiB, and never less than twice the budget.
func suggestMaxBytes(err error, budget int64) int64 {
	n := 2 * budget
	var e *packTooLarge
	if errors.As(err, &e) && 2*e.need > n {
		n = 2 * e.need
	}
	return (n + 1<<20 - 1) &^ (1<<20 - 1)
}

// deltaHead keeps the first bytes of a delta, which hold its base and result sizes, and
// discards the rest.
type deltaHead struct {
	buf []byte
}

func (d *deltaHead) Write(p []byte) (int, error) {
	if room := 20 - len(d.buf); room > 0 {
		d.buf = append(d.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// targetSize reads the delta's result size: the second of the two varints it starts with.
func (d *deltaHead) targetSize() (int64, error) {
	b := d.buf
	var size int64
	for range 2 {
		size = 0
		for shift := 0; ; shift += 7 {
			if len(b) == 0 || shift > 56 {
				return 0, fmt.Errorf("a delta in the pack has a malformed header")
			}
			c := b[0]
			b = b[1:]
			size |= int64(c&0x7f) << shift
			if c&0x80 == 0 {
				break
			}
		}
	}
	return size, nil
}

// sizeText writes a byte count in MiB when it is a whole number of them, else in bytes.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

var _ storer.PackfileWriter = (*budgetStorer)(nil)
