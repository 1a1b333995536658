package lifecycle

import (
	"fmt"
	"path"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// fromRevision resolves o.FromRev to its commit and, when no message is given, words one that
// says which version is proposed again.
func fromRevision(g *gitstore.Repo, o ProposeOptions) (ProposeOptions, error) {
	if o.FromRev == "" {
		return o, nil
	}
	switch {
	case o.From != "" || o.Source != nil || o.Delete:
		return o, fmt.Errorf("--from-rev takes the skill from history: give a skill's name and --from-rev REV, without --from or --delete")
	case catalog.ValidateName(o.Target) != nil:
		return o, fmt.Errorf("%s: --from-rev takes the name of a skill, such as pdf-tools, not a path", o.Target)
	}
	h, err := g.Refs().ResolveRevision(o.FromRev)
	if err != nil {
		return o, fmt.Errorf("--from-rev %s: %w; `skillgit log %s` lists the commits that published the skill", o.FromRev, err, o.Target)
	}
	o.fromCommit = h
	if o.Message == "" {
		o.Message = fmt.Sprintf("The version of %s in commit %s (--from-rev %q), proposed again.", o.Target, h, o.FromRev)
	}
	return o, nil
}

// atRevision reads the skill o.Target as commit o.fromCommit holds it. A skill that is
// not published now goes back to the folder it had there, when that folder is free.
func (sn snapshots) atRevision(o ProposeOptions) (*snapshot, error) {
	r := sn.r
	c, found, names, err := treesOf(r).SkillAt(o.fromCommit, o.Target, o.FromRev)
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, fmt.Errorf("%s: %w: no skill of this name at %s (commit %s)%s; `skillgit log %s` lists the commits that published it",
			o.Target, ErrNotFound, o.FromRev, gitstore.ShortHash(o.fromCommit.String()), catalog.CloseNamesHint(o.Target, names, "skills there"), o.Target)
	}
	snap, err := sn.fs(r.git.Objects().TreeFS(c.TreeHash), found.Dir, o.FromRev+":"+found.Dir, "", o.Target, false)
	if err != nil || snap.change != ChangeCreate || path.Base(found.Dir) != found.Name || found.Dir == snap.dest {
		return snap, err
	}
	if free, err := r.FolderAt(r.tree, found.Dir); err != nil || !free.IsZero() || catalog.CheckPath(found.Dir) != nil {
		return snap, err
	}
	snap.dest = found.Dir
	return snap, nil
}
