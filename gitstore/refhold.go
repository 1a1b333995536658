package gitstore

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// heldMove is one ref's moves while refs are held: the value it had on disk before the first
// of them, the value the last one gave it (zero: deleted), and that move's reflog message.
type heldMove struct {
	old, new Hash
	msg      string
}

// refHold is the ref moves of a repository that holds its refs, by full name; moves is nil
// when it does not hold them. It guards itself.
type refHold struct {
	mu    sync.Mutex
	moves map[string]*heldMove
}

// start starts holding, and reports whether it was not already.
func (h *refHold) start() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.moves != nil {
		return false
	}
	h.moves = map[string]*heldMove{}
	return true
}

// on reports whether refs are held.
func (h *refHold) on() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.moves != nil
}

// take returns the held moves and stops holding.
func (h *refHold) take() map[string]*heldMove {
	h.mu.Lock()
	defer h.mu.Unlock()
	moves := h.moves
	h.moves = nil
	return moves
}

// value is the value a held move gave ref name, and whether one did.
func (h *refHold) value(name string) (refValue, bool, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m, ok := h.moves[name]
	if !ok {
		return refValue{}, false, false
	}
	return refValue{hash: m.new}, !m.new.IsZero(), true
}

// record records the move of ref name, which held cur before, to newH.
func (h *refHold) record(name string, cur, newH Hash, msg string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.moves == nil {
		return fmt.Errorf("%s: the held ref moves were landed or dropped during this update", name)
	}
	m := h.moves[name]
	if m == nil {
		m = &heldMove{old: cur}
		h.moves[name] = m
	}
	m.new, m.msg = newH, msg
	return nil
}

// names adds to refs the refs under prefix that held moves created, and drops those they
// deleted.
func (h *refHold) names(refs []Ref, prefix string) []Ref {
	h.mu.Lock()
	defer h.mu.Unlock()
	refs = slices.DeleteFunc(refs, func(ref Ref) bool {
		m, ok := h.moves[ref.Name]
		return ok && m.new.IsZero()
	})
	for name, m := range h.moves {
		if strings.HasPrefix(name, prefix) && !m.new.IsZero() && !slices.ContainsFunc(refs, func(ref Ref) bool { return ref.Name == name }) {
			refs = append(refs, Ref{Name: name, Hash: m.new})
		}
	}
	return refs
}

// Hold makes the ref moves that follow wait in memory: Update records a move by
// compare-and-swap against what this Repo holds, Get and List see it, other processes do not,
// and nothing changes on disk until Land writes them all. A batch of actions that move the
// same refs many times then writes each ref, its lock and its reflog once. The objects
// written meanwhile are held in memory too and written as one pack, with the trees a batch
// rewrites stored as deltas of each other, before the refs land or once they pass
// heldObjectBytes.
func (r *Holds) Hold() {
	if r.held.start() && !r.mem {
		r.heldObj.start()
	}
}

// Holding reports whether ref moves wait in memory for Land.
func (r *Holds) Holding() bool { return r.held.on() }

// Drop forgets the held ref moves and stops holding; the objects they pointed at stay, as
// unreachable ones.
func (r *Holds) Drop() {
	r.held.take()
	r.heldObj.drop()
}

// Land writes the held ref moves together and stops holding. It locks every ref, checks that
// each still holds what it held on disk before its first held move, runs fn (work that must
// happen only if the refs move, like updating a checked-out branch's files), then writes them
// with one reflog line each. When a ref moved meanwhile (an error matching ErrRefChanged),
// is locked, or fn fails, no ref moves: the moves are dropped, for the caller to make again.
// Only a failure to write a ref after the first was written leaves some moved: its error
// matches ErrLandedInPart.
func (r *Holds) Land(fn func() error) error {
	if err := (*Writes)(r).packHeld(false); err != nil {
		r.Drop()
		return err
	}
	l := landing{r: r, moves: r.held.take(), fn: fn}
	for name, m := range l.moves {
		if m.old != m.new {
			l.names = append(l.names, name)
		}
	}
	slices.Sort(l.names)
	if l.fn == nil {
		l.fn = func() error { return nil }
	}
	if r.mem {
		return l.inMemory()
	}
	return l.onDisk()
}

