package agentsync

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
)

// partialSkills is how many flat skills the served repository holds; it also holds
// tools/pdf, a skill in a category folder.
const partialSkills = 12

// partialServer makes a skill repository (see partialRepository), serves its bare copy with
// git daemon, and returns the work tree, the bare copy and its URL.
func partialServer(t *testing.T, allowFilter bool) (work, bare, url string) {
	t.Helper()
	work, bare = partialRepository(t, allowFilter)
	return work, bare, testenv.GitDaemon(t, filepath.Dir(bare)) + "skills.git"
}

// partialRepository makes a skill repository of partialSkills skills (sNN, each with a
// SKILL.md and a notes file) and tools/pdf, and a bare copy skills.git of it alone in a
// folder, with uploadpack.allowFilter as allowFilter says; it returns both.
func partialRepository(t *testing.T, allowFilter bool) (work, bare string) {
	t.Helper()
	work = filepath.Join(t.TempDir(), "work")
	if _, err := initrepo.Init(initrepo.Options{Dir: work}); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"skills/tools/pdf/SKILL.md": testenv.SkillMD("pdf")}
	for i := 1; i <= partialSkills; i++ {
		name := fmt.Sprintf("s%02d", i)
		files["skills/"+name+"/SKILL.md"] = testenv.SkillMD(name)
		files["skills/"+name+"/notes.md"] = "Notes of " + name + ".\n"
	}
	testenv.WriteFiles(t, work, files)
	testenv.CommitAll(t, work, "add the skills")
	base := t.TempDir()
	bare = filepath.Join(base, "skills.git")
	testenv.Git(t, base, "clone", "-q", "--bare", work, bare)
	testenv.Git(t, bare, "config", "uploadpack.allowFilter", fmt.Sprint(allowFilter))
	return work, bare
}

// appProject makes an application project that installs skills (by name) from url for
// Claude Code, and returns its folder.
func appProject(t *testing.T, url string, skills ...string) string {
	t.Helper()
	project := t.TempDir()
	testenv.Git(t, project, "init", "-q")
	setSelection(t, project, url, skills...)
	return project
}

// setSelection writes the project's sync file, selecting skills.
func setSelection(t *testing.T, project, url string, skills ...string) {
	t.Helper()
	sf := fmt.Sprintf("repository: %s\nagents: [claude-code]\nskills: [%s]\n", url, strings.Join(skills, ", "))
	testenv.WriteFiles(t, project, map[string]string{SyncFileName: sf})
}

// syncProject syncs the project with lock mode mode and fails the test on an error.
func syncProject(t *testing.T, project string, mode LockMode) *Report {
	t.Helper()
	rep, err := Run(Request{Dir: project, Getenv: os.Getenv, Lock: mode})
	if err != nil {
		t.Fatalf("sync: %v", err)
	}
	return rep
}

// cacheObjects lists the objects the cached clone of url holds, by type; listing them never
// fetches one.
func cacheObjects(t *testing.T, url string) map[string][]string {
	t.Helper()
	root, err := cacheRoot()
	if err != nil {
		t.Fatal(err)
	}
	out := testenv.GitText(t, CacheDir(root, url), "cat-file", "--batch-all-objects", "--batch-check=%(objecttype) %(objectname)")
	objs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		typ, id, _ := strings.Cut(line, " ")
		objs[typ] = append(objs[typ], id)
	}
	return objs
}

// cachedLevel is the skillgit.partial of the cached clone of url.
func cachedLevel(t *testing.T, url string) string {
	t.Helper()
	root, _ := cacheRoot()
	repo, err := git.PlainOpen(CacheDir(root, url))
	if err != nil {
		t.Fatal(err)
	}
	return cacheLevel(repo)
}

// objectOf is the id of rev (such as main:skills/s01/SKILL.md) in repository dir.
func objectOf(t *testing.T, dir, rev string) string {
	t.Helper()
	return strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", rev))
}

// holds reports which of the skills' SKILL.md (at main of bare) the cache holds, by name.
func holds(t *testing.T, objs map[string][]string, bare string, skills ...string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, s := range skills {
		p := "skills/" + s
		if s == "pdf" {
			p = "skills/tools/pdf"
		}
		out[s] = slices.Contains(objs["blob"], objectOf(t, bare, "main:"+p+"/SKILL.md"))
	}
	return out
}

// installedSkills fails the test unless the project's Claude Code folder holds exactly skills.
func installedSkills(t *testing.T, project string, skills ...string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(project, ".claude", "skills"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			got = append(got, e.Name())
		}
	}
	slices.Sort(skills)
	if !slices.Equal(got, skills) {
		t.Fatalf("installed %v; want %v", got, skills)
	}
}

