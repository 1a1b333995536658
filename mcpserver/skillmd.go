package mcpserver

import (
	"bytes"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/skillgit/skillgit/catalog"
)

// checkBody refuses a body that is too large or that holds a frontmatter of its own.
func checkBody(body string) error {
	if err := checkSize("body", body); err != nil {
		return err
	}
	if strings.HasPrefix(strings.TrimLeft(body, "\ufeff \t\r\n"), "---") {
		return inputError("body", "starts with a --- line: body is the Markdown after the frontmatter; to send a whole SKILL.md, use files [{\"path\": \"SKILL.md\", \"content\": ...}]")
	}
	return nil
}

// newSkillMD writes a SKILL.md with a frontmatter of name and description, then body.
func newSkillMD(name, description, body string) ([]byte, error) {
	doc := &yaml.Node{Kind: yaml.MappingNode}
	setKey(doc, "name", name)
	setKey(doc, "description", description)
	return assemble(doc, leadingNewline(body))
}

// replaceBody keeps the frontmatter of a SKILL.md, with a new description when one is given,
// and replaces its body unless body is empty.
func replaceBody(old []byte, description, body string) ([]byte, error) {
	fm, oldBody, ok := splitFrontmatter(string(old))
	if !ok {
		return nil, inputError("body", "the current %s has no frontmatter block to keep; send the whole file with files", catalog.FileName)
	}
	rest := oldBody
	if body != "" {
		rest = leadingNewline(body)
	}
	if description == "" {
		return []byte("---\n" + fm + "---\n" + rest), nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(fm), &doc); err != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, inputError("description", "the frontmatter of the current %s is not a YAML mapping; send the whole file with files", catalog.FileName)
	}
	setKey(doc.Content[0], "description", description)
	return assemble(doc.Content[0], rest)
}

// assemble renders a frontmatter mapping and the rest of the file as a SKILL.md.
func assemble(doc *yaml.Node, rest string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	b.WriteString("---\n")
	b.WriteString(rest)
	return b.Bytes(), nil
}

// leadingNewline separates the body from the frontmatter by a blank line and ends it with a
// newline.
func leadingNewline(body string) string {
	if !strings.HasPrefix(body, "\n") && !strings.HasPrefix(body, "\r\n") {
		body = "\n" + body
	}
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return body
}

// setKey sets key to a string value in a YAML mapping, adding it when missing.
func setKey(m *yaml.Node, key, value string) {
	v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

// splitFrontmatter splits a SKILL.md into the text between its --- lines and the rest.
func splitFrontmatter(s string) (fm, body string, ok bool) {
	s = strings.TrimPrefix(s, "\ufeff")
	first, rest, found := strings.Cut(s, "\n")
	if !found || strings.TrimRight(first, "\r") != "---" {
		return "", "", false
	}
	for off := 0; off <= len(rest); {
		line, _, more := strings.Cut(rest[off:], "\n")
		if strings.TrimRight(line, "\r") == "---" {
			end := min(off+len(line)+1, len(rest))
			return rest[:off], rest[end:], true
		}
		if !more {
			break
		}
		off += len(line) + 1
	}
	return "", "", false
}
