// Package buildinfo tells which build of skillgit is running, from what the Go toolchain
// recorded in the binary.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// shortRevision is how many hex digits of a commit name a version shows, as in Go's
// pseudo-versions.
const shortRevision = 12

// Info is what a binary records about its own build.
type Info struct {
	// Module is the main module's version: a tag such as v1.2.3, a pseudo-version, or
	// (devel) for a build from a work tree.
	Module string
	// Revision is the commit the binary was built from, shortened; empty when the build
	// recorded none.
	Revision string
	// Dirty reports that the work tree had changes not committed at build time.
	Dirty bool
	// Go is the version of the toolchain that built the binary.
	Go string
}

// Read returns the build information of the running binary.
func Read() Info {
	bi, _ := debug.ReadBuildInfo()
	return From(bi)
}

// Version returns the version string of the running binary.
func Version() string { return Read().String() }

// From extracts Info from bi, which may be nil when the binary recorded nothing.
func From(bi *debug.BuildInfo) Info {
	info := Info{Module: "(devel)"}
	if bi == nil {
		return info
	}
	info.Go = bi.GoVersion
	if bi.Main.Version != "" {
		info.Module = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value[:min(len(s.Value), shortRevision)]
		case "vcs.modified":
			info.Dirty = s.Value == "true"
		}
	}
	return info
}

// String joins the module version, the revision when the version does not already name it,
// and -dirty for a build from a changed work tree: "v1.2.3", "(devel) 0123456789ab-dirty".
func (i Info) String() string {
	// The go command marks a changed work tree in the version it stamps; say it once.
	s := strings.TrimSuffix(i.Module, "+dirty")
	if s == "" {
		s = "(devel)"
	}
	if i.Revision != "" && !strings.Contains(s, i.Revision) {
		s += " " + i.Revision
	}
	if i.Dirty || strings.HasSuffix(i.Module, "+dirty") {
		s += "-dirty"
	}
	return s
}
