package policy

import "gopkg.in/yaml.v3"

// Target is a sync target: an agent id, or an explicit folder.
type Target struct {
	Agent string `yaml:"agent"`
	Dir   string `yaml:"dir"`
}

// UnmarshalYAML accepts a bare agent id or a mapping with agent or dir.
func (t *Target) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		t.Agent = n.Value
		return nil
	}
	type plain Target
	return n.Decode((*plain)(t))
}

// MarshalYAML writes an agent target as a bare id.
func (t Target) MarshalYAML() (any, error) {
	if t.Dir == "" {
		return t.Agent, nil
	}
	type plain Target
	return plain(t), nil
}
