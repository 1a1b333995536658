package mcpserver

import "github.com/skillgit/skillgit/catalog"

// Bounds on what a tool takes; inputs are hostile (DESIGN.md §14).
const (
	maxNameLen        = catalog.MaxNameLength
	maxDescriptionLen = catalog.MaxDescriptionLength
	maxIDLen          = 100
	maxMessageLen     = 4096
	maxTaskLen        = 4096
	maxHints          = 20
	maxFiles          = 64
	maxPathLen        = 512
	// maxFileBytes bounds the body and each file, in bytes.
	maxFileBytes = 256 << 10
	// maxTotalBytes bounds all files of one call together.
	maxTotalBytes = 4 << 20
	// maxListed bounds the entries of a listing; match_skills narrows a larger catalog.
	maxListed = 1000
	// maxDiffBytes bounds the diff review_candidate returns.
	maxDiffBytes = 64 << 10
)
