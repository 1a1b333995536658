package published

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// ErrNotFound reports a skill that does not exist where it was looked for.
var ErrNotFound = ledger.ErrNotFound

// Version is the commit of a channel that a Channel reads, and the configuration it reads it
// under: the one on that commit.
type Version struct {
	// Branch is the full name of the channel's branch, e.g. refs/heads/main.
	Branch string
	// Commit is the branch's commit, and Tree its root tree.
	Commit, Tree gitstore.Hash
	Config       *policy.Config
}

// Channel is what one channel of a skill repository publishes at one commit: its skills, read
// from git as agents load them. It keeps the matcher of the skills once built; it is not safe
// for use by several goroutines at once.
type Channel struct {
	git     *gitstore.Repo
	v       Version
	history History
	matcher *catalog.Matcher
}

// New returns the channel of g at version v. history reads the publish branch's history for
// PackProvenance; nil reads none, and no skill then has a pack.
func New(g *gitstore.Repo, v Version, history History) *Channel {
	return &Channel{git: g, v: v, history: history}
}

// Version is the commit the channel reads.
func (c *Channel) Version() Version { return c.v }

// label is the branch's short name, e.g. main, for messages.
func (c *Channel) label() string { return strings.TrimPrefix(c.v.Branch, "refs/heads/") }

// List lists the skills of the channel as agents load them (lenient), reading only their
// frontmatter. Results are cached by the skills folder's tree id. A skill that git cannot read
// (a missing or damaged object) fails the listing with an ErrUnreadableSkill naming the
// object: what the branch publishes is then unknown, not merely short of one skill.
func (c *Channel) List() (*catalog.Result, error) {
	res, err := CatalogAt(c.git, c.v.Tree, c.v.Config.SkillsDir, c.label())
	if err != nil {
		return nil, err
	}
	if err := unreadable(res, c.label()); err != nil {
		return nil, err
	}
	return res, nil
}

// Find returns the published skill with the given name.
func (c *Channel) Find(name string) (*catalog.Skill, error) {
	res, err := c.List()
	if err != nil {
		return nil, err
	}
	if s := skillNamed(res, name); s != nil {
		return s, nil
	}
	return nil, fmt.Errorf("%s: skill %w on %s; `skillgit list` shows what is published", name, ErrNotFound, c.label())
}

// SkillFS returns the published files of a skill folder as an fs.FS rooted at the folder, and
// the folder's tree id.
func (c *Channel) SkillFS(s *catalog.Skill) (fs.FS, gitstore.Hash, error) {
	e, ok, err := c.git.Objects().EntryAt(c.v.Tree, s.Dir)
	if err != nil {
		return nil, e.Hash, err
	}
	if !ok || e.Mode != filemode.Dir {
		return nil, e.Hash, fmt.Errorf("%s: %s is not a folder on %s", s.Name, s.Dir, c.label())
	}
	return c.git.Objects().TreeFS(e.Hash), e.Hash, nil
}

// Content returns the whole SKILL.md of a published skill.
func (c *Channel) Content(s *catalog.Skill) ([]byte, error) {
	fsys, _, err := c.SkillFS(s)
	if err != nil {
		return nil, WithObjectHint(err)
	}
	data, err := fs.ReadFile(fsys, catalog.FileName)
	if err != nil {
		return nil, WithObjectHint(fmt.Errorf("%s: %s: %w", s.Name, s.File(), err))
	}
	if len(data) > catalog.MaxSkillFileSize {
		return nil, fmt.Errorf("%s: %s is %d bytes, over the %d-byte limit", s.Name, s.File(), len(data), catalog.MaxSkillFileSize)
	}
	return data, nil
}

// References returns the text files of a published skill's references folder, read from the
// channel (catalog.References).
func (c *Channel) References(s *catalog.Skill) ([]catalog.Reference, error) {
	fsys, _, err := c.SkillFS(s)
	if err != nil {
		return nil, WithObjectHint(err)
	}
	refs, err := catalog.References(fsys)
	if err != nil {
		return nil, WithObjectHint(fmt.Errorf("%s: %s/%s: %w", s.Name, s.Dir, catalog.ReferencesDir, err))
	}
	return refs, nil
}

// BaseDir is where an agent finds a skill's files: the folder in the working tree, or for a
// bare repository the git revision path (branch:path).
func (c *Channel) BaseDir(s *catalog.Skill) string {
	if wt := c.git.WorktreeDir(); wt != "" {
		return filepath.Join(wt, filepath.FromSlash(s.Dir))
	}
	return c.label() + ":" + s.Dir
}

// Location is the SKILL.md path shown to agents in the prompt block.
func (c *Channel) Location(s *catalog.Skill) string {
	base := c.BaseDir(s)
	if strings.Contains(base, ":") && c.git.WorktreeDir() == "" {
		return base + "/" + catalog.FileName
	}
	return filepath.Join(base, catalog.FileName)
}

// fileAt reads a regular file of the channel's tree, at most limit bytes.
func (c *Channel) fileAt(file string, limit int64) ([]byte, bool, error) {
	return c.git.Objects().FileAt(c.v.Tree, file, limit, c.label())
}
