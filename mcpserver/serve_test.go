package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/lifecycletest"
)

const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"

func newServer(t *testing.T) *Server {
	t.Helper()
	srv, err := New(lifecycletest.Open(t, lifecycletest.NewRepo(t)), Options{Author: agentID})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestServeEndOfInput serves newline-delimited JSON-RPC on pipes, as on stdin and stdout, and
// ends without an error when the input ends.
func TestServeEndOfInput(t *testing.T) {
	srv := newServer(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), inR, outW) }()
	if _, err := io.WriteString(inW, initializeLine); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || !strings.Contains(line, `"serverInfo":{"name":"skillgit"`) || !strings.Contains(line, `"version":"dev"`) {
		t.Fatalf("initialize answer %q, %v", line, err)
	}
	inW.Close()
	if err := waitFor(t, done); err != nil {
		t.Fatalf("Serve at the end of its input: %v", err)
	}
	if err := srv.withRepo(nil); err != errClosed {
		t.Fatalf("a call after Serve ended: %v; want %v", err, errClosed)
	}
}

// TestServeStops checks that Serve returns once its context is done, even while its input
// blocks.
func TestServeStops(t *testing.T) {
	srv := newServer(t)
	inR, _ := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, inR, io.Discard) }()
	cancel()
	if err := waitFor(t, done); err != nil {
		t.Fatalf("Serve after cancel: %v", err)
	}
}

// TestServeGarbage checks that input that is not JSON ends the session with an error that
// says so.
func TestServeGarbage(t *testing.T) {
	srv := newServer(t)
	err := srv.Serve(context.Background(), strings.NewReader("garbage\n"), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Fatalf("Serve of garbage: %v", err)
	}
}

func waitFor(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
		return nil
	}
}

// TestServeAnswersBeforeEndOfInput pipes requests and closes the input at once, as a script
// does: every request read before the end still gets its answer.
func TestServeAnswersBeforeEndOfInput(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "dates", cleanLine)
	srv, err := New(lifecycletest.Open(t, dir), Options{Author: agentID})
	if err != nil {
		t.Fatal(err)
	}
	in := initializeLine + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	for i := 2; i <= 4; i++ {
		in += fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"match_skills","arguments":{"task":"print the date"}}}`+"\n", i)
	}
	var out strings.Builder
	if err := srv.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for i := 1; i <= 4; i++ {
		if !strings.Contains(out.String(), fmt.Sprintf(`"id":%d,"result"`, i)) {
			t.Errorf("no answer to request %d in:\n%s", i, out.String())
		}
	}
	if !strings.Contains(out.String(), `\"name\":\"dates\"`) && !strings.Contains(out.String(), `"name":"dates"`) {
		t.Errorf("match_skills did not answer with the skill:\n%s", out.String())
	}
}
