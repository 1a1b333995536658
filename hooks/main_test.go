package hooks

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain makes every test hermetic: git and this package read a throwaway home folder
// and global config, never the user's.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "hooks-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := 1
	if err := hermeticEnv(home); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(home)
	os.Exit(code)
}

func hermeticEnv(home string) error {
	cfg := filepath.Join(home, ".gitconfig")
	content := "[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"
	if err := os.WriteFile(cfg, []byte(content), 0o644); err != nil {
		return err
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
		"GIT_QUARANTINE_PATH", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "SKILLGIT_SKIP_SECURITY_AUDIT"} {
		os.Unsetenv(k)
	}
	env := map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"GIT_CONFIG_GLOBAL": cfg, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C",
	}
	for k, v := range env {
		if err := os.Setenv(k, v); err != nil {
			return err
		}
	}
	return nil
}

// git runs git in dir and returns its standard output; it fails the test on error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitErr(dir, nil, args...)
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// gitErr runs git in dir with extra environment variables.
func gitErr(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%v: %s", err, stderr.String())
	}
	return stdout.String(), nil
}

// newRepo makes a git repository with one commit and returns its folder.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	git(t, "", "init", "-q", dir)
	writeFile(t, filepath.Join(dir, "README.md"), "hello\n", 0o644)
	git(t, dir, "add", "README.md")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fakeSkillgit writes a stand-in for skillgit that appends its arguments to log and, when
// stdinLog is not empty, copies its standard input there; it exits with $FAKE_STATUS.
func fakeSkillgit(t *testing.T, log, stdinLog string) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "fake-skillgit")
	script := fmt.Sprintf("#!/bin/sh\necho \"skillgit $*\" >>'%s'\n", log)
	if stdinLog != "" {
		script += fmt.Sprintf("cat >>'%s'\n", stdinLog)
	}
	script += "exit ${FAKE_STATUS:-0}\n"
	writeFile(t, exe, script, 0o755)
	return exe
}

// states returns "name=state" for each hook of rep.
func states(rep *Report) string {
	var out []string
	for _, h := range rep.Hooks {
		out = append(out, h.Name+"="+string(h.State))
	}
	return strings.Join(out, " ")
}

// changes returns "name=change" for each hook of rep.
func changes(rep *Report) string {
	var out []string
	for _, h := range rep.Hooks {
		out = append(out, h.Name+"="+string(h.Change))
	}
	return strings.Join(out, " ")
}

func mustInstall(t *testing.T, o Options) *Report {
	t.Helper()
	rep, err := Install(o)
	if err != nil {
		t.Fatalf("Install: %v", err)
	}
	return rep
}

func mustStatus(t *testing.T, o Options) *Report {
	t.Helper()
	rep, err := Status(o)
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	return rep
}

func mustUninstall(t *testing.T, o Options) *Report {
	t.Helper()
	rep, err := Uninstall(o)
	if err != nil {
		t.Fatalf("Uninstall: %v", err)
	}
	return rep
}

// listDir returns the names in dir, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}
