package targetdir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Mode says how skills are installed into a target folder.
type Mode string

// The sync modes.
const (
	// Copy copies each skill folder into the target.
	Copy Mode = "copy"
	// Symlink links each skill folder to a stable copy in Options.LinkStore.
	Symlink Mode = "symlink"
)

// Skill is one skill of the source.
type Skill struct {
	// Name is the folder name the skill is installed under; it must pass catalog.ValidateName.
	Name string
	// Dir is the skill's folder in the source file system.
	Dir string
	// Hash identifies the folder's content, such as its git tree id.
	Hash string
}

// Options tune a sync.
type Options struct {
	// Mode is Copy (the default) or Symlink.
	Mode Mode
	// LinkStore is the absolute folder that holds, in symlink mode, the copy that the
	// link of skill NAME with hash H points at: LinkStore/H/NAME. A copy there is never
	// changed once complete.
	LinkStore string
	// Force overwrites and removes installed skills that were edited in the target.
	Force bool
	// Disk is where the changes go: nil writes them into the folder; DryRun records them
	// and writes nothing.
	Disk Disk
	// Workers is how many skills are written at once; 0 means 8.
	Workers int
	// Hold names skills to leave as they are, with the reason: a held skill is neither
	// written nor removed, and its manifest entry stays. Its source entry, if any, should be
	// left out of the skills planned.
	Hold map[string]string
	// MutexWait is how long to wait for another sync of the same folder to finish before
	// failing with ErrBusy; 0 means DefaultMutexWait.
	MutexWait time.Duration
	// Context, once cancelled, stops the sync between skills: what is written stays, each
	// skill old or new, the manifest records it, and Apply reports the cancellation. Nil
	// never stops.
	Context context.Context
	// Changed, when set, is called after each skill that Apply installs, updates or
	// removes, or fails to, one call at a time, so that a caller can show how far it has got.
	Changed func()
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

// Step is the plan for one skill in one target folder.
type Step struct {
	Skill  string
	Path   string
	Action Action
	// Reason says why a conflict is one, and what to do.
	Reason string

	src     *Skill
	written string // for a write: the hash already found on disk, when it is the new one
	noWrite bool   // the folder already holds the new version, or is gone already
}

// Folder is what a sync will do in one target folder.
type Folder struct {
	// Dir is the target folder.
	Dir string
	// Actions holds one action per skill, in name order.
	Actions []Step
	// Warnings report files of the source that are not installed.
	Warnings []string

	src      fs.FS
	opts     Options
	root     *os.Root // nil when the folder does not exist yet
	man      *manifest
	listing  map[string]bool // the names in the folder, leftovers aside
	cleanDir string          // filepath.Clean(Dir), once skillPath needs it
	leftover []string
	mutex    *folderMutex // held from planning until Close; nil when the Disk writes nothing
	changes  *recorder    // what a dry run recorded; nil when the Disk writes
	created  []string     // folders Plan created for the target, deepest first
	applied  bool
	// recorded says that Apply changed the manifest's entries, which must then be written.
	recorded bool
	// installed holds the hash of every installed folder the manifest lists.
	installed map[string]installed
	// check stamps the skill folders of the target; nil when it cannot.
	check *stampChecker
	// fresh names the manifest entries whose stamps this sync checked or took.
	fresh map[string]bool
	// restamped says that the plan took new stamps of unchanged folders, which the
	// manifest then records.
	restamped bool
}

// Plan compares the skills of src with what target folder dir holds and returns what a
// sync would do. Unless it is a dry run (Options.Disk), it creates the folder and takes its
// mutex, which it holds until Close, so that no other sync changes the folder between the
// plan and Apply; nothing else is written. Call Apply to carry the plan out, and then Close.
// It is Open followed by Folder.Plan.
func Plan(src fs.FS, skills []Skill, dir string, opts Options) (*Folder, error) {
	p, err := Open(dir, opts)
	if err != nil {
		return nil, err
	}
	if err := p.Plan(src, skills, opts.Hold); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// Open begins the plan of a sync into target folder dir with all that needs nothing of
// the source: unless it is a dry run, it creates the folder and takes its mutex; it reads the
// manifest and finds what each installed skill holds. A sync can so open its targets while it
// reads the source. Call Plan once, then Apply, and Close in any case.
func Open(dir string, opts Options) (*Folder, error) {
	if opts.Mode == "" {
		opts.Mode = Copy
	}
	if opts.Disk == nil {
		opts.Disk = realDisk{}
	}
	if opts.Mode == Symlink && !filepath.IsAbs(opts.LinkStore) {
		return nil, fmt.Errorf("%s: symlink mode needs an absolute folder for the linked copies", dir)
	}
	if dir == "" || filepath.Dir(dir) == dir && filepath.IsAbs(dir) {
		return nil, fmt.Errorf("target folder %q: skills need a folder of their own; name one", dir)
	}
	p := &Folder{Dir: dir, opts: opts}
	if err := p.open(); err != nil {
		p.Close()
		return nil, err
	}
	// The folder is listed while the manifest is read and the installed folders inspected.
	type listed struct {
		names map[string]bool
		err   error
	}
	listing := make(chan listed, 1)
	go func() {
		names, err := p.list()
		listing <- listed{names, err}
	}()
	wait := func() (map[string]bool, error) {
		l := <-listing
		return l.names, l.err
	}
	var err error
	if p.man, err = readManifest(p.root, dir); err != nil {
		_, _ = wait()
		p.Close()
		return nil, err
	}
	if p.listing, err = p.checkInstalled(wait); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// Plan fills p.Actions from the skills of src, leaving the skills named in hold as they are
// (see Options.Hold). The plan keeps a copy of skills: the caller may change its slice
// afterwards, such as to drop a skill the audit then refuses, and Apply still writes each
// skill's own content.
func (p *Folder) Plan(src fs.FS, skills []Skill, hold map[string]string) error {
	p.src, p.opts.Hold = src, hold
	return p.plan(slices.Clone(skills))
}

// open opens the target folder through the plan's Disk, which, unless it is a dry run,
// creates the folder first and then takes its mutex.
func (p *Folder) open() error {
	wait := p.opts.MutexWait
	if wait <= 0 {
		wait = DefaultMutexWait
	}
	var err error
	p.root, p.created, p.mutex, err = p.opts.Disk.open(p.Dir, wait)
	return err
}

// mkdirAll creates folder dir and its missing parents, and returns those it created,
// deepest first.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append(missing, d)
	}
	return missing, os.MkdirAll(dir, 0o755)
}

// Close releases the mutex and the target folder. When the plan was never applied, it
// removes the folders Plan created, so a sync stopped before writing leaves nothing.
func (p *Folder) Close() error {
	if p.root == nil {
		return nil
	}
	if p.check != nil {
		_ = p.check.close()
	}
	err := errors.Join(p.mutex.release(), p.root.Close())
	p.root, p.mutex, p.check = nil, nil, nil
	if !p.applied {
		for _, d := range p.created {
			_ = os.Remove(d)
		}
	}
	return err
}

// Changes returns the actions that change the folder: install, update and remove.
func (p *Folder) Changes() []Step {
	var out []Step
	for _, a := range p.Actions {
		if a.changes() {
			out = append(out, a)
		}
	}
	return out
}

// changes reports whether action a changes the folder.
func (a Step) changes() bool {
	return a.Action == ActionInstall || a.Action == ActionUpdate || a.Action == ActionRemove
}

// Source returns the source skill an install or update action writes.
func (a Step) Source() (Skill, bool) {
	if a.src == nil {
		return Skill{}, false
	}
	return *a.src, true
}
