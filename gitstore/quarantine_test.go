package gitstore

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// pushedSkill is the file every pushed commit in these tests changes.
const pushedSkill = "skills/pushed/SKILL.md"

// runPreReceive is the pre-receive hook of TestOpenReadsQuarantinedPush:
// it reads the pushed commits as skillgit would and writes what it saw to
// report.
func runPreReceive(report string) int {
	out, err := preReceiveReport(os.Stdin)
	if err == nil {
		err = os.WriteFile(report, []byte(out), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pre-receive helper:", err)
		return 1
	}
	return 0
}

func preReceiveReport(stdin io.Reader) (string, error) {
	r, err := Open(".")
	if err != nil {
		return "", err
	}
	defer r.Close()
	plain, err := openEnv(".", func(string) string { return "" })
	if err != nil {
		return "", err
	}
	defer plain.Close()
	var b strings.Builder
	q := os.Getenv(quarantineEnv)
	loose, _ := listLoose(q)
	packs, _ := filepath.Glob(filepath.Join(q, "pack", "*.pack"))
	fmt.Fprintf(&b, "quarantine loose=%d packs=%d\n", len(loose), len(packs))
	sc := bufio.NewScanner(stdin)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			return "", fmt.Errorf("bad pre-receive line %q", sc.Text())
		}
		seen, err := describePushed(r, plumbing.NewHash(f[1]))
		if err != nil {
			return "", err
		}
		_, err = plain.Objects().Commit(plumbing.NewHash(f[1]))
		fmt.Fprintf(&b, "%s %s\nwithout quarantine: %v\n", f[2], seen, err)
	}
	return b.String(), sc.Err()
}

// describePushed reads commit h, its tree and the content of pushedSkill.
func describePushed(r *Repo, h Hash) (string, error) {
	c, err := r.Objects().Commit(h)
	if err != nil {
		return "", err
	}
	entries, err := r.Objects().ReadTree(c.TreeHash)
	if err != nil {
		return "", err
	}
	skill, err := fs.ReadFile(r.Objects().TreeFS(c.TreeHash), pushedSkill)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("commit %s tree %s entries %d message %q skill %q",
		h, c.TreeHash, len(entries), strings.TrimSpace(c.Message), skill), nil
}

func TestOpenReadsQuarantinedPush(t *testing.T) {
	remote := filepath.Join(t.TempDir(), "remote.git")
	gitRun(t, t.TempDir(), "init", "-q", "--bare", remote)
	if limit, err := gitErr(remote, "", "config", "receive.unpackLimit"); err == nil {
		t.Fatalf("receive.unpackLimit is set (%s); the test relies on git's default of 100", limit)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(t.TempDir(), "report")
	hook := fmt.Sprintf("#!/bin/sh\n%s='pre-receive %s' exec '%s'\n", helperEnv, report, exe)
	if err := os.WriteFile(filepath.Join(remote, "hooks", "pre-receive"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	gitRun(t, work, "init", "-q", "-b", "main")
	// go-git alone finds loose objects in a folder named like git's
	// quarantine (not the packs), so only a packed push shows, without the
	// quarantine, that the commit is not in the repository itself;
	// TestOpenReadsQuarantineInsideObjectsOnly covers loose objects.
	tests := []struct {
		name       string
		files      int
		quarantine string
	}{
		{"first push, loose", 1, "packs=0"},
		{"small push, loose", 1, "packs=0"},
		{"large push, packed", 150, "loose=0 packs=1"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{pushedSkill: fmt.Sprintf("push %d\n", i)}
			for n := range tc.files - 1 {
				files[fmt.Sprintf("skills/bulk-%d/f%03d.md", i, n)] = fmt.Sprintf("file %d of push %d\n", n, i)
			}
			writeFiles(t, work, files)
			gitRun(t, work, "add", "-A")
			gitRun(t, work, "commit", "-q", "-m", tc.name)
			commit := strings.TrimSpace(gitRun(t, work, "rev-parse", "HEAD"))
			tree := strings.TrimSpace(gitRun(t, work, "rev-parse", "HEAD^{tree}"))
			os.Remove(report)
			gitRun(t, work, "push", "-q", "file://"+remote, "HEAD:refs/heads/main")
			got := string(mustRead(t, report))
			want := fmt.Sprintf("refs/heads/main commit %s tree %s entries 1 message %q skill %q\n",
				commit, tree, tc.name, fmt.Sprintf("push %d\n", i))
			if !strings.Contains(got, want) {
				t.Errorf("the hook reported\n%s\nwant a line\n%s", got, want)
			}
			if tc.files > 1 && !strings.Contains(got, "without quarantine: commit "+commit+": object not found") {
				t.Errorf("the hook read the commit without the quarantine; the push was not quarantined:\n%s", got)
			}
			if !strings.Contains(got, tc.quarantine) || (tc.files == 1 && strings.Contains(got, "loose=0")) {
				t.Errorf("quarantine layout: got %q, want %q", strings.SplitN(got, "\n", 2)[0], tc.quarantine)
			}
		})
	}
}

func TestOpenReadsQuarantineInsideObjectsOnly(t *testing.T) {
	dir := gitRepoWithCommit(t)
	objDir := filepath.Join(dir, ".git", "objects")
	other := filepath.Join(gitRepoWithCommit(t), ".git", "objects")
	// Not named tmp_objdir-incoming-*, which go-git finds by itself.
	inside := filepath.Join(objDir, "quarantine-test")
	if err := os.Mkdir(inside, 0o755); err != nil {
		t.Fatal(err)
	}
	blob := hashObjectInto(t, dir, inside, "quarantined\n")
	otherBlob := hashObjectInto(t, dir, other, "elsewhere\n")
	link := filepath.Join(objDir, "quarantine-link")
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	relOther, err := filepath.Rel(objDir, other)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		readable   Hash
	}{
		{"inside", inside, blob},
		{"unset", "", ZeroHash},
		{"another repository", other, ZeroHash},
		{"dot-dot out of objects", objDir + string(filepath.Separator) + relOther, ZeroHash},
		{"symbolic link out of objects", link, ZeroHash},
		{"the objects folder itself", objDir, ZeroHash},
		{"missing", filepath.Join(objDir, "quarantine-gone"), ZeroHash},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{quarantineEnv: tc.path}
			r, err := openEnv(dir, func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for _, h := range []Hash{blob, otherBlob} {
				_, err := r.Objects().ReadBlob(h, 100)
				if readable := err == nil; readable != (h == tc.readable) {
					t.Errorf("ReadBlob(%s) error = %v; want readable only for the quarantined blob of a folder inside objects", h, err)
				}
				if h != tc.readable && !errors.Is(err, plumbing.ErrObjectNotFound) {
					t.Errorf("ReadBlob(%s) error = %v, want ErrObjectNotFound", h, err)
				}
			}
		})
	}
}

// hashObjectInto writes content as a loose blob into objDir, as git does
// into a quarantine, and returns its id.
func hashObjectInto(t *testing.T, repo, objDir, content string) Hash {
	t.Helper()
	cmd := exec.Command("git", "hash-object", "-w", "--stdin")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "GIT_OBJECT_DIRECTORY="+objDir)
	cmd.Stdin = strings.NewReader(content)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git hash-object: %v", err)
	}
	return plumbing.NewHash(strings.TrimSpace(string(out)))
}
