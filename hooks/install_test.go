package hooks

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInstallFreshRepo(t *testing.T) {
	dir := newRepo(t)
	exe := fakeSkillgit(t, filepath.Join(t.TempDir(), "log"), "")
	rep := mustInstall(t, Options{Dir: dir, Executable: exe})
	hooksDir := filepath.Join(dir, ".git", "hooks")
	if rep.Dir != hooksDir || rep.From != FromDefault || rep.ConfigFile != "" {
		t.Errorf("folder = %+v, want %s from the default", rep.Folder, hooksDir)
	}
	if got, want := changes(rep), "pre-commit=installed pre-push=installed"; got != want {
		t.Errorf("changes = %q, want %q", got, want)
	}
	for _, name := range []string{PreCommit, PrePush} {
		path := filepath.Join(hooksDir, name)
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v, want 0755", name, fi.Mode().Perm())
		}
		body := readFile(t, path)
		if !strings.HasPrefix(body, "#!/bin/sh\n"+Marker+"\n") || !strings.Contains(body, "'"+exe+"'") {
			t.Errorf("%s: shim does not start with the marker or lacks %s:\n%s", name, exe, body)
		}
	}
	if _, err := os.Stat(filepath.Join(hooksDir, PreReceive)); !os.IsNotExist(err) {
		t.Errorf("pre-receive installed in a repository with a working tree: %v", err)
	}
	if got, want := states(mustStatus(t, Options{Dir: dir})), "pre-commit=installed pre-push=installed"; got != want {
		t.Errorf("status = %q, want %q", got, want)
	}
}

func TestInstallTwiceChangesNothing(t *testing.T) {
	dir := newRepo(t)
	exe := fakeSkillgit(t, filepath.Join(t.TempDir(), "log"), "")
	mustInstall(t, Options{Dir: dir, Executable: exe})
	hooksDir := filepath.Join(dir, ".git", "hooks")
	before := readFile(t, filepath.Join(hooksDir, PreCommit))
	names := listDir(t, hooksDir)
	rep := mustInstall(t, Options{Dir: dir, Executable: exe})
	if got, want := changes(rep), "pre-commit=unchanged pre-push=unchanged"; got != want {
		t.Errorf("second install: changes = %q, want %q", got, want)
	}
	if diff := cmp.Diff(names, listDir(t, hooksDir)); diff != "" {
		t.Errorf("second install changed the hooks folder (-before +after):\n%s", diff)
	}
	if after := readFile(t, filepath.Join(hooksDir, PreCommit)); after != before {
		t.Errorf("second install rewrote the shim")
	}
	// Another program path updates the shims in place.
	other := fakeSkillgit(t, filepath.Join(t.TempDir(), "log"), "")
	rep = mustInstall(t, Options{Dir: dir, Executable: other})
	if got, want := changes(rep), "pre-commit=updated pre-push=updated"; got != want {
		t.Errorf("install with another program: changes = %q, want %q", got, want)
	}
	if !strings.Contains(readFile(t, filepath.Join(hooksDir, PreCommit)), other) {
		t.Errorf("the shim does not run %s", other)
	}
}

func TestInstallFromSubfolderAndGitDir(t *testing.T) {
	dir := newRepo(t)
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	exe := fakeSkillgit(t, filepath.Join(t.TempDir(), "log"), "")
	want := filepath.Join(dir, ".git", "hooks")
	for _, from := range []string{sub, filepath.Join(dir, ".git")} {
		rep := mustInstall(t, Options{Dir: from, Executable: exe})
		if rep.Dir != want {
			t.Errorf("from %s: hooks folder %s, want %s", from, rep.Dir, want)
		}
	}
}

func TestInstallHonoursHooksPath(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "shared-hooks")
	for _, tc := range []struct {
		name, value string
		want        func(repo string) string
	}{
		{"relative", "ci/hooks", func(repo string) string { return filepath.Join(repo, "ci", "hooks") }},
		{"absolute", abs, func(string) string { return abs }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			git(t, dir, "config", "core.hooksPath", tc.value)
			cfgPath := filepath.Join(dir, ".git", "config")
			cfgBefore := readFile(t, cfgPath)
			log := filepath.Join(t.TempDir(), "log")
			exe := fakeSkillgit(t, log, "")
			rep := mustInstall(t, Options{Dir: dir, Executable: exe})
			want := tc.want(dir)
			if rep.Dir != want || rep.From != FromHooksPath || rep.ConfigFile != cfgPath || rep.Shared {
				t.Errorf("folder = %+v, want %s from core.hooksPath in %s", rep.Folder, want, cfgPath)
			}
			if len(rep.Warnings) != 0 {
				t.Errorf("warnings for a repository's own core.hooksPath: %q", rep.Warnings)
			}
			st := mustStatus(t, Options{Dir: dir})
			if got := states(st); got != "pre-commit=installed pre-push=installed" || st.From != FromHooksPath {
				t.Errorf("status = %q from %s", got, st.From)
			}
			if _, err := os.Stat(filepath.Join(dir, ".git", "hooks", PreCommit)); !os.IsNotExist(err) {
				t.Errorf("a shim was written to .git/hooks although core.hooksPath is set: %v", err)
			}
			// git itself runs the shim from there.
			git(t, dir, "commit", "-q", "--allow-empty", "-m", "second")
			if got := readFile(t, log); got != "skillgit hook pre-commit\n" {
				t.Errorf("the shim ran as %q, want %q", got, "skillgit hook pre-commit\n")
			}
			mustUninstall(t, Options{Dir: dir})
			if got := readFile(t, cfgPath); got != cfgBefore {
				t.Errorf("the git config changed:\n%s\nwant:\n%s", got, cfgBefore)
			}
			if got := git(t, dir, "config", "core.hooksPath"); strings.TrimSpace(got) != tc.value {
				t.Errorf("core.hooksPath = %q, want %q", got, tc.value)
			}
		})
	}
}

