package packs

import (
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

// budgetStorer is the store a pack is fetched into, taking the pack file whole (as
// storer.PackfileWriter) so that the size of every object can be read from its header before
// anything is inflated. The pack file waits in a temporary file; it is handed to the store
// beneath, which indexes it and keeps it, only once its objects' declared sizes add up to no
// more than the budget.
type budgetStorer struct {
	storage.Storer
	budget int64
}

// PackfileWriter returns a writer that keeps the pack file on disk and, on Close, checks it
// against the budget and then hands it to the store beneath.
func (s *budgetStorer) PackfileWriter() (io.WriteCloser, error) {
	inner, ok := s.Storer.(storer.PackfileWriter)
	if !ok {
		return nil, errors.New("the repository a pack is fetched into cannot take a pack file")
	}
	f, untrack, err := interrupt.CreateTemp("", "skillgit-pack-*.pack")
	if err != nil {
		return nil, fmt.Errorf("keeping the fetched pack file: %w", err)
	}
	return &budgetWriter{s: s, inner: inner, f: f, untrack: untrack}, nil
}

type budgetWriter struct {
	s *budgetStorer
	// inner is the store beneath, which takes the pack file once it is checked.
	inner   storer.PackfileWriter
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

// Close checks the kept pack file's object sizes and hands the file to the store beneath
// when they fit.
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
	pw, err := w.inner.PackfileWriter()
	if err != nil {
		return err
	}
	if _, err := io.Copy(pw, w.f); err != nil {
		pw.Close()
		return fmt.Errorf("storing the fetched pack file: %w", err)
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("indexing the fetched pack file: %w", err)
	}
	return nil
}

// budgetPerObject is how many bytes of a pack's budget each of its objects takes up, however
// small: indexing a pack keeps about a hundred bytes for each object, so a pack of a million
// tiny files, some megabytes compressed, would otherwise take a hundred megabytes to index.
// The default budget allows 262,144 objects, many times what the tip of the largest public
// collections of skills (some 9,000 skills) holds.
const budgetPerObject = 1 << 10

// checkPackSizes refuses a pack of more objects than its budget allows, then reads every
// object header of the pack file in r and adds up the sizes the objects take once inflated: a
// whole object's size is in its header, a delta's result size at the start of its delta data.
// It fails with errPackTooLarge as soon as the sum is over budget, before the object that
// crosses it is inflated. Objects are inflated only to find where the next one starts, a
// buffer at a time, and the scanner holds each to its declared size.
func checkPackSizes(r io.Reader, budget int64) error {
	sc := packfile.NewScanner(r)
	_, count, err := sc.Header()
	if err != nil {
		return err
	}
	if limit := budget / budgetPerObject; int64(count) > limit {
		return &packTooLarge{need: int64(count) * budgetPerObject,
			msg: fmt.Sprintf("the pack holds %d objects, more than the %d its limit allows (one for each %d bytes)", count, limit, budgetPerObject)}
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
