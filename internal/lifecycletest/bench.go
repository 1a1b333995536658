package lifecycletest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/bench/genrepo"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
)

// Generated returns the repository that the environment variable env names, or generates one
// as o says in a new skillgit repository; generating 10,000 skills takes about a minute, so
// `go run ./bench/gen` makes one to reuse.
func Generated(tb testing.TB, env string, o genrepo.Options) string {
	tb.Helper()
	if dir := os.Getenv(env); dir != "" {
		return dir
	}
	dir := filepath.Join(tb.TempDir(), "repo")
	if _, err := initrepo.Init(initrepo.Options{Dir: dir}); err != nil {
		tb.Fatal(err)
	}
	res, err := genrepo.Generate(dir, o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Logf("generated %d skills, %d commits in %s", res.Skills, res.Commits, dir)
	return dir
}

// BareCopy copies the git folder of the repository at src into a new bare repository, so
// that a benchmark can change it and leave src as it was.
func BareCopy(tb testing.TB, src string) string {
	tb.Helper()
	g, err := gitstore.Open(src)
	if err != nil {
		tb.Fatal(err)
	}
	from := g.CommonDir()
	g.Close()
	dst := filepath.Join(tb.TempDir(), "repo.git")
	if err := os.CopyFS(dst, os.DirFS(from)); err != nil {
		tb.Fatalf("copying %s: %v", from, err)
	}
	testenv.Git(tb, dst, "config", "core.bare", "true")
	return dst
}

// LatestSkill returns the skill of the newest publish on the publish branch of the repository
// in dir.
func LatestSkill(tb testing.TB, dir string) string {
	tb.Helper()
	entries, err := Open(tb, dir).Log("")
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range entries {
		if e.Action == "publish" && e.Skill != "" {
			return e.Skill
		}
	}
	tb.Fatalf("%s: no publish on the publish branch", dir)
	return ""
}
