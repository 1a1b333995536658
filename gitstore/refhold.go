package gitstore

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// heldMove is one ref's moves while refs are held: the value it had on disk before the first
// of them, the value the last one gave it (zero: deleted), and that move's reflog message.
type heldMove struct {
	old, new Hash
	msg      string
}

// heldRefs are the ref moves of a repository that holds its refs, by full name; nil when it
// does not hold them.
type heldRefs map[string]*heldMove

// Hold makes the ref moves that follow wait in memory: Update records a move by
// compare-and-swap against what this Repo holds, Get and List see it, other processes do not,
// and nothing changes on disk until Land writes them all. A batch of actions that move the
// same refs many times then writes each ref, its lock and its reflog once. The objects
// written meanwhile are held in memory too and written as one pack, with the trees a batch
// rewrites stored as deltas of each other, before the refs land or once they pass
// heldObjectBytes.
func (r *Refs) Hold() {
	r.refMu.Lock()
	defer r.refMu.Unlock()
	if r.held == nil {
		r.held = heldRefs{}
		(*Objects)(r).holdObjects()
	}
}

// Holding reports whether ref moves wait in memory for Land.
func (r *Refs) Holding() bool {
	r.refMu.Lock()
	defer r.refMu.Unlock()
	return r.held != nil
}

// Drop forgets the held ref moves and stops holding; the objects they pointed at stay, as
// unreachable ones.
func (r *Refs) Drop() {
	r.takeHeld()
	(*Objects)(r).dropHeldObjects()
}

// Land writes the held ref moves together and stops holding. It locks every ref, checks that
// each still holds what it held on disk before its first held move, runs fn (work that must
// happen only if the refs move, like updating a checked-out branch's files), then writes them
// with one reflog line each. When a ref moved meanwhile (an error matching ErrRefChanged),
// is locked, or fn fails, no ref moves: the moves are dropped, for the caller to make again.
// Only a failure to write a ref after the first was written leaves some moved: its error
// matches ErrLandedInPart.
func (r *Refs) Land(fn func() error) error {
	if err := (*Objects)(r).packHeld(false); err != nil {
		r.Drop()
		return err
	}
	moves := r.takeHeld()
	names := make([]string, 0, len(moves))
	for name, m := range moves {
		if m.old != m.new {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if fn == nil {
		fn = func() error { return nil }
	}
	if r.mem {
		return r.memLand(names, moves, fn)
	}
	return r.diskLand(names, moves, fn)
}

// takeHeld returns the held moves and stops holding.
func (r *Refs) takeHeld() heldRefs {
	r.refMu.Lock()
	defer r.refMu.Unlock()
	moves := r.held
	r.held = nil
	return moves
}

// heldValue is the value a held move gave ref name, and whether one did.
func (r *Refs) heldValue(name string) (refValue, bool, bool) {
	r.refMu.Lock()
	defer r.refMu.Unlock()
	m, ok := r.held[name]
	if !ok {
		return refValue{}, false, false
	}
	return refValue{hash: m.new}, !m.new.IsZero(), true
}

// holdUpdate is Update while holding: it checks name against its held or stored value and
// records the move.
func (r *Refs) holdUpdate(name string, newH, oldH Hash, msg string) error {
	cur, err := r.currentValue(name)
	if err != nil {
		return err
	}
	if cur != oldH {
		return refChanged(name, oldH, cur)
	}
	if oldH.IsZero() && !newH.IsZero() && !r.mem {
		if err := r.checkRefConflict(name); err != nil {
			return err
		}
	}
	r.refMu.Lock()
	defer r.refMu.Unlock()
	if r.held == nil {
		return fmt.Errorf("%s: the held ref moves were landed or dropped during this update", name)
	}
	m := r.held[name]
	if m == nil {
		m = &heldMove{old: cur}
		r.held[name] = m
	}
	m.new, m.msg = newH, msg
	return nil
}

// heldNames adds to refs the refs under prefix that held moves created, and drops those they
// deleted.
func (r *Refs) heldNames(refs []Ref, prefix string) []Ref {
	r.refMu.Lock()
	defer r.refMu.Unlock()
	refs = slices.DeleteFunc(refs, func(ref Ref) bool {
		m, ok := r.held[ref.Name]
		return ok && m.new.IsZero()
	})
	for name, m := range r.held {
		if strings.HasPrefix(name, prefix) && !m.new.IsZero() && !slices.ContainsFunc(refs, func(ref Ref) bool { return ref.Name == name }) {
			refs = append(refs, Ref{Name: name, Hash: m.new})
		}
	}
	return refs
}

// diskLand is Land on disk, by git's lock-file protocol for each ref.
func (r *Refs) diskLand(names []string, moves heldRefs, fn func() error) error {
	locks := make([]*lockFile, 0, len(names))
	defer func() {
		for _, l := range locks {
			l.release()
		}
	}()
	for _, name := range names {
		lock, err := (*Locks)(r).acquireLock(r.refPath(name))
		if err != nil {
			return fmt.Errorf("%s: locking ref: %w", name, r.explainLockError(name, err))
		}
		locks = append(locks, lock)
		cur, err := r.storedValue(name)
		if err != nil {
			return err
		}
		if cur != moves[name].old {
			return refChanged(name, moves[name].old, cur)
		}
	}
	done, err := interrupt.Critical()
	if err != nil {
		return fmt.Errorf("%w before the held ref moves landed", err)
	}
	defer done()
	if err := fn(); err != nil {
		return err
	}
	var errs []error
	for i, name := range names {
		errs = append(errs, r.writeLocked(name, moves[name], locks[i]))
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

// writeLocked writes held move m of name, whose lock the caller holds.
func (r *Refs) writeLocked(name string, m *heldMove, lock *lockFile) error {
	if m.new.IsZero() {
		return r.deleteRef(name, m.old, lock)
	}
	if err := r.logRefUpdate(name, m.old, m.new, r.prepareReflog(m.msg)); err != nil {
		return err
	}
	if err := lock.commit([]byte(m.new.String() + "\n")); err != nil {
		return fmt.Errorf("%s: writing ref: %w", name, err)
	}
	return nil
}

// memLand is Land in memory: every ref is checked before any moves, under refMu.
func (r *Refs) memLand(names []string, moves heldRefs, fn func() error) error {
	for _, name := range names {
		cur, err := r.storedValue(name)
		if err != nil {
			return err
		}
		if cur != moves[name].old {
			return refChanged(name, moves[name].old, cur)
		}
	}
	if err := fn(); err != nil {
		return err
	}
	var errs []error
	for _, name := range names {
		m := moves[name]
		errs = append(errs, r.memUpdateRef(name, m.new, m.old, func() error { return nil }))
	}
	return landedInPart(errs)
}
