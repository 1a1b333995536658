package targetdir

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// crashChildEnv makes the test binary a sync process for TestSyncSurvivesKill.
const crashChildEnv = "SKILLGIT_SYNC_CRASH_CHILD"

// crashCountEnv, when set, is how many skills such a child syncs instead of crashSkillCount.
const crashCountEnv = "SKILLGIT_SYNC_CRASH_COUNT"

func init() {
	if spec := os.Getenv(crashChildEnv); spec != "" {
		src, target, _ := strings.Cut(spec, "|")
		n := crashSkillCount
		if c, err := strconv.Atoi(os.Getenv(crashCountEnv)); err == nil {
			n = c
		}
		p, err := Plan(os.DirFS(src), crashSkillsN(src, n), target, Options{Force: true, MutexWait: time.Minute})
		if err == nil {
			err = errors.Join(p.Apply(), p.Close())
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

const crashSkillCount = 1000

func crashSkills(src string) []Skill {
	return crashSkillsN(src, crashSkillCount)
}

// crashSkillsN lists the first n skills a crash or race child syncs from src.
func crashSkillsN(src string, n int) []Skill {
	version := filepath.Base(src)
	out := make([]Skill, n)
	for i := range out {
		n := fmt.Sprintf("skill-%04d", i)
		out[i] = Skill{Name: n, Dir: n, Hash: n + "-" + version}
	}
	return out
}

// TestSyncSurvivesKill kills a sync of 1,000 skills at random moments, over and over: every
// skill folder in the target must then be a whole version, and the next sync must repair the rest.
func TestSyncSurvivesKill(t *testing.T) {
	base := t.TempDir()
	versions := []string{filepath.Join(base, "v1"), filepath.Join(base, "v2")}
	for _, v := range versions {
		var names []string
		for _, s := range crashSkills(v) {
			names = append(names, s.Name)
		}
		writeSource(t, v, filepath.Base(v), names...)
	}
	target := filepath.Join(base, "target")
	killed := 0
	for round := range 24 {
		src := versions[round%2]
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+src+"|"+target)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(5+rand.IntN(60)) * time.Millisecond)
		if cmd.Process.Kill() == nil {
			killed++
		}
		_ = cmd.Wait()
		checkWhole(t, target, versions)
	}
	if killed < 20 {
		t.Fatalf("only %d of 24 syncs were killed", killed)
	}
	skills := crashSkills(versions[1])
	syncOnce(t, versions[1], skills, target, Options{Force: true})
	got := syncOnce(t, versions[1], skills, target, Options{})
	for name, a := range got {
		if a != ActionKeep {
			t.Fatalf("after repair, %s: %s; want keep", name, a)
		}
	}
	checkWhole(t, target, versions[1:])
	assertNoLeftovers(t, target)
}

// checkWhole asserts that every skill folder of target equals one of the versions.
func checkWhole(t *testing.T, target string, versions []string) {
	t.Helper()
	entries, err := os.ReadDir(target)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, v := range versions {
		h, err := hashFolder(os.DirFS(v), "skill-0000", os.Readlink, nil)
		if err != nil {
			t.Fatal(err)
		}
		want[h] = true
	}
	root, err := os.OpenRoot(target)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "skill-") {
			continue
		}
		got, err := hashInstalled(root, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		// Every skill of a version has the same files apart from its name, so compare
		// against skill-0000 with the name swapped in.
		if !want[renameHash(t, versions, e.Name(), got)] {
			t.Fatalf("%s is neither version: a half-written skill", e.Name())
		}
	}
}

// renameHash maps the hash of an installed skill to the hash skill-0000 would have with the
// same content version, by hashing the matching source folder.
func renameHash(t *testing.T, versions []string, name, got string) string {
	t.Helper()
	for _, v := range versions {
		h, err := hashFolder(os.DirFS(v), name, os.Readlink, nil)
		if err != nil {
			t.Fatal(err)
		}
		if h == got {
			h0, _ := hashFolder(os.DirFS(v), "skill-0000", os.Readlink, nil)
			return h0
		}
	}
	return got
}

// TestConcurrentSyncProcesses starts two sync processes of different versions into one
// folder at once: the mutex makes one wait for the other, so both succeed and leave the
// folder as the manifest describes it.
func TestConcurrentSyncProcesses(t *testing.T) {
	base := t.TempDir()
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	target := filepath.Join(base, "target")
	for _, v := range []string{"v1", "v2"} {
		src := filepath.Join(base, v)
		var names []string
		for _, s := range crashSkillsN(src, 200) {
			names = append(names, s.Name)
		}
		writeSource(t, src, v, names...)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+src+"|"+target, crashCountEnv+"=200")
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	for _, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("a sync running beside another failed: %v\n%s", err, outs[i])
		}
	}
	checkWhole(t, target, []string{filepath.Join(base, "v1"), filepath.Join(base, "v2")})
	assertNoLeftovers(t, target)
}
