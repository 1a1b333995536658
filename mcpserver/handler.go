package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgit/skillgit/lifecycle"
)

// texter is a tool output with a text form of its own for the result's content; other
// outputs are given as their JSON.
type texter interface{ text() string }

// handler adapts fn to a typed tool handler: fn runs under the repository lock after a
// refresh, a panic becomes an error, and errors become tool errors an agent can act on.
func handler[In, Out any](s *Server, tool string, fn func(*lifecycle.Repo, In) (Out, error)) mcp.ToolHandlerFor[In, Out] {
	return func(_ context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		var out Out
		err := s.withRepo(func(r *lifecycle.Repo) (err error) {
			defer recoverTo(&err, tool)
			out, err = fn(r, in)
			return err
		})
		if err != nil {
			var zero Out
			return nil, zero, toolError(err)
		}
		if t, ok := any(out).(texter); ok {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: t.text()}}}, out, nil
		}
		return nil, out, nil
	}
}

// recoverTo turns a panic in a tool into its error, so that one bad call never ends the
// server. It must be deferred directly.
func recoverTo(err *error, tool string) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s: internal error: %v; the server keeps running; please report this as a skillgit bug", tool, p)
	}
}

// addTool registers a tool with its handler and the input schema of In, tightened by limits.
func addTool[In, Out any](s *Server, t *mcp.Tool, limits limits, fn func(*lifecycle.Repo, In) (Out, error)) {
	t.InputSchema = inputSchema[In](limits)
	mcp.AddTool(s.mcp, t, handler(s, t.Name, fn))
}
