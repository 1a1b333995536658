package targetdir

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/filenames"
)

// stampFixture is a target folder synced from a source of two skills.
type stampFixture struct {
	src, target string
	skills      []Skill
}

func newStampFixture(t *testing.T) *stampFixture {
	t.Helper()
	f := &stampFixture{src: t.TempDir(), target: filepath.Join(t.TempDir(), "skills")}
	f.skills = writeSource(t, f.src, "v1", "alpha", "beta")
	syncOnce(t, f.src, f.skills, f.target, Options{})
	return f
}

func (f *stampFixture) manifestPath() string { return filepath.Join(f.target, filenames.Manifest) }

// settle dates the manifest an hour ahead, so that no stamp is racy against it.
func (f *stampFixture) settle(t *testing.T) {
	t.Helper()
	ahead := time.Now().Add(time.Hour)
	if err := os.Chtimes(f.manifestPath(), ahead, ahead); err != nil {
		t.Fatal(err)
	}
}

// plan plans a dry run and returns what it found of skill name, and its action.
func (f *stampFixture) plan(t *testing.T, name string) (installed, Action) {
	t.Helper()
	p, err := Plan(os.DirFS(f.src), f.skills, f.target, Options{Disk: DryRun})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, a := range p.Actions {
		if a.Skill == name {
			return p.installed[name], a.Action
		}
	}
	t.Fatalf("no action for %s", name)
	return installed{}, ""
}

