package published

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
)

func TestPublishedDir(t *testing.T) {
	dir := profileRepo(t, nil)
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", "an unpublished edit")})
	r := channel(t, dir)
	s := mustFind(t, dir, "alpha")
	pc := r.Copies()
	got, err := pc.Dir(s)
	if err != nil {
		t.Fatal(err)
	}
	e, _, err := r.git.Objects().EntryAt(r.v.Tree, "skills/alpha")
	if err != nil {
		t.Fatal(err)
	}
	tree := e.Hash
	want := filepath.Join(r.git.CommonDir(), "skillgit", "published", tree.String(), "alpha")
	if got != want {
		t.Fatalf("PublishedDir = %s, want %s", got, want)
	}
	data, err := os.ReadFile(filepath.Join(got, catalog.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if published, _ := r.Content(s); string(data) != string(published) || strings.Contains(string(data), "unpublished") {
		t.Errorf("copy holds %q, want the published %q", data, published)
	}
	if st, _ := os.Stat(filepath.Join(got, catalog.FileName)); st.Mode().Perm() != 0o444 {
		t.Errorf("SKILL.md mode %v, want read-only", st.Mode().Perm())
	}
	loc, err := pc.Location(s)
	if err != nil || loc != filepath.Join(want, catalog.FileName) {
		t.Errorf("PublishedLocation = %s, %v", loc, err)
	}
	fsys, h, _ := r.SkillFS(s)
	if again, made, err := publishedCopy(r.copiesRoot(), fsys, h, "alpha"); err != nil || made || again != want {
		t.Errorf("second copy = %s, made %v, %v; want the first, not made again", again, made, err)
	}
}

func TestPublishedDirLinks(t *testing.T) {
	dir := profileRepo(t, nil)
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/scripts/run.sh": "echo hi\n"})
	skill := filepath.Join(dir, "skills", "alpha")
	for target, name := range map[string]string{"scripts/run.sh": "inside", "../../.skillgit.yaml": "up", "/etc/passwd": "abs"} {
		if err := os.Symlink(target, filepath.Join(skill, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(skill, "scripts", "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	testenv.CommitAll(t, dir, "links")
	r := channel(t, dir)
	got, err := r.Copies().Dir(mustFind(t, dir, "alpha"))
	if err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(filepath.Join(got, "inside")); err != nil || target != "scripts/run.sh" {
		t.Errorf("inside link = %q, %v", target, err)
	}
	for _, name := range []string{"up", "abs"} {
		if _, err := os.Lstat(filepath.Join(got, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: a link out of the skill was copied (%v)", name, err)
		}
	}
	if st, _ := os.Stat(filepath.Join(got, "scripts", "run.sh")); st.Mode().Perm() != 0o555 {
		t.Errorf("run.sh mode %v, want 0555", st.Mode().Perm())
	}
}

func TestPublishedDirRefusesUnsafeNames(t *testing.T) {
	dir := profileRepo(t, nil)
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/NUL.txt": "x"})
	testenv.CommitAll(t, dir, "device name")
	r := channel(t, dir)
	if _, err := r.Copies().Dir(mustFind(t, dir, "alpha")); !errors.Is(err, catalog.ErrUnsafePath) {
		t.Fatalf("PublishedDir = %v, want a path refused", err)
	}
	entries, _ := os.ReadDir(r.copiesRoot())
	if len(entries) != 0 {
		t.Errorf("left behind %v", entries)
	}
}

func TestPrunePublished(t *testing.T) {
	dir := profileRepo(t, nil)
	r := channel(t, dir)
	inUse, err := r.Copies().Dir(mustFind(t, dir, "alpha"))
	if err != nil {
		t.Fatal(err)
	}
	root := r.copiesRoot()
	old := time.Now().Add(-2 * time.Hour)
	stale := []string{"1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222-x",
		"3333333333333333333333333333333333333333", "4444444444444444444444444444444444444444", ".tmp-old"}
	for i, name := range stale {
		p := filepath.Join(root, name, "x")
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "f"), nil, 0o444); err != nil {
			t.Fatal(err)
		}
		when := old.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(filepath.Join(root, name), when, when); err != nil {
			t.Fatal(err)
		}
	}
	r.prune()
	for name, kept := range map[string]bool{stale[0]: false, stale[1]: true, stale[2]: true, stale[3]: true, stale[4]: false,
		filepath.Base(filepath.Dir(inUse)): true} {
		if _, err := os.Stat(filepath.Join(root, name)); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", name, err == nil, kept)
		}
	}
}

func TestPublishedDirConcurrent(t *testing.T) {
	dir := profileRepo(t, nil)
	pub := channel(t, dir)
	const n = 4
	got := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			g, err := gitstore.Open(dir)
			if err != nil {
				errs[i] = err
				return
			}
			defer g.Close()
			r := New(g, pub.Version(), nil)
			s, err := r.Find("beta")
			if err == nil {
				got[i], err = r.Copies().Dir(s)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || got[i] != got[0] {
			t.Errorf("copy %d: %s, %v; want %s", i, got[i], errs[i], got[0])
		}
	}
	entries, _ := os.ReadDir(filepath.Join(filepath.Dir(filepath.Dir(got[0]))))
	if len(entries) != 1 {
		t.Errorf("published copies: %d entries, want 1 and no temporary folder left", len(entries))
	}
}

func TestPublishedCopyStoppedLeavesNoTemp(t *testing.T) {
	dir := profileRepo(t, nil)
	r := channel(t, dir)
	s := mustFind(t, dir, "beta")
	made := testenv.StopAfterTemp(t, &tempMade)
	if _, err := r.Copies().Dir(s); err == nil {
		t.Fatal("a copy whose temporary folder vanished succeeded")
	}
	if *made == "" {
		t.Fatal("no temporary folder was made")
	}
	if left := testenv.EntriesWith(t, r.copiesRoot(), ".tmp-"); len(left) > 0 {
		t.Errorf("temporary folders left: %v", left)
	}
	tempMade = nil
	got, err := r.Copies().Dir(s)
	if err != nil {
		t.Fatalf("copying again: %v", err)
	}
	if _, err := os.Stat(filepath.Join(got, "SKILL.md")); err != nil {
		t.Fatal(err)
	}
}
