package genrepo

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

const mainRef = "refs/heads/main"

// generator holds the state of the publish branch while history is written.
type generator struct {
	g    *gitstore.Repo
	opts Options
	r    *rand.Rand
	// base is main's tip before generation; tip and root are its tip and tree now.
	base, tip, root gitstore.Hash
	when            time.Time
	live            []*skill
	pending         []string
	ids             map[string]bool
	// refs are the candidate and archive refs to create at the end.
	refs    []gitstore.Ref
	commits int
}

func newGenerator(g *gitstore.Repo, opts Options) (*generator, error) {
	tip, err := g.Refs().Get(mainRef)
	if err != nil {
		return nil, fmt.Errorf("genrepo: %w; run `skillgit init` on the folder first", err)
	}
	c, err := g.Objects().Commit(tip)
	if err != nil {
		return nil, err
	}
	gen := &generator{g: g, opts: opts, base: tip, tip: tip, root: c.TreeHash, when: epoch, ids: map[string]bool{}}
	gen.r = rand.New(rand.NewPCG(opts.Seed, 0x5eed))
	return gen, nil
}

func (gen *generator) run() (*Result, error) {
	events, creates, deletes := plan(gen.r, gen.opts.Commits-1, gen.opts.Skills)
	names := skillNames(gen.r, gen.opts.Skills+deletes)
	imported := gen.opts.Skills - creates + deletes
	gen.pending = names[imported:]
	start := time.Now()
	if err := gen.importPack(names[:imported]); err != nil {
		return nil, err
	}
	gen.logf("imported %d skills in %s", imported, time.Since(start).Round(time.Millisecond))
	for i, e := range events {
		if err := gen.apply(e); err != nil {
			return nil, err
		}
		if (i+1)%500 == 0 {
			gen.logf("%d events, %d commits, %s", i+1, gen.commits, time.Since(start).Round(time.Millisecond))
		}
	}
	return gen.result()
}

func (gen *generator) apply(e event) error {
	switch e.kind {
	case kindCreate:
		return gen.create(e.revised)
	case kindPatch, kindAuto:
		return gen.patch(gen.randomSkill(), e.revised, e.kind == kindAuto)
	case kindRollback:
		return gen.rollback()
	case kindDelete:
		return gen.remove(gen.randomSkill())
	case kindReject:
		return gen.reject(gen.randomSkill())
	case kindOpen:
		return gen.leaveOpen(gen.randomSkill())
	}
	return gen.manual()
}

func (gen *generator) result() (*Result, error) {
	e, _, err := gen.g.Objects().EntryAt(gen.root, gen.opts.SkillsDir)
	if err != nil {
		return nil, err
	}
	res := &Result{Tip: gen.tip, SkillsTree: e.Hash, Skills: len(gen.live), Commits: gen.commits}
	for _, s := range gen.live {
		res.Scripts += b2i(s.script != "")
		res.Nested += b2i(s.dir != s.name)
	}
	for _, ref := range gen.refs {
		if strings.HasPrefix(ref.Name, "refs/heads/") {
			res.Open++
		} else {
			res.Archived++
		}
	}
	return res, nil
}

func (gen *generator) randomSkill() *skill { return gen.live[gen.r.IntN(len(gen.live))] }

func (gen *generator) addLive(s *skill) {
	s.slot = len(gen.live)
	gen.live = append(gen.live, s)
}

func (gen *generator) dropLive(s *skill) {
	last := gen.live[len(gen.live)-1]
	gen.live[s.slot] = last
	last.slot = s.slot
	gen.live = gen.live[:len(gen.live)-1]
	s.slot = -1
}

// signature returns a person signing at the next point in time; history advances by up to an
// hour per commit, so that even 20,000 commits from the epoch stay in the past, as real
// history does (walks ordered by commit date go wrong on dates in the future).
func (gen *generator) signature() object.Signature {
	gen.when = gen.when.Add(time.Duration(1+gen.r.IntN(60)) * time.Minute)
	p := pick(gen.r, people)
	return object.Signature{Name: p.name, Email: p.email, When: gen.when}
}

// commit writes a commit authored and committed by one person.
func (gen *generator) commit(tree gitstore.Hash, msg string, parents ...gitstore.Hash) (gitstore.Hash, error) {
	return gen.commitAs(gen.signature(), tree, msg, parents...)
}

// commitAs writes a commit authored and committed by sig, as an approval is by its approver.
func (gen *generator) commitAs(sig object.Signature, tree gitstore.Hash, msg string, parents ...gitstore.Hash) (gitstore.Hash, error) {
	h, err := gen.g.Writes().WriteCommit(gitstore.CommitSpec{Tree: tree, Parents: parents, Author: sig, Committer: sig, Message: msg})
	if err != nil {
		return gitstore.ZeroHash, err
	}
	gen.commits++
	return h, nil
}

// candidateID returns a short id unique in the repository, like pdf-review-7f3a.
func (gen *generator) candidateID(name string) string {
	for {
		id := fmt.Sprintf("%s-%04x", name, gen.r.Uint32()&0xffff)
		if !gen.ids[id] {
			gen.ids[id] = true
			return id
		}
	}
}
