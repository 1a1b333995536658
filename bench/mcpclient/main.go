// Command mcpclient measures `skillgit mcp` the way an agent uses it: it starts the server as a
// child process on stdio, initializes a session with the official MCP client, and times
// repeated calls of one tool, printing the median, minimum and maximum in milliseconds.
//
//	go run ./bench/mcpclient -skillgit BIN -repo DIR -calls 50 -task "deploy to kubernetes"
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	bin := flag.String("skillgit", "skillgit", "the skillgit binary")
	repo := flag.String("repo", ".", "the skill repository the server runs in")
	calls := flag.Int("calls", 50, "how many timed calls")
	task := flag.String("task", "review the database migration scripts and write release notes", "the task to match")
	limit := flag.Int("limit", 5, "the limit passed to match_skills")
	flag.Parse()
	if err := run(*bin, *repo, *task, *calls, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "mcpclient:", err)
		os.Exit(1)
	}
}

func run(bin, repo, task string, calls, limit int) error {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "skillgit-bench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "-C", repo, "mcp")}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "match_skills", Arguments: map[string]any{"task": task, "limit": limit}}
	first, err := timeCall(ctx, cs, params)
	if err != nil {
		return err
	}
	times := make([]float64, 0, calls)
	for range calls {
		d, err := timeCall(ctx, cs, params)
		if err != nil {
			return err
		}
		times = append(times, d)
	}
	slices.Sort(times)
	fmt.Printf("first %.3f median %.3f min %.3f max %.3f ms over %d calls\n", first, times[len(times)/2], times[0], times[len(times)-1], calls)
	return nil
}

// timeCall calls the tool once and returns the round trip in milliseconds.
func timeCall(ctx context.Context, cs *mcp.ClientSession, p *mcp.CallToolParams) (float64, error) {
	start := time.Now()
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		return 0, err
	}
	if res.IsError {
		return 0, fmt.Errorf("%s: tool error: %v", p.Name, res.Content)
	}
	return float64(time.Since(start).Microseconds()) / 1000, nil
}
