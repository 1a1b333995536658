package catalog

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Keys of the frontmatter that the Agent Skills specification allows.
const (
	keyName          = "name"
	keyDescription   = "description"
	keyLicense       = "license"
	keyCompatibility = "compatibility"
	keyMetadata      = "metadata"
	keyAllowedTools  = "allowed-tools"
)

// specKeys lists the allowed keys, in the order messages name them.
var specKeys = []string{keyName, keyDescription, keyLicense, keyCompatibility, keyMetadata, keyAllowedTools}

// entry is one key of the frontmatter mapping with its value.
type entry struct {
	key   *yaml.Node
	value *yaml.Node
}

// frontmatterKeys holds the spec keys found in a frontmatter mapping.
type frontmatterKeys [6]*entry

// get returns the entry of a spec key, or nil when the key is absent.
func (k *frontmatterKeys) get(key string) *entry {
	for i, name := range specKeys {
		if name == key {
			return k[i]
		}
	}
	return nil
}

// decode parses the frontmatter block and checks every key of it. Plain
// frontmatter is read without the YAML library, into the same tree, built in
// scratch when it is not nil.
func (c *checker) decode(block []byte, scratch *plainScratch) *Skill {
	doc, ok := plainFrontmatter(block, scratch)
	if !ok {
		var err error
		if doc, err = decodeBlock(block); err != nil {
			line, msg := yamlErrorLine(err)
			c.report(fatal, line, "frontmatter is not valid YAML: %s; fix the syntax (quote values that contain \": \" or start with a special character)", msg)
			return nil
		}
	}
	return c.document(doc)
}

// document checks the decoded frontmatter and builds the skill.
func (c *checker) document(doc *yaml.Node) *Skill {
	root := documentRoot(doc)
	if root == nil {
		c.report(fatal, 1, "frontmatter is empty; add name and description keys")
		return nil
	}
	if root.Kind != yaml.MappingNode {
		c.report(fatal, root.Line, "frontmatter must be a YAML mapping of keys to values, such as name: %s", c.folderName())
		return nil
	}
	keys, ok := c.collectKeys(root)
	if !ok {
		return nil
	}
	return c.fields(&keys)
}

// documentRoot returns the top node of a decoded document, or nil when the
// document is empty.
func documentRoot(doc *yaml.Node) *yaml.Node {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	root := resolve(doc.Content[0])
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return nil
	}
	return root
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// collectKeys sorts the keys of the mapping into the spec keys, reporting
// unknown and repeated ones. ok is false when a key repeats: YAML forbids
// that, and agents' YAML parsers reject the whole block.
func (c *checker) collectKeys(root *yaml.Node) (keys frontmatterKeys, ok bool) {
	ok = true
	seen := make(map[string]int, len(root.Content)/2)
	for i := 0; i+1 < len(root.Content); i += 2 {
		e := &entry{key: resolve(root.Content[i]), value: resolve(root.Content[i+1])}
		name := keyText(e.key)
		if first, dup := seen[name]; dup {
			c.report(fatal, e.key.Line, "key %q is repeated (first on line %d); keep only one", name, first)
			ok = false
			continue
		}
		seen[name] = e.key.Line
		if !keys.place(name, e) {
			c.report(soft, e.key.Line, "unexpected key %q; only %s are allowed (move other data under metadata)", name, allowedKeys())
		}
	}
	return keys, ok
}

// place stores e under its spec key, reporting false for any other key.
func (k *frontmatterKeys) place(name string, e *entry) bool {
	for i, spec := range specKeys {
		if spec == name {
			k[i] = e
			return true
		}
	}
	return false
}

// keyText returns the text of a mapping key, or a placeholder such as
// "<a list>" for a key that is not a scalar.
func keyText(k *yaml.Node) string {
	if k.Kind == yaml.ScalarNode {
		return k.Value
	}
	return fmt.Sprintf("<%s>", kindName(k))
}

// allowedKeys lists the spec keys for messages.
func allowedKeys() string {
	return strings.Join(specKeys[:len(specKeys)-1], ", ") + " and " + specKeys[len(specKeys)-1]
}

// kindName names the kind of a YAML value for messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	default:
		return "a value"
	}
}

// scalarText returns the text of a scalar value, "" for null, and false for
// anything that is not a scalar. Every scalar counts as text, as in the
// reference validator, so "version: 1.0" keeps its digits as written.
func scalarText(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		return "", false
	}
	if n.ShortTag() == "!!null" {
		return "", true
	}
	return n.Value, true
}
