package gitstore

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/internal/osfile"
)

// Ref is a ref and the id it points at.
type Ref struct {
	Name string
	Hash Hash
}

// RefUpdate is one ref a push moves: Old is zero for a new ref, New is zero for a deletion.
type RefUpdate struct {
	Ref      string
	Old, New Hash
}

// maxSymrefDepth bounds chains of symbolic refs, as git does.
const maxSymrefDepth = 5

// refValue is the content of one ref: an id or a symbolic target.
type refValue struct {
	hash   Hash
	target string
}

func parseHex(s string) (Hash, bool) {
	var h Hash
	if len(s) != 2*len(h) {
		return h, false
	}
	_, err := hex.Decode(h[:], []byte(s))
	return h, err == nil
}

// perWorktreeRef reports whether a ref lives in a worktree's own git
// directory rather than in the common one.
func perWorktreeRef(name string) bool {
	if name == "HEAD" {
		return true
	}
	for _, p := range []string{"refs/worktree/", "refs/bisect/", "refs/rewritten/"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func (r *Refs) refPath(name string) string {
	dir := r.commonDir
	if perWorktreeRef(name) {
		dir = r.gitDir
	}
	return filepath.Join(dir, filepath.FromSlash(name))
}

// Get returns the id that the full ref name ("refs/heads/main", or
// "HEAD") points at, following symbolic refs. It reads the loose ref,
// then packed-refs, and returns ErrRefNotFound when neither has it.
func (r *Refs) Get(name string) (Hash, error) {
	if name != "HEAD" {
		if err := CheckRefName(name); err != nil {
			return ZeroHash, err
		}
	}
	return r.resolveRef(name, 0)
}

func (r *Refs) resolveRef(name string, depth int) (Hash, error) {
	if depth > maxSymrefDepth {
		return ZeroHash, fmt.Errorf("%s: symbolic refs nest deeper than %d; repair them with `git symbolic-ref`", name, maxSymrefDepth)
	}
	v, found, err := r.readRef(name)
	if err != nil {
		return ZeroHash, err
	}
	if !found {
		return ZeroHash, fmt.Errorf("%s: %w", name, ErrRefNotFound)
	}
	if v.target != "" {
		return r.resolveRef(v.target, depth+1)
	}
	return v.hash, nil
}

// readRef reads a ref without following it, as this Repo sees it: a held move's value
// first.
func (r *Refs) readRef(name string) (refValue, bool, error) {
	if v, found, ok := r.held.value(name); ok {
		return v, found, nil
	}
	return r.storedRef(name)
}

// storedRef is readRef as stored, without held moves.
func (r *Refs) storedRef(name string) (refValue, bool, error) {
	if r.mem {
		return r.memReadRef(name)
	}
	b, found, err := readRefFile(r.refPath(name))
	if err != nil {
		return refValue{}, false, fmt.Errorf("%s: %w", name, err)
	}
	if found {
		v, err := parseRefFile(name, b)
		return v, err == nil, err
	}
	packed, err := r.packedRefs()
	if err != nil {
		return refValue{}, false, err
	}
	h, ok := packed[name]
	return refValue{hash: h}, ok, nil
}

// readRefFile reads a loose ref file. A missing file, or a folder in its
// place, is not found.
func readRefFile(path string) ([]byte, bool, error) {
	f, err := osfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.IsDir() {
		return nil, false, err
	}
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	return b, err == nil, err
}

// parseRefFile parses "<id>\n" or "ref: <target>\n".
func parseRefFile(name string, b []byte) (refValue, error) {
	s := string(bytes.TrimSpace(b))
	if target, ok := strings.CutPrefix(s, "ref:"); ok {
		target = strings.TrimSpace(target)
		if CheckRefName(target) != nil {
			return refValue{}, fmt.Errorf("%s: symbolic ref points at invalid name %q; repair it with `git symbolic-ref`", name, target)
		}
		return refValue{target: target}, nil
	}
	h, ok := parseHex(s)
	if !ok {
		return refValue{}, fmt.Errorf("%s: ref file is malformed (%.60q); repair it with `git update-ref`", name, s)
	}
	return refValue{hash: h}, nil
}

// List lists the refs whose full names start with prefix, loose and
// packed merged (a loose ref wins), symbolic refs resolved, sorted by name.
func (r *Refs) List(prefix string) ([]Ref, error) {
	var refs []Ref
	var err error
	if r.mem {
		refs, err = r.memRefs(prefix)
	} else {
		refs, err = r.diskRefs(prefix)
	}
	if err == nil {
		refs = r.held.names(refs, prefix)
	}
	slices.SortFunc(refs, func(a, b Ref) int { return strings.Compare(a.Name, b.Name) })
	return refs, err
}

func (r *Refs) diskRefs(prefix string) ([]Ref, error) {
	seen := map[string]bool{}
	var refs []Ref
	add := func(name string) {
		seen[name] = true
		if h, err := r.resolveRef(name, 0); err == nil {
			refs = append(refs, Ref{Name: name, Hash: h})
		}
	}
	if err := r.walkLooseRefs(prefix, add); err != nil {
		return nil, err
	}
	packed, err := r.packedRefs()
	if err != nil {
		return nil, err
	}
	for name := range packed {
		if strings.HasPrefix(name, prefix) && !seen[name] {
			add(name)
		}
	}
	return refs, nil
}

// walkLooseRefs calls fn with the name of every loose ref under prefix.
// Lock files and other names git would not accept are skipped.
func (r *Refs) walkLooseRefs(prefix string, fn func(name string)) error {
	start := "refs"
	if strings.HasPrefix(prefix, "refs/") {
		start = prefix[:strings.LastIndex(prefix, "/")]
	}
	root := filepath.Join(r.commonDir, filepath.FromSlash(start))
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(r.commonDir, p)
		name := filepath.ToSlash(rel)
		if err == nil && strings.HasPrefix(name, prefix) && CheckRefName(name) == nil {
			fn(name)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("listing refs under %s: %w", start, err)
	}
	return nil
}
