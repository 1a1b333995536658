package lifecycle

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
)

// crashRun is one child publish and how it ended.
type crashRun struct {
	kill     bool
	delay    time.Duration // from the child's "ready" to SIGKILL
	killed   bool          // the child died of SIGKILL
	ready    bool          // it reached the publish
	done     bool          // its publish returned
	took     time.Duration // from "ready" to "done"
	exitErr  error
	stderr   string
	stdout   []string
	leftover []string // lock files left in the git folder
}

func (c crashRun) String() string {
	return fmt.Sprintf("kill=%v delay=%v killed=%v ready=%v done=%v exit=%v stderr=%q locks=%v",
		c.kill, c.delay, c.killed, c.ready, c.done, c.exitErr, c.stderr, c.leftover)
}

// runAndKill publishes id in a child process and, when kill is set, sends it SIGKILL delay
// after it says it starts publishing.
func runAndKill(t *testing.T, dir, id string, kill bool, delay time.Duration) crashRun {
	t.Helper()
	run := crashRun{kill: kill, delay: delay}
	cmd := publisherCmd(dir, []string{id}, true)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready, eof := make(chan time.Time, 1), make(chan struct{})
	var doneAt time.Time
	go func() {
		defer close(eof)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			switch sc.Text() {
			case "ready":
				ready <- time.Now()
			case "done":
				doneAt = time.Now()
			}
			run.stdout = append(run.stdout, sc.Text())
		}
	}()
	var readyAt time.Time
	select {
	case readyAt = <-ready:
		run.ready = true
	case <-eof:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("publisher of %s did not start", id)
	}
	if kill && run.ready {
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
	}
	<-eof
	run.exitErr = cmd.Wait()
	run.stderr = stderr.String()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
		run.killed = true
	}
	run.done = !doneAt.IsZero()
	if run.done {
		run.took = doneAt.Sub(readyAt)
	}
	run.leftover = lockFiles(t, dir)
	return run
}

