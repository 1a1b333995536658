package lifecycle

import (
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// matchIndex is the matcher over the published skills of one publish-branch tree.
type matchIndex struct {
	tree    gitstore.Hash
	matcher *catalog.Matcher
}

// Match ranks the published skills for a task: hinted skills first, then by the relevance of
// their names and descriptions (catalog.Matcher). The index is built once per published tree,
// so a long-running caller that matches again after Refresh pays only for what changed.
func (r *Repo) Match(task string, o catalog.MatchOptions) (*catalog.MatchResult, error) {
	m, err := r.matcher()
	if err != nil {
		return nil, err
	}
	return m.Match(task, o), nil
}

func (r *Repo) matcher() (*catalog.Matcher, error) {
	if r.match != nil && r.match.tree == r.Tree {
		return r.match.matcher, nil
	}
	res, err := r.Published()
	if err != nil {
		return nil, err
	}
	r.match = &matchIndex{tree: r.Tree, matcher: catalog.NewMatcher(res.Skills)}
	return r.match.matcher, nil
}

// Refresh reads the publish branch again when its tip has moved since the repository was
// opened or last refreshed, so a long-running caller sees publishes made by others.
func (r *Repo) Refresh() error {
	h, err := r.Git.Ref(r.Branch)
	if err != nil || h == r.Tip {
		return err
	}
	return r.Reload()
}
