package main

import (
	"cmp"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/internal/buildinfo"
)

// versionJSON is the --json output of skillgit version.
type versionJSON struct {
	Version  string `json:"version"`
	Module   string `json:"module"`
	Revision string `json:"revision,omitempty"`
	Dirty    bool   `json:"dirty"`
	Go       string `json:"go,omitempty"`
}

// appVersion is the version skillgit reports everywhere: --version, skillgit version, the
// SARIF tool driver and the MCP server. A version set at link time wins over the build
// information.
func appVersion() string { return cmp.Or(version, buildinfo.Version()) }

func newVersionCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "version",
		Short: "Print the version of skillgit",
		Long: `Print the version of skillgit: the module version (a tag such as v1.2.3, or (devel)
for a build from a clone), the commit it was built from when known, and -dirty when that
clone had uncommitted changes. skillgit --version prints the same.`,
		Args: exactArgs(0),
		RunE: func(c *cobra.Command, args []string) error { return runVersion(a) },
	}
	a.addJSON(c)
	return c
}

func runVersion(a *app) error {
	info := buildinfo.Read()
	out := versionJSON{Version: a.version, Module: info.Module, Revision: info.Revision, Dirty: info.Dirty, Go: info.Go}
	return a.printResult(out, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "skillgit version %s\n", a.version)
		return err
	})
}
