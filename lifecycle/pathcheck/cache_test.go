package pathcheck

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// pathCacheRepo opens a repository whose index holds a folder the path policy passes and
// one it refuses (a file named CON), and returns their tree ids.
func pathCacheRepo(t *testing.T) (g *gitstore.Repo, good, bad gitstore.Hash) {
	t.Helper()
	testenv.Hermetic(t, nil)
	dir := t.TempDir()
	testenv.Git(t, dir, "init", "-q")
	testenv.WriteFiles(t, dir, map[string]string{
		"good/SKILL.md":      testenv.SkillMD("good"),
		"good/docs/notes.md": "notes\n",
		"bad/SKILL.md":       testenv.SkillMD("bad"),
		"bad/CON":            "device\n",
	})
	testenv.Git(t, dir, "add", "good", "bad")
	root := strings.TrimSpace(testenv.GitText(t, dir, "write-tree"))
	good = plumbing.NewHash(strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", root+":good")))
	bad = plumbing.NewHash(strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", root+":bad")))
	g, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g, good, bad
}

func TestPathCheckerRemembersPasses(t *testing.T) {
	g, good, bad := pathCacheRepo(t)
	c := New(g)
	if err := c.Check("skills/good", good); err != nil {
		t.Fatalf("good folder refused: %v", err)
	}
	want := c.Check("skills/bad", bad)
	if !errors.Is(want, ledger.ErrRefused) {
		t.Fatalf("folder with CON: got %v, want a refusal", want)
	}
	c.Save()

	again := New(g)
	if !again.has(pathPassKey("skills/good", good)) {
		t.Fatal("the pass of the good folder was not kept")
	}
	for _, k := range [][pathPassKeyLen]byte{pathPassKey("skills/bad", bad), pathPassKey("skills/other", good), pathPassKey("skills/good", bad)} {
		if again.has(k) {
			t.Fatal("the cache holds a pass that was never made")
		}
	}
	if err := again.Check("skills/bad", bad); err == nil || err.Error() != want.Error() {
		t.Fatalf("refused folder the second time: got %v, want %v", err, want)
	}
}

// TestPathCheckerTrustsOnlyItsBuild forges a pass for the refused folder: under the header of
// this build and policy version it is trusted (the cache is really consulted), under any
// other header, or in a damaged file, it is not.
func TestPathCheckerTrustsOnlyItsBuild(t *testing.T) {
	g, _, bad := pathCacheRepo(t)
	file := New(g).file
	key := pathPassKey("skills/bad", bad)
	forge := func(data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	forge(encodePathPasses([][]byte{key[:]}))
	if err := New(g).Check("skills/bad", bad); err != nil {
		t.Fatalf("a pass under this build's header was not used: %v", err)
	}
	other := []byte(pathPassMagic + "0 \"another build\"\n")
	for name, data := range map[string][]byte{
		"other build":  append(other, key[:]...),
		"torn":         encodePathPasses([][]byte{key[:], key[:7]}),
		"out of order": encodePathPasses([][]byte{key[:], key[:]}),
	} {
		forge(data)
		if err := New(g).Check("skills/bad", bad); !errors.Is(err, ledger.ErrRefused) {
			t.Errorf("%s: got %v, want the folder refused", name, err)
		}
	}
}

func TestPathCheckerSaveKeepsEarlierPasses(t *testing.T) {
	g, good, _ := pathCacheRepo(t)
	first := New(g)
	if err := first.Check("skills/good", good); err != nil {
		t.Fatal(err)
	}
	first.Save()
	second := New(g)
	if err := second.Check("skills/moved/good", good); err != nil {
		t.Fatal(err)
	}
	second.Save()
	third := New(g)
	for _, dir := range []string{"skills/good", "skills/moved/good"} {
		if !third.has(pathPassKey(dir, good)) {
			t.Errorf("pass of %s lost", dir)
		}
	}
}

// TestPathCheckerNoticesMissingFolder removes the tree of a folder whose pass is cached: the
// check reads it again and gives the error, as the repository is damaged.
func TestPathCheckerNoticesMissingFolder(t *testing.T) {
	g, good, _ := pathCacheRepo(t)
	c := New(g)
	if err := c.Check("skills/good", good); err != nil {
		t.Fatal(err)
	}
	c.Save()
	loose := filepath.Join(g.CommonDir(), "objects", good.String()[:2], good.String()[2:])
	if err := os.Remove(loose); err != nil {
		t.Fatal(err)
	}
	again, err := gitstore.Open(g.WorktreeDir())
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if err := New(again).Check("skills/good", good); err == nil || errors.Is(err, ledger.ErrRefused) {
		t.Fatalf("folder with its tree missing: got %v, want an error reading it", err)
	}
}