// lockFiles lists the lock files in the repository's git folder.
func lockFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	gitDir := filepath.Join(dir, ".git")
	err := filepath.WalkDir(gitDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".lock") {
			rel, _ := filepath.Rel(gitDir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fsckNoDangling runs git fsck --strict --no-dangling and returns its output on failure.
func fsckNoDangling(dir string) (string, bool) {
	out, err := exec.Command("git", "-C", dir, "fsck", "--strict", "--no-dangling").CombinedOutput()
	return string(out), err == nil
}

// publishesOf counts the publishes of id in Log.
func publishesOf(t *testing.T, dir, id string) int {
	t.Helper()
	log, err := open(t, dir).Log("")
	if err != nil {
		t.Fatalf("Log: %v", err)
	}
	n := 0
	for _, e := range log {
		if e.Action == actPublish && e.Candidate == id {
			n++
		}
	}
	return n
}

// crashStats counts how the rounds went.
type crashStats struct {
	rounds, notKilled, killedBeforeDone, killedAfterDone, exitedBeforeKill int
	mainMovedByKilled, worktreeLeft, tempFiles, branchGone, worktreeAhead  int
	// recordedLocks counts the rounds that left a lock whose recorded owner is gone, and
	// recordedRemoved the locks of that kind the next publish removed by itself.
	recordedLocks, recordedRemoved int
	// ownerlessLocks counts the rounds that left a lock without an owner record (the kill
	// came between creating it and recording its owner), ownerlessRefused the publishes
	// refused on one, and handRemoved the ownerless locks removed by hand.
	ownerlessLocks, ownerlessRefused, handRemoved int
	seen                                          map[string]bool // locks of gone owners counted
	tookSum                                       time.Duration
	tookN                                         int
}

func TestCrashPublishKilled(t *testing.T) {
	const rounds = 60
	dir := newRepo(t)
	names := make([]string, rounds)
	for i := range names {
		names[i] = fmt.Sprintf("crash-%02d", i)
	}
	cands := prepareApproved(t, dir, names)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)

	st := crashStats{seen: map[string]bool{}}
	for i, c := range cands {
		kill := i%6 != 5
		// Squared, so that short delays, which land inside the publish, are common.
		u := rng.Float64()
		delay := time.Duration(u * u * float64(30*time.Millisecond))
		old := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "main"))
		run := runAndKill(t, dir, c.id, kill, delay)
		st.rounds++
		switch {
		case !kill:
			st.notKilled++
			if run.exitErr != nil || !run.done {
				t.Errorf("round %d (%s): publish that was not killed failed: %v", i, c.id, run)
			}
		case run.killed && !run.done:
			st.killedBeforeDone++
		case run.killed:
			st.killedAfterDone++
		default:
			st.exitedBeforeKill++
		}
		if run.done {
			st.tookSum += run.took
			st.tookN++
		}
		if !run.killed && run.exitErr != nil {
			t.Errorf("round %d (%s): child failed on its own: %v", i, c.id, run)
		}
		checkAfterCrash(t, dir, i, c, old, run, &st)
	}
	avg := time.Duration(0)
	if st.tookN > 0 {
		avg = st.tookSum / time.Duration(st.tookN)
	}
	t.Logf("%d rounds: %d not killed, %d killed mid-publish (%d of them after main moved), %d killed after the publish returned, %d finished before the kill; "+
		"%d left a lock of a gone owner (%d such locks removed by the next publish itself), %d left a lock without an owner record "+
		"(%d publishes refused on one, %d removed by hand), %d left the skill in the working tree but not on main, "+
		"%d could not be published again until the working tree was cleaned, %d left temporary files in the working tree, "+
		"%d republishes found no candidate; a publish in the child took %v on average",
		st.rounds, st.notKilled, st.killedBeforeDone, st.mainMovedByKilled, st.killedAfterDone, st.exitedBeforeKill,
		st.recordedLocks, st.recordedRemoved, st.ownerlessLocks, st.ownerlessRefused, st.handRemoved,
		st.worktreeAhead, st.worktreeLeft, st.tempFiles, st.branchGone, avg)
	if st.killedBeforeDone < rounds/4 {
		t.Errorf("only %d of %d rounds killed a publish before it returned", st.killedBeforeDone, rounds)
	}
	testenv.FsckStrict(t, dir)
	ids, _ := publishMerges(t, dir)
	slices.Sort(ids)
	var want []string
	for _, c := range cands {
		want = append(want, c.id)
	}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("publish merges on main name %v; want each candidate once: %v", ids, want)
	}
}

// checkAfterCrash checks the repository after a killed publish of c, then publishes it again
// in-process.
func checkAfterCrash(t *testing.T, dir string, round int, c prepared, old string, run crashRun, st *crashStats) {
	t.Helper()
	where := fmt.Sprintf("round %d (%s, %v)", round, c.id, run)
	if out, ok := fsckNoDangling(dir); !ok {
		t.Fatalf("%s: git fsck --strict --no-dangling failed:\n%s", where, out)
	}
	now := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "main"))
	moved := now != old
	if moved {
		parents := strings.Fields(testenv.GitText(t, dir, "log", "-1", "--format=%P", now))
		if !slices.Equal(parents, []string{old, c.tip}) {
			t.Fatalf("%s: main moved from %s to %s with parents %v; want a publish merge of %s and %s", where, old, now, parents, old, c.tip)
		}
		if got := gitTrailers(t, dir, now)["Skillgit-Candidate"]; !slices.Equal(got, []string{c.id}) {
			t.Fatalf("%s: main's new tip names candidates %v", where, got)
		}
		if run.killed && !run.done {
			st.mainMovedByKilled++
		}
	}
	if n, want := publishesOf(t, dir, c.id), map[bool]int{true: 1, false: 0}[moved]; n != want {
		t.Errorf("%s: Log has %d publishes of %s with main moved=%v; want %d", where, n, c.id, moved, want)
	}
	if !moved && testenv.GitText(t, dir, "--no-optional-locks", "status", "--porcelain", "--", "skills/"+c.skill) != "" {
		st.worktreeAhead++
	}
	republishAfterCrash(t, dir, where, c, old, moved, st)
	if n := publishesOf(t, dir, c.id); n != 1 {
		t.Errorf("%s: Log has %d publishes of %s after publishing again; want 1", where, n, c.id)
	}
	checkWorktreeAfterCrash(t, dir, where, st)
}

