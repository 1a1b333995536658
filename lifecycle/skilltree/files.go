package skilltree

import (
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// FileChange is one file that a candidate adds, modifies or deletes.
type FileChange struct {
	Path   string `json:"path"`
	Status string `json:"status"`
}

// folderFiles lists and diffs the files of folder p between two trees (zero for none).
func folderFiles(g *gitstore.Repo, p string, from, to gitstore.Hash) ([]FileChange, string, error) {
	a, err := TreeObject(g, from)
	if err != nil {
		return nil, "", err
	}
	b, err := TreeObject(g, to)
	if err != nil {
		return nil, "", err
	}
	changes, err := object.DiffTree(a, b)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", p, err)
	}
	files := make([]FileChange, 0, len(changes))
	for _, ch := range changes {
		files = append(files, fileChange(p, ch))
	}
	patch, err := changes.Patch()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", p, err)
	}
	return files, prefixPatch(patch.String(), p), nil
}

func fileChange(p string, ch *object.Change) FileChange {
	switch {
	case ch.From.Name == "":
		return FileChange{Path: path.Join(p, ch.To.Name), Status: "added"}
	case ch.To.Name == "":
		return FileChange{Path: path.Join(p, ch.From.Name), Status: "deleted"}
	}
	return FileChange{Path: path.Join(p, ch.To.Name), Status: "modified"}
}

// FileDiff lists the files of one change, a folder or a single policy file (diffed as the one
// entry of its folder), and renders their unified diff with repository paths.
func FileDiff(g *gitstore.Repo, f Change) ([]FileChange, string, error) {
	if f.Mode == 0 {
		return folderFiles(g, f.Path, f.Base, f.Head)
	}
	from, err := oneFileTree(g, path.Base(f.Path), f.Mode, f.Base)
	if err != nil {
		return nil, "", err
	}
	to, err := oneFileTree(g, path.Base(f.Path), f.Mode, f.Head)
	if err != nil {
		return nil, "", err
	}
	return folderFiles(g, parentDir(f.Path), from, to)
}

// oneFileTree is a tree holding only blob h as name; zero when h is.
func oneFileTree(g *gitstore.Repo, name string, mode filemode.FileMode, h gitstore.Hash) (gitstore.Hash, error) {
	if h.IsZero() {
		return gitstore.ZeroHash, nil
	}
	return g.Writes().WriteTree([]gitstore.TreeEntry{{Name: name, Mode: mode, Hash: h}})
}

// prefixPatch turns the folder-relative file names of a patch into repository paths.
func prefixPatch(patch, p string) string {
	if p == "" {
		return patch
	}
	lines := strings.SplitAfter(patch, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "diff --git a/"):
			l = strings.Replace(l, " a/", " a/"+p+"/", 1)
			lines[i] = strings.Replace(l, " b/", " b/"+p+"/", 1)
		case strings.HasPrefix(l, "--- a/"), strings.HasPrefix(l, "+++ b/"):
			lines[i] = l[:6] + p + "/" + l[6:]
		}
	}
	return strings.Join(lines, "")
}

// parentDir is the folder holding p, "" for a path at the root.
func parentDir(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}
