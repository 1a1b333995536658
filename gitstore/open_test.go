package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gitRepoWithCommit makes a repository with the git command line and
// one commit.
func gitRepoWithCommit(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "add", "README")
	gitRun(t, dir, "commit", "-q", "-m", "first")
	return dir
}

type openWant struct {
	Bare                        bool
	GitDir, CommonDir, Worktree string
}

func describeRepo(r *Repo) openWant {
	return openWant{r.Bare(), r.GitDir(), r.CommonDir(), r.WorktreeDir()}
}

func TestOpenFindsTheRepository(t *testing.T) {
	dir := gitRepoWithCommit(t)
	sub := filepath.Join(dir, "skills", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "bare.git")
	gitRun(t, dir, "clone", "-q", "--bare", dir, bare)
	linked := filepath.Join(t.TempDir(), "linked")
	gitRun(t, dir, "worktree", "add", "-q", "-b", "candidate/x", linked)
	dotGit := filepath.Join(dir, ".git")
	linkedGitDir := filepath.Join(dotGit, "worktrees", "linked")
	tests := map[string]struct {
		path string
		want openWant
	}{
		"worktree root":     {dir, openWant{false, dotGit, dotGit, dir}},
		"subfolder":         {sub, openWant{false, dotGit, dotGit, dir}},
		"file in worktree":  {filepath.Join(dir, "README"), openWant{false, dotGit, dotGit, dir}},
		".git folder":       {dotGit, openWant{false, dotGit, dotGit, dir}},
		"bare":              {bare, openWant{true, bare, bare, ""}},
		"linked worktree":   {linked, openWant{false, linkedGitDir, dotGit, linked}},
		"linked git folder": {linkedGitDir, openWant{false, linkedGitDir, dotGit, linked}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			r, err := Open(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if diff := cmp.Diff(tt.want, describeRepo(r)); diff != "" {
				t.Errorf("Open (-want +got):\n%s", diff)
			}
			if _, err := r.Refs().Get("refs/heads/main"); err != nil {
				t.Errorf("Ref(main): %v", err)
			}
		})
	}
}

func TestOpenLinkedWorktree(t *testing.T) {
	dir := gitRepoWithCommit(t)
	linked := filepath.Join(t.TempDir(), "linked")
	gitRun(t, dir, "worktree", "add", "-q", "-b", "candidate/x", linked)
	r, err := Open(linked)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if head, err := r.Refs().HeadBranch(); err != nil || head != "refs/heads/candidate/x" {
		t.Errorf("HeadBranch = %q, %v; want the linked worktree's branch", head, err)
	}
	main, err := r.Refs().Get("refs/heads/main")
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Objects().Commit(main)
	if err != nil {
		t.Fatal(err)
	}
	next := mustCommit(t, r, c.TreeHash, "from the linked worktree", main)
	if err := r.Updates().Update("refs/heads/candidate/x", next, main, "linked"); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(gitRun(t, dir, "rev-parse", "candidate/x")); got != next.String() {
		t.Errorf("main worktree sees candidate/x = %s, want %s", got, next)
	}
	if got := gitRun(t, linked, "status", "--porcelain"); got != "" {
		t.Errorf("git status in the linked worktree = %q", got)
	}
	if log := gitRun(t, linked, "reflog", "show", "--format=%gs", "HEAD"); !strings.HasPrefix(log, "linked\n") {
		t.Errorf("linked worktree HEAD reflog = %q", log)
	}
}

func TestOpenRefusesUnsupportedRepositories(t *testing.T) {
	tests := map[string]struct {
		setup   func(t *testing.T) string
		feature string
	}{
		"worktreeConfig": {func(t *testing.T) string {
			dir := gitRepoWithCommit(t)
			gitRun(t, dir, "sparse-checkout", "init", "--cone")
			return dir
		}, "extensions.worktreeConfig"},
		"sha256": {func(t *testing.T) string {
			dir := t.TempDir()
			gitRun(t, dir, "init", "-q", "--object-format=sha256")
			return dir
		}, "SHA-256"},
		"reftable": {func(t *testing.T) string {
			dir := gitRepoWithCommit(t)
			gitRun(t, dir, "config", "core.repositoryFormatVersion", "1")
			gitRun(t, dir, "config", "extensions.refStorage", "reftable")
			return dir
		}, "reftable"},
		"unknown extension": {func(t *testing.T) string {
			dir := gitRepoWithCommit(t)
			gitRun(t, dir, "config", "extensions.frobnicate", "true")
			return dir
		}, "extensions.frobnicate"},
		"format version 2": {func(t *testing.T) string {
			dir := gitRepoWithCommit(t)
			gitRun(t, dir, "config", "core.repositoryFormatVersion", "2")
			return dir
		}, "repository format version"},
		"index without checksum": {func(t *testing.T) string {
			dir := gitRepoWithCommit(t)
			path := filepath.Join(dir, ".git", "index")
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			copy(b[len(b)-20:], make([]byte, 20))
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		}, "index.skipHash"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			dir := tt.setup(t)
			r, err := Open(dir)
			if err == nil {
				r.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), tt.feature) || !strings.Contains(err.Error(), dir) {
				t.Errorf("Open error = %v; want ErrUnsupported naming %q and the path", err, tt.feature)
			}
		})
	}
}

func TestOpenNotARepository(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{empty, filepath.Join(dir, "missing")} {
		_, err := Open(p)
		if !errors.Is(err, ErrNotRepository) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "skillgit init") {
			t.Errorf("Open(%s) = %v; want ErrNotRepository naming the path and skillgit init", p, err)
		}
	}
}

func TestInit(t *testing.T) {
	nonEmpty := func(t *testing.T) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	tests := map[string]struct {
		path   func(t *testing.T) string
		opts   InitOptions
		head   string
		errSub string
	}{
		"new folder":          {func(t *testing.T) string { return filepath.Join(t.TempDir(), "new") }, InitOptions{}, "refs/heads/main", ""},
		"empty folder bare":   {func(t *testing.T) string { return t.TempDir() }, InitOptions{Bare: true, Branch: "trunk"}, "refs/heads/trunk", ""},
		"folder with files":   {nonEmpty, InitOptions{}, "refs/heads/main", ""},
		"bare in used folder": {nonEmpty, InitOptions{Bare: true}, "", "not empty"},
		"existing repository": {func(t *testing.T) string { return gitRepoWithCommit(t) }, InitOptions{}, "", "already"},
		"invalid branch":      {func(t *testing.T) string { return t.TempDir() }, InitOptions{Branch: "a..b"}, "", ".."},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			path := tt.path(t)
			r, err := Init(path, tt.opts)
			if tt.errSub != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errSub) {
					t.Fatalf("Init = %v, want an error containing %q", err, tt.errSub)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if head, err := r.Refs().HeadBranch(); err != nil || head != tt.head {
				t.Errorf("HeadBranch = %q, %v; want %q", head, err, tt.head)
			}
			if r.Bare() != tt.opts.Bare {
				t.Errorf("Bare = %v", r.Bare())
			}
			gitRun(t, r.GitDir(), "fsck", "--strict")
		})
	}
}
