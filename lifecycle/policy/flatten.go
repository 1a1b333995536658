package policy

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// Flatten returns the scalar values of a configuration document by dotted key, such as
// "audit.fail_on"; a list is one value. A document that does not parse as YAML yields no keys.
// It serves summaries of what a policy change changes, so it judges nothing.
func Flatten(data []byte) map[string]string {
	out := map[string]string{}
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil || len(root.Content) == 0 {
		return out
	}
	flatten(root.Content[0], "", out)
	return out
}

// flatten adds the values of n below key prefix to out.
func flatten(n *yaml.Node, prefix string, out map[string]string) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			flatten(n.Content[i+1], joinKey(prefix, n.Content[i].Value), out)
		}
	case yaml.ScalarNode:
		out[prefix] = n.Value
	default:
		b, err := yaml.Marshal(n)
		if err == nil {
			out[prefix] = strings.Join(strings.Fields(string(b)), " ")
		}
	}
}
