package gitstore

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestPeelCommit follows annotated tags to their commit, in the repository and in a push's
// quarantine, and says which ids are not commits or not there.
func TestPeelCommit(t *testing.T) {
	dir := gitRepoWithCommit(t)
	rev := func(r string) Hash { return plumbing.NewHash(strings.TrimSpace(gitRun(t, dir, "rev-parse", r))) }
	gitRun(t, dir, "tag", "-a", "-m", "one", "v1")
	gitRun(t, dir, "tag", "-a", "-m", "tag of a tag", "v1-again", "v1")
	gitRun(t, dir, "tag", "-a", "-m", "tree", "tree-tag", "HEAD^{tree}")
	objDir := filepath.Join(dir, ".git", "objects")
	inside := filepath.Join(objDir, "quarantine-test")
	if err := os.Mkdir(inside, 0o755); err != nil {
		t.Fatal(err)
	}
	commit := rev("HEAD")
	quarantined := writeTagInto(t, dir, inside, commit)
	missing := plumbing.NewHash(strings.Repeat("ab", 20))
	tests := []struct {
		name string
		id   Hash
		want Hash
		err  error
	}{
		{"commit", commit, commit, nil},
		{"annotated tag", rev("v1"), commit, nil},
		{"tag of a tag", rev("v1-again"), commit, nil},
		{"tag in the quarantine", quarantined, commit, nil},
		{"tag of a tree", rev("tree-tag"), ZeroHash, ErrNotCommit},
		{"tree", rev("HEAD^{tree}"), ZeroHash, ErrNotCommit},
		{"missing", missing, ZeroHash, plumbing.ErrObjectNotFound},
	}
	r, err := openEnv(dir, func(k string) string { return map[string]string{quarantineEnv: inside}[k] })
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Objects().PeelCommit(tc.id)
			if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Errorf("PeelCommit(%s) = %s, %v; want %s, %v", tc.id, got, err, tc.want, tc.err)
			}
		})
	}
}

// writeTagInto writes an annotated tag of commit as a loose object into objDir, as git does
// into a quarantine, and returns its id.
func writeTagInto(t *testing.T, repo, objDir string, commit Hash) Hash {
	t.Helper()
	body := fmt.Sprintf("object %s\ntype commit\ntag pushed\ntagger T <t@example.com> 1700000000 +0000\n\npushed\n", commit)
	cmd := exec.Command("git", "hash-object", "-t", "tag", "-w", "--stdin")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "GIT_OBJECT_DIRECTORY="+objDir)
	cmd.Stdin = strings.NewReader(body)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git hash-object: %v", err)
	}
	return plumbing.NewHash(strings.TrimSpace(string(out)))
}
