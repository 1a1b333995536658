package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stopWait bounds how long Serve waits, once ctx is done, for the transport to let go of a
// reader that does not unblock when closed, such as a terminal.
const stopWait = time.Second

// Serve serves one client that speaks newline-delimited JSON-RPC on in and out (the stdio
// transport) until in ends or ctx is done, and then refuses further calls. At the end of in it
// first answers the requests already read. It closes in when in is an io.Closer, never out.
// The end of the input is a normal end, not an error.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	rc, ok := in.(io.ReadCloser)
	if !ok {
		rc = io.NopCloser(in)
	}
	f := &inflight{}
	t := &mcp.IOTransport{Reader: &drainReader{ctx: ctx, r: rc, f: f}, Writer: drainWriter{w: out, f: f}, MaxLineLength: MaxLineLength}
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, t) }()
	select {
	case err := <-done:
		s.Shutdown()
		return sessionError(err)
	case <-ctx.Done():
		s.Shutdown()
		select {
		case <-done:
		case <-time.After(stopWait):
		}
		return nil
	}
}

// sessionError explains how a session ended, nil for the end of the input.
func sessionError(err error) error {
	var syntax *json.SyntaxError
	switch {
	case err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled):
		return nil
	case errors.As(err, &syntax):
		return fmt.Errorf("mcp: the client sent something that is not JSON (%w); the stdio transport carries one JSON-RPC message per line", err)
	}
	return fmt.Errorf("mcp: the session ended: %w", err)
}
