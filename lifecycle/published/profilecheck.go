package published

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/boundedfile"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// ProfileProblems checks the profiles of the configuration a user is editing against the
// skills published on the publish branch: the .skillgit.yaml of the working tree when there
// is one, else the publish branch's. A configuration that does not parse is one problem with
// its line; every profile entry that names no published skill is another. All are errors,
// their File is ConfigFile.
func (c *Channel) ProfileProblems() ([]catalog.Problem, error) {
	cfg, err := c.worktreeConfig()
	var ce *policy.ConfigError
	switch {
	case errors.As(err, &ce):
		return []catalog.Problem{{File: policy.ConfigFile, Line: ce.Line, Message: ce.Message}}, nil
	case err != nil:
		return nil, err
	case cfg == nil:
		cfg = c.v.Config
	}
	pub, err := c.List()
	if err != nil {
		return nil, err
	}
	var out []catalog.Problem
	for _, p := range policy.CheckProfiles(cfg, pub.Skills) {
		out = append(out, catalog.Problem{File: policy.ConfigFile, Message: p.Message(c.label())})
	}
	return out, nil
}

// worktreeConfig parses the .skillgit.yaml of the working tree; nil when there is none.
func (c *Channel) worktreeConfig() (*policy.Config, error) {
	wt := c.git.WorktreeDir()
	if wt == "" {
		return nil, nil
	}
	root, err := os.OpenRoot(wt)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	data, err := boundedfile.UpTo(root.FS(), policy.ConfigFile, policy.MaxConfigSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", policy.ConfigFile, err)
	}
	return policy.ParseConfig(data)
}
