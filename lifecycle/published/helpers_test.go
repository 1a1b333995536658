package published

import (
	"maps"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// cleanLine is a line of a skill's body that the audit finds nothing in.
const cleanLine = "Use the date command to print the date."

// newRepo makes a git repository with a working tree whose branch main holds the default
// configuration and files, and returns its folder.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	testenv.Hermetic(t, nil)
	dir := filepath.Join(t.TempDir(), "repo")
	testenv.Git(t, filepath.Dir(dir), "init", "-q", dir)
	all := map[string]string{policy.ConfigFile: string(policy.DefaultConfig("main").Marshal())}
	maps.Copy(all, files)
	testenv.WriteFiles(t, dir, all)
	testenv.CommitAll(t, dir, "skills")
	return dir
}

// profileRepo is a repository with alpha, beta and gamma on main and the given profiles.
func profileRepo(t *testing.T, profiles map[string][]string) string {
	t.Helper()
	cfg := policy.DefaultConfig("main")
	cfg.Profiles = profiles
	return newRepo(t, map[string]string{
		policy.ConfigFile:           string(cfg.Marshal()),
		"skills/alpha/SKILL.md":     testenv.SkillMD("alpha", cleanLine),
		"skills/beta/SKILL.md":      testenv.SkillMD("beta", cleanLine),
		"skills/cat/gamma/SKILL.md": testenv.SkillMD("gamma", cleanLine),
	})
}

// openGit opens the repository in dir and closes it when the test ends.
func openGit(t testing.TB, dir string) *gitstore.Repo {
	t.Helper()
	g, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// channel reads what main publishes in the repository in dir, under the configuration main
// holds.
func channel(t testing.TB, dir string) *Channel {
	t.Helper()
	g := openGit(t, dir)
	tip, err := g.Refs().Get("refs/heads/main")
	if err != nil {
		t.Fatal(err)
	}
	c, err := g.Objects().Commit(tip)
	if err != nil {
		t.Fatal(err)
	}
	data, _, err := g.Objects().FileAt(c.TreeHash, policy.ConfigFile, policy.MaxConfigSize, "main")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := policy.ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	return New(g, Version{Branch: "refs/heads/main", Commit: tip, Tree: c.TreeHash, Config: cfg}, nil)
}

// mustFind returns the skill name that main publishes in the repository in dir.
func mustFind(t *testing.T, dir, name string) *catalog.Skill {
	t.Helper()
	s, err := channel(t, dir).Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// skillsTree is the tree of the skills folder on main.
func skillsTree(t *testing.T, c *Channel) gitstore.Hash {
	t.Helper()
	e, ok, err := c.git.Objects().EntryAt(c.v.Tree, c.v.Config.SkillsDir)
	if err != nil || !ok {
		t.Fatalf("%s on main: %v, found %v", c.v.Config.SkillsDir, err, ok)
	}
	return e.Hash
}

func names(skills []*catalog.Skill) []string {
	out := make([]string, len(skills))
	for i, s := range skills {
		out[i] = s.Name
	}
	return out
}
