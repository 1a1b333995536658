package gitstore

import (
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// UpdateWorktree brings the index and the working tree from tree oldT to
// tree newT, for the paths under prefixes only (a prefix is a folder or a
// file, like "skills/pdf-tools"). It is a no-op for a bare repository or
// one in memory. Before it changes anything it checks that, under the
// prefixes, the index and the files on disk match oldT, and that no
// untracked file stands where newT puts one; otherwise it returns an error
// matching ErrDirty that names the files. It then writes changed files
// atomically, removes deleted ones and the folders they leave empty, and
// records stat data in the index so that `git status` stays clean. It
// never touches paths outside the prefixes and never writes through a
// symbolic link.
func (r *Repo) UpdateWorktree(oldT, newT Hash, prefixes []string) error {
	if r.worktree == "" {
		return nil
	}
	ps, err := cleanPrefixes(prefixes)
	if err != nil {
		return err
	}
	u := &wtUpdate{r: r, prefixes: ps}
	if u.old, err = r.filesUnder(oldT, ps); err != nil {
		return err
	}
	if u.new, err = r.filesUnder(newT, ps); err != nil {
		return err
	}
	return u.run()
}

// cleanPrefixes validates prefixes and drops those inside another.
func cleanPrefixes(prefixes []string) ([]string, error) {
	var out []string
	for _, p := range prefixes {
		parts, err := splitPath(p)
		if err != nil {
			return nil, err
		}
		if len(parts) == 0 {
			return nil, fmt.Errorf("worktree prefix %q names the whole tree; name the folders to update", p)
		}
		for _, name := range parts {
			if err := checkEntryName(name); err != nil {
				return nil, fmt.Errorf("worktree prefix %q: %w", p, err)
			}
		}
		out = append(out, p)
	}
	var kept []string
	for _, p := range out {
		if !underAny(p, out, true) {
			kept = append(kept, p)
		}
	}
	return kept, nil
}

// underAny reports whether p is one of prefixes or below one; strict
// excludes p itself.
func underAny(p string, prefixes []string, strict bool) bool {
	for _, q := range prefixes {
		if (q == p && !strict) || strings.HasPrefix(p, q+"/") {
			return true
		}
	}
	return false
}

// filesUnder lists the non-folder entries of tree below the prefixes, by
// slash path.
func (r *Repo) filesUnder(tree Hash, prefixes []string) (map[string]TreeEntry, error) {
	files := map[string]TreeEntry{}
	for _, p := range prefixes {
		e, ok, err := r.Objects().EntryAt(tree, p)
		if err != nil {
			return nil, err
		}
		if ok {
			if err := r.collectFiles(p, e, files, 0); err != nil {
				return nil, err
			}
		}
	}
	return files, nil
}

func (r *Repo) collectFiles(p string, e TreeEntry, files map[string]TreeEntry, depth int) error {
	if !e.isDir() {
		if len(files) >= MaxDirEntries {
			return fmt.Errorf("%s: more than %d files to check out; update fewer folders at once", p, MaxDirEntries)
		}
		files[p] = e
		return nil
	}
	if depth > maxDepth {
		return fmt.Errorf("%s: folders are nested deeper than %d levels", p, maxDepth)
	}
	entries, err := r.Objects().readTree(e.Hash)
	if err != nil {
		return err
	}
	for _, c := range entries {
		if err := checkEntryName(c.Name); err != nil {
			return fmt.Errorf("%s: %w; refusing to check it out", p, err)
		}
		if err := r.collectFiles(path.Join(p, c.Name), c, files, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// wtUpdate is one UpdateWorktree call.
type wtUpdate struct {
	r        *Repo
	prefixes []string
	old, new map[string]TreeEntry
	root     *os.Root
	li       *lockedIndex
	byPath   map[string]*index.Entry // stage-0 entries under the prefixes
	fileMode bool                    // core.fileMode: trust the execute bit
}

func (u *wtUpdate) run() error {
	root, err := os.OpenRoot(u.r.worktree)
	if err != nil {
		return fmt.Errorf("worktree: %w", err)
	}
	defer root.Close()
	u.root = root
	if u.li, err = u.r.lockIndex(); err != nil {
		return err
	}
	defer u.li.lock.release()
	cfg, err := u.r.repoConfig()
	if err != nil {
		return err
	}
	u.fileMode = true
	if v, ok := configValue(cfg, "core", "", "filemode"); ok {
		u.fileMode, _ = parseGitBool(v)
	}
	if err := u.check(); err != nil {
		return err
	}
	if err := u.apply(); err != nil {
		return err
	}
	u.li.changed = u.prefixes
	return u.li.commit()
}
