package policy

import "gopkg.in/yaml.v3"

// NamedPublishBranch is the publish branch a .skillgit.yaml names: the parsed value when the
// file parses, else its publish_branch key read alone, so that a file this version refuses
// (a newer version's keys, a mistake elsewhere) still says which branch it claims; "main",
// the default, when it names none. A file that is no YAML mapping names the default too.
func NamedPublishBranch(data []byte) string {
	if c, err := ParseConfig(data); err == nil {
		return c.PublishBranch
	}
	var only struct {
		PublishBranch string `yaml:"publish_branch"`
	}
	if len(data) <= MaxConfigSize {
		_ = yaml.Unmarshal(data, &only) // a file that is no mapping names no branch
	}
	if only.PublishBranch == "" {
		return DefaultConfig("").PublishBranch
	}
	return only.PublishBranch
}