func TestInstallGlobalHooksPathWarns(t *testing.T) {
	dir := newRepo(t)
	home := t.TempDir()
	global := filepath.Join(home, "gitconfig")
	hooksDir := filepath.Join(home, "hooks")
	writeFile(t, global, "[core]\n\thooksPath = ~/hooks\n", 0o644)
	env := map[string]string{"HOME": home, "GIT_CONFIG_GLOBAL": global, "GIT_CONFIG_NOSYSTEM": "1"}
	o := Options{Dir: dir, Executable: fakeSkillgit(t, filepath.Join(home, "log"), ""), Getenv: func(k string) string { return env[k] }}
	rep := mustInstall(t, o)
	if rep.Dir != hooksDir || rep.From != FromHooksPath || !rep.Shared || rep.ConfigFile != global {
		t.Errorf("folder = %+v, want %s shared, from %s", rep.Folder, hooksDir, global)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "every repository") {
		t.Errorf("warnings = %q, want one about every repository", rep.Warnings)
	}
	if got := states(mustStatus(t, o)); got != "pre-commit=installed pre-push=installed" {
		t.Errorf("status = %q", got)
	}
	// The repository's own setting wins over the global one.
	git(t, dir, "config", "core.hooksPath", "local-hooks")
	st := mustStatus(t, o)
	if want := filepath.Join(dir, "local-hooks"); st.Dir != want || st.Shared {
		t.Errorf("with a local core.hooksPath: folder = %+v, want %s", st.Folder, want)
	}
}

func TestInstallBareRepo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "srv.git")
	git(t, "", "init", "-q", "--bare", dir)
	exe := fakeSkillgit(t, filepath.Join(t.TempDir(), "log"), "")
	rep := mustInstall(t, Options{Dir: dir, Executable: exe})
	if got, want := changes(rep), "pre-receive=installed"; got != want {
		t.Errorf("changes = %q, want %q", got, want)
	}
	if rep.Dir != filepath.Join(dir, "hooks") {
		t.Errorf("hooks folder %s, want %s", rep.Dir, filepath.Join(dir, "hooks"))
	}
	// A relative core.hooksPath is relative to the git directory of a bare repository.
	git(t, dir, "config", "core.hooksPath", "custom")
	rep = mustInstall(t, Options{Dir: dir, Executable: exe})
	if want := filepath.Join(dir, "custom"); rep.Dir != want || !slices.Contains(listDir(t, want), PreReceive) {
		t.Errorf("hooks folder %s, want %s with pre-receive", rep.Dir, want)
	}
}

func TestInstallRefusesReplacedShim(t *testing.T) {
	dir := newRepo(t)
	hooksDir := filepath.Join(dir, ".git", "hooks")
	writeFile(t, filepath.Join(hooksDir, PreCommit), "#!/bin/sh\necho first\n", 0o755)
	exe := fakeSkillgit(t, filepath.Join(t.TempDir(), "log"), "")
	mustInstall(t, Options{Dir: dir, Executable: exe})
	// Another tool replaces the shim; the hook kept aside is still there.
	replaced := "#!/bin/sh\necho second\n"
	writeFile(t, filepath.Join(hooksDir, PreCommit), replaced, 0o755)
	pushBefore := readFile(t, filepath.Join(hooksDir, PrePush))
	_, err := Install(Options{Dir: dir, Executable: exe})
	if err == nil {
		t.Fatal("Install over a replaced shim succeeded")
	}
	for _, want := range []string{filepath.Join(hooksDir, PreCommit), filepath.Join(hooksDir, PreCommit+ChainedSuffix)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if got := readFile(t, filepath.Join(hooksDir, PreCommit)); got != replaced {
		t.Errorf("the replacing hook changed: %q", got)
	}
	if got := readFile(t, filepath.Join(hooksDir, PreCommit+ChainedSuffix)); got != "#!/bin/sh\necho first\n" {
		t.Errorf("the chained hook changed: %q", got)
	}
	if got := readFile(t, filepath.Join(hooksDir, PrePush)); got != pushBefore {
		t.Errorf("pre-push changed although install refused")
	}
	st := mustStatus(t, Options{Dir: dir})
	if st.Hooks[0].State != StateForeign || st.Hooks[0].Chained == "" {
		t.Errorf("status of the replaced shim = %+v, want foreign with a chained file", st.Hooks[0])
	}
}

func TestInstallRefusesFolderAsHook(t *testing.T) {
	dir := newRepo(t)
	if err := os.MkdirAll(filepath.Join(dir, ".git", "hooks", PrePush), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Install(Options{Dir: dir, Executable: "/bin/true"})
	if err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("Install with a folder as pre-push: err = %v, want one saying it is a folder", err)
	}
}

func TestInstallOutsideRepository(t *testing.T) {
	_, err := Install(Options{Dir: t.TempDir(), Executable: "/bin/true"})
	if err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("Install outside a repository: err = %v", err)
	}
}
