package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// drainWait bounds how long the end of the input waits for the answers still owed.
const drainWait = time.Minute

// inflight counts the requests read from the client that have not been answered yet, so that
// the end of the input can wait for their answers: a client that writes its requests and then
// closes its end, as a script piping a file does, still gets every answer.
type inflight struct {
	mu  sync.Mutex
	ids map[string]int
}

// message is what inflight reads of a JSON-RPC message: a request has a method and an id, a
// response an id and no method, a notification no id.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// note records one line the client sent (request) or the server wrote (response).
func (f *inflight) note(line []byte, fromClient bool) {
	var m message
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 || bytes.Equal(m.ID, []byte("null")) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ids == nil {
		f.ids = map[string]int{}
	}
	id := string(m.ID)
	switch {
	case fromClient && m.Method != "":
		f.ids[id]++
	case !fromClient && m.Method == "" && f.ids[id] > 0:
		if f.ids[id]--; f.ids[id] == 0 {
			delete(f.ids, id)
		}
	}
}

func (f *inflight) idle() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.ids) == 0
}

// wait returns once every request has its answer, ctx is done, or drainWait has passed.
func (f *inflight) wait(ctx context.Context) {
	deadline := time.Now().Add(drainWait)
	for !f.idle() && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
}

// drainReader passes the client's input through, noting each request, and holds back the
// end of the input until the requests read so far are answered.
type drainReader struct {
	ctx     context.Context
	r       io.ReadCloser
	f       *inflight
	partial []byte
}

func (d *drainReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.scan(p[:n])
	if err == io.EOF {
		d.f.wait(d.ctx)
	}
	return n, err
}

// scan notes every complete line of b, keeping the rest for the next read. A line longer
// than the transport accepts is not tracked: the transport ends the session on it anyway.
func (d *drainReader) scan(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(d.partial)+len(b) <= MaxLineLength {
				d.partial = append(d.partial, b...)
			}
			return
		}
		d.f.note(append(d.partial, b[:i]...), true)
		d.partial, b = d.partial[:0], b[i+1:]
	}
}

func (d *drainReader) Close() error { return d.r.Close() }

// drainWriter passes the server's output through, noting each response. The transport writes
// one whole message per call.
type drainWriter struct {
	w io.Writer
	f *inflight
}

func (d drainWriter) Write(p []byte) (int, error) {
	n, err := d.w.Write(p)
	d.f.note(bytes.TrimSpace(p), false)
	return n, err
}

func (drainWriter) Close() error { return nil }