func hasNote(rep *Report) bool {
	return slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, "does not allow partial fetch") })
}

// firstPartialSync serves a skill repository (see partialServer) to a project that selects
// s01 and s02, syncs it for the first time, with a cache of its own, and checks that both are
// installed.
func firstPartialSync(t *testing.T, allowFilter bool) (work, bare, url, project string, rep *Report) {
	t.Helper()
	testenv.Hermetic(t, map[string]string{"XDG_CACHE_HOME": t.TempDir()})
	work, bare, url = partialServer(t, allowFilter)
	project = appProject(t, url, "s01", "s02")
	rep = syncProject(t, project, LockInstall)
	installedSkills(t, project, "s01", "s02")
	return work, bare, url, project, rep
}

// TestPartialFetch checks a sync from a server that allows filters: the cache holds the
// files of the selected skills only, a fresh cache that installs from the lock holds not even
// the folders of the others, a selection that grows installs the new skills (one in a
// category folder) and fetches their files, and all of it still works after the server is
// repacked.
func TestPartialFetch(t *testing.T) {
	work, bare, url, project, rep := firstPartialSync(t, true)
	if hasNote(rep) {
		t.Errorf("a note that the server refused the filter: %q", rep.Warnings)
	}
	objs := cacheObjects(t, url)
	want := map[string]bool{"s01": true, "s02": true, "s03": false, "s12": false, "pdf": false}
	if got := holds(t, objs, bare, "s01", "s02", "s03", "s12", "pdf"); !maps(got, want) {
		t.Fatalf("the cache holds the SKILL.md of %v; want %v", got, want)
	}
	// Beside the selected skills' four files, the cache holds the configuration files of the
	// branch at most: not one file of the other skills.
	if n := len(objs["blob"]); n > 4+3 {
		t.Errorf("the cache holds %d files: %v", n, objs["blob"])
	}
	// The first sync moved the lock, which reads the ledger's history: every tree is there.
	if got := cachedLevel(t, url); got != filterTrees {
		t.Errorf("cache level %q; want %q", got, filterTrees)
	}
	// git's housekeeping in the clone, which drops what a partial clone got unfiltered,
	// keeps what the sync fetched.
	root, _ := cacheRoot()
	testenv.Git(t, CacheDir(root, url), "-c", "remote.origin.promisor=true", "gc", "-q", "--prune=now")
	if got := holds(t, cacheObjects(t, url), bare, "s01"); !got["s01"] {
		t.Errorf("git gc dropped the SKILL.md of s01 from the cache")
	}

	// Offline, a skill the selection adds, which the cache lacks, is an error that says to
	// sync online.
	setSelection(t, project, url, "s01", "s02", "s05")
	if _, err := Run(Request{Dir: project, Getenv: os.Getenv, Lock: LockUpdate, Offline: true}); err == nil ||
		!strings.Contains(err.Error(), "not object "+objectOf(t, bare, "main:skills/s05")) {
		t.Errorf("an offline sync of a skill the cache lacks: %v", err)
	}
	setSelection(t, project, url, "s01", "s02")

	// A fresh clone of the project, with its lock, and a fresh cache: only the locked skills'
	// folders are fetched, not the trees of the others.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	syncProject(t, project, LockFrozen)
	objs = cacheObjects(t, url)
	if slices.Contains(objs["tree"], objectOf(t, bare, "main:skills/s03")) {
		t.Errorf("a sync from the lock fetched the folder of s03, which the project does not select")
	}
	if got := cachedLevel(t, url); got != filterExact {
		t.Errorf("cache level %q after a sync from the lock; want %q", got, filterExact)
	}

	// Offline, what the cache lacks is an error that says to sync online: the history that
	// --update reads.
	if _, err := Run(Request{Dir: project, Getenv: os.Getenv, Lock: LockUpdate, Offline: true}); err == nil ||
		!strings.Contains(err.Error(), "not the history of the publish branch") || !strings.Contains(err.Error(), "sync once without --offline") {
		t.Errorf("an offline --update from a cache without history: %v", err)
	}

	// The selection grows, with a skill in a category folder.
	setSelection(t, project, url, "s01", "s02", "s03", "pdf")
	syncProject(t, project, LockUpdate)
	installedSkills(t, project, "s01", "s02", "s03", "pdf")
	want = map[string]bool{"s01": true, "s02": true, "s03": true, "s12": false, "pdf": true}
	if got := holds(t, cacheObjects(t, url), bare, "s01", "s02", "s03", "s12", "pdf"); !maps(got, want) {
		t.Fatalf("after the selection grew, the cache holds the SKILL.md of %v; want %v", got, want)
	}

	// The server publishes a new s01 and is repacked; the update and a grown selection install.
	testenv.WriteFiles(t, work, map[string]string{"skills/s01/SKILL.md": testenv.SkillMD("s01", "Version two.")})
	testenv.CommitAll(t, work, "s01, version two")
	testenv.Git(t, work, "push", "-q", bare, "main")
	testenv.Git(t, bare, "repack", "-a", "-d", "-b", "-q")
	testenv.Git(t, bare, "gc", "-q", "--prune=now")
	setSelection(t, project, url, "s01", "s02", "s03", "pdf", "s04")
	syncProject(t, project, LockUpdate)
	installedSkills(t, project, "s01", "s02", "s03", "pdf", "s04")
	b, err := os.ReadFile(filepath.Join(project, ".claude", "skills", "s01", "SKILL.md"))
	if err != nil || !strings.Contains(string(b), "Version two.") {
		t.Fatalf("s01 after the update: %q, %v", b, err)
	}
	if got := holds(t, cacheObjects(t, url), bare, "s12"); got["s12"] {
		t.Errorf("the cache holds s12, which the project never selected")
	}
}

