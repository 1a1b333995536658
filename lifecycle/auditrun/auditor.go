package auditrun

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"sync"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// Item is one skill folder to audit: a folder on disk or a tree in git.
type Item struct {
	// Name is the skill's folder name.
	Name string
	// Path is the folder as reports show it: repository-relative with slashes when the
	// folder is in the repository, else as the user named it.
	Path string
	// Dir is the folder on disk; empty for a git tree.
	Dir string
	// Tree is the skill's tree in git; for a folder on disk it is left zero and computed,
	// for the cache, when the audit runs.
	Tree gitstore.Hash
	// Base is the tree of the version the skill is compared with; zero for none.
	Base gitstore.Hash
	// BaseLabel names that version in reports, such as "main".
	BaseLabel string
	// Accepted are findings a person accepted for this version of the skill, in an
	// approval; they join the policy's allow list for this item only.
	Accepted []audit.Allow
	// FindingsAs is the skill name the findings are fingerprinted and allowed under when
	// it is not Name: a candidate published under another name (publish --as) keeps the
	// name it was reviewed under, so that the acceptances of its approvals still match.
	FindingsAs string
}

// findingsName is the skill name of the item's fingerprints.
func (it Item) findingsName() string {
	return cmp.Or(it.FindingsAs, it.Name)
}

// Auditor audits skill folders under one policy, in parallel, caching results by tree id.
type Auditor struct {
	// Git reads trees; nil outside a repository, where only folders on disk can be audited.
	Git *gitstore.Repo
	// Policy is applied to every skill.
	Policy *policy.AuditPolicy
	// Cache keeps results; nil for none.
	Cache *audit.Cache
	// Workers is how many skills are audited at once; 0 means GOMAXPROCS.
	Workers int
	// Progress, when set, hears how many of the items are audited, first with none done.
	Progress Progress

	hashOnce sync.Once
	hash     string
}

// Progress hears how far a long check has got: done of total skills. Calls do not overlap.
type Progress func(done, total int)

// Run audits items and returns their reports in the same order; an item that fails fails the
// run.
func (a *Auditor) Run(items []Item) ([]audit.SkillReport, error) {
	out, errs := a.RunEach(items)
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RunEach audits items like Run, and returns the error of each item apart, so that a caller
// may set aside an item that cannot be read and go on with the others.
func (a *Auditor) RunEach(items []Item) ([]audit.SkillReport, []error) {
	out := make([]audit.SkillReport, len(items))
	errs := make([]error, len(items))
	next := make(chan int)
	tick := a.counter(len(items))
	var store *audit.Batch
	if a.Cache != nil {
		store = a.Cache.NewBatch()
	}
	var wg sync.WaitGroup
	for range a.workers(len(items)) {
		wg.Go(func() {
			for i := range next {
				out[i], errs[i] = a.one(items[i], store)
				tick()
			}
		})
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	if store != nil {
		// Results that cannot be stored are only later cache misses.
		_ = store.Flush()
	}
	return out, errs
}

// counter tells a.Progress that none of total items is audited yet, and returns what counts one
// more as done.
func (a *Auditor) counter(total int) func() {
	if a.Progress == nil || total == 0 {
		return func() {}
	}
	var mu sync.Mutex
	done := 0
	a.Progress(0, total)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		done++
		a.Progress(done, total)
	}
}

func (a *Auditor) workers(n int) int {
	w := a.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return max(1, min(w, n))
}

// one audits one item, from the cache when it can; what it scans goes into store, when not nil.
func (a *Auditor) one(it Item, store *audit.Batch) (audit.SkillReport, error) {
	sr := audit.SkillReport{Name: it.Name, Path: it.Path, Base: it.BaseLabel}
	if it.Dir != "" {
		rep, err := a.scanDir(it, store)
		sr.Report = rep
		return sr, err
	}
	rep, err := a.cached(it, it.Tree, store, func() (*audit.Report, error) {
		return a.scanTree(it)
	})
	sr.Report = rep
	return sr, err
}

// scanDir audits a folder on disk. Its tree id is computed to look the result up; a result is
// stored only when the folder hashes the same after the scan, so that a folder changed while
// it was read never leaves a result under the wrong id.
func (a *Auditor) scanDir(it Item, store *audit.Batch) (*audit.Report, error) {
	root, err := os.OpenRoot(it.Dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", it.Path, err)
	}
	defer root.Close()
	fsys := root.FS()
	if a.Cache == nil {
		return a.scan(it, fsys)
	}
	id, err := gitstore.HashDir(fsys, ".")
	if err != nil {
		return a.scan(it, fsys)
	}
	return a.cached(it, id, store, func() (*audit.Report, error) {
		rep, err := a.scan(it, fsys)
		if err == nil {
			if after, herr := gitstore.HashDir(fsys, "."); herr != nil || after != id {
				return rep, errChanged
			}
		}
		return rep, err
	})
}

// errChanged tells cached not to store a result.
var errChanged = errors.New("folder changed while it was audited")

// cached returns the cached report of the item's tree compared with its base, or scans it and
// puts the result in store.
func (a *Auditor) cached(it Item, tree gitstore.Hash, store *audit.Batch, scan func() (*audit.Report, error)) (*audit.Report, error) {
	baseKey := ""
	if !it.Base.IsZero() {
		baseKey = it.Base.String()
	}
	policy := a.itemPolicy(it)
	if a.Cache != nil {
		if rep, ok := a.Cache.Get(tree.String(), policy, baseKey); ok {
			return rep, nil
		}
	}
	rep, err := scan()
	if err == errChanged {
		return rep, nil
	}
	if err == nil && store != nil {
		// A result that cannot be stored is only a later cache miss.
		_ = store.Put(tree.String(), policy, baseKey, rep)
	}
	return rep, err
}

// scanTree audits a skill version in git. To the audit, what it could not read is a finding;
// in a git tree that may be an object git cannot read, and then the audit fails naming the
// object, rather than leave in the cache a report that would outlive the repair.
func (a *Auditor) scanTree(it Item) (*audit.Report, error) {
	fsys := a.Git.Objects().TreeFS(it.Tree)
	rep, err := a.scan(it, fsys)
	if err != nil || !notAudited(rep) {
		return rep, gitstore.WithFsckHint(err)
	}
	if err := gitstore.FirstObjectError(fsys, "."); err != nil {
		return nil, gitstore.WithFsckHint(fmt.Errorf("%s: %w", it.Path, err))
	}
	return rep, nil
}

// scan runs the audit on fsys with the item's base version.
func (a *Auditor) scan(it Item, fsys fs.FS) (*audit.Report, error) {
	opts := audit.Options{Skill: it.findingsName(), Allow: a.Policy.Allow.With(it.Accepted...), Installers: a.Policy.Installers, Custom: a.Policy.Custom}
	if !it.Base.IsZero() {
		opts.Base = a.Git.Objects().TreeFS(it.Base)
	}
	rep, err := audit.Scan(fsys, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", it.Path, err)
	}
	return rep, nil
}

// itemPolicy is the cache key of what besides the trees decides an item's result: the
// policy, the skill's name (part of every fingerprint) and the item's acceptances.
func (a *Auditor) itemPolicy(it Item) string {
	key := a.policyHash() + "/" + it.findingsName()
	if len(it.Accepted) > 0 {
		key += "/" + audit.PolicyHash(&audit.AllowList{Entries: it.Accepted}, nil)
	}
	return key
}

func (a *Auditor) policyHash() string {
	a.hashOnce.Do(func() { a.hash = a.Policy.Hash() })
	return a.hash
}
