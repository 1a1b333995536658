// Package skills holds skillgit's built-in skill pack, published by `skillgit init --builtin`.
package skills

import (
	"embed"
	"io/fs"
)

//go:embed skillgit skill-authoring
var files embed.FS

// Version identifies this edition of the built-in pack in commit trailers.
const Version = "1"

// FS returns the built-in pack: one folder per skill, each with a SKILL.md.
func FS() fs.FS { return files }
