package packs

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

func TestPackUpdateOverGitDaemon(t *testing.T) {
	testenv.Hermetic(t, nil)
	base := t.TempDir()
	server := gitDaemon(t, base)
	packStory(t, base, func(name string) string { return server + "/" + name })
}

func TestPackUpdateOverHTTP(t *testing.T) {
	testenv.Hermetic(t, nil)
	base := t.TempDir()
	server := gitHTTP(t, base)
	packStory(t, base, func(name string) string { return server + "/" + name })
}

func TestPackUpdateOverFile(t *testing.T) {
	testenv.Hermetic(t, nil)
	base := t.TempDir()
	packStory(t, base, func(name string) string { return "file://" + filepath.Join(base, name) })
}

// packStory adds a pack served at url(name), turns its skills into candidates, publishes
// them, then changes, adds and deletes skills on the server and updates again.
func packStory(t *testing.T, base string, url func(string) string) {
	src := packSource(t, base, "demo-pack", map[string]string{
		"README.md":             "A pack.\n",
		"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine),
		"skills/beta/SKILL.md":  testenv.SkillMD("beta", cleanLine),
		"skills/evil/SKILL.md":  testenv.SkillMD("evil", cleanLine, evilLine),
	})
	first := testenv.GitIn(t, src, nil, "rev-parse", "HEAD")
	dir := lifecycletest.NewRepo(t)
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "demo", URL: url("demo-pack"), Ref: "main"}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	testenv.Fsck(t, dir)
	if ts := testenv.Trailers(t, dir, "main"); !slices.Equal(ts["Skillgit-Action"], []string{"pack"}) || !slices.Equal(ts["Skillgit-Pack"], []string{"demo"}) {
		t.Fatalf("pack add trailers: %v", ts)
	}

	ups, err := updateT(lifecycletest.Open(t, dir), "", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil {
		t.Fatal(err)
	}
	up := ups[0]
	if up.Fetched != first || up.Previous != "" || up.Ref != "refs/heads/main" || up.Commit == "" {
		t.Fatalf("first update: %+v", up)
	}
	ids := checkPackCandidates(t, dir, up, "demo@"+first, map[string]lifecycle.Change{"alpha": lifecycle.ChangeCreate, "beta": lifecycle.ChangeCreate, "evil": lifecycle.ChangeCreate})
	if got := lifecycletest.Open(t, dir).Tip().String(); got != up.Commit {
		t.Fatalf("main is at %s; want the pin commit %s", got, up.Commit)
	}
	checkPin(t, dir, "demo", first, "alpha", "beta", "evil")
	testenv.Fsck(t, dir)

	for _, name := range []string{"alpha", "beta", "evil"} {
		if _, err := lifecycletest.Open(t, dir).Approve(ids[name], "", lifecycletest.Lead); err != nil {
			t.Fatal(err)
		}
		_, err := lifecycletest.Open(t, dir).Publish(ids[name], "", lifecycletest.Lead)
		if name == "evil" {
			if !errors.Is(err, lifecycle.ErrRefused) || !strings.Contains(err.Error(), "high risk") {
				t.Fatalf("publishing the malicious pack skill: %v; want refused as high risk", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	testenv.Fsck(t, dir)
	if _, err := lifecycletest.Open(t, dir).Published().Find("evil"); !errors.Is(err, lifecycle.ErrNotFound) {
		t.Fatalf("the malicious skill reached main: %v", err)
	}

	// On the server: alpha changes, gamma is new, beta is gone.
	testenv.WriteFiles(t, src, map[string]string{
		"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine, "Also print the time."),
		"skills/gamma/SKILL.md": testenv.SkillMD("gamma", cleanLine),
	})
	testenv.RemoveAll(t, filepath.Join(src, "skills", "beta"))
	testenv.CommitAll(t, src, "pack: second version")
	second := testenv.GitIn(t, src, nil, "rev-parse", "HEAD")

	ups, err = updateT(lifecycletest.Open(t, dir), "demo", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil {
		t.Fatal(err)
	}
	up = ups[0]
	if up.Previous != first || up.Fetched != second || up.Commit == "" {
		t.Fatalf("second update: %+v", up)
	}
	checkPackCandidates(t, dir, up, "demo@"+second, map[string]lifecycle.Change{"alpha": lifecycle.ChangePatch, "beta": lifecycle.ChangeDelete, "gamma": lifecycle.ChangeCreate})
	if len(up.Pending) != 1 || !strings.HasPrefix(up.Pending[0], "evil ("+ids["evil"]+")") {
		t.Fatalf("pending: %q; want the open evil candidate", up.Pending)
	}
	checkPin(t, dir, "demo", second, "alpha", "beta", "evil", "gamma")
	testenv.Fsck(t, dir)

	// Nothing new on the server: no candidate, no commit.
	before := refsOf(t, dir)
	ups, err = updateT(lifecycletest.Open(t, dir), "demo", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups[0].Candidates) != 0 || ups[0].Commit != "" || len(ups[0].Pending) != 4 {
		t.Fatalf("update without changes: %+v", ups[0])
	}
	if after := refsOf(t, dir); after != before {
		t.Fatalf("refs moved:\n%s\nwant\n%s", after, before)
	}
	testenv.Fsck(t, dir)
}

// checkPackCandidates checks that up made exactly the changes want, each a candidate whose
// propose commit carries Skillgit-Pack: value, and returns their ids by skill.
func checkPackCandidates(t *testing.T, dir string, up *Result, value string, want map[string]lifecycle.Change) map[string]string {
	t.Helper()
	if len(up.Candidates) != len(want) {
		t.Fatalf("%d candidates; want %d: %+v", len(up.Candidates), len(want), up.Candidates)
	}
	ids := map[string]string{}
	for _, c := range up.Candidates {
		if want[c.Skill] != c.Change || c.State != lifecycle.StateOpen {
			t.Errorf("candidate %s: %s %s in state %s; want %s, open", c.ID, c.Change, c.Skill, c.State, want[c.Skill])
		}
		ts := testenv.Trailers(t, dir, "candidate/"+c.ID)
		if !slices.Equal(ts["Skillgit-Pack"], []string{value}) || !slices.Equal(ts["Skillgit-Action"], []string{"propose"}) {
			t.Errorf("candidate %s trailers: %v; want Skillgit-Pack: %s", c.ID, ts, value)
		}
		wantRisk := "low"
		if c.Skill == "evil" {
			wantRisk = "high"
		} else if c.Change == lifecycle.ChangeDelete {
			wantRisk = "low"
		}
		if !slices.Equal(ts["Skillgit-Risk"], []string{wantRisk}) || c.Risk != wantRisk {
			t.Errorf("candidate %s risk %s, trailers %v; want %s", c.ID, c.Risk, ts["Skillgit-Risk"], wantRisk)
		}
		ids[c.Skill] = c.ID
	}
	return ids
}

// checkPin checks the pin of pack name in the lock file on main and the skills it owns.
func checkPin(t *testing.T, dir, name, commit string, skills ...string) {
	t.Helper()
	st, err := List(lifecycletest.Open(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range st {
		if p.Name == name {
			if p.Commit != commit || !slices.Equal(p.Skills, skills) {
				t.Fatalf("pack %s pinned at %s owning %v; want %s owning %v", name, p.Commit, p.Skills, commit, skills)
			}
			ts := testenv.Trailers(t, dir, "main")
			if !slices.Equal(ts["Skillgit-Pack"], []string{name + "@" + commit}) || !slices.Equal(ts["Skillgit-Action"], []string{"pack"}) {
				t.Fatalf("pin commit trailers: %v", ts)
			}
			return
		}
	}
	t.Fatalf("pack %s not listed: %+v", name, st)
}

// refusedUpdate checks that updating pack demo at url fails with lifecycle.ErrRefused, an error holding
// every string of want, and writes nothing: no ref moves, no object is added.
func refusedUpdate(t *testing.T, url string, want ...string) {
	t.Helper()
	dir := lifecycletest.NewRepo(t)
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "demo", URL: url}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	refs, objects := refsOf(t, dir), objectCount(t, dir)
	_, err := updateT(lifecycletest.Open(t, dir), "demo", UpdateOptions{ActOptions: lifecycletest.Agent})
	if !errors.Is(err, lifecycle.ErrRefused) {
		t.Fatalf("update: %v; want refused", err)
	}
	t.Logf("refused: %v", err)
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not name %q", err, w)
		}
	}
	if got := refsOf(t, dir); got != refs {
		t.Errorf("refs changed:\n%s\nwant\n%s", got, refs)
	}
	if got := objectCount(t, dir); got != objects {
		t.Errorf("objects written: %s; before %s", got, objects)
	}
	if st, err := List(lifecycletest.Open(t, dir)); err != nil || st[0].Commit != "" {
		t.Errorf("pin after a refused update: %+v %v", st, err)
	}
	testenv.Fsck(t, dir)
}

// skippedUpdate checks that updating pack demo at url skips skill evil as unsafe with a reason
// holding every string of want, and still proposes skill good; the pack does not own evil.
func skippedUpdate(t *testing.T, url string, want ...string) {
	t.Helper()
	dir := lifecycletest.NewRepo(t)
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "demo", URL: url}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	ups, err := Update(lifecycletest.Open(t, dir), "demo", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil || len(ups) != 1 || ups[0].Err() != nil {
		t.Fatalf("update: %v %+v", err, ups)
	}
	up := ups[0]
	if len(up.Skipped) != 1 || up.Skipped[0].Skill != "evil" || up.Skipped[0].Kind != SkipUnsafe || !up.Refused() {
		t.Fatalf("skipped: %+v; want evil as unsafe", up.Skipped)
	}
	t.Logf("skipped: %s", up.Skipped[0].Reason)
	for _, w := range want {
		if !strings.Contains(up.Skipped[0].Reason, w) {
			t.Errorf("reason %q does not name %q", up.Skipped[0].Reason, w)
		}
	}
	if len(up.Candidates) != 1 || up.Candidates[0].Skill != "good" {
		t.Fatalf("candidates: %+v; want good only", up.Candidates)
	}
	st, err := List(lifecycletest.Open(t, dir))
	if err != nil || strings.Join(st[0].Skills, ",") != "good" {
		t.Errorf("pack owns %+v (%v); want good only", st, err)
	}
	testenv.Fsck(t, dir)
}

func TestPackRefusesSymlink(t *testing.T) {
	testenv.Hermetic(t, nil)
	base := t.TempDir()
	src := packSource(t, base, "links", map[string]string{
		"skills/good/SKILL.md": testenv.SkillMD("good", cleanLine),
		"skills/evil/SKILL.md": testenv.SkillMD("evil", cleanLine),
	})
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "skills", "evil", "passwd")); err != nil {
		t.Fatal(err)
	}
	testenv.CommitAll(t, src, "add a link")
	server := gitDaemon(t, base)
	skippedUpdate(t, server+"/links", "skills/evil/passwd", "symbolic link", "/etc/passwd")
}

func TestPackRefusesGitlink(t *testing.T) {
	testenv.Hermetic(t, nil)
	base := t.TempDir()
	src := packSource(t, base, "sub", map[string]string{"skills/good/SKILL.md": testenv.SkillMD("good", cleanLine),
		"skills/evil/SKILL.md": testenv.SkillMD("evil", cleanLine)})
	head := testenv.GitIn(t, src, nil, "rev-parse", "HEAD")
	testenv.Git(t, src, "update-index", "--add", "--cacheinfo", "160000,"+head+",skills/evil/vendor")
	testenv.Git(t, src, "commit", "-q", "-m", "add a gitlink")
	skippedUpdate(t, "file://"+src, "skills/evil/vendor", "submodule")
}

// TestPackRefusesEscapingName serves a pack whose skill folder is a hand-made tree holding an
// entry named ../../x, which no git command writes but a crafted object can hold.
func TestPackRefusesEscapingName(t *testing.T) {
	testenv.Hermetic(t, nil)
	base := t.TempDir()
	src := packSource(t, base, "crafted", map[string]string{"README.md": "A pack.\n", "skills/good/SKILL.md": testenv.SkillMD("good", cleanLine)})
	md := testenv.GitIn(t, src, []byte(testenv.SkillMD("evil", cleanLine)), "hash-object", "-w", "--stdin")
	x := testenv.GitIn(t, src, []byte("escaped\n"), "hash-object", "-w", "--stdin")
	var raw []byte
	for _, e := range []struct{ name, hex string }{{"../../x", x}, {"SKILL.md", md}} {
		raw = append(raw, "100644 "+e.name+"\x00"...)
		raw = append(raw, hexBytes(t, e.hex)...)
	}
	crafted := filepath.Join(t.TempDir(), "tree")
	if err := os.WriteFile(crafted, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	evil := testenv.GitIn(t, src, nil, "hash-object", "-t", "tree", "--literally", "-w", crafted)
	good := testenv.GitIn(t, src, nil, "rev-parse", "HEAD:skills/good")
	skills := testenv.GitIn(t, src, []byte("040000 tree "+evil+"\tevil\n040000 tree "+good+"\tgood\n"), "mktree")
	readme := testenv.GitIn(t, src, nil, "rev-parse", "HEAD:README.md")
	root := testenv.GitIn(t, src, []byte("100644 blob "+readme+"\tREADME.md\n040000 tree "+skills+"\tskills\n"), "mktree")
	commit := testenv.GitIn(t, src, nil, "commit-tree", root, "-p", "HEAD", "-m", "crafted")
	testenv.Git(t, src, "update-ref", "refs/heads/main", commit)
	skippedUpdate(t, "file://"+src, "../../x")
}

func hexBytes(t *testing.T, s string) []byte {
	t.Helper()
	if len(s) != 40 {
		t.Fatalf("object id %q", s)
	}
	out := make([]byte, 20)
	for i := range out {
		var b byte
		for _, c := range s[2*i : 2*i+2] {
			b <<= 4
			switch {
			case c >= '0' && c <= '9':
				b |= byte(c - '0')
			default:
				b |= byte(c-'a') + 10
			}
		}
		out[i] = b
	}
	return out
}

func TestPackNameClash(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishedSkill(t, dir, "alpha", cleanLine)
	base := t.TempDir()
	packSource(t, base, "clash", map[string]string{
		"catalog/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine, "The pack's version."),
		"catalog/other/SKILL.md": testenv.SkillMD("other", cleanLine),
	})
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "demo", URL: "file://" + filepath.Join(base, "clash"), Path: "catalog"}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	ups, err := updateT(lifecycletest.Open(t, dir), "demo", UpdateOptions{ActOptions: lifecycletest.Agent})
	if !errors.Is(err, lifecycle.ErrConflict) || !strings.Contains(err.Error(), "catalog/alpha/SKILL.md") ||
		!strings.Contains(err.Error(), "skills/alpha/SKILL.md") {
		t.Fatalf("update: %v; want a conflict naming catalog/alpha/SKILL.md and skills/alpha/SKILL.md", err)
	}
	t.Logf("clash: %v", err)
	if len(ups[0].Candidates) != 1 || ups[0].Candidates[0].Skill != "other" || ups[0].Refused() {
		t.Fatalf("the rest of the pack: %+v", ups[0])
	}
	if st, err := List(lifecycletest.Open(t, dir)); err != nil || strings.Join(st[0].Skills, ",") != "other" {
		t.Fatalf("pack demo owns %+v (%v); want other only", st, err)
	}
	testenv.Fsck(t, dir)

	// A second pack may not bring a skill the first one owns.
	packSource(t, base, "second", map[string]string{"skills/beta/SKILL.md": testenv.SkillMD("beta", cleanLine, "Mine.")})
	packSource(t, base, "first", map[string]string{"skills/beta/SKILL.md": testenv.SkillMD("beta", cleanLine)})
	for _, p := range []policy.Pack{{Name: "first", URL: "file://" + filepath.Join(base, "first")}, {Name: "second", URL: "file://" + filepath.Join(base, "second")}} {
		if _, err := Add(lifecycletest.Open(t, dir), p, lifecycletest.Lead); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := updateT(lifecycletest.Open(t, dir), "first", UpdateOptions{ActOptions: lifecycletest.Agent}); err != nil {
		t.Fatal(err)
	}
	_, err = updateT(lifecycletest.Open(t, dir), "second", UpdateOptions{ActOptions: lifecycletest.Agent})
	if !errors.Is(err, lifecycle.ErrConflict) || !strings.Contains(err.Error(), "skills/beta/SKILL.md") || !strings.Contains(err.Error(), "pack first") ||
		!strings.Contains(err.Error(), "prefix") {
		t.Fatalf("second pack: %v; want a conflict naming both packs", err)
	}
	testenv.Fsck(t, dir)
}

func TestPackAddListRemove(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	r := lifecycletest.Open(t, dir)
	for _, bad := range []policy.Pack{
		{Name: "Bad Name", URL: "https://example.com/x"},
		{Name: "x", URL: "-oProxyCommand=touch /tmp/pwned"},
		{Name: "x", URL: "ext::sh -c touch% /tmp/pwned"},
		{Name: "x", URL: "ftp://example.com/x"},
		{Name: "x", URL: "https://example.com/x", Path: "../up"},
		{Name: "x", URL: "https://example.com/x", Ref: "bad..ref"},
	} {
		if _, err := Add(r, bad, lifecycletest.Lead); err == nil {
			t.Errorf("AddPack(%+v) accepted", bad)
		}
	}
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "demo", URL: "https://example.com/skills", Ref: "main", Path: "skills"}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "demo", URL: "https://example.com/other"}, lifecycletest.Lead); err == nil || !strings.Contains(err.Error(), "already recorded") {
		t.Fatalf("adding a pack twice: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "../packs/local"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "local", URL: "../packs/local"}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	cfg := readFile(t, filepath.Join(dir, policy.ConfigFile))
	if !strings.HasPrefix(cfg, "# skillgit repository configuration") || !strings.Contains(cfg, "{name: demo, url: 'https://example.com/skills', ref: main, path: skills}") {
		t.Fatalf("configuration after pack add:\n%s", cfg)
	}
	st, err := List(lifecycletest.Open(t, dir))
	if err != nil || len(st) != 2 || st[1].URL != "../packs/local" {
		t.Fatalf("packs: %+v %v", st, err)
	}
	if _, err := Remove(lifecycletest.Open(t, dir), "demo", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	if _, err := Remove(lifecycletest.Open(t, dir), "demo", lifecycletest.Lead); !errors.Is(err, lifecycle.ErrNotFound) {
		t.Fatalf("removing a removed pack: %v", err)
	}
	st, err = List(lifecycletest.Open(t, dir))
	if err != nil || len(st) != 1 || st[0].Name != "local" {
		t.Fatalf("packs after remove: %+v %v", st, err)
	}
	testenv.Fsck(t, dir)
}

// TestPackRemoveDropsPin removes a pack that was updated: its pin leaves the lock file and its
// skills stay published.
func TestPackRemoveDropsPin(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	base := t.TempDir()
	packSource(t, base, "p", map[string]string{"skills/solo/SKILL.md": testenv.SkillMD("solo", cleanLine)})
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "p", URL: "file://" + filepath.Join(base, "p")}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	ups, err := updateT(lifecycletest.Open(t, dir), "p", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil {
		t.Fatal(err)
	}
	id := ups[0].Candidates[0].ID
	if _, err := lifecycletest.Open(t, dir).Approve(id, "", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	if _, err := lifecycletest.Open(t, dir).Publish(id, "", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	if _, err := Remove(lifecycletest.Open(t, dir), "p", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	lock := readFile(t, filepath.Join(dir, LockFile))
	if strings.Contains(lock, "name: p") {
		t.Fatalf("lock after remove:\n%s", lock)
	}
	if _, err := lifecycletest.Open(t, dir).Published().Find("solo"); err != nil {
		t.Fatal(err)
	}
	testenv.Fsck(t, dir)
}

// TestPackModeDoesNotAutomate checks that a low-risk pack patch waits for a person even in
// autonomous mode.
func TestPackModeDoesNotAutomate(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	base := t.TempDir()
	src := packSource(t, base, "p", map[string]string{"skills/solo/SKILL.md": testenv.SkillMD("solo", cleanLine)})
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "p", URL: "file://" + src}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	lifecycletest.SetMode(t, dir, policy.ModeAutonomous)
	ups, err := updateT(lifecycletest.Open(t, dir), "p", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil || len(ups[0].Candidates) != 1 || ups[0].Candidates[0].State != lifecycle.StateOpen || len(ups[0].Candidates[0].Auto) != 0 {
		t.Fatalf("update in autonomous mode: %v %+v", err, ups)
	}
	testenv.Fsck(t, dir)
}

// TestPackRejectedNotProposedAgain checks that a rejected pack change is not proposed again
// until the pack changes the skill once more.
func TestPackRejectedNotProposedAgain(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	base := t.TempDir()
	src := packSource(t, base, "p", map[string]string{"skills/solo/SKILL.md": testenv.SkillMD("solo", cleanLine)})
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "p", URL: "file://" + src}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	ups, err := updateT(lifecycletest.Open(t, dir), "p", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil {
		t.Fatal(err)
	}
	id := ups[0].Candidates[0].ID
	if _, err := lifecycletest.Open(t, dir).Reject(id, "not for us", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	ups, err = updateT(lifecycletest.Open(t, dir), "p", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil || len(ups[0].Candidates) != 0 || !slices.Equal(ups[0].Rejected, []string{"solo (" + id + ")"}) {
		t.Fatalf("update after a rejection: %v %+v", err, ups)
	}
	testenv.WriteFiles(t, src, map[string]string{"skills/solo/SKILL.md": testenv.SkillMD("solo", cleanLine, "Better now.")})
	testenv.CommitAll(t, src, "v2")
	ups, err = updateT(lifecycletest.Open(t, dir), "p", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil || len(ups[0].Candidates) != 1 || ups[0].Candidates[0].Change != lifecycle.ChangeCreate {
		t.Fatalf("update after the pack changed: %v %+v", err, ups)
	}
	testenv.Fsck(t, dir)
}

// TestPackFollowsTag follows an annotated tag: the commit it names is fetched and pinned, not
// the branch tip.
func TestPackFollowsTag(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	base := t.TempDir()
	src := packSource(t, base, "p", map[string]string{"skills/solo/SKILL.md": testenv.SkillMD("solo", cleanLine)})
	tagged := testenv.GitIn(t, src, nil, "rev-parse", "HEAD")
	testenv.Git(t, src, "tag", "-a", "-m", "version 1", "v1")
	testenv.WriteFiles(t, src, map[string]string{"skills/solo/SKILL.md": testenv.SkillMD("solo", cleanLine, "Newer.")})
	testenv.CommitAll(t, src, "v2")
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "p", URL: "file://" + src, Ref: "v1"}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	ups, err := updateT(lifecycletest.Open(t, dir), "p", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil || ups[0].Fetched != tagged || ups[0].Ref != "refs/tags/v1" || len(ups[0].Candidates) != 1 {
		t.Fatalf("update of a tagged pack: %v %+v", err, ups)
	}
	got := testenv.GitIn(t, dir, nil, "show", "candidate/"+ups[0].Candidates[0].ID+":skills/solo/SKILL.md")
	if strings.Contains(got, "Newer.") {
		t.Fatalf("the candidate holds the branch tip, not the tag:\n%s", got)
	}
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "q", URL: "file://" + src, Ref: "nope"}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	if _, err := updateT(lifecycletest.Open(t, dir), "q", UpdateOptions{ActOptions: lifecycletest.Agent}); err == nil || !strings.Contains(err.Error(), `no branch or tag "nope"`) {
		t.Fatalf("update of a missing ref: %v", err)
	}
	testenv.Fsck(t, dir)
}

// TestProtectedPackAddProposes checks that with server.protect on, a pack's configuration is
// proposed as a policy candidate and the publish branch does not move.
func TestProtectedPackAddProposes(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	cfg := filepath.Join(dir, policy.ConfigFile)
	testenv.WriteFiles(t, dir, map[string]string{policy.ConfigFile: readFile(t, cfg) + "server:\n  protect: true\n"})
	testenv.CommitAll(t, dir, "protect")
	tip := testenv.GitIn(t, dir, nil, "rev-parse", "main")
	res, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "tools", URL: "https://example.com/tools.git"}, lifecycletest.Lead)
	if err != nil || res.ID == "" {
		t.Fatalf("Add under protect: %+v, %v; want a policy candidate", res, err)
	}
	if now := testenv.GitIn(t, dir, nil, "rev-parse", "main"); now != tip {
		t.Errorf("main moved from %s to %s", tip, now)
	}
}
