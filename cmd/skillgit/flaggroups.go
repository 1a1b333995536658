package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// exclusiveFlags makes the flags names of c exclusive: giving two of them is a usage error
// (exit 2) that names them and says why, checked before c runs. cobra's own groups fail
// with its message and exit 1.
func exclusiveFlags(c *cobra.Command, why string, names ...string) {
	run := c.RunE
	c.RunE = func(c *cobra.Command, args []string) error {
		if err := checkExclusive(c, why, names); err != nil {
			return err
		}
		return run(c, args)
	}
}

// checkExclusive is the check of exclusiveFlags.
func checkExclusive(c *cobra.Command, why string, names []string) error {
	var set []string
	for _, n := range names {
		if c.Flags().Changed(n) {
			set = append(set, "--"+n)
		}
	}
	if len(set) < 2 {
		return nil
	}
	return usageError{fmt.Errorf("%s cannot be used together: %s; use one", joinAnd(set), why)}
}

// joinAnd joins words as a sentence lists them: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
