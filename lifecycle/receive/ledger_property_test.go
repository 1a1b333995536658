package receive_test

import (
	"fmt"
	"math/rand/v2"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	gogitplumbing "github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/lifecycle/receive"
)

// TestLedgerProperty runs random sequences of what people, agents and attackers do to a
// protected publish branch: propose, revise, approve, reject, publish and roll back with
// skillgit, and commits, merges and reverts made by hand with arbitrary trailers, each pushed
// through the server's check. Whatever the sequence, every skill folder on the publish branch
// is a version that a person other than its author approved: what skillgit publishes gets
// through, and nothing else does.
func TestLedgerProperty(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	for i := range uint64(3) {
		t.Run(fmt.Sprint("seed ", seed+i), func(t *testing.T) {
			w := newPropWorld(t, seed+i)
			for step := range 100 {
				op := w.step()
				if err := w.check(); err != nil {
					t.Fatalf("seed %d, step %d (%s): %v\nhistory:\n%s", seed+i, step, op, err, strings.Join(w.done, "\n"))
				}
			}
			t.Log(w.summary())
		})
	}
}

// propWorld is one random history: a bare skill repository with server.protect on, and what
// the test knows independently of skillgit: which folder versions were approved.
type propWorld struct {
	t    *testing.T
	dir  string
	rng  *rand.Rand
	done []string
	// approved holds, per skill folder path, the folder trees a person other than their
	// proposer approved.
	approved map[string][]gitstore.Hash
	// versions are folder trees seen anywhere, approved or not, for hand-made commits.
	versions []gitstore.Hash
}

var (
	propNames  = []string{"alpha", "beta", "gamma"}
	propBob    = lifecycle.ActOptions{Author: "Bob Builder <bob@example.com>"}
	propEditor = lifecycle.ActOptions{Author: "Eve Editor <eve@example.com>"}
)

func newPropWorld(t *testing.T, seed uint64) *propWorld {
	dir := lifecycletest.NewRepo(t)
	bare := filepath.Join(t.TempDir(), "srv.git")
	testenv.Git(t, t.TempDir(), "clone", "-q", "--bare", dir, bare)
	w := &propWorld{t: t, dir: bare, rng: rand.New(rand.NewPCG(seed, 7)), approved: map[string][]gitstore.Hash{}}
	r := lifecycletest.Open(t, bare)
	cfg := *r.Config()
	cfg.Server.Protect = true
	w.commitTree(r, w.withFile(r, r.Tree(), policy.ConfigFile, cfg.Marshal()), "protect", nil)
	return w
}

// step takes one random action and says what it was.
func (w *propWorld) step() string {
	ops := []func() string{w.propose, w.propose, w.propose, w.revise, w.approve, w.approve, w.approve,
		w.publish, w.publish, w.publish, w.rollback, w.rollback, w.handCommit, w.handMerge, w.handRevert}
	if w.rng.IntN(15) == 0 {
		ops = []func() string{w.reject}
	}
	op := ops[w.rng.IntN(len(ops))]()
	w.done = append(w.done, op)
	return op
}

func (w *propWorld) open() *lifecycle.Repo { return lifecycletest.Open(w.t, w.dir) }

func (w *propWorld) pick(xs []string) string { return xs[w.rng.IntN(len(xs))] }

// propose proposes a version of a random skill.
func (w *propWorld) propose() string {
	name := w.pick(propNames)
	src := w.t.TempDir()
	testenv.WriteFiles(w.t, src, map[string]string{name + "/SKILL.md": testenv.SkillMD(name, fmt.Sprintf("Version %d of the steps.", w.rng.IntN(1000)))})
	res, err := w.open().Propose(lifecycle.ProposeOptions{ActOptions: lifecycletest.Agent, From: filepath.Join(src, name)})
	if err == nil {
		w.learn(res.ID)
	}
	return fmt.Sprintf("propose %s: %v", name, errText(err))
}

// revise revises a random open candidate with new content.
func (w *propWorld) revise() string {
	id := w.openCandidate()
	if id == "" {
		return "revise: none open"
	}
	c, err := w.open().Book().Candidate(id)
	if err != nil {
		return "revise: " + err.Error()
	}
	src := w.t.TempDir()
	testenv.WriteFiles(w.t, src, map[string]string{c.Skill + "/SKILL.md": testenv.SkillMD(c.Skill, fmt.Sprintf("Revision %d.", w.rng.IntN(1000)))})
	_, err = w.open().Revise(id, lifecycle.ProposeOptions{ActOptions: lifecycletest.Agent, From: filepath.Join(src, c.Skill), Message: "feedback"})
	if err == nil {
		w.learn(id)
	}
	return fmt.Sprintf("revise %s: %v", id, errText(err))
}

