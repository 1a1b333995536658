package commitgraph

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain makes git hermetic: a throwaway home and global config.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "commitgraph-home-")
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
	cleanupFixtures()
	os.RemoveAll(home)
	os.Exit(code)
}

func hermeticEnv(home string) error {
	cfg := filepath.Join(home, ".gitconfig")
	content := "[user]\n\tname = Test User\n\temail = test@example.com\n" +
		"[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n[core]\n\tquotePath = false\n"
	if err := os.WriteFile(cfg, []byte(content), 0o644); err != nil {
		return err
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_TEST_COMMIT_GRAPH"} {
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

// gitOut runs git in dir with stdin and returns its standard output.
func gitOut(dir, stdin string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), nil
}

// git runs git in dir and fails the test on error.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := gitOut(dir, "", args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// gitIn runs git in dir with stdin and fails the test on error.
func gitIn(t testing.TB, dir, stdin string, args ...string) string {
	t.Helper()
	out, err := gitOut(dir, stdin, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
