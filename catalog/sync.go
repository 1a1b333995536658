package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// SyncMode says how skills are installed into a target folder.
type SyncMode string

// The sync modes.
const (
	// SyncCopy copies each skill folder into the target.
	SyncCopy SyncMode = "copy"
	// SyncSymlink links each skill folder to a stable copy in SyncOptions.LinkStore.
	SyncSymlink SyncMode = "symlink"
)

// SyncSkill is one skill of the source.
type SyncSkill struct {
	// Name is the folder name the skill is installed under; it must pass ValidateName.
	Name string
	// Dir is the skill's folder in the source file system.
	Dir string
	// Hash identifies the folder's content, such as its git tree id.
	Hash string
}

// SyncOptions tune a sync.
type SyncOptions struct {
	// Mode is SyncCopy (the default) or SyncSymlink.
	Mode SyncMode
	// LinkStore is the absolute folder that holds, in symlink mode, the copy that the
	// link of skill NAME with hash H points at: LinkStore/H/NAME. A copy there is never
	// changed once complete.
	LinkStore string
	// Force overwrites and removes installed skills that were edited in the target.
	Force bool
	// DryRun plans and reports the changes without making them.
	DryRun bool
	// Writer, when set, makes the changes instead of the real writer; for tests.
	Writer func(root *os.Root) Writer
	// Workers is how many skills are written at once; 0 means 8.
	Workers int
}

// Action is what a sync does to one skill in one target.
type Action string

// The actions of a sync.
const (
	ActionInstall  Action = "install"
	ActionUpdate   Action = "update"
	ActionRemove   Action = "remove"
	ActionKeep     Action = "keep"
	ActionConflict Action = "conflict"
)

// SyncAction is the plan for one skill in one target folder.
type SyncAction struct {
	Skill  string
	Path   string
	Action Action
	// Reason says why a conflict is one, and what to do.
	Reason string

	src     *SyncSkill
	written string // for a write: the hash already found on disk, when it is the new one
	noWrite bool   // the folder already holds the new version, or is gone already
}

// SyncPlan is what a sync will do in one target folder.
type SyncPlan struct {
	// Dir is the target folder.
	Dir string
	// Actions holds one action per skill, in name order.
	Actions []SyncAction
	// Warnings report files of the source that are not installed.
	Warnings []string

	src      fs.FS
	opts     SyncOptions
	root     *os.Root // nil when the folder does not exist yet
	man      *manifest
	leftover []string
}

// PlanSync compares the skills of src with what target folder dir holds and returns what a
// sync would do. Nothing is written. Call Apply to carry the plan out, or Close.
func PlanSync(src fs.FS, skills []SyncSkill, dir string, opts SyncOptions) (*SyncPlan, error) {
	if opts.Mode == "" {
		opts.Mode = SyncCopy
	}
	if opts.Mode == SyncSymlink && !filepath.IsAbs(opts.LinkStore) {
		return nil, fmt.Errorf("%s: symlink mode needs an absolute folder for the linked copies", dir)
	}
	p := &SyncPlan{Dir: dir, src: src, opts: opts}
	root, err := os.OpenRoot(dir)
	switch {
	case err == nil:
		p.root = root
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if p.man, err = readManifest(p.root, dir); err != nil {
		p.Close()
		return nil, err
	}
	if err := p.plan(skills); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// Close releases the target folder.
func (p *SyncPlan) Close() error {
	if p.root == nil {
		return nil
	}
	return p.root.Close()
}

// Changes returns the actions that change the folder: install, update and remove.
func (p *SyncPlan) Changes() []SyncAction {
	var out []SyncAction
	for _, a := range p.Actions {
		if a.Action == ActionInstall || a.Action == ActionUpdate || a.Action == ActionRemove {
			out = append(out, a)
		}
	}
	return out
}

// Source returns the source skill an install or update action writes.
func (a SyncAction) Source() (SyncSkill, bool) {
	if a.src == nil {
		return SyncSkill{}, false
	}
	return *a.src, true
}
