package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTransient(t *testing.T) {
	dirs := []string{"/tmp", "", "/home/ada/.cache/go-build", "/scratch/gotmp"}
	tests := []struct {
		exe  string
		want bool
	}{
		{"/tmp/go-build1234567/b001/exe/skillgit", true},
		{"/tmp/skillgit-test/skillgit", true},
		{"/home/ada/.cache/go-build/ab/abcdef-d/skillgit", true},
		{"/scratch/gotmp/b001/skillgit.test", true},
		{"/var/folders/xy/T/go-build987/b001/exe/skillgit", true},
		{"/home/ada/go/bin/skillgit", false},
		{"/usr/local/bin/skillgit", false},
		{"/tmpfiles/skillgit", false},
		{"/tmp", false},
		{"/home/ada/.cache/go-buildings/skillgit", false},
		{"/opt/go-build/skillgit", true},
	}
	for _, tt := range tests {
		if got := transient(tt.exe, dirs); got != tt.want {
			t.Errorf("transient(%q) = %v, want %v", tt.exe, got, tt.want)
		}
	}
}

func TestTransientThroughSymlink(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "tmp-link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if !transient(filepath.Join(real, "skillgit"), []string{link}) {
		t.Errorf("a program under the resolved temporary folder is not transient")
	}
}

func TestBuildDirs(t *testing.T) {
	env := map[string]string{"GOTMPDIR": "/scratch/gotmp", "GOCACHE": "/scratch/cache"}
	dirs := buildDirs(func(k string) string { return env[k] })
	for _, want := range []string{os.TempDir(), "/scratch/gotmp", "/scratch/cache"} {
		if !strings.Contains(strings.Join(dirs, "\n")+"\n", want+"\n") {
			t.Errorf("buildDirs() = %q, lacks %s", dirs, want)
		}
	}
}

// TestInstallFromTestBinaryUsesPath installs with no program named, from this test binary,
// which the go command built into a throwaway folder: the shims look skillgit up on PATH.
func TestInstallFromTestBinaryUsesPath(t *testing.T) {
	dir := newRepo(t)
	mustInstall(t, Options{Dir: dir})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	body := readFile(t, filepath.Join(dir, ".git", "hooks", PreCommit))
	if strings.Contains(body, self) || strings.Contains(body, "go-build") || !strings.Contains(body, "skillgit=$(command -v skillgit)") {
		t.Fatalf("the shim does not take skillgit from PATH:\n%s", body)
	}
	tmp := t.TempDir()
	log := filepath.Join(tmp, "log")
	writeFile(t, filepath.Join(tmp, "bin", "skillgit"), readFile(t, fakeSkillgit(t, log, "")), 0o755)
	path := "PATH=" + filepath.Join(tmp, "bin") + ":" + os.Getenv("PATH")
	if _, err := gitErr(dir, []string{path}, "commit", "-q", "--allow-empty", "-m", "second"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, log); got != "skillgit hook pre-commit\n" {
		t.Errorf("skillgit on PATH ran as %q", got)
	}
	_, err = gitErr(dir, []string{"PATH=/usr/bin:/bin"}, "commit", "-q", "--allow-empty", "-m", "third")
	if err == nil || !strings.Contains(err.Error(), "skillgit is not on PATH") {
		t.Errorf("commit without skillgit: err = %v", err)
	}
}

func TestShimWithProgramKeepsItsPath(t *testing.T) {
	body := string(shim(PreCommit, "/usr/local/bin/skillgit"))
	if !strings.Contains(body, "skillgit='/usr/local/bin/skillgit'\n") {
		t.Errorf("the shim does not run the program named:\n%s", body)
	}
}