// approve approves a random open candidate as Bob, or as Eve, and records the version when
// the approval is by someone other than its author.
func (w *propWorld) approve() string {
	id := w.openCandidate()
	if id == "" {
		return "approve: none open"
	}
	who := propBob
	if w.rng.IntN(3) == 0 {
		who = propEditor
	}
	_, err := w.open().Approve(id, "ok", who)
	if err == nil {
		c, cerr := w.open().Book().Candidate(id)
		if cerr != nil {
			w.t.Fatal(cerr)
		}
		f := w.folder(hashOf(c.Tip), c.Path)
		w.approved[c.Path] = append(w.approved[c.Path], f)
	}
	return fmt.Sprintf("approve %s as %s: %v", id, who.Author, errText(err))
}

// publish publishes a random candidate with skillgit; the server must take what skillgit
// made.
func (w *propWorld) publish() string {
	id := w.openCandidate()
	if id == "" {
		return "publish: none open"
	}
	return w.acted("publish "+id, func(r *lifecycle.Repo) (*lifecycle.Result, error) { return r.Publish(id, "", propBob) })
}

// rollback rolls back a random skill with skillgit; the server must take it.
func (w *propWorld) rollback() string {
	name := w.pick(propNames)
	return w.acted("rollback "+name, func(r *lifecycle.Repo) (*lifecycle.Result, error) { return r.Rollback(name, "", propBob) })
}

// acted runs a skillgit action on the publish branch and pushes what it made through the
// server's check, which must accept it.
func (w *propWorld) acted(what string, act func(*lifecycle.Repo) (*lifecycle.Result, error)) string {
	r := w.open()
	old := r.Tip()
	_, err := act(r)
	if err != nil {
		return fmt.Sprintf("%s: %v", what, errText(err))
	}
	tip := w.open().Tip()
	if why := w.receive(old, tip); why != "" {
		w.t.Fatalf("%s: the server refused what skillgit made: %s\nhistory:\n%s", what, why, strings.Join(w.done, "\n"))
	}
	return what + ": ok"
}

// reject rejects a random open candidate.
func (w *propWorld) reject() string {
	id := w.openCandidate()
	if id == "" {
		return "reject: none open"
	}
	_, err := w.open().Reject(id, "no", propBob)
	return fmt.Sprintf("reject %s: %v", id, errText(err))
}

// handCommit commits, by hand, a random version of a random skill folder (or its removal)
// on the publish branch, with random claims, and pushes it.
func (w *propWorld) handCommit() string {
	r := w.open()
	p := r.Config().SkillsDir + "/" + w.pick(propNames)
	var v gitstore.Hash
	if len(w.versions) > 0 && w.rng.IntN(4) != 0 {
		v = w.versions[w.rng.IntN(len(w.versions))]
	}
	tree := w.withFolder(r, r.Tree(), p, v)
	msg := w.claims(r, "rollback: "+path.Base(p))
	return "hand commit " + p + ": " + w.push(r, tree, msg, nil)
}

// handMerge merges, by hand, a random candidate commit (a tip, an archived tip, a tip merged
// before) into the publish branch, taking its folder, with random claims, and pushes it.
func (w *propWorld) handMerge() string {
	r := w.open()
	refs := w.refs(r, lifecycle.CandidatePrefix, lifecycle.ArchivePrefix)
	if len(refs) == 0 {
		return "hand merge: no candidate"
	}
	second := refs[w.rng.IntN(len(refs))]
	if w.rng.IntN(3) == 0 {
		if c, err := r.Git().Objects().Commit(second); err == nil && len(c.ParentHashes) > 0 {
			second = c.ParentHashes[0] // an older commit of the candidate
		}
	}
	sc, err := r.Git().Objects().Commit(second)
	if err != nil {
		w.t.Fatal(err)
	}
	p := r.Config().SkillsDir + "/" + w.pick(propNames)
	tree := w.withFolder(r, r.Tree(), p, w.folder(sc.TreeHash, p))
	msg := w.claims(r, "publish: "+path.Base(p))
	return "hand merge of " + second.String()[:7] + ": " + w.push(r, tree, msg, []gitstore.Hash{second})
}

