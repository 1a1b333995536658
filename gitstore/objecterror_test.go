package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestObjectErrorDamagedBlob checks that a blob whose loose object is damaged or missing
// fails every read with an *ObjectError naming it, through ReadBlob and through a TreeFS, and
// that a missing one still matches plumbing.ErrObjectNotFound.
func TestObjectErrorDamagedBlob(t *testing.T) {
	damage := map[string]func(file string) error{
		"garbage":   func(f string) error { return os.WriteFile(f, []byte("garbage\n"), 0o644) },
		"truncated": truncateLoose,
		"missing":   os.Remove,
	}
	for name, fn := range damage {
		t.Run(name, func(t *testing.T) {
			r := diskRepo(false)(t)
			blob := mustBlob(t, r, "---\nname: a\ndescription: d\n---\nbody text long enough\n")
			tree := mustTree(t, r, TreeEntry{Name: "SKILL.md", Mode: 0o100644, Hash: blob})
			file := loosePath(r.CommonDir()+"/objects", blob)
			if err := os.Chmod(file, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := fn(file); err != nil {
				t.Fatal(err)
			}
			_, err := r.Objects().ReadBlob(blob, MaxFileSize)
			checkObjectError(t, "ReadBlob", err, blob)
			_, err = fs.ReadFile(r.Objects().TreeFS(tree), "SKILL.md")
			checkObjectError(t, "TreeFS ReadFile", err, blob)
			if name == "missing" && !errors.Is(err, plumbing.ErrObjectNotFound) {
				t.Errorf("a missing object's error %v does not match ErrObjectNotFound", err)
			}
		})
	}
}

func truncateLoose(file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	return os.WriteFile(file, data[:len(data)/2], 0o644)
}

func checkObjectError(t *testing.T, op string, err error, want Hash) {
	t.Helper()
	var oe *ObjectError
	if !errors.As(err, &oe) || oe.ID != want || oe.ObjectID() != want.String() {
		t.Errorf("%s: %v, want an *ObjectError for %s", op, err, want)
	}
}

// TestWithFsckHint checks that only an unreadable object's error gains the advice to run
// `git fsck`, and only once.
func TestWithFsckHint(t *testing.T) {
	oe := fmt.Errorf("skills/a: %w", &ObjectError{ID: ZeroHash, Err: errors.New("blob 00: not found")})
	hinted := WithFsckHint(oe)
	if !IsObjectError(hinted) || !strings.Contains(hinted.Error(), "run `git fsck`") {
		t.Errorf("WithFsckHint(%v) = %v, want the object error with the advice", oe, hinted)
	}
	if again := WithFsckHint(hinted); again.Error() != hinted.Error() {
		t.Errorf("WithFsckHint twice = %v, want the advice once", again)
	}
	other := errors.New("skills/a: permission denied")
	if IsObjectError(other) || WithFsckHint(other) != other {
		t.Errorf("WithFsckHint(%v) changed an error that is not about an object", other)
	}
	if WithFsckHint(nil) != nil {
		t.Error("WithFsckHint(nil) is not nil")
	}
}

// TestFirstMissingObject checks that FirstMissingObject finds a blob missing from a tree below
// the folder, and a missing tree, naming the object, while leaving damage inside a stored
// blob to its reader, and that it finds nothing in a whole tree.
func TestFirstMissingObject(t *testing.T) {
	r := diskRepo(false)(t)
	blob := mustBlob(t, r, "---\nname: a\ndescription: d\n---\nbody text long enough\n")
	other := mustBlob(t, r, "#!/bin/sh\necho hi\n")
	scripts := mustTree(t, r, TreeEntry{Name: "run.sh", Mode: 0o100755, Hash: other})
	tree := mustTree(t, r, TreeEntry{Name: "SKILL.md", Mode: 0o100644, Hash: blob}, TreeEntry{Name: "scripts", Mode: 0o040000, Hash: scripts})
	fsys := r.Objects().TreeFS(tree)
	if err := FirstMissingObject(fsys, "."); err != nil {
		t.Fatalf("FirstMissingObject of a whole tree: %v", err)
	}
	file := loosePath(r.CommonDir()+"/objects", other)
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := FirstMissingObject(fsys, "."); err != nil {
		t.Errorf("FirstMissingObject read a stored blob's bytes: %v", err)
	}
	if err := FirstObjectError(fsys, "."); err == nil {
		t.Error("FirstObjectError missed a damaged blob")
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	err := FirstMissingObject(fsys, ".")
	checkObjectError(t, "missing blob", err, other)
	if !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Errorf("missing blob: %v does not match ErrObjectNotFound", err)
	}
	// A tree missing below the folder, seen by a repository that has not read it yet.
	if err := os.Remove(loosePath(r.CommonDir()+"/objects", scripts)); err != nil {
		t.Fatal(err)
	}
	fresh, err := Open(r.CommonDir())
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	checkObjectError(t, "missing tree", FirstMissingObject(fresh.Objects().TreeFS(tree), "."), scripts)
}
