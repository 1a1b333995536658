package lifecycle

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/testenv"
)

// The environment of a publishing child process started by startPublisher.
const (
	helperDirEnv    = "SKILLGIT_TEST_PUBLISH_DIR"    // the repository
	helperIDsEnv    = "SKILLGIT_TEST_PUBLISH_IDS"    // candidate ids, comma separated
	helperSignalEnv = "SKILLGIT_TEST_PUBLISH_SIGNAL" // when set, print "ready" before and "done" after each publish
)

// TestPublishHelperProcess is the body of a child process that publishes candidates; it does
// nothing unless started by startPublisher.
func TestPublishHelperProcess(t *testing.T) {
	dir := os.Getenv(helperDirEnv)
	if dir == "" {
		return
	}
	signal := os.Getenv(helperSignalEnv) != ""
	failed := false
	for _, id := range strings.Split(os.Getenv(helperIDsEnv), ",") {
		r, err := Open(dir)
		if err != nil {
			fmt.Fprintf(os.Stderr, "open %s: %v\n", dir, err)
			os.Exit(3)
		}
		if signal {
			os.Stdout.WriteString("ready\n")
		}
		res, err := r.Publish(id, "", lead)
		r.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "publish %s: %v\n", id, err)
			failed = true
			continue
		}
		if signal {
			os.Stdout.WriteString("done\n")
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(os.Stderr, "publish %s: %s\n", id, w)
		}
	}
	if failed {
		os.Exit(3)
	}
}

// publisherCmd returns a child process of this test binary that publishes ids in dir.
func publisherCmd(dir string, ids []string, signal bool) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestPublishHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperDirEnv+"="+dir, helperIDsEnv+"="+strings.Join(ids, ","))
	if signal {
		cmd.Env = append(cmd.Env, helperSignalEnv+"=1")
	}
	return cmd
}

// prepared is an approved candidate, ready to publish.
type prepared struct {
	id, skill string
	tip       string // the approval commit
}

// prepareApproved proposes one new skill per name from a folder outside the repository, as
// agent, and approves each as lead, in one process.
func prepareApproved(t *testing.T, dir string, names []string) []prepared {
	t.Helper()
	src := t.TempDir()
	r := open(t, dir)
	out := make([]prepared, 0, len(names))
	for _, name := range names {
		testenv.WriteFiles(t, src, map[string]string{name + "/SKILL.md": testenv.SkillMD(name, cleanLine)})
		res, err := r.Propose(ProposeOptions{ActOptions: agent, From: filepath.Join(src, name)})
		if err != nil {
			t.Fatalf("propose %s: %v", name, err)
		}
		ap, err := r.Approve(res.ID, "", lead)
		if err != nil {
			t.Fatalf("approve %s: %v", res.ID, err)
		}
		if ap.State != StateApproved {
			t.Fatalf("approve %s: state %s; want approved", res.ID, ap.State)
		}
		out = append(out, prepared{id: res.ID, skill: name, tip: ap.Commit})
	}
	return out
}

// publishMerges reads the merges on main's first-parent line, newest first, as their second
// parent and Skillgit-Candidate trailer.
func publishMerges(t *testing.T, dir string) (candidates, secondParents []string) {
	t.Helper()
	out := testenv.GitText(t, dir, "log", "--first-parent", "--merges",
		"--format=%P%x00%(trailers:key=Skillgit-Candidate,valueonly,separator=%x2C)%x00", "main")
	recs := strings.Split(out, "\x00")
	for i := 0; i+1 < len(recs); i += 2 {
		parents := strings.Fields(recs[i])
		if len(parents) != 2 {
			t.Fatalf("merge with parents %q on main; want two", parents)
		}
		secondParents = append(secondParents, parents[1])
		candidates = append(candidates, strings.TrimSpace(recs[i+1]))
	}
	return candidates, secondParents
}