// handRevert reverts, by hand, a random commit of the publish branch: its folders put back as
// its parent had them, with git revert's line.
func (w *propWorld) handRevert() string {
	r := w.open()
	var line []gitstore.Hash
	err := r.Git().History().WalkFirstParent(r.Tip(), func(h gitstore.Hash, c *object.Commit) error {
		if len(c.ParentHashes) > 0 {
			line = append(line, h)
		}
		return nil
	})
	if err != nil || len(line) == 0 {
		return "hand revert: nothing"
	}
	target := line[w.rng.IntN(len(line))]
	tc, _ := r.Git().Objects().Commit(target)
	parent, _ := r.Git().Objects().Commit(tc.ParentHashes[0])
	tree := r.Tree()
	for _, name := range propNames {
		p := r.Config().SkillsDir + "/" + name
		if before := w.folder(parent.TreeHash, p); before != w.folder(tc.TreeHash, p) {
			tree = w.withFolder(r, tree, p, before)
		}
	}
	msg := "Revert\n\nThis reverts commit " + target.String() + ".\n"
	if w.rng.IntN(2) == 0 {
		msg += "\nSkillgit-Action: rollback\nSkillgit-Reverts: " + target.String() + "\n"
	}
	return "hand revert of " + target.String()[:7] + ": " + w.push(r, tree, msg, nil)
}

// claims writes a message whose trailers claim random things: a publish of a random
// candidate with random approvers, a rollback of a random commit, or nothing.
func (w *propWorld) claims(r *lifecycle.Repo, subject string) string {
	var ts []string
	switch w.rng.IntN(3) {
	case 0:
		ts = append(ts, "Skillgit-Action: publish", "Skillgit-Skill: "+w.pick(propNames), "Skillgit-Change: "+w.pick([]string{"create", "patch"}))
		if refs, err := r.Git().Refs().List(lifecycle.CandidatePrefix); err == nil && len(refs) > 0 {
			ts = append(ts, "Skillgit-Candidate: "+strings.TrimPrefix(refs[w.rng.IntN(len(refs))].Name, lifecycle.CandidatePrefix))
		}
		ts = append(ts, "Approved-By: "+w.pick([]string{propBob.Author, "Security Team <security@example.com>"}))
	case 1:
		if line := w.refs(r, "refs/heads/main"); len(line) > 0 {
			ts = append(ts, "Skillgit-Action: rollback", "Skillgit-Reverts: "+line[0].String())
		}
	}
	return subject + "\n\n" + strings.Join(ts, "\n") + "\n"
}

// push writes a commit of tree on the publish branch's tip (and extra parents) and runs the
// server's check of the update; the branch moves only when the check takes it.
func (w *propWorld) push(r *lifecycle.Repo, tree gitstore.Hash, msg string, extra []gitstore.Hash) string {
	sig := object.Signature{Name: "Mallory", Email: "mallory@example.com", When: time.Now()}
	h, err := r.Git().Writes().WriteCommit(gitstore.CommitSpec{Tree: tree, Parents: append([]gitstore.Hash{r.Tip()}, extra...), Author: sig, Committer: sig, Message: msg})
	if err != nil {
		w.t.Fatal(err)
	}
	if why := w.receive(r.Tip(), h); why != "" {
		return "refused: " + why
	}
	if err := r.Git().Updates().Update(r.Branch(), h, r.Tip(), "push"); err != nil {
		w.t.Fatal(err)
	}
	return "accepted"
}

// receive runs the server's pre-receive check of the publish branch moving from old to tip
// and says why it refuses; "" when it takes it.
func (w *propWorld) receive(old, tip gitstore.Hash) string {
	run, err := receive.Check(w.dir, []gitstore.RefUpdate{{Ref: "refs/heads/main", Old: old, New: tip}}, func(string) string { return "" }, nil)
	if err != nil {
		return err.Error()
	}
	if run.Blocked() {
		return strings.Join(append(run.Refusals, "audit blocked"), "; ")
	}
	return strings.Join(run.Refusals, "; ")
}