// heldLocks sorts the lock files of the repository at dir into those whose owner skillgit
// recorded and which is gone, and those without an owner record; a lock of a running owner
// fails the test, as no process runs between the rounds.
func heldLocks(t *testing.T, dir string) (recorded, ownerless []string) {
	t.Helper()
	g := open(t, dir).git
	paths, err := g.Locks().List()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		o, err := g.Locks().Inspect(p)
		switch {
		case err != nil:
			continue // gone meanwhile
		case !o.Recorded:
			ownerless = append(ownerless, p)
			t.Logf("%s: no owner record; records: %s", p, ownerRecords(g))
		case !o.Gone:
			t.Fatalf("%s: %s", p, o.Describe())
		default:
			recorded = append(recorded, p)
		}
	}
	return recorded, ownerless
}

// republishAfterCrash publishes c again after a kill. When main moved, it is refused as
// already published (or the candidate branch is gone). Otherwise it must succeed with no step
// by hand when the kill left only locks whose recorded owner is gone; a lock without an owner
// record may refuse it, naming the lock, and is then removed by hand, as `skillgit doctor
// --fix` would, before the publish that must succeed.
func republishAfterCrash(t *testing.T, dir, where string, c prepared, old string, moved bool, st *crashStats) {
	t.Helper()
	recorded, ownerless := heldLocks(t, dir)
	recorded = slices.DeleteFunc(recorded, func(l string) bool { return st.seen[l] })
	for _, l := range recorded {
		st.seen[l] = true // one no later publish needs stays; it is counted once
	}
	if len(recorded) > 0 {
		st.recordedLocks++
	}
	if len(ownerless) > 0 {
		st.ownerlessLocks++
		t.Logf("%s: locks without an owner record: %v", where, ownerless)
	}
	_, err := open(t, dir).Publish(c.id, "", lead)
	if err != nil && len(ownerless) > 0 && errors.Is(err, gitstore.ErrLocked) {
		st.ownerlessRefused++
		if strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "main")) != old {
			t.Fatalf("%s: main moved by a publish that failed on a lock: %v", where, err)
		}
		if !namesAny(err.Error(), ownerless) {
			t.Errorf("%s: publish with the ownerless lock(s) %v left: %v; want an error that names the lock", where, ownerless, err)
		}
		// The hand step that `skillgit doctor --fix` takes for a lock nobody owns.
		for _, l := range ownerless {
			if err := os.Remove(l); err != nil {
				t.Fatal(err)
			}
			st.handRemoved++
		}
		_, err = open(t, dir).Publish(c.id, "", lead)
		ownerless = nil
	}
	switch {
	case moved && errors.Is(err, ErrNotFound):
		// The publish got as far as deleting the branch; TestPublishTwiceReportsPublished
		// holds the message to account.
		st.branchGone++
	case moved:
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "already published") {
			t.Errorf("%s: publishing again after main moved: %v; want it refused as already published", where, err)
		}
	case err != nil:
		t.Errorf("%s: publishing again after the kill, with the locks %v of gone owners and %v without an owner record: %v",
			where, recorded, ownerless, err)
		recoverAfterCrash(t, dir, where, c, st)
	}
	for _, l := range recorded {
		if !fileExistsTest(l) {
			st.recordedRemoved++
		}
	}
	// A lock nobody owns that the publish did not need stays until `skillgit doctor --fix`
	// or a hand removes it; this is that step.
	_, ownerless = heldLocks(t, dir)
	for _, l := range ownerless {
		if err := os.Remove(l); err != nil {
			t.Fatal(err)
		}
		st.handRemoved++
	}
}

// ownerRecords lists the owner records of the repository with their content, for a message.
func ownerRecords(g *gitstore.Repo) string {
	dir := filepath.Join(g.CommonDir(), filepath.FromSlash(gitstore.OwnersDir))
	entries, _ := os.ReadDir(dir)
	var b strings.Builder
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		fmt.Fprintf(&b, "\n%s: %q", e.Name(), data)
	}
	return b.String()
}

