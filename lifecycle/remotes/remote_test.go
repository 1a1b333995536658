package remotes

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
)

// pushDaemon serves the bare repositories under base with `git daemon` on a free loopback
// port, pushes allowed, and returns the URL prefix (git://127.0.0.1:PORT/).
func pushDaemon(t *testing.T, base string) string {
	t.Helper()
	return testenv.GitDaemon(t, base, "--enable=receive-pack")
}

// remoteSetup is a bare skill repository behind git daemon and two clones of it.
type remoteSetup struct {
	bare, a, b string
}

// newRemoteSetup makes the bare repository empty, as `skillgit init --bare` does, fills it
// with the first push of clone a made a skill repository, and clones b from it.
func newRemoteSetup(t *testing.T) *remoteSetup {
	t.Helper()
	testenv.Hermetic(t, nil)
	base := t.TempDir()
	s := &remoteSetup{bare: filepath.Join(base, "skills.git")}
	if _, err := initrepo.Init(initrepo.Options{Dir: s.bare, Bare: true}); err != nil {
		t.Fatal(err)
	}
	url := pushDaemon(t, base) + "skills.git"
	work := t.TempDir()
	s.a, s.b = filepath.Join(work, "a"), filepath.Join(work, "b")
	gitClone(t, url, s.a)
	if _, err := initrepo.Init(initrepo.Options{Dir: s.a}); err != nil {
		t.Fatal(err)
	}
	push(t, s.a)
	gitClone(t, url, s.b)
	return s
}

func gitClone(t *testing.T, url, dir string) {
	t.Helper()
	if out, err := exec.Command("git", "clone", "-q", url, dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone %s: %v\n%s", url, err, out)
	}
}

// remoteRefsOf lists the refs of a repository as "name hash" lines, sorted.
func remoteRefsOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := testenv.GitText(t, dir, "for-each-ref", "--format=%(refname) %(objectname)")
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if name, h, ok := strings.Cut(line, " "); ok {
			m[name] = h
		}
	}
	return m
}

func refAt(t *testing.T, dir, rev string) string {
	t.Helper()
	out, _ := exec.Command("git", "-C", dir, "rev-parse", "--verify", "-q", rev).Output()
	return strings.TrimSpace(string(out))
}

func push(t *testing.T, dir string, ids ...string) *PushResult {
	t.Helper()
	res, err := Push(context.Background(), lifecycletest.Open(t, dir), PushOptions{IDs: ids})
	if err != nil {
		t.Fatalf("push from %s: %v", filepath.Base(dir), err)
	}
	return res
}

func fetch(t *testing.T, dir string) *FetchResult {
	t.Helper()
	res, err := Fetch(context.Background(), lifecycletest.Open(t, dir), FetchOptions{})
	if err != nil {
		t.Fatalf("fetch into %s: %v", filepath.Base(dir), err)
	}
	return res
}

func candidateIDs(t *testing.T, dir, state string) []string {
	t.Helper()
	cs, err := lifecycletest.Open(t, dir).Book().Candidates(state)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	slices.Sort(ids)
	return ids
}

func publish(t *testing.T, dir, id string) {
	t.Helper()
	if _, err := lifecycletest.Open(t, dir).Publish(id, "", lifecycletest.Lead); err != nil {
		t.Fatalf("publish %s in %s: %v", id, filepath.Base(dir), err)
	}
}

func wantRefs(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	if diff := cmp.Diff(want, remoteRefsOf(t, dir)); diff != "" {
		t.Fatalf("refs of %s (-want +got):\n%s", filepath.Base(dir), diff)
	}
}