// check holds the publish branch to the property: every skill folder on it is a version
// someone other than its proposer approved.
func (w *propWorld) check() error {
	r := w.open()
	for _, name := range propNames {
		p := r.Config().SkillsDir + "/" + name
		f := w.folder(r.Tree(), p)
		if f.IsZero() || slices.Contains(w.approved[p], f) {
			continue
		}
		return fmt.Errorf("main holds %s at %s, a version nobody approved", p, f)
	}
	return nil
}

// summary counts the outcomes of the steps, so that a run that never published or never
// pushed anything by hand shows it.
func (w *propWorld) summary() string {
	counts := map[string]int{}
	for _, d := range w.done {
		kind, rest, _ := strings.Cut(d, " ")
		if strings.HasPrefix(kind, "hand") {
			kind += " " + strings.Fields(rest)[0]
		}
		switch {
		case strings.HasSuffix(d, ": ok") || strings.HasSuffix(d, "accepted"):
			counts[kind+" done"]++
		case strings.Contains(d, "refused: "):
			counts[kind+" refused"]++
		default:
			counts[kind+" failed"]++
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s %d; ", k, counts[k])
	}
	return b.String()
}

// learn records the folder versions of candidate id's commits for hand-made commits.
func (w *propWorld) learn(id string) {
	c, err := w.open().Book().Candidate(id)
	if err != nil {
		w.t.Fatal(err)
	}
	w.versions = append(w.versions, w.folder(hashOf(c.Tip), c.Path))
}

// openCandidate is a random open or approved candidate's id, or "".
func (w *propWorld) openCandidate() string {
	cs, err := w.open().Book().Candidates("open")
	if err != nil {
		w.t.Fatal(err)
	}
	as, err := w.open().Book().Candidates("approved")
	if err != nil {
		w.t.Fatal(err)
	}
	cs = append(cs, as...)
	if len(cs) == 0 {
		return ""
	}
	return cs[w.rng.IntN(len(cs))].ID
}

// refs lists the tips of the refs under the prefixes.
func (w *propWorld) refs(r *lifecycle.Repo, prefixes ...string) []gitstore.Hash {
	var out []gitstore.Hash
	for _, p := range prefixes {
		refs, err := r.Git().Refs().List(p)
		if err != nil {
			w.t.Fatal(err)
		}
		for _, ref := range refs {
			out = append(out, ref.Hash)
		}
	}
	return out
}

// folder is the tree of folder p in the root tree of commit or tree h; zero when absent.
func (w *propWorld) folder(h gitstore.Hash, p string) gitstore.Hash {
	r := w.open()
	tree := h
	if c, err := r.Git().Objects().Commit(h); err == nil {
		tree = c.TreeHash
	}
	f, err := r.FolderAt(tree, p)
	if err != nil {
		w.t.Fatal(err)
	}
	return f
}

func (w *propWorld) withFolder(r *lifecycle.Repo, tree gitstore.Hash, p string, f gitstore.Hash) gitstore.Hash {
	var e *gitstore.TreeEntry
	if !f.IsZero() {
		e = &gitstore.TreeEntry{Mode: filemode.Dir, Hash: f}
	}
	out, err := r.Git().Writes().ReplacePath(tree, p, e)
	if err != nil {
		w.t.Fatal(err)
	}
	return out
}

func (w *propWorld) withFile(r *lifecycle.Repo, tree gitstore.Hash, p string, data []byte) gitstore.Hash {
	blob, err := r.Git().Writes().WriteBlob(data)
	if err != nil {
		w.t.Fatal(err)
	}
	out, err := r.Git().Writes().ReplacePath(tree, p, &gitstore.TreeEntry{Mode: filemode.Regular, Hash: blob})
	if err != nil {
		w.t.Fatal(err)
	}
	return out
}

// commitTree commits tree on the publish branch directly, for the set-up.
func (w *propWorld) commitTree(r *lifecycle.Repo, tree gitstore.Hash, msg string, extra []gitstore.Hash) {
	sig := object.Signature{Name: "Ada", Email: "ada@example.com", When: time.Now()}
	h, err := r.Git().Writes().WriteCommit(gitstore.CommitSpec{Tree: tree, Parents: append([]gitstore.Hash{r.Tip()}, extra...), Author: sig, Committer: sig, Message: msg})
	if err == nil {
		err = r.Git().Updates().Update(r.Branch(), h, r.Tip(), "set-up")
	}
	if err != nil {
		w.t.Fatal(err)
	}
}

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	s := err.Error()
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

func hashOf(s string) gitstore.Hash { return gogitplumbing.NewHash(s) }