// holdUpdate is Update while holding: it checks name against its held or stored value and
// records the move.
func (r *Holds) holdUpdate(name string, newH, oldH Hash, msg string) error {
	cur, err := r.currentValue(name)
	if err != nil {
		return err
	}
	if cur != oldH {
		return refChanged(name, oldH, cur)
	}
	if oldH.IsZero() && !newH.IsZero() && !r.mem {
		if err := (*Updates)(r).checkRefConflict(name); err != nil {
			return err
		}
	}
	return r.held.record(name, cur, newH, msg)
}

// currentValue reads a ref as this Repo sees it, held moves included; a symbolic ref is
// refused, since writing an id into it would silently detach it.
func (r *Holds) currentValue(name string) (Hash, error) {
	v, found, err := (*Refs)(r).readRef(name)
	return currentHash(name, v, found, err)
}

// landing is the writing of held moves: the refs named, sorted, and the work fn that must
// happen only if they move.
type landing struct {
	r     *Holds
	moves map[string]*heldMove
	names []string
	fn    func() error
}

// onDisk is Land on disk, by git's lock-file protocol for each ref.
func (l landing) onDisk() error {
	r := l.r
	sign := (*Reflogs)(r).signer()
	locks := make([]*lockFile, 0, len(l.names))
	defer func() {
		for _, lock := range locks {
			lock.release()
		}
	}()
	for _, name := range l.names {
		lock, err := (*Locks)(r).acquireLock((*Refs)(r).refPath(name))
		if err != nil {
			return fmt.Errorf("%s: locking ref: %w", name, (*Updates)(r).explainLockError(name, err))
		}
		locks = append(locks, lock)
		if err := l.check(name); err != nil {
			return err
		}
	}
	done, err := interrupt.Critical()
	if err != nil {
		return fmt.Errorf("%w before the held ref moves landed", err)
	}
	defer done()
	if err := l.fn(); err != nil {
		return err
	}
	var errs []error
	for i, name := range l.names {
		errs = append(errs, l.write(name, locks[i], sign))
	}
	return landedInPart(errs)
}

// check fails unless ref name holds, as stored, what it held before its first held move.
func (l landing) check(name string) error {
	cur, err := (*Updates)(l.r).storedValue(name)
	if err != nil {
		return err
	}
	if old := l.moves[name].old; cur != old {
		return refChanged(name, old, cur)
	}
	return nil
}

// write writes the held move of name, whose lock the caller holds, logged as sign says.
func (l landing) write(name string, lock *lockFile, sign reflogSigner) error {
	r, m := l.r, l.moves[name]
	if m.new.IsZero() {
		return (*Updates)(r).deleteRef(name, m.old, lock)
	}
	if err := (*Reflogs)(r).logRefUpdate(name, m.old, m.new, sign.entry(m.msg)); err != nil {
		return err
	}
	if err := lock.commit([]byte(m.new.String() + "\n")); err != nil {
		return fmt.Errorf("%s: writing ref: %w", name, err)
	}
	return nil
}

// inMemory is Land in memory: every ref is checked before any moves.
func (l landing) inMemory() error {
	for _, name := range l.names {
		if err := l.check(name); err != nil {
			return err
		}
	}
	if err := l.fn(); err != nil {
		return err
	}
	var errs []error
	for _, name := range l.names {
		m := l.moves[name]
		errs = append(errs, (*Updates)(l.r).memUpdateRef(name, m.new, m.old, func() error { return nil }))
	}
	return landedInPart(errs)
}

// landedInPart is the error of writing held moves, one error or nil for each ref.
func landedInPart(errs []error) error {
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", ErrLandedInPart, err)
	}
	return nil
}
