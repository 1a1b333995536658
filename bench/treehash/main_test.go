package main

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/testenv"
)

// folderVersions makes a repository whose main holds three versions of skills/ and returns
// cat-file --batch of those versions and the sum of their sizes.
func folderVersions(t *testing.T) (string, int64) {
	testenv.Hermetic(t, nil)
	dir := t.TempDir()
	testenv.Git(t, dir, "init", "-q")
	for _, name := range []string{"alpha", "beta", "gamma"} {
		testenv.WriteFiles(t, dir, map[string]string{"skills/" + name + "/SKILL.md": testenv.SkillMD(name)})
		testenv.CommitAll(t, dir, name)
	}
	names := strings.ReplaceAll(testenv.GitText(t, dir, "rev-list", "--first-parent", "main"), "\n", ":skills\n")
	var total int64
	for _, n := range strings.Fields(testenv.GitIn(t, dir, []byte(names), "cat-file", "--batch-check=%(objectsize)")) {
		size, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		total += size
	}
	// The stream is kept byte for byte: GitIn trims, which would cut the last object short.
	cmd := exec.Command("git", "-C", dir, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(names)
	batch, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file --batch: %v", err)
	}
	return string(batch), total
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