func TestPushFetchCandidates(t *testing.T) {
	s := newRemoteSetup(t)
	main0 := refAt(t, s.bare, "main")
	id := lifecycletest.ProposeNew(t, s.a, "pdf-tools", cleanLine).ID
	res := push(t, s.a)
	if len(res.Changes) != 1 || res.Changes[0].Ref != lifecycle.CandidatePrefix+id || res.Changes[0].Action != "pushed" {
		t.Fatalf("push changes = %+v; want candidate %s pushed", res.Changes, id)
	}
	tipA := refAt(t, s.a, lifecycle.CandidatePrefix+id)
	wantRefs(t, s.bare, map[string]string{"refs/heads/main": main0, lifecycle.CandidatePrefix + id: tipA})
	if got := refAt(t, s.a, "refs/remotes/origin/candidate/"+id); got != tipA {
		t.Errorf("remote-tracking ref = %q; want %s", got, tipA)
	}

	fr := fetch(t, s.b)
	if fr.Publish != "up to date" {
		t.Errorf("fetch into b: publish %q; want up to date", fr.Publish)
	}
	if got := candidateIDs(t, s.b, "open"); !slices.Equal(got, []string{id}) {
		t.Fatalf("b's open candidates after fetch = %v; want [%s]", got, id)
	}
	lifecycletest.ApproveAsLead(t, s.b, id)
	push(t, s.b, id)
	tipB := refAt(t, s.b, lifecycle.CandidatePrefix+id)
	if tipB == tipA || refAt(t, s.bare, lifecycle.CandidatePrefix+id) != tipB {
		t.Fatalf("the approval did not reach the remote: remote %s, b %s", refAt(t, s.bare, lifecycle.CandidatePrefix+id), tipB)
	}

	fetch(t, s.a)
	if got := refAt(t, s.a, lifecycle.CandidatePrefix+id); got != tipB {
		t.Fatalf("a's candidate after fetch = %s; want b's approval %s", got, tipB)
	}
	if got := candidateIDs(t, s.a, "approved"); !slices.Equal(got, []string{id}) {
		t.Fatalf("a's approved candidates = %v; want [%s]", got, id)
	}

	// A rejection travels as the archive ref, and the branch goes away everywhere.
	rej := lifecycletest.ProposeNew(t, s.a, "csv-tools", cleanLine).ID
	push(t, s.a, rej)
	fetch(t, s.b)
	if _, err := lifecycletest.Open(t, s.a).Reject(rej, "not needed", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	push(t, s.a)
	archived := refAt(t, s.a, lifecycle.ArchivePrefix+rej)
	wantRefs(t, s.bare, map[string]string{"refs/heads/main": main0, lifecycle.CandidatePrefix + id: tipB, lifecycle.ArchivePrefix + rej: archived})
	fr = fetch(t, s.b)
	if refAt(t, s.b, lifecycle.ArchivePrefix+rej) != archived || refAt(t, s.b, lifecycle.CandidatePrefix+rej) != "" {
		t.Fatalf("b after fetch: archive %q, branch %q; want the archive and no branch (changes %+v)",
			refAt(t, s.b, lifecycle.ArchivePrefix+rej), refAt(t, s.b, lifecycle.CandidatePrefix+rej), fr.Changes)
	}
	if got := candidateIDs(t, s.b, "rejected"); !slices.Equal(got, []string{rej}) {
		t.Fatalf("b's rejected candidates = %v; want [%s]", got, rej)
	}
	for _, dir := range []string{s.a, s.b} {
		testenv.Fsck(t, dir)
	}
	testenv.FsckStrict(t, s.bare)
}

func TestPushFetchDivergedCandidateIsKept(t *testing.T) {
	s := newRemoteSetup(t)
	id := lifecycletest.ProposeNew(t, s.a, "pdf-tools", cleanLine).ID
	push(t, s.a)
	fetch(t, s.b)
	lifecycletest.ApproveAsLead(t, s.a, id)
	push(t, s.a, id)
	if _, err := lifecycletest.Open(t, s.b).Approve(id, "me too", lifecycle.ActOptions{Author: "Ada Lovelace <ada@example.com>"}); err != nil {
		t.Fatal(err)
	}
	local := refAt(t, s.b, lifecycle.CandidatePrefix+id)
	_, err := Push(context.Background(), lifecycletest.Open(t, s.b), PushOptions{IDs: []string{id}})
	if !errors.Is(err, lifecycle.ErrConflict) || !strings.Contains(err.Error(), "skillgit fetch") {
		t.Fatalf("push of a candidate the remote changed: err = %v; want a conflict that says to fetch", err)
	}
	fr := fetch(t, s.b)
	if refAt(t, s.b, lifecycle.CandidatePrefix+id) != local || len(fr.Warnings) != 1 || !strings.Contains(fr.Warnings[0], "different changes") {
		t.Fatalf("fetch of a diverged candidate: tip %s (want %s kept), warnings %q", refAt(t, s.b, lifecycle.CandidatePrefix+id), local, fr.Warnings)
	}
	if got := refAt(t, s.b, "refs/remotes/origin/candidate/"+id); got != refAt(t, s.a, lifecycle.CandidatePrefix+id) {
		t.Fatalf("remote-tracking ref of the diverged candidate = %q; want the remote's", got)
	}
}

func TestConcurrentPublishesOneWinsOtherRedoes(t *testing.T) {
	s := newRemoteSetup(t)
	c1, c2 := publishOnBoth(t, s)
	staleB := refAt(t, s.b, "main")

	push(t, s.a)
	mainA := refAt(t, s.a, "main")
	wantRefs(t, s.bare, map[string]string{"refs/heads/main": mainA, lifecycle.CandidatePrefix + c2: refAt(t, s.a, lifecycle.CandidatePrefix+c2)})

	_, err := Push(context.Background(), lifecycletest.Open(t, s.b), PushOptions{})
	if !errors.Is(err, ErrRemoteMoved) || !errors.Is(err, lifecycle.ErrConflict) {
		t.Fatalf("second publish push: err = %v; want ErrRemoteMoved", err)
	}
	for _, want := range []string{"main:", "origin/main", "skillgit fetch origin", "skillgit publish ID", c2, "nothing was pushed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if refAt(t, s.bare, "main") != mainA || refAt(t, s.bare, lifecycle.CandidatePrefix+c2) == "" {
		t.Fatal("the refused push changed the remote")
	}

	fr := fetch(t, s.b)
	if fr.Publish != "returned" || refAt(t, s.b, "main") != mainA {
		t.Fatalf("fetch after the lost race: publish %q, main %s; want returned and %s", fr.Publish, refAt(t, s.b, "main"), mainA)
	}
	if got := refAt(t, s.b, lifecycle.CandidatePrefix+c2); got != refAt(t, s.b, staleB+"^2") {
		t.Fatalf("candidate %s after fetch = %q; want it restored at its published tip", c2, got)
	}
	if _, err := os.Stat(filepath.Join(s.b, "skills", "pdf-tools", "SKILL.md")); err != nil {
		t.Fatalf("b's working tree lacks the skill a published: %v", err)
	}
	testenv.Fsck(t, s.b)

	if _, err := lifecycletest.Open(t, s.b).Rebase(c2, lifecycletest.Lead); err != nil {
		t.Fatalf("rebase %s: %v", c2, err)
	}
	publish(t, s.b, c2)
	push(t, s.b)
	mainB := refAt(t, s.b, "main")
	wantRefs(t, s.bare, map[string]string{"refs/heads/main": mainB})
	if got := refAt(t, s.bare, "main^1"); got != mainA {
		t.Fatalf("remote main^1 = %s; want a's publish %s", got, mainA)
	}

	fr = fetch(t, s.a)
	if fr.Publish != "fast-forwarded" || refAt(t, s.a, "main") != mainB {
		t.Fatalf("fetch into a: publish %q, main %s; want fast-forwarded to %s", fr.Publish, refAt(t, s.a, "main"), mainB)
	}
	if got := candidateIDs(t, s.a, "open"); len(got) != 0 {
		t.Fatalf("a still lists open candidates %v", got)
	}
	if got := candidateIDs(t, s.a, "published"); !slices.Equal(got, sortedKeys(map[string]bool{c1: true, c2: true})) {
		t.Fatalf("a's published candidates = %v; want %s and %s", got, c1, c2)
	}
	if _, err := os.Stat(filepath.Join(s.a, "skills", "csv-tools", "SKILL.md")); err != nil {
		t.Fatalf("a's working tree lacks the skill b published: %v", err)
	}
	for _, dir := range []string{s.a, s.b} {
		testenv.Fsck(t, dir)
	}
	testenv.FsckStrict(t, s.bare)
}

func TestPushWithoutFetchIsRefused(t *testing.T) {
	s := newRemoteSetup(t)
	c1 := lifecycletest.ProposeNew(t, s.a, "pdf-tools", cleanLine).ID
	lifecycletest.ApproveAsLead(t, s.a, c1)
	publish(t, s.a, c1)
	push(t, s.a)
	c2 := lifecycletest.ProposeNew(t, s.b, "csv-tools", cleanLine).ID
	lifecycletest.ApproveAsLead(t, s.b, c2)
	publish(t, s.b, c2)
	_, err := Push(context.Background(), lifecycletest.Open(t, s.b), PushOptions{})
	if !errors.Is(err, ErrRemoteMoved) {
		t.Fatalf("push after a publish elsewhere: err = %v; want ErrRemoteMoved", err)
	}
	fetch(t, s.b)
	publish(t, s.b, c2)
	push(t, s.b)
	if got := refAt(t, s.bare, "main"); got != refAt(t, s.b, "main") {
		t.Fatalf("remote main = %s; want b's %s", got, refAt(t, s.b, "main"))
	}
	testenv.Fsck(t, s.b)
	testenv.FsckStrict(t, s.bare)
}

func TestPushNamesUnknownRemote(t *testing.T) {
	s := newRemoteSetup(t)
	_, err := Push(context.Background(), lifecycletest.Open(t, s.a), PushOptions{Remote: "upstream"})
	if !errors.Is(err, ErrNoRemote) || !strings.Contains(err.Error(), "git remote add upstream") {
		t.Fatalf("push to an unknown remote: err = %v", err)
	}
}

func TestSimultaneousPublishPushesOneWins(t *testing.T) {
	s := newRemoteSetup(t)
	c1, c2 := publishOnBoth(t, s)
	ra, rb := lifecycletest.Open(t, s.a), lifecycletest.Open(t, s.b)
	start := make(chan struct{})
	errs := make(chan error, 2)
	for _, r := range []*lifecycle.Repo{ra, rb} {
		go func() {
			<-start
			_, err := Push(context.Background(), r, PushOptions{})
			errs <- err
		}()
	}
	close(start)
	var failed []error
	for range 2 {
		if err := <-errs; err != nil {
			failed = append(failed, err)
		}
	}
	if len(failed) != 1 || !errors.Is(failed[0], ErrRemoteMoved) {
		t.Fatalf("two publish pushes at once: errors %v; want exactly one ErrRemoteMoved", failed)
	}
	winner, loser, id := s.a, s.b, c2
	if refAt(t, s.bare, "main") == refAt(t, s.b, "main") {
		winner, loser, id = s.b, s.a, c1
	}
	if refAt(t, s.bare, "main") != refAt(t, winner, "main") {
		t.Fatalf("remote main %s is neither clone's publish", refAt(t, s.bare, "main"))
	}
	fetch(t, loser)
	if _, err := lifecycletest.Open(t, loser).Rebase(id, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	publish(t, loser, id)
	push(t, loser)
	fetch(t, winner)
	if refAt(t, s.bare, "main") != refAt(t, loser, "main") || refAt(t, winner, "main") != refAt(t, loser, "main") {
		t.Fatal("the clones and the remote do not agree on main after the redo")
	}
	wantRefs(t, s.bare, map[string]string{"refs/heads/main": refAt(t, loser, "main")})
	for _, dir := range []string{s.a, s.b} {
		testenv.Fsck(t, dir)
	}
	testenv.FsckStrict(t, s.bare)
}

func TestFetchKeepsLocalFilesInTheWay(t *testing.T) {
	s := newRemoteSetup(t)
	id := lifecycletest.ProposeNew(t, s.a, "pdf-tools", cleanLine).ID
	lifecycletest.ApproveAsLead(t, s.a, id)
	publish(t, s.a, id)
	push(t, s.a)
	testenv.WriteFiles(t, s.b, map[string]string{"skills/pdf-tools/SKILL.md": "my own draft\n"})
	before := refAt(t, s.b, "main")
	res, err := Fetch(context.Background(), lifecycletest.Open(t, s.b), FetchOptions{})
	if !errors.Is(err, gitstore.ErrDirty) || res == nil || res.Publish != "blocked" {
		t.Fatalf("fetch over an untracked file: err %v, result %+v; want ErrDirty and blocked", err, res)
	}
	if refAt(t, s.b, "main") != before || refAt(t, s.b, "refs/remotes/origin/main") != refAt(t, s.bare, "main") {
		t.Fatal("main moved, or the remote's tip was not recorded")
	}
	if b, _ := os.ReadFile(filepath.Join(s.b, "skills", "pdf-tools", "SKILL.md")); string(b) != "my own draft\n" {
		t.Fatalf("the local file was overwritten: %q", b)
	}
	remoteMain := refAt(t, s.bare, "main")
	if res := push(t, s.b); len(res.Changes) != 0 || refAt(t, s.bare, "main") != remoteMain {
		t.Fatalf("push from a clone whose main is behind: %+v, remote main %s; want nothing sent", res.Changes, refAt(t, s.bare, "main"))
	}
	testenv.RemoveAll(t, filepath.Join(s.b, "skills", "pdf-tools"))
	if fr := fetch(t, s.b); fr.Publish != "fast-forwarded" {
		t.Fatalf("second fetch: %q; want fast-forwarded", fr.Publish)
	}
	testenv.Fsck(t, s.b)
}

func TestPushCreatesTheBranchOnAnEmptyRemote(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	base := t.TempDir()
	testenv.Git(t, base, "init", "-q", "--bare", "empty.git")
	url := pushDaemon(t, base) + "empty.git"
	testenv.Git(t, dir, "remote", "add", "origin", url)
	fr := fetch(t, dir)
	if fr.Publish != "absent on remote" || len(fr.Changes) != 0 {
		t.Fatalf("fetch from an empty remote: %+v", fr)
	}
	id := lifecycletest.ProposeNew(t, dir, "pdf-tools", cleanLine).ID
	push(t, dir)
	bare := filepath.Join(base, "empty.git")
	wantRefs(t, bare, map[string]string{"refs/heads/main": refAt(t, dir, "main"), lifecycle.CandidatePrefix + id: refAt(t, dir, lifecycle.CandidatePrefix+id)})
	testenv.FsckStrict(t, bare)
}

// publishOnBoth proposes two skills in a and shares them with b, then publishes the first in
// a and the second in b, neither pushed: two publishes racing for the remote's main.
func publishOnBoth(t *testing.T, s *remoteSetup) (c1, c2 string) {
	t.Helper()
	c1 = lifecycletest.ProposeNew(t, s.a, "pdf-tools", cleanLine).ID
	c2 = lifecycletest.ProposeNew(t, s.a, "csv-tools", cleanLine).ID
	push(t, s.a)
	fetch(t, s.b)
	lifecycletest.ApproveAsLead(t, s.a, c1)
	lifecycletest.ApproveAsLead(t, s.b, c2)
	publish(t, s.a, c1)
	publish(t, s.b, c2)
	return c1, c2
}
