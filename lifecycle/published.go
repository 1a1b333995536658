package lifecycle

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// Published is what the publish branch publishes at the commit the repository was opened,
// reloaded or refreshed at. The channel is kept while that commit and configuration stand,
// with its matcher.
func (r *Repo) Published() *published.Channel {
	v := published.Version{Branch: r.branch, Commit: r.tip, Tree: r.tree, Config: r.cfg}
	if r.pub == nil || r.pub.Version() != v {
		r.pub = published.New(r.git, v, r.packHistory)
	}
	return r.pub
}

// packHistory is the history the provenance of published skills reads (published.History):
// the commits that last changed skill folders, from the trail of the publish branch, and the
// Skillgit-Pack and skill of the candidates their publishes merged.
func (r *Repo) packHistory(from gitstore.Hash, pending map[string]bool, found func(name, pack, skill string)) error {
	return r.book().Trail().WalkLastChanges(from, pending, func(n string, e LogEntry, c *object.Commit) {
		if e.Action != actPublish || e.Candidate == "" || len(c.ParentHashes) != 2 {
			found(n, "", "")
			return
		}
		ch, err := r.loadChain(e.Candidate, "", c.ParentHashes[1])
		if err != nil {
			found(n, "", "")
			return
		}
		p := ch.Propose()
		found(n, p.Claims.Get(keyPack), p.Claims.Get(keySkill))
	})
}

// Refresh reads the publish branch again when its tip has moved since the repository was
// opened or last refreshed, so a long-running caller sees publishes made by others.
func (r *Repo) Refresh() error {
	h, err := r.git.Refs().Get(r.branch)
	if err != nil || h == r.tip {
		return err
	}
	return r.Reload()
}

// ChannelTree returns the root tree of a channel, main or canary; canary is the publish
// branch until a canary publish creates it.
func (r *Repo) ChannelTree(channel string) (gitstore.Hash, error) {
	tip, err := r.book().ChannelCommit(channel)
	switch {
	case err != nil:
		return gitstore.ZeroHash, err
	case tip == r.tip:
		return r.tree, nil
	}
	c, err := r.git.Objects().Commit(tip)
	if err != nil {
		return gitstore.ZeroHash, fmt.Errorf("canary: %w", err)
	}
	return c.TreeHash, nil
}
