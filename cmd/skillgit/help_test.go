package main

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// newTree builds the command tree as Main does, writing nowhere.
func newTree() *cobra.Command {
	a := &app{Stdio: Stdio{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}}
	return newRootCmd(a)
}

// walk calls fn on c and every command below it.
func walk(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		walk(sub, fn)
	}
}

// isHelpTopic reports a command that only carries text, such as exit-codes.
func isHelpTopic(c *cobra.Command) bool { return !c.Runnable() && !c.HasSubCommands() }

func TestEveryCommandHasAGroup(t *testing.T) {
	root := newTree()
	groups := map[string]bool{}
	for _, g := range root.Groups() {
		groups[g.ID] = true
	}
	names := map[string]bool{}
	for _, c := range root.Commands() {
		names[c.Name()] = true
		if isHelpTopic(c) {
			continue
		}
		if c.GroupID == "" {
			t.Errorf("%s: no group; place it in commandGroup", c.CommandPath())
		} else if !groups[c.GroupID] {
			t.Errorf("%s: group %q is not in commandGroups", c.CommandPath(), c.GroupID)
		}
	}
	for name, id := range commandGroup {
		if !groups[id] {
			t.Errorf("commandGroup[%q] = %q, which is not in commandGroups", name, id)
		}
		if !names[name] && name != "version" {
			t.Errorf("commandGroup names %q, which is not a command", name)
		}
	}
}

// TestUnknownCommandsGoToAdditionalCommands adds commands the table does not know, and one it
// knows before it exists, to a tree of their own: the help still renders, the unknown one
// under "Additional Commands".
func TestUnknownCommandsGoToAdditionalCommands(t *testing.T) {
	root := &cobra.Command{Use: "skillgit"}
	run := func(*cobra.Command, []string) {}
	root.AddCommand(&cobra.Command{Use: "frobnicate", Short: "unknown", Run: run},
		&cobra.Command{Use: "version", Short: "known", Run: run})
	applyGroups(root)
	var out strings.Builder
	root.SetOut(&out)
	root.SetArgs([]string{"--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Getting started:\n  version ", "Additional Commands:\n  completion"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, out.String())
		}
	}
	if i := strings.Index(out.String(), "Additional Commands:"); i < 0 || !strings.Contains(out.String()[i:], "\n  frobnicate ") {
		t.Errorf("frobnicate is not under Additional Commands:\n%s", out.String())
	}
}

func TestEveryCommandHasExamples(t *testing.T) {
	walk(newTree(), func(c *cobra.Command) {
		if isHelpTopic(c) || c.Name() == "help" {
			return
		}
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s: no examples; add them to the examples table", c.CommandPath())
		}
	})
	paths := map[string]bool{}
	walk(newTree(), func(c *cobra.Command) { paths[c.CommandPath()] = true })
	for path := range examples {
		if !paths[path] && path != "skillgit version" {
			t.Errorf("examples has %q, which is not a command", path)
		}
	}
}

// TestExamplesAreTrueCommands parses every example line with the real command tree: the line
// must reach the command it illustrates (or one below it), and its flags, their values, the
// argument count and the flags that exclude each other must all pass.
func TestExamplesAreTrueCommands(t *testing.T) {
	paths := map[string]bool{}
	walk(newTree(), func(c *cobra.Command) { paths[c.CommandPath()] = true })
	for path, ex := range examples {
		if !paths[path] {
			continue // TestEveryCommandHasExamples names it
		}
		for _, line := range strings.Split(strings.TrimSpace(ex), "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "#") {
				continue
			}
			t.Run(line, func(t *testing.T) { checkExample(t, path, line) })
		}
	}
}

func checkExample(t *testing.T, path, line string) {
	words, err := shellWords(line)
	if err != nil || len(words) == 0 || words[0] != "skillgit" {
		t.Fatalf("%s: an example line is a comment or a skillgit command (%v)", path, err)
	}
	root := newTree()
	c, rest, err := root.Find(words[1:])
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if got := c.CommandPath(); got != path && !strings.HasPrefix(got, path+" ") {
		t.Fatalf("the examples of %s run %s", path, got)
	}
	if err := c.ParseFlags(rest); err != nil {
		t.Fatalf("%s: %v", c.CommandPath(), err)
	}
	if err := c.ValidateArgs(c.Flags().Args()); err != nil {
		t.Fatalf("%v", err)
	}
	if err := c.ValidateFlagGroups(); err != nil {
		t.Fatalf("%s: %v", c.CommandPath(), err)
	}
}

// shellWords splits a line into words as a shell would for the quoting examples use: single
// and double quotes, no escapes or expansions.
func shellWords(line string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words, inWord = append(words, word.String()), false
				word.Reset()
			}
		case strings.ContainsRune("|&;<>$`\\", r):
			return nil, errUnsupportedShell
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, errUnsupportedShell
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

var errUnsupportedShell = errors.New("only plain words and quotes are allowed")

func TestCompletionTablesNameRealCommandsAndFlags(t *testing.T) {
	cmds := map[string]*cobra.Command{}
	walk(newTree(), func(c *cobra.Command) { cmds[c.CommandPath()] = c })
	for path, spec := range argCompletions {
		c, ok := cmds[path]
		if !ok {
			t.Errorf("argCompletions has %q, which is not a command", path)
			continue
		}
		if c.ValidArgsFunction == nil {
			t.Errorf("%s: no completion for its arguments", path)
		}
		if spec.onlyWith != "" && c.Flags().Lookup(spec.onlyWith) == nil {
			t.Errorf("%s: no flag --%s", path, spec.onlyWith)
		}
	}
	for path, flags := range flagCompletions {
		c, ok := cmds[path]
		if !ok {
			t.Errorf("flagCompletions has %q, which is not a command", path)
			continue
		}
		for name := range flags {
			if _, ok := c.GetFlagCompletionFunc(name); !ok {
				t.Errorf("%s: no completion for --%s", path, name)
			}
		}
	}
}