func TestConcurrentPublishes(t *testing.T) {
	const procs, each = 8, 25
	dir := newRepo(t)
	start := time.Now()
	names := make([]string, procs*each)
	for i := range names {
		names[i] = fmt.Sprintf("skill-%03d", i)
	}
	cands := prepareApproved(t, dir, names)
	setup := time.Since(start)

	done := make(chan struct{})
	var probes, probeFailures []string
	var probeWG sync.WaitGroup
	probeWG.Add(1)
	go func() {
		defer probeWG.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			out, err := exec.Command("git", "-C", dir, "rev-parse", "--verify", "main").CombinedOutput()
			probes = append(probes, strings.TrimSpace(string(out)))
			if err != nil {
				probeFailures = append(probeFailures, fmt.Sprintf("%v: %s", err, out))
			}
		}
	}()

	publishStart := time.Now()
	var wg sync.WaitGroup
	errs := make([]string, procs)
	for p := range procs {
		ids := make([]string, each)
		for i := range each {
			ids[i] = cands[p*each+i].id
		}
		cmd := publisherCmd(dir, ids, false)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := cmd.Wait()
			if err != nil || stderr.Len() > 0 {
				errs[p] = fmt.Sprintf("publisher %d: %v\n%s", p, err, stderr.Bytes())
			}
		}()
	}
	wg.Wait()
	publishing := time.Since(publishStart)
	close(done)
	probeWG.Wait()
	t.Logf("setup of %d approved candidates %v; %d processes published them in %v; %d rev-parse probes",
		len(cands), setup.Round(time.Millisecond), procs, publishing.Round(time.Millisecond), len(probes))

	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
	if len(probeFailures) > 0 {
		t.Errorf("git rev-parse --verify main failed %d of %d times while publishing; first: %s",
			len(probeFailures), len(probes), probeFailures[0])
	}
	if len(probes) < 10 {
		t.Errorf("only %d rev-parse probes ran while publishing", len(probes))
	}
	testenv.FsckStrict(t, dir)

	ids, seconds := publishMerges(t, dir)
	count := map[string]int{}
	for _, id := range ids {
		count[id]++
	}
	tips := map[string]string{}
	for _, c := range cands {
		tips[c.tip] = c.id
		if count[c.id] != 1 {
			t.Errorf("%s: %d publish merges on main; want exactly 1", c.id, count[c.id])
		}
	}
	if len(ids) != len(cands) {
		t.Errorf("%d publish merges on main; want %d", len(ids), len(cands))
	}
	for i, id := range ids {
		if tips[seconds[i]] != id {
			t.Errorf("publish merge of %s has second parent %s, which is not that candidate's approved tip", id, seconds[i])
		}
	}
	skills := strings.Fields(testenv.GitText(t, dir, "ls-tree", "-d", "--name-only", "main:skills"))
	if !slices.Equal(skills, names) {
		t.Errorf("main:skills holds %d folders; want the %d published skills\n got: %v", len(skills), len(names), skills)
	}
	if left := strings.TrimSpace(testenv.GitText(t, dir, "for-each-ref", "--format=%(refname)", "refs/heads/candidate/")); left != "" {
		t.Errorf("candidate branches left after publishing:\n%s", left)
	}
	if st := testenv.GitText(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after the publishes into the checked-out main:\n%s", st)
	}
	published, err := open(t, dir).Book().Candidates("published")
	if err != nil || len(published) != len(cands) {
		t.Errorf("Candidates(published): %d, %v; want %d", len(published), err, len(cands))
	}
}

// TestConcurrentLockedPublishLeavesCheckout holds main's lock, as another process moving it
// would, or the index's lock, as a running git command would: the publish fails naming the
// lock, leaves main and the checkout as they were, and succeeds once the lock is gone.
func TestConcurrentLockedPublishLeavesCheckout(t *testing.T) {
	for _, lock := range []string{"refs/heads/main.lock", "index.lock"} {
		t.Run(filepath.Base(lock), func(t *testing.T) {
			dir := newRepo(t)
			c := prepareApproved(t, dir, []string{"held"})[0]
			before := testenv.GitText(t, dir, "rev-parse", "main")
			testenv.WriteFiles(t, dir, map[string]string{".git/" + lock: ""})
			_, err := open(t, dir).Publish(c.id, "", lead)
			if err == nil || !strings.Contains(err.Error(), filepath.Base(lock)) {
				t.Fatalf("publish with %s held: %v; want an error naming the lock", lock, err)
			}
			if err := os.Remove(filepath.Join(dir, ".git", lock)); err != nil {
				t.Fatal(err)
			}
			if after := testenv.GitText(t, dir, "rev-parse", "main"); after != before {
				t.Errorf("main moved from %s to %s", before, after)
			}
			if st := testenv.GitText(t, dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
				t.Errorf("a publish that failed (%v) left the checkout changed:\n%s", err, st)
			}
			if _, err := open(t, dir).Publish(c.id, "", lead); err != nil {
				t.Errorf("publish once the lock is released: %v", err)
			}
			testenv.FsckStrict(t, dir)
		})
	}
}
