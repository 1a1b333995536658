package doctor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/skillgit/skillgit/internal/filenames"
	"github.com/skillgit/skillgit/targetdir"
)

// checkTarget looks at one sync target folder: what an interrupted sync left there, its
// mutex, and the manifest entries that disagree with the folder.
func (d *doctor) checkTarget(dir string) error {
	h, err := targetdir.Check(dir)
	if err != nil {
		return err
	}
	if !h.Exists {
		return nil
	}
	if h.Mutex != nil && !h.Mutex.Stale {
		// A sync is writing the folder: its temporary entries and unfinished manifest
		// entries are its work in progress.
		d.leave(FindingFolderMutex, filepath.Join(h.Dir, filenames.FolderMutex), describeMutex(h.Mutex),
			"a sync is writing this folder; run doctor again when it is done")
		return nil
	}
	d.checkTargetLeftovers(h)
	return d.checkManifest(h)
}

// checkTargetLeftovers reports the stale mutex and leftover entries of a target, and with
// --fix removes them holding the folder's mutex, as a sync would.
func (d *doctor) checkTargetLeftovers(h *targetdir.Health) {
	mutexPath := filepath.Join(h.Dir, filenames.FolderMutex)
	staleMutex := h.Mutex != nil && h.Mutex.Stale
	if len(h.Leftovers) == 0 && !staleMutex {
		return
	}
	var removed []string
	var repairErr error
	if d.fix {
		removed, repairErr = targetdir.Repair(h.Dir, mutexWait)
	}
	why := "`skillgit doctor --fix` removes it"
	switch {
	case errors.Is(repairErr, targetdir.ErrBusy):
		why = "a sync is writing this folder; run doctor again when it is done"
	case repairErr != nil:
		why = "could not remove it: " + repairErr.Error()
	}
	if staleMutex {
		d.found = append(d.found, Finding{Kind: FindingFolderMutex, Path: mutexPath, Detail: "stale: " + describeMutex(h.Mutex),
			Fixed: d.fix && repairErr == nil, Left: leftUnless(d.fix && repairErr == nil, why)})
	}
	for _, name := range h.Leftovers {
		fixed := slices.Contains(removed, name)
		d.found = append(d.found, Finding{Kind: FindingSyncLeftover, Path: filepath.Join(h.Dir, name),
			Detail: "left by an interrupted sync", Fixed: fixed, Left: leftUnless(fixed, why)})
	}
}

// describeMutex says who holds a target folder's mutex.
func describeMutex(l *targetdir.MutexHolder) string {
	switch {
	case l.PID == 0 && l.Stale:
		return "a lock whose sync never finished writing its record"
	case l.PID == 0:
		return "a sync that is starting"
	case l.Stale:
		return fmt.Sprintf("held by sync process %d, which has ended", l.PID)
	}
	return fmt.Sprintf("held by sync process %d, still running", l.PID)
}

// checkManifest reports the manifest entries that disagree with the folder: installs that
// began and were not recorded as done, skills edited since, folders gone. The doctor never
// rewrites skills: sync repairs what is skillgit's, and an edit is the user's.
func (d *doctor) checkManifest(h *targetdir.Health) error {
	manifest := filepath.Join(h.Dir, filenames.Manifest)
	if h.ManifestErr != nil {
		d.leave(FindingManifest, manifest, h.ManifestErr.Error(), "doctor never rewrites a manifest; move it away as the message says, then run `skillgit sync`")
		return nil
	}
	skills, err := targetdir.Inspect(h.Dir)
	if err != nil {
		return err
	}
	for _, s := range skills {
		pending := slices.Contains(h.Pending, s.Name)
		detail, why := manifestDisagreement(s.State, pending)
		if detail != "" {
			d.leave(FindingManifest, s.Path, fmt.Sprintf("%s: %s", s.Name, detail), why)
		}
	}
	return nil
}

// manifestDisagreement says how a skill of a target disagrees with its manifest entry, and
// what repairs it; "" when it agrees.
func manifestDisagreement(state targetdir.State, pending bool) (string, string) {
	const sync = "doctor never rewrites skills: `skillgit sync` installs it again"
	switch {
	case pending && state == targetdir.StateMissing:
		return "an install began and did not finish; the folder is missing", sync
	case pending && state == targetdir.StateEdited:
		return "an install began and did not finish; the folder is not what it was writing",
			"doctor never rewrites skills: `skillgit sync` finishes the install when the folder is the old version; if you edited it, the edit is yours (`skillgit sync --propose-edits`, or --force to replace it)"
	case pending:
		return "an install finished writing but its manifest entry was not completed", "doctor never rewrites manifests: `skillgit sync` records it"
	case state == targetdir.StateMissing:
		return "the manifest lists it, the folder is gone", sync
	case state == targetdir.StateEdited:
		return "changed since skillgit installed it",
			"the edit is yours: `skillgit sync --propose-edits` proposes it, `skillgit sync --force` restores the published version"
	}
	return "", ""
}

func leftUnless(fixed bool, why string) string {
	if fixed {
		return ""
	}
	return why
}

// storeLeftoverAge is how old a temporary copy in the link store must be before the doctor
// takes it for one an interrupted sync left: syncs share the store without a lock, and
// copying a skill takes seconds.
const storeLeftoverAge = 10 * time.Minute

// checkLinkStore looks for the temporary copies interrupted syncs left in the link store of
// --symlink syncs, in the git folder.
func (d *doctor) checkLinkStore() error {
	store := filepath.Join(d.git.CommonDir(), "skillgit", "sync")
	rels, err := targetdir.StoreLeftovers(store)
	if err != nil {
		return err
	}
	for _, rel := range rels {
		p := filepath.Join(store, filepath.FromSlash(rel))
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if age := time.Since(fi.ModTime()); age < storeLeftoverAge {
			d.leave(FindingSyncLeftover, p, "a temporary copy in the link store of --symlink syncs",
				fmt.Sprintf("written %s ago, so a sync may still be writing it; run doctor again later", roughAge(age)))
			continue
		}
		d.fixWith(FindingSyncLeftover, p, "left in the link store of --symlink syncs by an interrupted sync", func() error {
			return targetdir.RemoveStoreLeftover(store, rel)
		})
	}
	return nil
}