// TestPartialFetchRefused checks a sync from a server that does not allow filters: it
// installs, with a note, from a cache that holds everything.
func TestPartialFetchRefused(t *testing.T) {
	_, bare, url, project, rep := firstPartialSync(t, false)
	if !hasNote(rep) {
		t.Errorf("no note that the server refused the filter: %q", rep.Warnings)
	}
	if got := holds(t, cacheObjects(t, url), bare, "s12"); !got["s12"] {
		t.Errorf("the cache does not hold s12: the server sent everything")
	}
	if got := cachedLevel(t, url); got != "" {
		t.Errorf("cache level %q; want none, a whole clone", got)
	}
	setSelection(t, project, url, "s01", "s02", "s03")
	syncProject(t, project, LockUpdate)
	installedSkills(t, project, "s01", "s02", "s03")
}

// maps reports whether a and b hold the same keys and values.
func maps(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestPartialFetchCredentials checks a partial fetch from a private server over HTTPS: the
// git command sends the token of the host's variable, or what git's credential helper gave,
// and fetches the selected skills alone.
func TestPartialFetchCredentials(t *testing.T) {
	for _, via := range []string{"token", "helper"} {
		t.Run(via, func(t *testing.T) {
			home := testenv.Hermetic(t, map[string]string{"XDG_CACHE_HOME": t.TempDir(), "GITLAB_TOKEN": "", "GITLAB_HOST": ""})
			_, bare := partialRepository(t, true)
			srv := testenv.ServeGitHTTPS(t, filepath.Dir(bare), map[string]string{"alice": "helper-secret-7", "oauth2": "glpat-partial-token-1"})
			t.Setenv("GIT_SSL_CAINFO", srv.CAFile)
			log := filepath.Join(t.TempDir(), "helper.log")
			if via == "token" {
				t.Setenv("GITLAB_HOST", strings.TrimPrefix(srv.URL, "https://"))
				t.Setenv("GITLAB_TOKEN", "glpat-partial-token-1")
			} else {
				helper := filepath.Join(home, "helper.sh")
				testenv.WriteFiles(t, home, map[string]string{"helper.sh": "#!/bin/sh\necho \"$1\" >> " + log + "\ncat >/dev/null\n[ \"$1\" = get ] && printf 'username=alice\\npassword=helper-secret-7\\n'\nexit 0\n"})
				if err := os.Chmod(helper, 0o755); err != nil {
					t.Fatal(err)
				}
				cfg := filepath.Join(home, "gitconfig")
				testenv.WriteFiles(t, home, map[string]string{"gitconfig": "[credential]\n\thelper = " + helper + "\n"})
				t.Setenv("GIT_CONFIG_GLOBAL", cfg)
			}
			url := srv.URL + "/skills.git"
			project := appProject(t, url, "s01", "s02")
			syncProject(t, project, LockInstall)
			installedSkills(t, project, "s01", "s02")
			want := map[string]bool{"s01": true, "s03": false}
			if got := holds(t, cacheObjects(t, url), bare, "s01", "s03"); !maps(got, want) {
				t.Errorf("the cache holds the SKILL.md of %v; want %v", got, want)
			}
			user := map[string]string{"token": "oauth2", "helper": "alice"}[via]
			for _, seen := range srv.Seen() {
				if seen != user+" 200" && seen != "- 401" {
					t.Errorf("the server saw %q; want %s only", srv.Seen(), user)
					break
				}
			}
			if b, _ := os.ReadFile(log); via == "helper" && string(b) != "get\nstore\n" {
				t.Errorf("the helper was asked %q; want once, by the listing, and told it worked", b)
			}
		})
	}
}
