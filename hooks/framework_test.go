package hooks_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestPreCommitFramework runs the skillgit-audit hook of .pre-commit-hooks.yaml through the real
// pre-commit framework: the framework clones a snapshot of this checkout, builds skillgit with
// `go install ./...` and runs the hook on a skill repository, from `pre-commit run` and from
// `git commit`.
func TestPreCommitFramework(t *testing.T) {
	if _, err := exec.LookPath("pre-commit"); err != nil {
		t.Fatal("pre-commit is not on PATH; this test runs the real pre-commit framework: " +
			"run bash scripts/test.sh, which installs it (apt-get install pre-commit)")
	}
	h := newHarness(t)
	hookRepo, rev := snapshotCheckout(t, h)

	repo := filepath.Join(h.dir, "skills-repo")
	h.must(h.dir, "skillgit", "init", "--no-hooks", repo)
	// language_version: system pins the Go on PATH, so the framework never downloads one.
	config := fmt.Sprintf("repos:\n- repo: %s\n  rev: %s\n  hooks:\n  - id: skillgit-audit\n    language_version: system\n", hookRepo, rev)
	testenv.WriteFiles(t, repo, map[string]string{".pre-commit-config.yaml": config})
	h.git(repo, "add", ".pre-commit-config.yaml")
	h.git(repo, "commit", "-q", "-m", "use the pre-commit framework")
	// The framework runs with the PATH the tests started with, without the skillgit built
	// above, so that the hook can only run the skillgit the framework built itself.
	preHome := filepath.Join(h.dir, "pre-commit-home")
	preEnv := []string{"PRE_COMMIT_HOME=" + preHome, "PATH=" + os.Getenv("PATH")}

	// A malicious skill is refused, by name, by `pre-commit run` and by `git commit`.
	testenv.WriteFiles(t, repo, map[string]string{"skills/evil/SKILL.md": evilSkill("evil")})
	h.git(repo, "add", "skills/evil")
	res := h.run(repo, "", preEnv, "pre-commit", "run")
	if res.code == 0 {
		t.Fatalf("pre-commit run passed a malicious skill:\n%s%s", res.stdout, res.stderr)
	}
	for _, want := range []string{"skillgit audit", "Failed", "- hook id: skillgit-audit", "- exit code: 3",
		"skillgit: commit refused: staged changes", "evil: skills/evil/SKILL.md:5 SG-EXE-005"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("pre-commit run output lacks %q:\n%s%s", want, res.stdout, res.stderr)
		}
	}
	built, _ := filepath.Glob(filepath.Join(preHome, "*", "golangenv-*", "bin", "skillgit"))
	if len(built) != 1 {
		t.Errorf("the framework's golang environment holds %d skillgit binaries, want 1: %v", len(built), built)
	}
	head := h.git(repo, "rev-parse", "HEAD")
	if res := h.run(repo, "", preEnv, "pre-commit", "install"); res.code != 0 {
		t.Fatalf("pre-commit install: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = h.run(repo, "", preEnv, "git", "commit", "-q", "-m", "add evil")
	if res.code == 0 {
		t.Fatalf("git commit through the pre-commit framework accepted a malicious skill:\n%s%s", res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout+res.stderr, "evil: skills/evil/SKILL.md:5 SG-EXE-005") {
		t.Errorf("git commit output does not name the skill and rule:\n%s%s", res.stdout, res.stderr)
	}
	if got := h.git(repo, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved from %s to %s although the hook refused", head, got)
	}

	// A benign skill passes both ways.
	h.git(repo, "rm", "-q", "-r", "--cached", "skills/evil")
	if err := os.RemoveAll(filepath.Join(repo, "skills", "evil")); err != nil {
		t.Fatal(err)
	}
	testenv.WriteFiles(t, repo, map[string]string{"skills/good/SKILL.md": goodSkill("good")})
	h.git(repo, "add", "skills/good")
	res = h.run(repo, "", preEnv, "pre-commit", "run")
	if res.code != 0 || !strings.Contains(res.stdout, "Passed") {
		t.Fatalf("pre-commit run on a benign skill: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = h.run(repo, "", preEnv, "git", "commit", "-q", "-m", "add good")
	if res.code != 0 {
		t.Fatalf("git commit of a benign skill: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got := h.git(repo, "log", "-1", "--format=%s"); got != "add good" {
		t.Errorf("last commit is %q, want %q", got, "add good")
	}

	// A new skill whose SKILL.md breaks the reference rules is refused too: the hook validates.
	testenv.WriteFiles(t, repo, map[string]string{"skills/bad-name/SKILL.md": goodSkill("other-name")})
	h.git(repo, "add", "skills/bad-name")
	res = h.run(repo, "", preEnv, "pre-commit", "run")
	if res.code == 0 || !strings.Contains(res.stdout, "skills/bad-name/SKILL.md") {
		t.Errorf("pre-commit run on a skill whose name is not its folder's: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	h.git(repo, "rm", "-q", "-r", "-f", "skills/bad-name")
	allFilesRun(t, h, repo, preEnv)
}

// allFilesRun checks `pre-commit run --all-files`, the usual CI invocation, on a repository
// whose index is clean: a malicious skill committed past the hooks fails it, by name, and
// once that skill is gone the tree passes.
func allFilesRun(t *testing.T, h *harness, repo string, preEnv []string) {
	t.Helper()
	testenv.WriteFiles(t, repo, map[string]string{"skills/sneaky/SKILL.md": evilSkill("sneaky"), "skills/sneaky/notes.md": "Notes.\n"})
	h.git(repo, "add", "skills/sneaky")
	h.git(repo, "commit", "-q", "--no-verify", "-m", "add sneaky past the hooks")
	res := h.run(repo, "", preEnv, "pre-commit", "run", "--all-files")
	if res.code == 0 {
		t.Fatalf("pre-commit run --all-files passed a committed malicious skill:\n%s%s", res.stdout, res.stderr)
	}
	for _, want := range []string{"Failed", "- exit code: 3", "sneaky: skills/sneaky/SKILL.md:5 SG-EXE-005"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("pre-commit run --all-files output lacks %q:\n%s%s", want, res.stdout, res.stderr)
		}
	}
	// A run over one file of the skill, as the framework passes it, audits the whole skill.
	res = h.run(repo, "", preEnv, "pre-commit", "run", "--files", "skills/sneaky/notes.md")
	if res.code == 0 || !strings.Contains(res.stdout, "SG-EXE-005") {
		t.Errorf("pre-commit run --files skills/sneaky/notes.md: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	h.git(repo, "rm", "-q", "-r", "skills/sneaky")
	h.git(repo, "commit", "-q", "--no-verify", "-m", "remove sneaky")
	res = h.run(repo, "", preEnv, "pre-commit", "run", "--all-files")
	if res.code != 0 || !strings.Contains(res.stdout, "Passed") {
		t.Errorf("pre-commit run --all-files on a benign tree: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// snapshotCheckout commits the files of this checkout as they are in the working tree, tracked
// and untracked but not ignored, into a new git repository, and returns its folder and commit.
// The pre-commit framework clones a hook repository at a commit; a snapshot lets it build the
// code under test, including changes not yet committed.
func snapshotCheckout(t *testing.T, h *harness) (string, string) {
	t.Helper()
	root := moduleRoot(t)
	dst := filepath.Join(h.dir, "skillgit-src")
	list := h.must(root, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	n := 0
	for _, name := range strings.Split(list, "\x00") {
		if name == "" {
			continue
		}
		copied, err := copyEntry(filepath.Join(root, name), filepath.Join(dst, name))
		if err != nil {
			t.Fatal(err)
		}
		if copied {
			n++
		}
	}
	if _, err := os.Stat(filepath.Join(dst, ".pre-commit-hooks.yaml")); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml is not in the checkout (%d files copied): %v", n, err)
	}
	h.git(dst, "init", "-q")
	h.git(dst, "add", "-A")
	h.git(dst, "commit", "-q", "--no-verify", "-m", "snapshot of the checkout under test")
	return dst, h.git(dst, "rev-parse", "HEAD")
}

// copyEntry copies the file or symbolic link src to dst, keeping the executable bit; a file
// the index lists but the working tree no longer has is not copied.
func copyEntry(src, dst string) (bool, error) {
	fi, err := os.Lstat(src)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return false, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return false, err
		}
		return true, os.Symlink(target, dst)
	case !fi.Mode().IsRegular():
		return false, nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return false, err
	}
	return true, os.WriteFile(dst, b, fi.Mode().Perm()|0o600)
}
