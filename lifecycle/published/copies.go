package published

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/interrupt"
)

// Bounds on one published copy; a single file is bounded by gitstore.MaxFileSize.
const (
	maxCopyEntries = 100_000
	maxCopyBytes   = 512 << 20
)

// ErrCopyTooLarge reports a published skill folder over the bounds of a published copy.
var ErrCopyTooLarge = errors.New("too large to copy for agents")

// Copies hands out the folders where agents read published skills: read-only copies of the
// skills' folders on the channel, made once per folder tree id under the git dir
// (skillgit/published/TREE/NAME). They are never the working tree, which may hold unpublished
// edits or another branch. Call Prune when done, to remove the copies no longer published.
type Copies struct {
	c    *Channel
	made bool
}

// Copies returns the published copies of the channel's skills.
func (c *Channel) Copies() *Copies { return &Copies{c: c} }

// Dir returns the folder of the copy of skill s, making it if needed. A repository held in
// memory has no git dir; there it returns BaseDir, the branch:path of the folder.
func (pc *Copies) Dir(s *catalog.Skill) (string, error) {
	c := pc.c
	if c.git.CommonDir() == "" {
		return c.BaseDir(s), nil
	}
	fsys, tree, err := c.SkillFS(s)
	if err != nil {
		return "", WithObjectHint(err)
	}
	base := path.Base(s.Dir)
	if err := catalog.CheckName(base); err != nil {
		return "", fmt.Errorf("%s: folder %w", s.Name, err)
	}
	dir, made, err := publishedCopy(c.copiesRoot(), fsys, tree, base)
	if err != nil {
		return "", fmt.Errorf("%s: the published folder cannot be copied for agents: %w", s.Name, err)
	}
	pc.made = pc.made || made
	return dir, nil
}

// Location is the SKILL.md of Dir, as the prompt block shows it to agents.
func (pc *Copies) Location(s *catalog.Skill) (string, error) {
	if pc.c.git.CommonDir() == "" {
		return pc.c.Location(s), nil
	}
	dir, err := pc.Dir(s)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, catalog.FileName), nil
}

// Prune removes, when this value made a copy, the copies of folders no longer published but
// the newest few, and what interrupted copies left. It is best effort.
func (pc *Copies) Prune() {
	if pc.made {
		pc.c.prune()
	}
}

// copiesRoot holds the published copies.
func (c *Channel) copiesRoot() string {
	return filepath.Join(c.git.CommonDir(), "skillgit", "published")
}

// publishedCopy returns the copy of folder tree named base under root, and whether it made it
// now. A copy is complete once it has its name: it is built in a temporary folder beside it
// and renamed.
func publishedCopy(root string, fsys fs.FS, tree gitstore.Hash, base string) (string, bool, error) {
	// The same tree may be published under two folder names; the second gets a slot of its own.
	for _, slot := range []string{tree.String(), tree.String() + "-" + base} {
		final := filepath.Join(root, slot)
		dir := filepath.Join(final, base)
		switch holds, exists := slotHolds(final, base); {
		case holds:
			return dir, false, nil
		case exists:
			continue
		}
		made, err := materialise(fsys, root, final, base)
		if err != nil {
			return "", false, err
		}
		if holds, _ := slotHolds(final, base); holds {
			return dir, made, nil
		}
	}
	return "", false, fmt.Errorf("%s: no free slot under %s", base, root)
}

// slotHolds reports whether slot folder final exists, and whether it holds the folder base.
// A slot appears whole, by rename, so its existence is looked at first: looking for base
// first would miss a copy that another process renames into place in between, and take its
// slot for one that holds another folder.
func slotHolds(final, base string) (holds, exists bool) {
	if _, err := os.Lstat(final); err != nil {
		return false, false
	}
	st, err := os.Lstat(filepath.Join(final, base))
	return err == nil && st.IsDir(), true
}

