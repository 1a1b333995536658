package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// git runs git in dir with a fixed identity and no user configuration, and returns its
// output.
func git(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}

// folderVersions makes a repository whose main holds three versions of skills/ and returns
// cat-file --batch of those versions and the sum of their sizes.
func folderVersions(t *testing.T) (string, int64) {
	dir := t.TempDir()
	git(t, dir, "", "init", "-q", "-b", "main")
	for _, name := range []string{"alpha", "beta", "gamma"} {
		if err := os.MkdirAll(dir+"/skills/"+name, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir+"/skills/"+name+"/SKILL.md", []byte("---\nname: "+name+"\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, dir, "", "add", "-A")
		git(t, dir, "", "commit", "-q", "-m", name)
	}
	names := strings.ReplaceAll(git(t, dir, "", "rev-list", "--first-parent", "main"), "\n", ":skills\n")
	var total int64
	for _, n := range strings.Fields(names) {
		size, err := strconv.ParseInt(strings.TrimSpace(git(t, dir, "", "cat-file", "-s", n)), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		total += size
	}
	return git(t, dir, names, "cat-file", "--batch"), total
}

func TestHashBatchHashesAsGitDoes(t *testing.T) {
	batch, total := folderVersions(t)
	got, err := hashBatch(strings.NewReader(batch))
	if err != nil {
		t.Fatal(err)
	}
	if got.objects != 3 || got.bytes != total {
		t.Errorf("hashed %d objects of %d bytes, want 3 of %d", got.objects, got.bytes, total)
	}
}

func TestHashBatchRefuses(t *testing.T) {
	batch, _ := folderVersions(t)
	first := strings.IndexByte(batch, '\n') + 1
	// A byte of the first tree's content changed: the entry's mode "40000" becomes "40001".
	changed := []byte(batch)
	changed[first+4] = '1'
	tests := []struct {
		name, in, want string
	}{
		{"changed content", string(changed), "hashes to"},
		{"cut short", batch[:len(batch)-5], "cut short"},
		{"missing", "0123 missing\n", "no object named"},
		{"bad header", "abc tree\n", "is not"},
		{"bad size", strings.Replace(batch, " tree ", " tree -", 1), "size"},
		{"bad id", "zz" + batch[2:], "no object id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := hashBatch(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one that says %q", err, tt.want)
			}
		})
	}
}

func TestSummaryLine(t *testing.T) {
	if got := (summary{objects: 2, bytes: 10, took: 1500 * time.Microsecond}).String(); got != "2 10 0.002" {
		t.Errorf("summary line %q, want %q", got, "2 10 0.002")
	}
}
