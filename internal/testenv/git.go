package testenv

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Git runs git in dir, with main as the default branch of a new repository, and fails the
// test with git's output if it exits non-zero.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "init.defaultBranch=main"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// GitText runs git in dir and returns its standard output as it is.
func GitText(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out)
}

// GitIn runs git in dir with stdin as its standard input and returns its trimmed standard
// output.
func GitIn(t testing.TB, dir string, stdin []byte, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// CommitAll stages everything in the working tree of dir and commits it with message msg.
func CommitAll(t testing.TB, dir, msg string) {
	t.Helper()
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", msg)
}

// Trailers parses the trailers of commit rev with git interpret-trailers, as key to values.
func Trailers(t testing.TB, dir, rev string) map[string][]string {
	t.Helper()
	msg := GitIn(t, dir, nil, "log", "-1", "--format=%B", rev)
	out := GitIn(t, dir, []byte(msg+"\n"), "interpret-trailers", "--parse")
	ts := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			ts[k] = append(ts[k], v)
		}
	}
	return ts
}

// Fsck runs git fsck --strict on the repository in dir and fails unless it passes and git
// status finds the working tree clean.
func Fsck(t testing.TB, dir string) {
	t.Helper()
	if out, err := exec.Command("git", "-C", dir, "fsck", "--strict").CombinedOutput(); err != nil {
		t.Fatalf("git fsck --strict: %v\n%s", err, out)
	}
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain").CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Fatalf("git status not clean (%v):\n%s", err, out)
	}
}

// FsckStrict runs git fsck --strict on the repository in dir, which may be bare, and fails on
// a non-zero exit or on any report other than a dangling object.
func FsckStrict(t testing.TB, dir string) {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "fsck", "--strict").CombinedOutput()
	if err != nil {
		t.Fatalf("git fsck --strict: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line != "" && !strings.HasPrefix(line, "dangling ") {
			t.Fatalf("git fsck --strict reports:\n%s", out)
		}
	}
}

// CorruptObject overwrites the loose object rev names (such as HEAD:skills/a/SKILL.md) in the
// repository in dir with garbage, and returns the object's id and a function that restores it.
func CorruptObject(t testing.TB, dir, rev string) (string, func()) {
	t.Helper()
	id := strings.TrimSpace(GitText(t, dir, "rev-parse", rev))
	gitDir := strings.TrimSpace(GitText(t, dir, "rev-parse", "--absolute-git-dir"))
	file := filepath.Join(gitDir, "objects", id[:2], id[2:])
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return id, func() {
		if err := os.WriteFile(file, orig, 0o444); err != nil {
			t.Fatal(err)
		}
	}
}