func fileExistsTest(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// recoverAfterCrash removes the lock files and publishes c; when that fails too, it counts a
// half-updated working tree, clears the skill's folder in it and tries once more.
func recoverAfterCrash(t *testing.T, dir, where string, c prepared, st *crashStats) {
	t.Helper()
	for _, l := range lockFiles(t, dir) {
		if err := os.Remove(filepath.Join(dir, ".git", filepath.FromSlash(l))); err != nil {
			t.Fatal(err)
		}
	}
	_, err := open(t, dir).Publish(c.id, "", lead)
	if err == nil {
		return
	}
	st.worktreeLeft++
	t.Errorf("%s: publish once the stale locks are removed: %v\ngit status:\n%s", where, err,
		testenv.GitText(t, dir, "status", "--porcelain", "--untracked-files=all"))
	testenv.Git(t, dir, "reset", "-q", "--hard")
	testenv.Git(t, dir, "clean", "-fdq", "--", "skills/"+c.skill)
	if _, err := open(t, dir).Publish(c.id, "", lead); err != nil {
		t.Fatalf("%s: publish after cleaning the working tree: %v", where, err)
	}
}

func namesAny(msg string, locks []string) bool {
	for _, l := range locks {
		if strings.Contains(msg, filepath.Base(l)) {
			return true
		}
	}
	return false
}

// checkWorktreeAfterCrash requires a clean status of the checked-out main, apart from the
// temporary files a killed write leaves, which it counts and removes.
func checkWorktreeAfterCrash(t *testing.T, dir, where string, st *crashStats) {
	t.Helper()
	status := testenv.GitText(t, dir, "status", "--porcelain", "--untracked-files=all")
	left := false
	for _, line := range strings.Split(strings.TrimSpace(status), "\n") {
		switch {
		case line == "":
		case strings.HasPrefix(line, "?? ") && strings.HasSuffix(line, ".tmp") && strings.Contains(line, "/.skillgit-"):
			left = true
			os.Remove(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(line, "?? "))))
		default:
			t.Errorf("%s: git status after the publish: %q", where, line)
		}
	}
	if left {
		st.tempFiles++
		t.Logf("%s: temporary files left in the working tree:\n%s", where, status)
	}
}

// TestCrashBetweenWorktreeAndRef stops a publish where a kill after the working tree was
// updated and before main moved stops it: the candidate must still be publishable.
func TestCrashBetweenWorktreeAndRef(t *testing.T) {
	dir := newRepo(t)
	c := prepareApproved(t, dir, []string{"halfway"})[0]
	r := open(t, dir)
	tip, err := r.git.Refs().ResolveRevision("refs/heads/candidate/" + c.id)
	if err != nil {
		t.Fatal(err)
	}
	cc, err := r.git.Objects().Commit(tip)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.git.UpdateWorktree(r.tree, cc.TreeHash, []string{"skills/halfway"}); err != nil {
		t.Fatal(err)
	}
	testenv.FsckStrict(t, dir)

	_, err = open(t, dir).Publish(c.id, "", lead)
	if err != nil {
		t.Errorf("publish after a crash between the working tree update and the ref update: %v\ngit status:\n%s",
			err, testenv.GitText(t, dir, "status", "--porcelain"))
	}
}

// TestPublishTwiceReportsPublished publishes a candidate that is already published, as a
// retry after a crash does: the answer must say so.
func TestPublishTwiceReportsPublished(t *testing.T) {
	dir := newRepo(t)
	c := prepareApproved(t, dir, []string{"twice"})[0]
	if _, err := open(t, dir).Publish(c.id, "", lead); err != nil {
		t.Fatal(err)
	}
	if got := candidateState(t, dir, c.id).State; got != StatePublished {
		t.Fatalf("Candidate(%s) after the publish: %s; want published", c.id, got)
	}
	_, err := open(t, dir).Publish(c.id, "", lead)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "already published") {
		t.Errorf("second publish of %s: %v; want it refused as already published", c.id, err)
	}
}
