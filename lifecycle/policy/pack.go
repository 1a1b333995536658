package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// Pack is a skill pack pulled from a git remote.
type Pack struct {
	Name string `yaml:"name"`
	URL  string `yaml:"url"`
	Ref  string `yaml:"ref"`
	Path string `yaml:"path"`
	// MaxBytes is the most object content, inflated, that pack update reads from the pack;
	// 0 means DefaultPackMaxBytes. A pack over it is refused before it is held in memory.
	MaxBytes int64 `yaml:"max_bytes,omitempty"`
	// Include, when not empty, keeps only the pack's skills whose names match one of these
	// path.Match globs; Exclude drops the skills whose names match one of its globs.
	Include []string `yaml:"include,omitempty"`
	Exclude []string `yaml:"exclude,omitempty"`
	// Prefix namespaces the pack: each skill's folder and name become Prefix+name.
	Prefix string `yaml:"prefix,omitempty"`
	// Lenient admits skills that agents load but the reference validator refuses (a long
	// description, unknown frontmatter keys), as candidates marked with a warning.
	Lenient bool `yaml:"lenient,omitempty"`
}

// packPrefixPattern is what a pack's prefix looks like: the start of a skill name.
var packPrefixPattern = lazyregexp.New(`^[a-z0-9][a-z0-9-]{0,31}$`)

// CheckPackSelection checks a pack's include and exclude globs and its prefix.
func CheckPackSelection(p Pack) error {
	for _, g := range slices.Concat(p.Include, p.Exclude) {
		if _, err := path.Match(g, ""); err != nil || g == "" {
			return fmt.Errorf("pack %s: %q is not a valid glob of skill names (path.Match syntax: *, ?, [a-z])", p.Name, g)
		}
	}
	if p.Prefix != "" && (!packPrefixPattern().MatchString(p.Prefix) || strings.Contains(p.Prefix, "--")) {
		return fmt.Errorf("pack %s: prefix %q: use lowercase letters, digits and '-', at most 32, starting with a letter or digit, no '--'", p.Name, p.Prefix)
	}
	return nil
}

// DefaultPackMaxBytes is the most object content, inflated, that `pack update` reads from one
// pack when the pack sets no max_bytes in .skillgit.yaml.
const DefaultPackMaxBytes int64 = 256 << 20