// materialise builds folder base of fsys, its files read-only, in a temporary folder of root and renames it
// to final; it reports false when another process put final there first.
func materialise(fsys fs.FS, root, final, base string) (bool, error) {
	if err := catalog.CheckFolder(fsys, "."); err != nil {
		return false, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return false, err
	}
	tmp, untrack, err := interrupt.MkdirTemp(root, ".tmp-")
	if err != nil {
		return false, err
	}
	defer untrack()
	defer removeCopy(tmp)
	if tempMade != nil {
		tempMade(tmp)
	}
	if err := os.Mkdir(filepath.Join(tmp, base), 0o755); err != nil {
		return false, err
	}
	if err := copyPublished(fsys, filepath.Join(tmp, base)); err != nil {
		return false, err
	}
	if err := os.Rename(tmp, final); err != nil {
		if _, serr := os.Lstat(final); serr == nil {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// copyPublished writes every file, folder and inside link of fsys into dst, files read-only
// (0444, or 0555 when executable). Folders stay writable, so that removing the repository
// with rm -rf works as usual. Writes go through an os.Root, so nothing can land outside dst;
// a link that points outside the skill is left out.
func copyPublished(fsys fs.FS, dst string) error {
	rt, err := os.OpenRoot(dst)
	if err != nil {
		return err
	}
	defer rt.Close()
	return fs.WalkDir(fsys, ".", (&copier{fsys: fsys, rt: rt}).visit)
}

// copier copies one published folder and counts what it wrote.
type copier struct {
	fsys    fs.FS
	rt      *os.Root
	entries int
	bytes   int64
}

func (c *copier) visit(p string, d fs.DirEntry, err error) error {
	if err != nil {
		return err
	}
	if c.entries++; c.entries > maxCopyEntries {
		return fmt.Errorf("%w: more than %d files and folders", ErrCopyTooLarge, maxCopyEntries)
	}
	switch t := d.Type(); {
	case p == ".":
		return nil
	case d.IsDir():
		return c.rt.Mkdir(p, 0o755)
	case t&fs.ModeSymlink != 0:
		return c.link(p)
	case t.IsRegular():
		return c.file(p, d)
	}
	return nil
}

// link copies a symbolic link whose target stays inside the skill; others are left out.
func (c *copier) link(p string) error {
	target, err := fs.ReadLink(c.fsys, p)
	if err != nil {
		return err
	}
	if path.IsAbs(target) || strings.Contains(target, "\\") || !fs.ValidPath(path.Join(path.Dir(p), target)) {
		return nil
	}
	return c.rt.Symlink(target, p)
}

func (c *copier) file(p string, d fs.DirEntry) error {
	st, err := d.Info()
	if err != nil {
		return err
	}
	if st.Size() > gitstore.MaxFileSize {
		return fmt.Errorf("%w: %s is over the %d MiB limit of one file", ErrCopyTooLarge, p, gitstore.MaxFileSize>>20)
	}
	if c.bytes += st.Size(); c.bytes > maxCopyBytes {
		return fmt.Errorf("%w: more than %d MiB", ErrCopyTooLarge, maxCopyBytes>>20)
	}
	src, err := c.fsys.Open(p)
	if err != nil {
		return err
	}
	defer src.Close()
	perm := fs.FileMode(0o444)
	if st.Mode()&0o111 != 0 {
		perm = 0o555
	}
	dst, err := c.rt.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, io.LimitReader(src, st.Size())); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// tempMade, when a test sets it, is called with the path of each temporary folder this
// package makes, just after it is made and registered.
var tempMade func(path string)

// removeCopy removes a published copy; its files are read-only, its folders are not.
func removeCopy(dir string) { os.RemoveAll(dir) }

// keepStale is how many published copies that no published skill uses any more are kept, the
// newest ones, for agents that may still be reading them.
const keepStale = 3

// staleTemp is how old a temporary folder of an interrupted copy must be to be removed.
const staleTemp = time.Hour

// prune removes the published copies that no skill on the channel uses, but the newest few,
// and temporary folders that an interrupted copy left. It is best effort.
func (c *Channel) prune() {
	root := c.copiesRoot()
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	inUse, err := c.folderTrees()
	if err != nil {
		return
	}
	var stale []fs.FileInfo
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.IsDir() {
			continue
		}
		name := e.Name()
		tree, _, _ := strings.Cut(name, "-")
		switch {
		case strings.HasPrefix(name, ".tmp-"):
			if time.Since(info.ModTime()) > staleTemp {
				removeCopy(filepath.Join(root, name))
			}
		case !inUse[tree]:
			stale = append(stale, info)
		}
	}
	slices.SortFunc(stale, func(a, b fs.FileInfo) int { return b.ModTime().Compare(a.ModTime()) })
	for _, info := range stale[min(len(stale), keepStale):] {
		removeCopy(filepath.Join(root, info.Name()))
	}
}

// folderTrees are the tree ids of the published skills' folders.
func (c *Channel) folderTrees() (map[string]bool, error) {
	res, err := c.List()
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(res.Skills))
	for _, s := range res.Skills {
		e, ok, err := c.git.Objects().EntryAt(c.v.Tree, s.Dir)
		if err != nil {
			return nil, err
		}
		if ok {
			out[e.Hash.String()] = true
		}
	}
	return out, nil
}
