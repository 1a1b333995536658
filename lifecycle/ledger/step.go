package ledger

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// Kind is what a commit of a channel's first-parent line is, as the ledger derives it.
type Kind string

// The kinds of steps.
const (
	// KindInit is a repository's first commit.
	KindInit Kind = "init"
	// KindPublish merged a candidate: the branch's skill folders now hold what the
	// candidate's tip holds, and nothing else changed (see VerifyPublish).
	KindPublish Kind = "publish"
	// KindRollback put skill folders back to what a publish on the same line replaced.
	KindRollback Kind = "rollback"
	// KindCommit is any other commit: one made with git, or one whose claims the ledger
	// does not find true.
	KindCommit Kind = "commit"
)

// Step is one commit of a channel's first-parent line, as derived.
type Step struct {
	Commit Commit
	Kind   Kind
	// Claim is the action the commit's trailers claim, "" when they claim none.
	Claim string
	// Unverified says why a claimed publish or rollback is not one; "" otherwise.
	Unverified string
	// Via says how a publish was made: "skillgit", "git merge" (a merge that claims
	// nothing), or "init" (the built-in skills init publishes).
	Via string
	// Changes are the skill folders the commit changed against its first parent; none for
	// init's publish (Via "init"), whose changes are read only when a rollback needs them.
	Changes []FolderChange
	// Undoes is the publish a rollback undid.
	Undoes gitstore.Hash
}

// Step derives what commit h did, as a step of the first-parent line it heads.
func (l *Ledger) Step(h gitstore.Hash) (*Step, error) {
	c, err := l.s.Commit(h)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", h, err)
	}
	return l.StepOf(h, c)
}

// StepOf is Step for commit h, already read as c.
func (l *Ledger) StepOf(h gitstore.Hash, oc *object.Commit) (*Step, error) {
	l.noteParent(h, oc)
	l.mu.Lock()
	st, ok := l.steps[h]
	l.mu.Unlock()
	if ok {
		return st, nil
	}
	c := Commit{Hash: h, C: oc, Claims: ParseClaims(oc.Message)}
	l.mu.Lock()
	if st = l.recalled(c); st != nil {
		l.keepStep(h, st)
	}
	l.mu.Unlock()
	if st != nil {
		return st, nil
	}
	st = &Step{Commit: c, Claim: c.Action(), Kind: KindCommit}
	var err error
	switch ps := c.C.ParentHashes; {
	case len(ps) == 0:
		if st.Claim == ActInit {
			st.Kind = KindInit
		}
	case len(ps) == 2:
		err = l.mergeStep(st)
	default:
		err = l.singleStep(st)
	}
	if err != nil {
		return nil, unreadable(h, err)
	}
	l.mu.Lock()
	l.keepStep(h, st)
	l.remember(st)
	l.mu.Unlock()
	return st, nil
}

// mergeStep derives a merge: the publish of a candidate, or a commit.
func (l *Ledger) mergeStep(st *Step) error {
	ch, err := l.chainAt(st.Commit.C.ParentHashes[1])
	if gitstore.IsObjectError(err) {
		return err // a commit it cannot read is no proof that the merge merges no candidate
	}
	if err != nil {
		if st.Claim == ActPublish {
			st.Unverified = "merges no candidate's tip"
		}
		return nil
	}
	why, changes, err := l.verifyPublish(st.Commit, ch)
	if err != nil {
		return err
	}
	st.Changes = changes
	if why != "" {
		if st.Claim == ActPublish || st.Claim == "" {
			st.Unverified = why
		}
		return nil
	}
	if st.Claim != ActPublish && st.Claim != "" {
		return nil // a merge claiming something else, such as canary's catch-up
	}
	st.Kind, st.Via = KindPublish, "skillgit"
	if st.Claim == "" {
		st.Via = "git merge"
	}
	return nil
}

// singleStep derives a commit with one parent: a rollback, init's publish, or a commit.
func (l *Ledger) singleStep(st *Step) error {
	if _, claims := RevertTarget(st.Commit.C.Message, st.Commit.Claims); claims || st.Claim == ActRollback {
		why, undoes, changes, err := l.verifyRollback(st.Commit)
		if err != nil {
			return err
		}
		st.Changes = changes
		if why != "" {
			st.Unverified = why
			return nil
		}
		st.Kind, st.Undoes = KindRollback, undoes
		return nil
	}
	if st.Claim != ActPublish {
		return nil
	}
	ok, err := l.initPublish(st.Commit)
	if err != nil {
		return err
	}
	if !ok {
		st.Unverified = "is not a merge of a candidate: a publish merges one"
		return nil
	}
	// Its changes are left out: it adds every skill of a pack, which can be the whole
	// repository, and only a rollback of it reads them (publishChanges).
	st.Kind, st.Via = KindPublish, "init"
	return nil
}

// publishChanges are the skill folders publish pub changed: as derived, or, for init's
// publish, which the step leaves them out of, read now.
func (l *Ledger) publishChanges(pub *Step) ([]FolderChange, error) {
	if pub.Via != "init" || pub.Changes != nil {
		return pub.Changes, nil
	}
	return l.changes(pub.Commit)
}

// initPublish reports whether c is the commit `skillgit init --builtin` writes on the
// repository's first commit: it publishes the built-in skills, with no candidate.
func (l *Ledger) initPublish(c Commit) (bool, error) {
	if c.Claims.Get(KeyPack) == "" {
		return false, nil
	}
	parent, err := ReadCommit(l.s, c.C.ParentHashes[0])
	if err != nil {
		return false, err
	}
	return len(parent.C.ParentHashes) == 0 && parent.Action() == ActInit, nil
}

// changes lists the skill folders commit c changed against its first parent.
func (l *Ledger) changes(c Commit) ([]FolderChange, error) {
	d, err := l.diffParent(c)
	if err != nil {
		return nil, err
	}
	return d.Folders, nil
}

// diffParent compares commit c with its first parent.
func (l *Ledger) diffParent(c Commit) (*Diff, error) {
	parent, err := l.s.Commit(c.C.ParentHashes[0])
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", c.C.ParentHashes[0], err)
	}
	return DiffTrees(l.s, l.skillsDir, parent.TreeHash, c.C.TreeHash)
}
