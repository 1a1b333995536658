package commitgraph

import (
	"errors"
	"fmt"
)

// ErrNoGraph reports that the objects folder holds no commit-graph: the
// caller should read commit objects instead.
var ErrNoGraph = errors.New("commitgraph: no commit-graph file")

// ErrCorrupt is wrapped by every error about a malformed graph file.
// Deleting the file (or running git commit-graph write) repairs it.
var ErrCorrupt = errors.New("commitgraph: corrupt commit-graph")

// ErrUnsupported is wrapped by errors about well-formed graph files this
// package does not read, such as SHA-256 graphs.
var ErrUnsupported = errors.New("commitgraph: unsupported commit-graph")

// corrupt returns an error naming file that wraps ErrCorrupt.
func corrupt(file, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s (remove it or run git commit-graph write)",
		ErrCorrupt, file, fmt.Sprintf(format, args...))
}

// unsupported returns an error naming file that wraps ErrUnsupported.
func unsupported(file, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrUnsupported, file, fmt.Sprintf(format, args...))
}
