package policy

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// maxProfileSkills bounds how many skills one profile lists.
const maxProfileSkills = 100

// profileNamePattern is what a profile name may be: what fits in a flag, a file name and a
// tool argument without quoting.
var profileNamePattern = lazyregexp.New(`^[A-Za-z0-9_-]{1,64}$`)

// checkProfiles validates the shape of the profiles section of the configuration's root
// mapping: names, list lengths, repeated entries and skill names, each error
// naming the profile, the entry and its line. It runs before the section is decoded, so that
// a mistake in it is reported with its line.
func checkProfiles(root *yaml.Node) error {
	n := mappingValue(root, "profiles")
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if err := checkProfile(n.Content[i], n.Content[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// mappingValue returns the value of key in mapping n, or nil.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func checkProfile(key, list *yaml.Node) error {
	name := key.Value
	if !profileNamePattern().MatchString(name) {
		return &ConfigError{Line: key.Line, Message: fmt.Sprintf(
			"profiles: profile name %q must be 1 to 64 letters, digits, \"_\" or \"-\"", name)}
	}
	switch {
	case list.Kind != yaml.SequenceNode || len(list.Content) == 0:
		return &ConfigError{Line: key.Line, Message: fmt.Sprintf(
			"profile %q lists no skills; give it a list of skill names or remove it", name)}
	case len(list.Content) > maxProfileSkills:
		return &ConfigError{Line: key.Line, Message: fmt.Sprintf(
			"profile %q lists %d skills; at most %d are allowed", name, len(list.Content), maxProfileSkills)}
	}
	seen := map[string]bool{}
	for _, e := range list.Content {
		if err := checkProfileEntry(name, e, seen); err != nil {
			return err
		}
	}
	return nil
}

func checkProfileEntry(profile string, e *yaml.Node, seen map[string]bool) error {
	if e.Kind != yaml.ScalarNode {
		return &ConfigError{Line: e.Line, Message: fmt.Sprintf("profile %q: every entry must be a skill name", profile)}
	}
	if err := catalog.ValidateName(e.Value); err != nil {
		return &ConfigError{Line: e.Line, Message: fmt.Sprintf("profile %q: skill %v", profile, err), err: err}
	}
	if seen[e.Value] {
		return &ConfigError{Line: e.Line, Message: fmt.Sprintf(
			"profile %q: skill %q is listed twice; keep one", profile, e.Value)}
	}
	seen[e.Value] = true
	return nil
}