func (f *stampFixture) read(t *testing.T) *manifest {
	t.Helper()
	root, err := os.OpenRoot(f.target)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	m, err := readManifest(root, f.target)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// racyEdit makes the manifest say that skill name was written with other content, in the
// very tick its stamps were taken: the manifest is dated at the newest of those stamps. It
// returns the manifest and the stamps' record.
func (f *stampFixture) racyEdit(t *testing.T, name string) (*manifest, stampRecord) {
	t.Helper()
	m := f.read(t)
	r, _ := parseStamps(m.Skills[name].Stat)
	e := m.Skills[name]
	e.Written = "sha256:" + strings.Repeat("0", 64)
	m.Skills[name] = e
	f.write(t, m, time.Unix(0, r.newest))
	return m, r
}

// write replaces the manifest with m, dated at mtime.
func (f *stampFixture) write(t *testing.T, m *manifest, mtime time.Time) {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.manifestPath(), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(f.manifestPath(), mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func TestSyncRecordsStampsOfWhatItWrites(t *testing.T) {
	f := newStampFixture(t)
	m := f.read(t)
	for _, name := range []string{"alpha", "beta"} {
		r, ok := parseStamps(m.Skills[name].Stat)
		if !ok || strings.Join(r.paths, ",") != "SKILL.md,scripts,scripts/run.sh" {
			t.Errorf("%s: stamps %q, want a record of SKILL.md, scripts and scripts/run.sh", name, m.Skills[name].Stat)
		}
	}
}

func TestUnchangedSkillIsTrustedWithoutHashing(t *testing.T) {
	f := newStampFixture(t)
	f.settle(t)
	got, action := f.plan(t, "alpha")
	if !got.trusted || action != ActionKeep {
		t.Errorf("unchanged alpha: trusted %v, action %s; want its stamps trusted and kept", got.trusted, action)
	}
}

func TestRacyStampIsHashed(t *testing.T) {
	f := newStampFixture(t)
	// The folder changed in the tick its stamps were taken: the stamps still match, the
	// content is not what was written. A manifest as old as the stamps must not trust them.
	m, r := f.racyEdit(t, "alpha")
	got, action := f.plan(t, "alpha")
	if got.trusted || action != ActionEdited {
		t.Errorf("racy alpha: trusted %v, action %s; want it hashed and found edited", got.trusted, action)
	}
	f.write(t, m, time.Unix(0, r.newest+1))
	if got, _ := f.plan(t, "alpha"); !got.trusted {
		t.Errorf("alpha with stamps older than the manifest was hashed; the racy case is not what made the difference")
	}
}

func TestEditWithRestoredTimeIsCaught(t *testing.T) {
	f := newStampFixture(t)
	p := filepath.Join(f.target, "alpha", "scripts", "run.sh")
	before, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := []byte(strings.Replace(string(old), "v1", "v2", 1))
	if len(edited) != len(old) {
		t.Fatal("the edit must keep the size")
	}
	writeMode(t, p, string(edited), 0o755)
	stamp := before.ModTime().UTC().Format("2006-01-02 15:04:05.000000000 +0000")
	if out, err := exec.Command("touch", "-d", stamp, p).CombinedOutput(); err != nil {
		t.Fatalf("touch -d: %v: %s", err, out)
	}
	after, err := os.Lstat(p)
	if err != nil || !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Fatalf("size and mtime not restored: %v", err)
	}
	f.settle(t)
	got, action := f.plan(t, "alpha")
	if got.trusted || action != ActionEdited {
		t.Errorf("alpha edited with its size and mtime restored: trusted %v, action %s; want edited", got.trusted, action)
	}
	states, err := Inspect(f.target)
	if err != nil || len(states) != 2 || states[0].State != StateEdited {
		t.Errorf("Inspect = %+v, %v; want alpha edited", states, err)
	}
}

func TestFileAddedToInstalledSkillIsNoticed(t *testing.T) {
	for _, rel := range []string{"notes.md", "scripts/extra.sh"} {
		t.Run(strings.ReplaceAll(rel, "/", "_"), func(t *testing.T) {
			f := newStampFixture(t)
			writeMode(t, filepath.Join(f.target, "beta", rel), "added by hand\n", 0o644)
			f.settle(t)
			got, action := f.plan(t, "beta")
			if got.trusted || action != ActionEdited {
				t.Errorf("beta with %s added: trusted %v, action %s; want edited", rel, got.trusted, action)
			}
		})
	}
}

func TestTouchedFileIsHashedAndRestamped(t *testing.T) {
	f := newStampFixture(t)
	p := filepath.Join(f.target, "alpha", catalog.FileName)
	later := time.Now().Add(-time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	f.settle(t)
	got, action := f.plan(t, "alpha")
	if got.trusted || action != ActionKeep {
		t.Fatalf("touched alpha: trusted %v, action %s; want it hashed and kept", got.trusted, action)
	}
	syncOnce(t, f.src, f.skills, f.target, Options{})
	f.settle(t)
	if got, _ := f.plan(t, "alpha"); !got.trusted {
		t.Errorf("the sync after a touch did not record the new stamps")
	}
}

func TestManifestWithoutStampsIsHashedThenStamped(t *testing.T) {
	f := newStampFixture(t)
	m := f.read(t)
	for name, e := range m.Skills {
		e.Stat = ""
		m.Skills[name] = e
	}
	past := time.Now().Add(-time.Hour)
	f.write(t, m, past)
	got, action := f.plan(t, "alpha")
	if got.trusted || action != ActionKeep {
		t.Fatalf("alpha without stamps: trusted %v, action %s; want it hashed and kept", got.trusted, action)
	}
	syncOnce(t, f.src, f.skills, f.target, Options{})
	if info, err := os.Stat(f.manifestPath()); err != nil || info.ModTime().Equal(past) {
		t.Fatalf("the sync did not record the stamps: %v", err)
	}
	f.settle(t)
	before, err := os.Stat(f.manifestPath())
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := f.plan(t, "alpha"); !got.trusted {
		t.Errorf("alpha's stamps were not recorded")
	}
	syncOnce(t, f.src, f.skills, f.target, Options{})
	if after, err := os.Stat(f.manifestPath()); err != nil || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("a sync of stamped, unchanged skills rewrote the manifest: %v", err)
	}
}

func TestUnconfirmedRacyStampsAreDroppedWhenTheManifestIsWritten(t *testing.T) {
	f := newStampFixture(t)
	f.racyEdit(t, "alpha")
	// beta changes, so the manifest is written; alpha is edited, and its racy stamps must
	// not reach a manifest that would make them look settled.
	src2 := t.TempDir()
	skills := writeSource(t, src2, "v2", "beta")
	skills = append(skills, Skill{Name: "alpha", Dir: "alpha", Hash: f.skills[0].Hash})
	writeSource(t, src2, "v1", "alpha")
	syncOnceConflict(t, src2, skills, f.target)
	if got := f.read(t).Skills["alpha"]; got.Stat != "" {
		t.Errorf("alpha kept racy stamps it was not found to match: %q", got.Stat)
	}
	if got := f.read(t).Skills["beta"]; got.Stat == "" {
		t.Errorf("beta was written without stamps")
	}
}

// syncOnceConflict syncs and expects no error other than the sync leaving an edited skill.
func syncOnceConflict(t *testing.T, src string, skills []Skill, target string) {
	t.Helper()
	p, err := Plan(os.DirFS(src), skills, target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
}

func TestStampRecordRefusesHostilePaths(t *testing.T) {
	for _, text := range []string{
		"",
		"0123456789abcdef0123456789abcdef x",
		"0123456789abcdef 1\nSKILL.md",
		"0123456789abcdef0123456789abcdef 1\n../outside",
		"0123456789abcdef0123456789abcdef 1\n/etc/passwd",
		"0123456789abcdef0123456789abcdef 1\n.",
		"0123456789abcdef0123456789abcdef 1\na//b",
	} {
		if _, ok := parseStamps(text); ok {
			t.Errorf("parseStamps(%q) accepted it", text)
		}
	}
	if r, ok := parseStamps("0123456789abcdef0123456789abcdef 7\nSKILL.md\nscripts/run.sh"); !ok || r.newest != 7 || len(r.paths) != 2 {
		t.Errorf("a good record was refused: %+v %v", r, ok)
	}
}

// TestFolderSwappedForLinkIsNoticed moves an installed skill away and links its name to it:
// every file keeps its stamp, yet the stamp of the folder's name is now a link's (and the
// rename changed the folder's change time), so it is not trusted, and the sync does not take
// the link for the folder it wrote.
func TestFolderSwappedForLinkIsNoticed(t *testing.T) {
	f := newStampFixture(t)
	moved := filepath.Join(t.TempDir(), "alpha")
	if err := os.Rename(filepath.Join(f.target, "alpha"), moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, filepath.Join(f.target, "alpha")); err != nil {
		t.Fatal(err)
	}
	f.settle(t)
	got, action := f.plan(t, "alpha")
	if got.trusted || action == ActionKeep {
		t.Errorf("alpha swapped for a link: trusted %v, action %s; want it not trusted and not kept", got.trusted, action)
	}
	if got, _ := f.plan(t, "beta"); !got.trusted {
		t.Error("beta, untouched, was not trusted: the test proves nothing about alpha")
	}
}

func TestLstatAtzMatchesLstat(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "s", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "s", "sub", "f.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/f.md", filepath.Join(dir, "s", "link")); err != nil {
		t.Fatal(err)
	}
	root, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, p := range []string{"s", "s/sub/f.md", "s/link"} {
		var got, want unix.Stat_t
		if err := lstatAtz(int(root.Fd()), append([]byte(p), 0), &got); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if err := unix.Lstat(filepath.Join(dir, p), &want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: lstatAtz gave %+v, lstat %+v", p, got, want)
		}
	}
	var st unix.Stat_t
	for _, bad := range []string{"s\x00/sub/f.md\x00", "s/sub/f.md", "missing\x00"} {
		if err := lstatAtz(int(root.Fd()), []byte(bad), &st); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
