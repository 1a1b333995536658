package agentsync

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/catalog"
)

// TestParseSyncFile checks that a sync file is read strictly and that each fault is named.
func TestParseSyncFile(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"full", "repository: ../skills\nchannel: canary\nagents: [claude-code]\nprofile: backend\n", ""},
		{"skills", "repository: https://example.com/s.git\nagents: [codex]\nskills: [pdf, docx]\n", ""},
		{"unknown key", "repository: x\nagent: [codex]\n", "line 2: unknown key agent"},
		{"no repository", "agents: [codex]\n", "repository: is missing"},
		{"branch", "repository: x\nbranch: release\n", ""},
		{"bad branch", "repository: x\nbranch: ../up\n", `branch: "../up" is not a branch name`},
		{"bad channel", "repository: x\nchannel: beta\n", `channel: "beta" is not one of main, canary`},
		{"both", "repository: x\nprofile: p\nskills: [a]\n", "profile: and skills: do not go together"},
		{"bad skill", "repository: x\nskills: [../up]\n", "skills: "},
		{"bad agent id", "repository: x\nagents: [a/b]\n", `agents: "a/b" is not an agent id`},
		{"empty", "", "the file is empty"},
		{"not a map", "- a\n", "cannot unmarshal"},
		{"password in url", "repository: https://ci:s3cr3t@gitlab.com/t/s.git\n", "repository: https://ci:***@gitlab.com/t/s.git: the URL holds a password or token"},
		{"token in url", "repository: https://ghp_0123456789abcdefghijklmnopqrstuvwxyz@github.com/t/s\n", "repository: https://***@github.com/t/s: the URL holds a password or token, which would be written into every file that records the URL; remove it and set GH_TOKEN or GITHUB_TOKEN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sf, err := ParseSyncFile([]byte(tc.data), "app/.skillgit-sync.yaml")
			if tc.want == "" {
				if err != nil || sf == nil {
					t.Fatalf("ParseSyncFile: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "app/.skillgit-sync.yaml: ") {
				t.Fatalf("error %v; want one naming the file and containing %q", err, tc.want)
			}
		})
	}
}

// TestCheckAgents checks that an agent missing from the table is named with the file.
func TestCheckAgents(t *testing.T) {
	table, err := catalog.Agents(nil)
	if err != nil {
		t.Fatal(err)
	}
	sf := &SyncFile{Repository: "x", Agents: []string{"claude-code", "nobody"}}
	err = sf.CheckAgents(table, "f.yaml")
	if err == nil || !strings.Contains(err.Error(), `f.yaml: agents: unknown agent "nobody"`) {
		t.Fatalf("CheckAgents: %v", err)
	}
	sf.Agents = sf.Agents[:1]
	if err := sf.CheckAgents(table, "f.yaml"); err != nil {
		t.Fatalf("CheckAgents: %v", err)
	}
}

// TestReadSyncFileBounds checks that an oversized file and a link are refused.
func TestReadSyncFileBounds(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	data := "repository: x\n# " + strings.Repeat("a", maxSyncFileSize) + "\n"
	if err := os.WriteFile(big, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSyncFile(big); err == nil || !strings.Contains(err.Error(), "larger than 64 KiB") {
		t.Fatalf("oversized file: %v", err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(big, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSyncFile(link); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("link: %v", err)
	}
}

// TestFindSyncFile checks that the search walks up to the folder that holds .git and no
// further.
func TestFindSyncFile(t *testing.T) {
	root := t.TempDir()
	app := filepath.Join(root, "app")
	deep := filepath.Join(app, "src", "pkg")
	for _, d := range []string{deep, filepath.Join(app, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, SyncFileName), []byte("repository: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, found, err := FindSyncFile(deep); err != nil || found {
		t.Fatalf("found %s (%v) above the project's top", f, err)
	}
	want := filepath.Join(app, SyncFileName)
	if err := os.WriteFile(want, []byte("repository: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, found, err := FindSyncFile(deep); err != nil || !found || f != want {
		t.Fatalf("FindSyncFile = %s %v %v; want %s", f, found, err, want)
	}
}

// TestIsGitURL checks the forms that name a repository by URL.
func TestIsGitURL(t *testing.T) {
	for s, want := range map[string]bool{
		"https://example.com/s.git": true, "http://h/s": true, "ssh://git@h/s": true,
		"git://127.0.0.1:9418/s": true, "file:///srv/s": true, "git@github.com:org/s.git": true,
		"../skills": false, "/srv/skills": false, "skills": false, "c:/x": false, "a@b": false, "-oProxyCommand=x@h:p": false,
	} {
		if got := IsGitURL(s); got != want {
			t.Errorf("IsGitURL(%q) = %v; want %v", s, got, want)
		}
	}
}

// TestCacheDir checks that two URLs get folders of their own, named by 16 hex digits.
func TestCacheDir(t *testing.T) {
	a, b := CacheDir("/c", "https://h/a"), CacheDir("/c", "https://h/b")
	if a == b || len(filepath.Base(a)) != 16 || filepath.Dir(a) != "/c" {
		t.Fatalf("CacheDir: %s and %s", a, b)
	}
	if a != CacheDir("/c", "https://h/a") {
		t.Fatal("CacheDir is not stable")
	}
}
