package main

import (
	"testing"

	"github.com/spf13/cobra"
)

// TestRemindsOfHooksNamesRealCommands keeps the commands that remind of missing hooks in
// step with the command tree: a renamed command would otherwise drop out silently.
func TestRemindsOfHooksNamesRealCommands(t *testing.T) {
	cmds := map[string]bool{}
	walk(newTree(), func(c *cobra.Command) { cmds[c.CommandPath()] = true })
	for path := range remindsOfHooks {
		if !cmds[path] {
			t.Errorf("remindsOfHooks has %q, which is not a command", path)
		}
	}
}
