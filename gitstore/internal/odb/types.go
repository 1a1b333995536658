package odb

import (
	"encoding/hex"
	"errors"
	"fmt"
)

// Type is the type of a git object.
type Type int8

// The object types, numbered as in a pack entry header.
const (
	Commit Type = 1
	Tree   Type = 2
	Blob   Type = 3
	Tag    Type = 4
)

// String returns the name git gives the type, "commit", "tree", "blob"
// or "tag".
func (t Type) String() string {
	switch t {
	case Commit:
		return "commit"
	case Tree:
		return "tree"
	case Blob:
		return "blob"
	case Tag:
		return "tag"
	}
	return fmt.Sprintf("type(%d)", int8(t))
}

// parseType maps a loose object header's type name to a Type.
func parseType(name string) (Type, bool) {
	switch name {
	case "commit":
		return Commit, true
	case "tree":
		return Tree, true
	case "blob":
		return Blob, true
	case "tag":
		return Tag, true
	}
	return 0, false
}

// ErrNotFound is wrapped by the errors of Read and Size for an object
// that is in no pack, loose file or alternate.
var ErrNotFound = errors.New("object not found")

// ErrTooLarge is wrapped by the error of Read for an object whose size
// is above the limit it was given.
var ErrTooLarge = errors.New("object larger than the limit")

// ErrCorrupt is wrapped by the errors for idx, rev, pack and loose files
// whose content is not what git writes.
var ErrCorrupt = errors.New("corrupt object file")

// ErrClosed is returned by reads on a DB after Close.
var ErrClosed = errors.New("object database closed")

// hexID returns the object name of id in hex.
func hexID(id [20]byte) string {
	return hex.EncodeToString(id[:])
}

// corruptf returns an error wrapping ErrCorrupt that names file.
func corruptf(file, format string, args ...any) error {
	return fmt.Errorf("%s: %w: %s (git fsck tells what else is damaged)", file, ErrCorrupt, fmt.Sprintf(format, args...))
}
