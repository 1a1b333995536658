// Package catalog finds, parses and validates Agent Skills.
//
// A skill is a folder holding a SKILL.md file: YAML frontmatter between two
// "---" lines, then a Markdown body. The package reads skills from any
// [io/fs.FS] (a working tree, a git tree or an embedded pack), so it never
// needs to know where the bytes come from.
//
// Validation comes in two modes. [Strict] follows the rules of the Agent
// Skills reference validator exactly. [Lenient] accepts what coding agents
// load in practice: most rule breaks become warnings and only a skill that
// no agent could load is skipped.
//
// Every input is treated as hostile: file sizes are bounded, symbolic links
// are never followed, names that could not serve as a folder name are never
// trusted, and malformed input yields a [Problem], never a panic.
package catalog
