package policy

import (
	"bytes"
	"fmt"
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

// SetKey sets the top-level scalar key of the configuration document data to value, adding
// the key when it is missing, and keeps the rest of the document and its comments, so that
// a command that changes one setting leaves the person's layout alone.
func SetKey(data []byte, key, value string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the file is not a mapping of keys to values")
	}
	top := doc.Content[0]
	found := false
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == key {
			top.Content[i+1].Kind, top.Content[i+1].Tag, top.Content[i+1].Value = yaml.ScalarNode, "!!str", value
			found = true
		}
	}
	if !found {
		top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, &yaml.Node{Kind: yaml.ScalarNode, Value: value})
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
