package targetdir

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/skillgit/skillgit/internal/filenames"
)

// Apply carries the plan out: it removes what an interrupted sync left behind, writes every
// install and update, removes what is no longer published and then, last, records in the
// manifest what the folder holds. Conflicts are left alone. A skill that fails keeps its old
// manifest entry, so the next sync tries it again; the error names every such skill.
//
// A signal does not cut Apply short: it cancels the context, so the skills being written are
// finished, no other is started, and the manifest records what the folder holds; only then
// does the process stop (see internal/interrupt).
func (p *Folder) Apply() error {
	w, done, err := p.opts.Disk.writer(p)
	if err != nil {
		return err
	}
	defer done()
	p.applied = true
	for _, name := range p.leftover {
		if err := w.RemoveAll(name); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(p.Dir, name), err)
		}
	}
	marked := p.markPending()
	if marked {
		p.smudge()
		if err := writeManifest(w, p.man); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(p.Dir, filenames.Manifest), err)
		}
	}
	errs := p.run(w)
	if marked || p.recorded || p.restamped || !p.manifestExists() {
		p.smudge()
		if err := writeManifest(w, p.man); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", filepath.Join(p.Dir, filenames.Manifest), err))
		}
	}
	return errors.Join(errs...)
}

// manifestExists says whether the target folder holds a manifest file; a sync that changed
// nothing and finds one writes nothing.
func (p *Folder) manifestExists() bool {
	if p.root == nil {
		return false
	}
	_, err := p.root.Lstat(filenames.Manifest)
	return err == nil
}

// markPending records every skill about to be installed as owned before it is written, with
// what will be written (see pendingTree), so that a sync interrupted after writing it knows
// the folder as its own, and one interrupted before does not take a folder the user makes in
// the meantime for its own. It reports whether there was any.
func (p *Folder) markPending() bool {
	marked := false
	for _, a := range p.Actions {
		if a.Action != ActionInstall || a.noWrite {
			continue
		}
		if m, owned := p.man.Skills[a.Skill]; !owned || m.Written == pendingHash {
			p.man.Skills[a.Skill] = manifestEntry{Written: pendingHash, Pending: p.pendingOf(a.src), Mode: p.opts.Mode}
			marked = true
		}
	}
	return marked
}

// pendingOf is what the manifest records of an install of s before it is written: the link
// a symbolic-link install makes, or the git tree id of the version a copy writes.
func (p *Folder) pendingOf(s *Skill) string {
	if p.opts.Mode == Symlink {
		return linkHash(p.linkTarget(s))
	}
	return pendingTree + s.Hash
}

// run makes the changes with a pool of workers and updates the manifest as each succeeds.
func (p *Folder) run(w Writer) []error {
	jobs := make(chan int)
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range p.workers() {
		wg.Go(func() {
			for i := range jobs {
				var warn []string
				entry, err := p.change(w, &p.Actions[i], &warn)
				mu.Lock()
				p.Warnings = append(p.Warnings, warn...)
				p.record(p.Actions[i], entry, err, &errs)
				if p.opts.Changed != nil && p.Actions[i].changes() {
					p.opts.Changed()
				}
				mu.Unlock()
			}
		})
	}
	var stopped error
	for i, a := range p.Actions {
		if stopped = p.cancelled(); stopped != nil {
			break
		}
		if a.writes() {
			jobs <- i
		}
	}
	close(jobs)
	wg.Wait()
	if stopped != nil {
		errs = append(errs, fmt.Errorf("%s: sync stopped before every skill was written: %w", p.Dir, stopped))
	}
	return errs
}

// cancelled is the error of the sync's context once it is cancelled.
func (p *Folder) cancelled() error {
	if p.opts.Context == nil {
		return nil
	}
	return p.opts.Context.Err()
}

func (p *Folder) workers() int {
	if p.opts.Workers > 0 {
		return p.opts.Workers
	}
	return 8
}

// record notes the outcome of one change in the manifest.
func (p *Folder) record(a Step, entry manifestEntry, err error, errs *[]error) {
	switch {
	case err != nil:
		*errs = append(*errs, err)
	case a.Action == ActionRemove:
		delete(p.man.Skills, a.Skill)
		delete(p.fresh, a.Skill)
		p.recorded = true
	case a.Action == ActionKeep:
	default:
		p.man.Skills[a.Skill] = entry
		p.fresh[a.Skill] = entry.Stat != ""
		p.recorded = true
	}
}

// change makes one action's change and returns the manifest entry of the result.
func (p *Folder) change(w Writer, a *Step, warn *[]string) (manifestEntry, error) {
	switch {
	case a.Action == ActionKeep:
		return manifestEntry{}, nil
	case a.Action == ActionRemove:
		if a.noWrite {
			return manifestEntry{}, nil
		}
		if err := remove(w, a.Skill); err != nil {
			return manifestEntry{}, fmt.Errorf("skill %s: %s: %w", a.Skill, a.Path, err)
		}
		return manifestEntry{}, nil
	}
	entry := manifestEntry{Source: a.src.Hash, Mode: p.opts.Mode, Written: a.written}
	if a.noWrite {
		if found := p.installed[a.Skill]; found.err == nil && found.hash == a.written {
			entry.Stat = found.stamps
		}
		return entry, nil
	}
	var err error
	if p.opts.Mode == Symlink {
		entry.Written, err = p.putSymlink(w, a.src)
	} else {
		entry.Written, entry.Stat, err = put(w, p.fastWriter(w), p.src, a.src, a.Skill, warn)
	}
	if err != nil {
		return entry, fmt.Errorf("%s: %w", a.Path, err)
	}
	return entry, nil
}
