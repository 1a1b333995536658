package targetdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// Disk is where the changes of a sync go. By default they go to the folders themselves; with
// DryRun a recording writer takes them down instead (see Folder.Recorded). Every step that
// writes asks the plan's Disk: opening the folder, which the real disk creates and guards
// with its mutex, writing skills and the manifest, and filling the link store. So the plan
// and apply code is the same for a sync and its dry run, and never asks which it is.
type Disk interface {
	// open opens target folder dir for a plan: the folder (nil where a dry run finds none),
	// the folders created for it, deepest first, and its mutex, held until the plan is
	// closed (nil where nothing is written). On an error it returns what it got so far, for
	// Close to undo.
	open(dir string, wait time.Duration) (*os.Root, []string, *folderMutex, error)
	// writer returns the Writer of p's folder and the function that ends the critical
	// section Apply writes in.
	writer(p *Folder) (Writer, func(), error)
	// store has write fill folder dir of the link store, for plan p.
	store(p *Folder, dir string, write func(Writer) error) error
}

// DryRun is the Disk of a dry run: the folder is planned and the plan applied as in a sync,
// and the changes are recorded, not made. Nothing is created, and no mutex is taken.
var DryRun Disk = dryRun{}

// realDisk writes the folders: the Disk of Options that name none.
type realDisk struct {
	// wrap, when set, wraps the writer of each target folder; for tests.
	wrap func(root *os.Root) Writer
}

func (realDisk) open(dir string, wait time.Duration) (*os.Root, []string, *folderMutex, error) {
	created, err := mkdirAll(dir)
	if err != nil {
		return nil, created, nil, fmt.Errorf("%s: %w", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, created, nil, fmt.Errorf("%s: %w", dir, err)
	}
	mutex, err := takeMutex(root, dir, wait)
	return root, created, mutex, err
}

// writer opens the folder's writer, creating the folder where it is missing, and enters the
// critical section that a signal waits for (see internal/interrupt).
func (d realDisk) writer(p *Folder) (Writer, func(), error) {
	if p.root == nil {
		root, err := makeRoot(p.Dir)
		if err != nil {
			return nil, nil, err
		}
		p.root = root
	}
	done, err := interrupt.Critical()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w before the sync wrote anything", p.Dir, err)
	}
	if d.wrap != nil {
		return d.wrap(p.root), done, nil
	}
	return NewRootWriter(p.root), done, nil
}

func (realDisk) store(_ *Folder, dir string, write func(Writer) error) error {
	root, err := makeRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return write(NewRootWriter(root))
}

// makeRoot creates folder dir where it is missing, and opens it.
func makeRoot(dir string) (*os.Root, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return os.OpenRoot(dir)
}

// openExisting opens folder dir; a nil root, and no error, when there is no such folder.
func openExisting(dir string) (*os.Root, error) {
	root, err := os.OpenRoot(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return root, nil
}

// dryRun records the changes of a sync in its plan.
type dryRun struct{}

func (dryRun) open(dir string, _ time.Duration) (*os.Root, []string, *folderMutex, error) {
	root, err := openExisting(dir)
	return root, nil, nil, err
}

func (dryRun) writer(p *Folder) (Writer, func(), error) {
	if p.changes == nil {
		p.changes = &recorder{}
	}
	return p.changes, func() {}, nil
}

// store records the copy that the link store would get, and writes nothing: a dry run
// reads no more of the source than it plans with.
func (dryRun) store(p *Folder, dir string, _ func(Writer) error) error {
	w, _, _ := dryRun{}.writer(p)
	return w.(*recorder).add("store", dir, "")
}

// Recorded returns the changes a dry run took down instead of making them, in the order they
// were asked for; those of skills written at once interleave. A sync that writes records none.
func (p *Folder) Recorded() []Change {
	if p.changes == nil {
		return nil
	}
	return p.changes.list()
}
