package doctor_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillgit/skillgit/doctor"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/filenames"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/procowner"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/targetdir"
)

// doctorRepo creates a skillgit repository and opens it with gitstore.
func doctorRepo(t *testing.T) (string, *gitstore.Repo) {
	t.Helper()
	dir := lifecycletest.NewRepo(t)
	g, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return dir, g
}

// deadOwner runs a child process to its end and returns it as an owner on this host.
func deadOwner(t *testing.T) procowner.Owner {
	t.Helper()
	c := exec.Command("sh", "-c", "exit 0")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	o := procowner.Self()
	o.PID, o.Start = c.Process.Pid, 0
	if !o.Gone() {
		t.Fatalf("process %d ended but is not gone", o.PID)
	}
	return o
}

// makeLock creates a lock file, written age ago.
func makeLock(t *testing.T, path string, age time.Duration) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	when := time.Now().Add(-age)
	if err := os.Chtimes(path, when, when); err != nil {
		t.Fatal(err)
	}
}

// holdOpen starts a child that keeps path open as its standard input until the test ends,
// and returns its process id.
func holdOpen(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command("sleep", "60")
	c.Stdin = f
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	return c.Process.Pid
}

func runDoctor(t *testing.T, g *gitstore.Repo, fix bool, targets ...string) *doctor.Report {
	t.Helper()
	rep, err := doctor.Run(g, doctor.Options{Fix: fix, Targets: targets})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// findingFor returns the finding about path, failing when there is none or several.
func findingFor(t *testing.T, rep *doctor.Report, path string) doctor.Finding {
	t.Helper()
	var got []doctor.Finding
	for _, f := range rep.Findings {
		if f.Path == path {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d findings about %s in %+v", len(got), path, rep.Findings)
	}
	return got[0]
}

func mustExist(t *testing.T, path string, want bool) {
	t.Helper()
	_, err := os.Lstat(path)
	if (err == nil) != want {
		t.Fatalf("%s: exists %v, want %v (%v)", path, err == nil, want, err)
	}
}

func TestDoctorCleanRepository(t *testing.T) {
	_, g := doctorRepo(t)
	rep := runDoctor(t, g, true)
	if len(rep.Findings) != 0 || rep.Fixed() != 0 || rep.Left() != 0 {
		t.Fatalf("a fresh repository has findings: %+v", rep.Findings)
	}
}

func TestDoctorLocks(t *testing.T) {
	dir, g := doctorRepo(t)
	gd := g.GitDir()
	stale := filepath.Join(gd, "refs", "heads", "stale.lock")
	live := filepath.Join(gd, "refs", "heads", "live.lock")
	old := filepath.Join(gd, "index.lock")
	held := filepath.Join(gd, "HEAD.lock")
	young := filepath.Join(gd, "refs", "heads", "young.lock")
	pack := filepath.Join(gd, "objects", "skillgit-pack.lock")

	makeLock(t, stale, time.Second)
	if err := g.Locks().RecordOwner(stale, deadOwner(t)); err != nil {
		t.Fatal(err)
	}
	makeLock(t, live, time.Minute)
	if err := g.Locks().RecordOwner(live, procowner.Self()); err != nil {
		t.Fatal(err)
	}
	makeLock(t, old, time.Minute)
	makeLock(t, held, time.Minute)
	holder := holdOpen(t, held)
	makeLock(t, young, 0)
	if err := os.WriteFile(pack, deadOwner(t).Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	// An owner record whose lock is gone.
	gone := filepath.Join(gd, "refs", "heads", "gone.lock")
	makeLock(t, gone, 0)
	if err := g.Locks().RecordOwner(gone, deadOwner(t)); err != nil {
		t.Fatal(err)
	}
	records, _ := os.ReadDir(filepath.Join(g.CommonDir(), gitstore.OwnersDir))
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}

	rep := runDoctor(t, g, false)
	if rep.Fixed() != 0 || rep.Left() != 7 {
		t.Fatalf("without --fix: %d fixed, %d left, want 0 and 7: %+v", rep.Fixed(), rep.Left(), rep.Findings)
	}
	for _, p := range []string{stale, old, pack} {
		if f := findingFor(t, rep, p); !strings.Contains(f.Left, "--fix") {
			t.Errorf("%s: left %q, want a pointer to --fix", p, f.Left)
		}
	}
	for _, p := range []string{stale, live, old, held, young, pack} {
		mustExist(t, p, true)
	}

	rep = runDoctor(t, g, true)
	for _, p := range []string{stale, old, pack} {
		if f := findingFor(t, rep, p); !f.Fixed || f.Kind != doctor.FindingLock {
			t.Errorf("%s: %+v, want a lock fixed", p, f)
		}
		mustExist(t, p, false)
	}
	if f := findingFor(t, rep, stale); !strings.Contains(f.Detail, "stale, skillgit's own") {
		t.Errorf("stale lock: detail %q", f.Detail)
	}
	if f := findingFor(t, rep, live); f.Fixed || !strings.Contains(f.Detail, "still running") {
		t.Errorf("live lock: %+v, want left as in use", f)
	}
	if f := findingFor(t, rep, held); f.Fixed || !strings.Contains(f.Left, "open in process "+strconv.Itoa(holder)) {
		t.Errorf("held lock: %+v, want left, open in process %d", f, holder)
	}
	if f := findingFor(t, rep, young); f.Fixed || !strings.Contains(f.Left, "run doctor again") {
		t.Errorf("young lock: %+v, want left until it is older", f)
	}
	for _, p := range []string{live, held, young} {
		mustExist(t, p, true)
	}
	var orphan int
	for _, f := range rep.Findings {
		if f.Kind == doctor.FindingLockRecord {
			orphan++
			if !f.Fixed || !strings.Contains(f.Detail, gone) {
				t.Errorf("orphaned record: %+v", f)
			}
			mustExist(t, f.Path, false)
		}
	}
	if orphan != 1 || len(records) != 3 {
		t.Fatalf("%d orphaned records fixed (want 1) out of %d records", orphan, len(records))
	}
	if rep.Fixed() != 4 || rep.Left() != 3 {
		t.Fatalf("with --fix: %d fixed, %d left, want 4 and 3", rep.Fixed(), rep.Left())
	}

	// Once the remaining holders let go, the repository is sound and usable.
	for _, p := range []string{live, held, young} {
		os.Remove(p)
	}
	// The live lock's record stays: its owner, this process, may be releasing it right now.
	if again := runDoctor(t, g, true); len(again.Findings) != 0 {
		t.Fatalf("after the holders let go: %+v, want none", again.Findings)
	}
	testenv.FsckStrict(t, dir)
	testenv.Git(t, dir, "commit", "--allow-empty", "-q", "-m", "after doctor")
	// A proposal takes the locks doctor cleared.
	lifecycletest.ProposeNew(t, dir, "after")
}

func TestDoctorRefsAreListedNeverChanged(t *testing.T) {
	dir, g := doctorRepo(t)
	cd := g.CommonDir()
	head := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "HEAD"))
	files := map[string]string{
		filepath.Join(cd, "refs", "heads", "garbage"):   "not an id\n",
		filepath.Join(cd, "refs", "heads", "empty"):     "",
		filepath.Join(cd, "refs", "heads", "short"):     head[:20] + "\n",
		filepath.Join(cd, "refs", "heads", "bad name"):  head + "\n",
		filepath.Join(cd, "refs", "heads", "badsymref"): "ref: refs/heads/a..b\n",
		filepath.Join(cd, "packed-refs"):                "# pack-refs with: peeled fully-peeled sorted \n" + head + " refs/tags/ok\n^" + head + "\nxyz refs/tags/broken\n",
	}
	for p, content := range files {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, fix := range []bool{false, true} {
		rep := runDoctor(t, g, fix)
		for p := range files {
			f := findingFor(t, rep, p)
			if f.Kind != doctor.FindingRef || f.Fixed || f.Left == "" {
				t.Errorf("fix=%v %s: %+v, want a ref left", fix, p, f)
			}
		}
		if rep.Fixed() != 0 || rep.Left() != len(files) {
			t.Fatalf("fix=%v: %d fixed, %d left: %+v", fix, rep.Fixed(), rep.Left(), rep.Findings)
		}
		packed := findingFor(t, rep, filepath.Join(cd, "packed-refs"))
		if !strings.Contains(packed.Detail, "line 4") {
			t.Errorf("packed-refs: %q, want line 4", packed.Detail)
		}
	}
	for p, content := range files {
		got, err := os.ReadFile(p)
		if err != nil || string(got) != content {
			t.Errorf("%s changed: %q, %v", p, got, err)
		}
	}
	// A sound ref of each kind is not reported.
	for p := range files {
		os.Remove(p)
	}
	testenv.Git(t, dir, "update-ref", "refs/heads/sound", head)
	testenv.Git(t, dir, "symbolic-ref", "refs/heads/alias", "refs/heads/sound")
	testenv.Git(t, dir, "tag", "-a", "-m", "t", "v1")
	testenv.Git(t, dir, "pack-refs", "--all")
	testenv.Git(t, dir, "update-ref", "refs/heads/loose", head)
	if rep := runDoctor(t, g, false); len(rep.Findings) != 0 {
		t.Fatalf("sound refs reported: %+v", rep.Findings)
	}
}

// syncedTarget installs two skills into a fresh target folder, as sync does, and returns it.
func syncedTarget(t *testing.T) string {
	t.Helper()
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{
		"alpha/SKILL.md": testenv.SkillMD("alpha"), "beta/SKILL.md": testenv.SkillMD("beta"),
	})
	target := filepath.Join(t.TempDir(), "app", ".claude", "skills")
	skills := []targetdir.Skill{{Name: "alpha", Dir: "alpha", Hash: "a1"}, {Name: "beta", Dir: "beta", Hash: "b1"}}
	p, err := targetdir.Plan(os.DirFS(src), skills, target, targetdir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	return target
}

// markPending turns the manifest entry of name into one of an install that began and was
// not recorded as done, as an interrupted sync leaves it.
func markPending(t *testing.T, target, name string) {
	t.Helper()
	path := filepath.Join(target, filenames.Manifest)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	e := m["skills"].(map[string]any)[name].(map[string]any)
	e["pending"], e["written"], e["source"] = e["written"], "pending", ""
	if data, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDoctorSyncTarget(t *testing.T) {
	_, g := doctorRepo(t)
	target := syncedTarget(t)
	outside := filepath.Join(t.TempDir(), "keep")
	if err := os.WriteFile(outside, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(target, filenames.SkillTempPrefix+"alpha-0011aabb")
	testenv.WriteFiles(t, tmp, map[string]string{"SKILL.md": "half"})
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(tmp, "link")); err != nil {
		t.Fatal(err)
	}
	oldLink := filepath.Join(target, filenames.SkillOldPrefix+"beta-22ccddee")
	if err := os.Symlink(filepath.Dir(outside), oldLink); err != nil {
		t.Fatal(err)
	}
	draft := filepath.Join(target, filenames.ManifestDraftPrefix+"33eeff00")
	if err := os.WriteFile(draft, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(target, filenames.FolderMutex)
	if err := os.WriteFile(lock, []byte(strconv.Itoa(deadOwner(t).PID)+" 0011\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	markPending(t, target, "alpha")
	testenv.RemoveAll(t, filepath.Join(target, "beta"))

	rep := runDoctor(t, g, false, target)
	if rep.Fixed() != 0 || rep.Left() != 6 {
		t.Fatalf("without --fix: %d fixed, %d left, want 0 and 6: %+v", rep.Fixed(), rep.Left(), rep.Findings)
	}
	rep = runDoctor(t, g, true, target)
	for _, p := range []string{tmp, oldLink, draft} {
		if f := findingFor(t, rep, p); f.Kind != doctor.FindingSyncLeftover || !f.Fixed {
			t.Errorf("%s: %+v, want a leftover fixed", p, f)
		}
		mustExist(t, p, false)
	}
	if f := findingFor(t, rep, lock); f.Kind != doctor.FindingFolderMutex || !f.Fixed {
		t.Errorf("stale sync lock: %+v", f)
	}
	mustExist(t, lock, false)
	if got, err := os.ReadFile(outside); err != nil || string(got) != "mine" {
		t.Fatalf("a file outside the target changed: %q, %v", got, err)
	}
	alpha := findingFor(t, rep, filepath.Join(target, "alpha"))
	if alpha.Kind != doctor.FindingManifest || alpha.Fixed || !strings.Contains(alpha.Left, "skillgit sync") {
		t.Errorf("pending entry: %+v, want left to skillgit sync", alpha)
	}
	beta := findingFor(t, rep, filepath.Join(target, "beta"))
	if beta.Kind != doctor.FindingManifest || beta.Fixed || !strings.Contains(beta.Detail, "gone") {
		t.Errorf("missing folder: %+v", beta)
	}
	mustExist(t, filepath.Join(target, "alpha", "SKILL.md"), true)
	if rep.Fixed() != 4 || rep.Left() != 2 {
		t.Fatalf("with --fix: %d fixed, %d left, want 4 and 2", rep.Fixed(), rep.Left())
	}
}

func TestDoctorSyncTargetInUse(t *testing.T) {
	_, g := doctorRepo(t)
	target := syncedTarget(t)
	tmp := filepath.Join(target, filenames.SkillTempPrefix+"alpha-0011aabb")
	testenv.WriteFiles(t, tmp, map[string]string{"SKILL.md": "being written"})
	lock := filepath.Join(target, filenames.FolderMutex)
	if err := os.WriteFile(lock, []byte(strconv.Itoa(os.Getpid())+" 0011\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := runDoctor(t, g, true, target)
	if len(rep.Findings) != 1 {
		t.Fatalf("a target in use: %+v, want only its lock", rep.Findings)
	}
	if f := rep.Findings[0]; f.Path != lock || f.Fixed || !strings.Contains(f.Detail, "still running") {
		t.Fatalf("lock in use: %+v", f)
	}
	mustExist(t, tmp, true)
	mustExist(t, lock, true)
}

func TestDoctorOwnerRecordLeftovers(t *testing.T) {
	_, g := doctorRepo(t)
	dir := filepath.Join(g.CommonDir(), gitstore.OwnersDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]time.Duration{
		"00112233aabbccdd.break": time.Minute,     // a clearer died: removed
		"44556677aabbccdd":       time.Minute,     // a record never finished: removed
		"8899aabbccddeeff.break": 0,               // a clearer at work: left unmentioned
		"0f0f0f0f0f0f0f0f":       time.Second / 2, // a record being written: left unmentioned
	}
	for name, age := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("pid \n"), 0o644); err != nil {
			t.Fatal(err)
		}
		when := time.Now().Add(-age)
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
	rep := runDoctor(t, g, true)
	if rep.Fixed() != 2 || rep.Left() != 0 {
		t.Fatalf("%d fixed, %d left, want 2 and 0: %+v", rep.Fixed(), rep.Left(), rep.Findings)
	}
	for name, age := range files {
		mustExist(t, filepath.Join(dir, name), age < time.Second)
	}
}

// TestDoctorFixBesideRunningCommands runs doctor --fix over and over while proposals take
// and release their locks: every proposal succeeds, and the repository stays sound.
func TestDoctorFixBesideRunningCommands(t *testing.T) {
	dir, g := doctorRepo(t)
	const n = 12
	src := t.TempDir()
	for i := range n {
		name := "skill-" + strconv.Itoa(i)
		testenv.WriteFiles(t, src, map[string]string{name + "/SKILL.md": testenv.SkillMD(name)})
	}
	done := make(chan struct{})
	fixes := make(chan error, 1)
	go func() {
		defer close(fixes)
		for {
			select {
			case <-done:
				return
			default:
			}
			rep, err := doctor.Run(g, doctor.Options{Fix: true})
			if err == nil && rep.Fixed() > 0 {
				err = fmt.Errorf("doctor fixed something in use: %+v", rep.Findings)
			}
			if err != nil {
				fixes <- err
				return
			}
		}
	}()
	errs := make(chan error, n)
	for i := range n {
		go func() {
			r, err := lifecycle.Open(dir)
			if err == nil {
				defer r.Close()
				_, err = r.Propose(lifecycle.ProposeOptions{ActOptions: lifecycletest.Agent,
					From: filepath.Join(src, "skill-"+strconv.Itoa(i))})
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	close(done)
	if err := <-fixes; err != nil {
		t.Fatal(err)
	}
	cands, err := lifecycletest.Open(t, dir).Book().Candidates("open")
	if err != nil || len(cands) != n {
		t.Fatalf("%d open candidates (%v), want %d", len(cands), err, n)
	}
	testenv.FsckStrict(t, dir)
}

func TestDoctorUnreadableManifest(t *testing.T) {
	_, g := doctorRepo(t)
	target := syncedTarget(t)
	manifest := filepath.Join(target, filenames.Manifest)
	if err := os.WriteFile(manifest, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := runDoctor(t, g, true, target)
	f := findingFor(t, rep, manifest)
	if f.Kind != doctor.FindingManifest || f.Fixed || !strings.Contains(f.Left, "move it away") {
		t.Fatalf("unreadable manifest: %+v", f)
	}
	if got, _ := os.ReadFile(manifest); string(got) != "{not json" {
		t.Fatalf("manifest rewritten: %q", got)
	}
}

func TestDoctorLinkStore(t *testing.T) {
	_, g := doctorRepo(t)
	version := filepath.Join(g.CommonDir(), "skillgit", "sync", "0a1b2c")
	testenv.WriteFiles(t, version, map[string]string{
		"alpha/SKILL.md": "a complete copy",
		filenames.SkillTempPrefix + "alpha-11112222/SKILL.md": "interrupted long ago",
		filenames.SkillTempPrefix + "beta-33334444/SKILL.md":  "being written",
	})
	old := filepath.Join(version, filenames.SkillTempPrefix+"alpha-11112222")
	fresh := filepath.Join(version, filenames.SkillTempPrefix+"beta-33334444")
	long := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	rep := runDoctor(t, g, true)
	if f := findingFor(t, rep, old); f.Kind != doctor.FindingSyncLeftover || !f.Fixed {
		t.Errorf("old temporary copy: %+v", f)
	}
	if f := findingFor(t, rep, fresh); f.Fixed || !strings.Contains(f.Left, "may still be writing") {
		t.Errorf("fresh temporary copy: %+v", f)
	}
	if len(rep.Findings) != 2 {
		t.Errorf("findings: %+v, want the two temporary copies", rep.Findings)
	}
	mustExist(t, old, false)
	mustExist(t, fresh, true)
	mustExist(t, filepath.Join(version, "alpha", "SKILL.md"), true)
}

// TestDoctorTargetsWithoutRepository checks the targets of a project that is no git
// repository: with no repository, only the targets are looked at.
func TestDoctorTargetsWithoutRepository(t *testing.T) {
	target := syncedTarget(t)
	tmp := filepath.Join(target, filenames.SkillTempPrefix+"alpha-0011aabb")
	testenv.WriteFiles(t, tmp, map[string]string{"SKILL.md": "half"})
	rep := runDoctor(t, nil, false, target)
	if f := findingFor(t, rep, tmp); f.Kind != doctor.FindingSyncLeftover || f.Fixed {
		t.Fatalf("%+v, want a leftover left", f)
	}
	if len(rep.Findings) != 1 {
		t.Fatalf("findings %+v, want the leftover alone", rep.Findings)
	}
	runDoctor(t, nil, true, target)
	mustExist(t, tmp, false)
}
