// Package doctor finds and clears what interrupted git and skillgit commands left behind in
// a repository and in its sync target folders: stale locks and owner records, leftovers of
// syncs and object writers, and refs that do not parse. It repairs only what is safe to
// remove and never rewrites a skill or a ref.
package doctor

import (
	"time"

	"github.com/skillgit/skillgit/gitstore"
)

// The kinds of what Run finds.
const (
	// FindingLock is a lock file of the repository.
	FindingLock = "lock"
	// FindingLockRecord is an owner record of a lock file that is gone.
	FindingLockRecord = "lock-record"
	// FindingSyncLeftover is an entry an interrupted sync left in a target folder.
	FindingSyncLeftover = "sync-leftover"
	// FindingFolderMutex is the mutex of a target folder, left by a sync that ended; its kind
	// keeps the name that doctor's output has always given it.
	FindingFolderMutex = "sync-lock"
	// FindingManifest is a manifest entry that disagrees with its target folder, or a
	// manifest that cannot be read.
	FindingManifest = "manifest"
	// FindingRef is a ref that does not parse.
	FindingRef = "ref"
	// FindingProject is an application project's sync file or lock that cannot be read or
	// disagrees; FindingInstalled a target of the project that differs from its lock. The
	// application project's checks find them (agentsync.CheckProject); Run does not.
	FindingProject   = "project"
	FindingInstalled = "installed"
)

// unownedLockAge is how old a lock file without an owner record must be before the doctor
// takes it for one a process left behind: a git command holds its locks for less.
const unownedLockAge = 5 * time.Second

// mutexWait is how long a repair waits for a sync that holds a target folder's mutex.
const mutexWait = 2 * time.Second

// Finding is one thing the doctor found wrong, and what became of it.
type Finding struct {
	// Kind is one of the Finding* constants.
	Kind string
	// Path is the file or folder concerned.
	Path string
	// Detail says what is known of it.
	Detail string
	// Fixed says the doctor repaired it.
	Fixed bool
	// Left says why it was left as it is, and what the user can do; empty when fixed.
	Left string
}

// Options says what Run looks at and whether it repairs.
type Options struct {
	// Fix repairs what is safe to repair.
	Fix bool
	// Targets are the sync target folders to look at, absolute.
	Targets []string
}

// Report is what Run found.
type Report struct {
	// Findings are in the order found: locks, owner records, sync targets, the link store,
	// temporary object files, refs.
	Findings []Finding
}

// Fixed counts the findings repaired.
func (r *Report) Fixed() int {
	n := 0
	for _, f := range r.Findings {
		if f.Fixed {
			n++
		}
	}
	return n
}

// Left counts the findings left as they are.
func (r *Report) Left() int { return len(r.Findings) - r.Fixed() }

// Run looks for what interrupted commands leave behind in repository g and in the sync
// targets of opts: stale lock files and owner records, temporary entries, stale locks and
// unfinished or disagreeing manifest entries of the targets, temporary copies in the link
// store of --symlink syncs, temporary files of killed object writers, and refs that do not
// parse. With opts.Fix it removes stale locks, orphaned owner records, the leftovers of
// interrupted syncs and the temporary object files; it never rewrites a skill or a ref.
// With g nil, only the targets are looked at.
func Run(g *gitstore.Repo, opts Options) (*Report, error) {
	d := &doctor{git: g, fix: opts.Fix}
	if g != nil {
		if err := d.checkLocks(); err != nil {
			return nil, err
		}
		if err := d.checkOwnerRecords(); err != nil {
			return nil, err
		}
	}
	for _, dir := range opts.Targets {
		if err := d.checkTarget(dir); err != nil {
			return nil, err
		}
	}
	if g != nil {
		if err := d.checkRepository(); err != nil {
			return nil, err
		}
	}
	return &Report{Findings: d.found}, nil
}

// checkRepository looks at the link store, the temporary object files and the refs.
func (d *doctor) checkRepository() error {
	if err := d.checkLinkStore(); err != nil {
		return err
	}
	if err := d.checkObjectTemps(); err != nil {
		return err
	}
	return d.checkRefs()
}

// doctor gathers findings.
type doctor struct {
	git   *gitstore.Repo
	fix   bool
	found []Finding
	// gitPIDs are the git processes running in the repository; nil until looked up.
	gitPIDs []int
}

// fixWith records a finding that repair fixes: without --fix it is left, saying so; with
// it, repair runs, and its error, if any, is why the finding was left.
func (d *doctor) fixWith(kind, path, detail string, repair func() error) {
	f := Finding{Kind: kind, Path: path, Detail: detail}
	switch {
	case !d.fix:
		f.Left = "`skillgit doctor --fix` removes it"
	default:
		if err := repair(); err != nil {
			f.Left = "could not remove it: " + err.Error()
		} else {
			f.Fixed = true
		}
	}
	d.found = append(d.found, f)
}

// leave records a finding that the doctor never repairs, with why and what the user can do.
func (d *doctor) leave(kind, path, detail, why string) {
	d.found = append(d.found, Finding{Kind: kind, Path: path, Detail: detail, Left: why})
}
