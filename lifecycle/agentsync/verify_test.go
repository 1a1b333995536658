package agentsync

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/filenames"
	"github.com/skillgit/skillgit/internal/testenv"
)

// The helpers shared with the other packages built on lifecycle.
var (
	verifyGit = testenv.GitIsolated
)

// verifyProjectFixture makes a skill repository with n skills and a project at
// project/app that has them installed in .claude/skills and .agents/skills, with a lock
// whose tree ids git computed.
func verifyProjectFixture(t testing.TB, n int) (project string) {
	t.Helper()
	top := t.TempDir()
	repo := filepath.Join(top, "skills")
	project = filepath.Join(top, "app")
	body := strings.Repeat("Use this skill when the task needs it; read the references first.\n", 50)
	for i := range n {
		d := filepath.Join(repo, "skills", fmt.Sprintf("skill-%04d", i))
		mustWrite(t, filepath.Join(d, "SKILL.md"), fmt.Sprintf("---\nname: skill-%04d\ndescription: Skill %d.\n---\n%s", i, i, body))
		mustWrite(t, filepath.Join(d, "references", "a.md"), body[:1500])
		mustWrite(t, filepath.Join(d, "references", "b.md"), body[:900]+fmt.Sprint(i))
	}
	verifyGit(t, repo, "init", "-q")
	verifyGit(t, repo, "add", "-A")
	verifyGit(t, repo, "commit", "-q", "-m", "skills")
	commit := verifyGit(t, repo, "rev-parse", "HEAD")
	lock := &Lock{Repository: "../skills", Channel: "main", Commit: commit,
		Targets: []LockTarget{{Agent: "claude-code", Dir: ".claude/skills"}, {Agent: "codex", Dir: ".agents/skills"}}}
	for _, line := range strings.Split(verifyGit(t, repo, "ls-tree", "-d", "HEAD", "skills/"), "\n") {
		f := strings.Fields(line)
		lock.Skills = append(lock.Skills, LockedSkill{Name: strings.TrimPrefix(f[3], "skills/"), Tree: f[2], Commit: commit})
	}
	for _, tgt := range lock.Targets {
		if err := os.CopyFS(filepath.Join(project, tgt.Dir), os.DirFS(filepath.Join(repo, "skills"))); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(t, filepath.Join(project, SyncFileName), "repository: ../skills\nagents: [claude-code, codex]\n")
	if err := WriteLock(filepath.Join(project, LockFileName), lock); err != nil {
		t.Fatal(err)
	}
	return project
}

func mustWrite(t testing.TB, file, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func problems(rep *VerifyReport) string {
	var b strings.Builder
	for _, p := range rep.Problems {
		fmt.Fprintf(&b, "%s %s", p.Kind, p.Path)
		for _, f := range p.Files {
			fmt.Fprintf(&b, " [%s %s]", f.Change, f.Path)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestVerify(t *testing.T) {
	project := verifyProjectFixture(t, 4)
	rep, err := Verify(VerifyRequest{Dir: filepath.Join(project, ".claude")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 0 || rep.Skills != 4 || rep.Targets != 2 || rep.Project != project {
		t.Fatalf("all as locked: %+v", rep)
	}
	claude := filepath.Join(project, ".claude", "skills")
	agents := filepath.Join(project, ".agents", "skills")
	mustWrite(t, filepath.Join(claude, "skill-0000", "references", "a.md"), "changed")
	if err := os.Chmod(filepath.Join(claude, "skill-0001", "SKILL.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(agents, "skill-0002")); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(agents, "mine", "SKILL.md"), "x")
	mustWrite(t, filepath.Join(agents, filenames.Manifest), "{}")
	if err := os.Remove(filepath.Join(claude, "skill-0003", "references", "b.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.md", filepath.Join(claude, "skill-0003", "references", "b.md")); err != nil {
		t.Fatal(err)
	}
	rep, err = Verify(VerifyRequest{Dir: t.TempDir(), Project: project, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := `foreign .agents/skills/mine
missing .agents/skills/skill-0002
modified .claude/skills/skill-0000 [modified references/a.md]
modified .claude/skills/skill-0001 [mode SKILL.md]
type .claude/skills/skill-0003 [type references/b.md]
`
	if got := problems(rep); got != want {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
}

func TestVerifyNamesFilesFromTheRepositoryAndWorksWithout(t *testing.T) {
	project := verifyProjectFixture(t, 2)
	for _, d := range []string{".claude/skills", ".agents/skills"} {
		mustWrite(t, filepath.Join(project, d, "skill-0001", "extra.md"), "x")
	}
	rep, err := Verify(VerifyRequest{Project: project})
	if err != nil {
		t.Fatal(err)
	}
	want := "modified .agents/skills/skill-0001 [added extra.md]\nmodified .claude/skills/skill-0001 [added extra.md]\n"
	if got := problems(rep); got != want {
		t.Errorf("with the repository:\n%s\nwant:\n%s", got, want)
	}
	if err := os.Rename(filepath.Join(project, "..", "skills"), filepath.Join(project, "..", "gone")); err != nil {
		t.Fatal(err)
	}
	rep, err = Verify(VerifyRequest{Project: project})
	if err != nil {
		t.Fatal(err)
	}
	want = "modified .agents/skills/skill-0001\nmodified .claude/skills/skill-0001\n"
	if got := problems(rep); got != want {
		t.Errorf("without the repository:\n%s\nwant:\n%s", got, want)
	}
}

func TestVerifyWritesNothing(t *testing.T) {
	project := verifyProjectFixture(t, 3)
	mustWrite(t, filepath.Join(project, ".claude/skills/skill-0000/SKILL.md"), "edited")
	before := listTree(t, filepath.Dir(project))
	if _, err := Verify(VerifyRequest{Project: project}); err != nil {
		t.Fatal(err)
	}
	if after := listTree(t, filepath.Dir(project)); after != before {
		t.Errorf("verify changed the files:\n%s\n---\n%s", before, after)
	}
}

func listTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		data := []byte{}
		if fi.Mode().IsRegular() {
			if data, err = os.ReadFile(p); err != nil {
				return err
			}
		}
		fmt.Fprintf(&b, "%s %v %d %s %x\n", p, fi.Mode(), fi.Size(), fi.ModTime(), data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestVerifyTargetMissingAndNoLock(t *testing.T) {
	project := verifyProjectFixture(t, 2)
	if err := os.RemoveAll(filepath.Join(project, ".agents")); err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(VerifyRequest{Project: project})
	if err != nil {
		t.Fatal(err)
	}
	if got := problems(rep); got != "target-missing .agents/skills\n" {
		t.Errorf("problems:\n%s", got)
	}
	if err := os.Remove(filepath.Join(project, LockFileName)); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(VerifyRequest{Project: project}); err == nil || !strings.Contains(err.Error(), "no lock file") {
		t.Errorf("err = %v", err)
	}
}

// BenchmarkVerify hashes 1,000 installed skills (a SKILL.md of a few KiB and two reference
// files each) in one target against the lock.
func BenchmarkVerify(b *testing.B) {
	project := verifyProjectFixture(b, 1000)
	if err := os.RemoveAll(filepath.Join(project, ".agents")); err != nil {
		b.Fatal(err)
	}
	lock, _, err := ReadLock(filepath.Join(project, LockFileName))
	if err != nil {
		b.Fatal(err)
	}
	lock.Targets = lock.Targets[1:]
	if err := WriteLock(filepath.Join(project, LockFileName), lock); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		rep, err := Verify(VerifyRequest{Project: project})
		if err != nil || len(rep.Problems) != 0 {
			b.Fatalf("%v %v", err, rep.Problems)
		}
	}
}
