package agentsync

import (
	"context"
	"path"
	"path/filepath"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// readPlan is what a command will read of the skill repository that an application project's
// sync file sf (in the folder project) names by URL, so that a partial cached clone fetches
// that and no more: the configuration, the selected skills of the channel, what the project's
// lock pins, and, when the ledger's history is read, the trees of every commit.
type readPlan struct {
	sf      *SyncFile
	project string
	req     Request
}

// lock is the project's lock, when the request installs under it and it locks this
// repository.
func (p *readPlan) lock() (*Lock, bool) {
	if !lockApplies(p.req) {
		return nil, false
	}
	l, found, err := ReadLock(filepath.Join(p.project, LockFileName))
	if err != nil || !found || !SameRepository(l.Repository, p.sf.Repository) {
		return nil, false
	}
	return l, true
}

// history reports whether the command reads the ledger's history, which compares the trees
// of each publish with its parent's: a sync under the lock whose sync file names a trust, or
// that moves the lock.
func (p *readPlan) history() bool {
	if p == nil || !lockApplies(p.req) {
		return false
	}
	if p.sf.Trust != nil || p.req.Lock == LockUpdate || p.req.Lock == LockCheck {
		return true
	}
	_, found := p.lock()
	return p.req.Lock == LockInstall && !found
}

// prefetch fetches, into the partial cached clone, what the plan reads and the clone lacks:
// first the configuration of the branches that choosing and opening the publish branch read,
// then, on that branch, the skills and locked versions. What cannot be opened is left to the
// command, which says why.
func (g *cacheGit) prefetch(ctx context.Context, p *readPlan) error {
	st, err := gitstore.Open(g.dir)
	if err != nil {
		return nil
	}
	err = g.ensure(ctx, st.Objects(), configNeeds(st, p, g.dir))
	st.Close()
	if err != nil {
		return err
	}
	b := namedBranch(p.sf, p.project)
	if b.name == "" {
		if b, err = headBranch(g.dir); err != nil {
			return nil
		}
	}
	lr, err := b.open(g.dir)
	if err != nil {
		return nil
	}
	defer lr.Close()
	r := &repo{Repo: lr, sync: p.sf, project: p.project, appMode: true, url: g.url}
	root, err := r.channelRoot(p.req)
	if err != nil {
		return nil
	}
	if err := g.ensure(ctx, lr.Git().Objects(), r.readNeeds(root, p)); err != nil {
		return err
	}
	return g.ensureCategorized(ctx, r, root, p)
}

// configNeeds are the configuration files of the branches that choosing and opening the
// publish branch read: the branch named, or the one the repository's HEAD names, beside main;
// when neither is known, every branch's.
func configNeeds(st *gitstore.Repo, p *readPlan, dir string) []need {
	var branches []string
	if b := namedBranch(p.sf, p.project).name; b != "" {
		branches = []string{"refs/heads/" + b, "refs/heads/main"}
	} else if head := recordedRemoteHead(dir); head != "" {
		branches = []string{"refs/heads/" + head, "refs/heads/main"}
	} else if refs, err := st.Refs().List("refs/heads/"); err == nil {
		for _, ref := range refs {
			branches = append(branches, ref.Name)
		}
	}
	var needs []need
	for _, b := range branches {
		if h, err := st.Refs().Get(b); err == nil {
			if c, err := st.Objects().Commit(h); err == nil {
				needs = append(needs, need{root: c.TreeHash, path: policy.ConfigFile})
			}
		}
	}
	return needs
}

// channelRoot is the root tree a request installs from: the channel's, or its commit's.
func (r *repo) channelRoot(req Request) (gitstore.Hash, error) {
	if !req.Commit.IsZero() {
		return r.commitTree(req.Commit)
	}
	return r.ChannelTree(r.channelOf(req))
}

// readNeeds are what a command reads of the publish branch with root the channel's root tree:
// the allowed-signers file of the publish branch, the selected skills (or every skill), and
// each version the project's lock pins with the trees on its path at its commit.
func (r *repo) readNeeds(root gitstore.Hash, p *readPlan) []need {
	var needs []need
	if f := r.Config().Approvals.AllowedSigners; f != "" {
		needs = append(needs, need{root: r.Tree(), path: f})
	}
	prefix := r.skillsPrefix()
	names, _, err := r.selection()
	switch {
	case err != nil:
	case names == nil:
		needs = append(needs, need{root: root, path: skillPath(prefix, ""), kind: needAll})
	default:
		for _, n := range append(slices.Clone(names), p.req.Update...) {
			needs = append(needs, need{root: root, path: skillPath(prefix, n), kind: needAll})
		}
	}
	if l, ok := p.lock(); ok {
		for _, s := range l.Skills {
			if c, err := r.Git().Objects().Commit(plumbing.NewHash(s.Commit)); err == nil {
				needs = append(needs, need{root: c.TreeHash, path: s.dir(prefix)})
			}
			needs = append(needs, need{root: plumbing.NewHash(s.Tree), kind: needAll})
		}
	}
	return needs
}

// ensureCategorized fetches the selected skills that are not folders of the skills folder
// itself but lie in category folders: when the clone cannot find them in the folders it
// holds, every folder of the skills folder is fetched, to find them.
func (g *cacheGit) ensureCategorized(ctx context.Context, r *repo, root gitstore.Hash, p *readPlan) error {
	names, _, err := r.selection()
	if err != nil || names == nil {
		return nil
	}
	names = append(slices.Clone(names), p.req.Update...)
	prefix := r.skillsPrefix()
	o := r.Git().Objects()
	skills, ok, err := o.EntryAt(root, prefix)
	if err != nil || !ok {
		return nil
	}
	found := skillFolders(o, skills.Hash, prefix, names)
	if len(found) < len(compact(names)) {
		if err := g.ensure(ctx, o, []need{{root: root, path: skillPath(prefix, ""), kind: needTrees}}); err != nil {
			return err
		}
		found = skillFolders(o, skills.Hash, prefix, names)
	}
	var needs []need
	for _, dir := range found {
		needs = append(needs, need{root: root, path: dir, kind: needAll})
	}
	return g.ensure(ctx, o, needs)
}

// skillPath is the path of folder name (empty: the skills folder itself) below the skills
// folder prefix, which is "." when skills lie at the top.
func skillPath(prefix, name string) string {
	if prefix == "." || prefix == "" {
		return name
	}
	return path.Join(prefix, name)
}

// compact is names without repetition.
func compact(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}
