package catalog

import (
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// fields checks the value of every spec key and builds the skill.
func (c *checker) fields(keys *frontmatterKeys) *Skill {
	s := &Skill{Dir: c.dir}
	c.name(s, keys.get(keyName))
	desc := c.description(s, keys.get(keyDescription))
	s.License = c.text(keys.get(keyLicense), keyLicense, 0)
	s.Compatibility = c.text(keys.get(keyCompatibility), keyCompatibility, MaxCompatibilityLength)
	s.AllowedTools = c.allowedTools(keys.get(keyAllowedTools))
	s.Metadata = c.metadata(keys.get(keyMetadata))
	if !desc {
		return nil
	}
	if c.meta != nil {
		c.meta.compact(s)
	}
	return s
}

// name checks the name key and sets s.Name. In lenient mode a missing,
// malformed or path-unsafe name falls back to the folder name.
func (c *checker) name(s *Skill, e *entry) {
	s.Name = c.folderName()
	if e == nil {
		c.report(soft, 1, "missing required key name; add name: %s", c.folderName())
		return
	}
	s.nameLine = e.value.Line
	raw, ok := scalarText(e.value)
	if !ok {
		c.report(soft, e.value.Line, "name must be a string, not %s; set it to %s", kindName(e.value), c.folderName())
		return
	}
	name := normalizeName(raw)
	if name == "" {
		c.report(soft, e.value.Line, "name must not be empty; set it to %s", c.folderName())
		return
	}
	for _, fault := range nameFaults(name) {
		c.report(soft, e.value.Line, "name %q %s", name, fault)
	}
	c.nameMatchesFolder(name, e.value.Line)
	c.nameUsable(s, name, e.value.Line)
}

// nameMatchesFolder checks that the name equals its folder's name, both
// compared after NFKC normalisation as the reference validator does.
func (c *checker) nameMatchesFolder(name string, line int) {
	folder := normalizeName(c.folderName())
	if name != folder {
		c.report(soft, line, "name %q does not match its folder %q; rename the folder or change the name so they are equal", name, folder)
	}
}

// nameUsable sets s.Name to name unless name could not serve as a folder
// name: a lenient skill is installed and looked up by name, so a name such
// as "../x" must never reach a path.
func (c *checker) nameUsable(s *Skill, name string, line int) {
	if IsReservedName(name) {
		c.report(advisory, line, "name %q is a device name reserved on Windows, where the skill cannot be checked out; choose another name", name)
	}
	if !safeFolderName(name) {
		if c.mode == Lenient {
			c.report(advisory, line, "name %q cannot be used as a folder name; the skill is loaded as %q", name, c.folderName())
		}
		return
	}
	s.Name = name
}

// description checks the description key, sets s.Description and reports
// whether the skill can load: no agent loads a skill without one.
func (c *checker) description(s *Skill, e *entry) bool {
	if e == nil {
		c.report(fatal, 1, "missing required key description; add one that says what the skill does and when to use it")
		return false
	}
	text, ok := scalarText(e.value)
	if !ok {
		c.report(fatal, e.value.Line, "description must be a string, not %s", kindName(e.value))
		return false
	}
	if strings.TrimSpace(text) == "" {
		c.report(fatal, e.value.Line, "description must not be empty; say what the skill does and when to use it")
		return false
	}
	if IsPlaceholderDescription(text) {
		c.report(soft, e.value.Line, "description is still the placeholder `skillgit new` writes; replace it with what the skill does and when an agent should use it")
	}
	if n := utf8.RuneCountInString(text); n > MaxDescriptionLength {
		c.report(soft, e.value.Line, "description is %d characters long, over the limit of %d; shorten it and move detail into the body", n, MaxDescriptionLength)
	}
	s.Description = text
	return true
}

// IsPlaceholderDescription reports whether text is the description a new skill is given when
// none was asked for, "Describe what NAME does and when an agent should use it.", with NAME
// the skill's name or "this skill".
func IsPlaceholderDescription(text string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "Describe what ")
	if !ok {
		return false
	}
	name, ok := strings.CutSuffix(rest, " does and when an agent should use it.")
	return ok && (name == "this skill" || ValidateName(name) == nil)
}

// text checks an optional string key and returns its value, reporting a
// value longer than limit characters when limit is positive.
func (c *checker) text(e *entry, key string, limit int) string {
	if e == nil {
		return ""
	}
	text, ok := scalarText(e.value)
	if !ok {
		c.report(soft, e.value.Line, "%s must be a string, not %s", key, kindName(e.value))
		return ""
	}
	if n := utf8.RuneCountInString(text); limit > 0 && n > limit {
		c.report(soft, e.value.Line, "%s is %d characters long, over the limit of %d; shorten it", key, n, limit)
	}
	return text
}

// allowedTools returns the allowed-tools value: a space-separated string,
// or a list of strings joined with spaces.
func (c *checker) allowedTools(e *entry) string {
	if e == nil {
		return ""
	}
	if text, ok := scalarText(e.value); ok {
		return text
	}
	if e.value.Kind != yaml.SequenceNode {
		c.report(soft, e.value.Line, "allowed-tools must be a space-separated string or a list of strings, not %s", kindName(e.value))
		return ""
	}
	tools := make([]string, 0, len(e.value.Content))
	for _, item := range e.value.Content {
		item = resolve(item)
		text, ok := scalarText(item)
		if !ok {
			c.report(soft, item.Line, "allowed-tools entries must be strings, not %s", kindName(item))
			continue
		}
		tools = append(tools, text)
	}
	return strings.Join(tools, " ")
}

// metadata returns the metadata mapping with every value kept as text.
func (c *checker) metadata(e *entry) map[string]string {
	if e == nil {
		return nil
	}
	if text, ok := scalarText(e.value); ok && text == "" {
		return nil
	}
	if e.value.Kind != yaml.MappingNode {
		c.report(soft, e.value.Line, "metadata must be a mapping of keys to string values, not %s", kindName(e.value))
		return nil
	}
	meta := make(map[string]string, len(e.value.Content)/2)
	lines := make(map[string]int, len(e.value.Content)/2)
	for i := 0; i+1 < len(e.value.Content); i += 2 {
		c.metadataEntry(meta, lines, resolve(e.value.Content[i]), resolve(e.value.Content[i+1]))
	}
	return meta
}

// metadataEntry adds one metadata key and its value to meta.
func (c *checker) metadataEntry(meta map[string]string, lines map[string]int, k, v *yaml.Node) {
	key, ok := scalarText(k)
	if !ok {
		c.report(soft, k.Line, "metadata keys must be strings, not %s", kindName(k))
		return
	}
	if first, dup := lines[key]; dup {
		c.report(fatal, k.Line, "metadata key %q is repeated (first on line %d); keep only one", key, first)
		return
	}
	lines[key] = k.Line
	value, ok := scalarText(v)
	if !ok {
		c.report(advisory, v.Line, "metadata value of %q is %s, not a string; it is ignored (quote it or flatten it into string keys)", key, kindName(v))
		return
	}
	meta[key] = value
}
