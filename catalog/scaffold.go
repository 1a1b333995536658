package catalog

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// placeholderDescription stands in for an empty description, so that the
// author sees what to write; validate reports it until it is replaced
// (IsPlaceholderDescription).
const placeholderDescription = "Describe what this skill does and when an agent should use it."

// Scaffold returns the content of a new SKILL.md: frontmatter with name and
// description, quoted wherever YAML needs it, then an outline of the body
// (when to use, steps, examples) to fill in. The result parses when name
// passes ValidateName and description is at most MaxDescriptionLength
// characters; an empty description becomes a placeholder, which validate
// reports until it is replaced.
func Scaffold(name, description string) []byte {
	description = strings.ToValidUTF8(strings.TrimSpace(description), "\uFFFD")
	if description == "" {
		description = placeholderDescription
	}
	var b bytes.Buffer
	b.WriteString("---\nname: ")
	b.Write(yamlScalar(name, !plainNameSafe(name)))
	b.WriteString("description: ")
	b.Write(yamlScalar(description, true))
	b.WriteString("---\n\n# ")
	b.WriteString(title(name))
	b.WriteString(scaffoldBody)
	return b.Bytes()
}

// scaffoldBody is the outline below the title of a new skill.
const scaffoldBody = `

## When to use

- The task or request that should make an agent load this skill.
- When not to use it, and which skill to use instead.

## Steps

1. The first thing to check or gather before starting.
2. The commands to run or the changes to make, in order.
3. How to verify the result before reporting back.

## Examples

**Request:** a typical request this skill handles.

**Approach:** the steps above applied to it, with the expected result.

## References

Keep this file short. Put long reference material in references/, runnable
helpers in scripts/ and templates in assets/, and link to them from here.
`

// yamlScalar renders s as a YAML string value followed by a newline,
// double-quoted when quote is set and otherwise quoted only when YAML
// would read it as something other than a string.
func yamlScalar(s string, quote bool) []byte {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: strings.ToValidUTF8(s, "\uFFFD")}
	if quote {
		n.Style = yaml.DoubleQuotedStyle
	}
	out, err := yaml.Marshal(n)
	if err != nil {
		n.Style = yaml.DoubleQuotedStyle
		out, _ = yaml.Marshal(n)
	}
	return out
}

// plainNameSafe reports whether name can be written unquoted: a valid name
// that no YAML 1.1 reader would take for a boolean or null either.
func plainNameSafe(name string) bool {
	switch name {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return false
	}
	return ValidateName(name) == nil
}

// title turns "code-review" into "Code Review".
func title(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || unicode.IsSpace(r) })
	for i, w := range words {
		r, size := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToTitle(r)) + w[size:]
	}
	if len(words) == 0 {
		return "New Skill"
	}
	return strings.Join(words, " ")
}
