package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

const (
	agentID    = "Agent Smith <agent@example.com>"
	cleanLine  = "Use the date command to print the date."
	mediumLine = "Run `pip install --extra-index-url https://pypi.example.net/simple internal-tools`."
)

// ada proposes in the tests, as a person rather than an agent.
var ada = lifecycle.ActOptions{Author: "Ada Lovelace <ada@example.com>"}

// publishSkill publishes a skill the way people do: Ada proposes it, Grace approves and
// publishes it.
func publishSkill(t *testing.T, dir, name string, body ...string) {
	t.Helper()
	publishFiles(t, dir, name, map[string]string{"SKILL.md": testenv.SkillMD(name, body...)})
}

// publishFiles publishes a skill folder of files; those under scripts/ are executable.
func publishFiles(t *testing.T, dir, name string, files map[string]string) {
	t.Helper()
	src := filepath.Join(t.TempDir(), name)
	for p, content := range files {
		full := filepath.Join(src, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(p, "scripts/") {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	res, err := lifecycletest.Open(t, dir).Propose(lifecycle.ProposeOptions{ActOptions: ada, From: src})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lifecycletest.Open(t, dir).Approve(res.ID, "", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	if _, err := lifecycletest.Open(t, dir).Publish(res.ID, "", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
}

func setMode(t *testing.T, dir string, m policy.Mode) {
	t.Helper()
	if _, err := lifecycletest.Open(t, dir).SetMode(m, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
}

// client is an MCP client session connected in memory to a server over one repository.
type client struct {
	t  *testing.T
	cs *mcp.ClientSession
}

func connect(t *testing.T, dir string) *client {
	t.Helper()
	return connectWith(t, dir, Options{Author: agentID, Version: "test"})
}

func connectWith(t *testing.T, dir string, o Options) *client {
	t.Helper()
	repo := lifecycletest.Open(t, dir)
	srv, err := New(repo, o)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		srv.Shutdown()
	})
	return &client{t: t, cs: cs}
}

// call calls a tool and fails the test on a protocol error.
func (c *client) call(name string, args any) *mcp.CallToolResult {
	c.t.Helper()
	res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s: protocol error: %v", name, err)
	}
	return res
}

// ok calls a tool that must succeed and decodes its structured output into out.
func (c *client) ok(name string, args, out any) string {
	c.t.Helper()
	res := c.call(name, args)
	if res.IsError {
		c.t.Fatalf("%s %v: tool error: %s", name, args, textOf(res))
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		c.t.Fatalf("%s: structured content %s: %v", name, data, err)
	}
	return textOf(res)
}

// fails calls a tool that must fail with a tool error and returns the error's text.
func (c *client) fails(name string, args any) string {
	c.t.Helper()
	res := c.call(name, args)
	if !res.IsError {
		c.t.Fatalf("%s %v: succeeded with %s; want a tool error", name, args, textOf(res))
	}
	return textOf(res)
}

func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// gitOut runs the git CLI in dir.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// fsck checks the repository with git.
func fsck(t *testing.T, dir string) {
	t.Helper()
	gitOut(t, dir, "fsck", "--strict")
}
