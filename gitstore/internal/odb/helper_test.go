package odb

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// git runs git in dir and returns its standard output.
func git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	return gitInput(tb, dir, nil, args...)
}

// gitInput runs git in dir with stdin as its standard input and returns
// its standard output.
func gitInput(tb testing.TB, dir string, stdin []byte, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", args...)
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com",
		"GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, stderr.String())
	}
	return string(out)
}

// objectsDir returns the absolute objects folder of the repository at
// dir, following worktrees to their common folder.
func objectsDir(tb testing.TB, dir string) string {
	tb.Helper()
	return strings.TrimSpace(git(tb, dir, "rev-parse", "--path-format=absolute", "--git-path", "objects"))
}

// gitObject is one object as git cat-file prints it.
type gitObject struct {
	id   [20]byte
	typ  string
	data []byte
}

// eachGitObject calls fn with every object of the repository at dir,
// read by git cat-file --batch-all-objects --batch.
func eachGitObject(tb testing.TB, dir string, fn func(o gitObject)) int {
	tb.Helper()
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch")
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	r := bufio.NewReaderSize(out, 1<<16)
	n := 0
	for {
		o, err := readBatchObject(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatalf("reading git cat-file output: %v", err)
		}
		fn(o)
		n++
	}
	if err := cmd.Wait(); err != nil {
		tb.Fatalf("git cat-file: %v", err)
	}
	return n
}

// readBatchObject reads one "<id> <type> <size>\n<data>\n" record.
func readBatchObject(r *bufio.Reader) (gitObject, error) {
	var o gitObject
	line, err := r.ReadString('\n')
	if err != nil {
		if err == io.EOF && line == "" {
			return o, io.EOF
		}
		return o, err
	}
	f := strings.Fields(line)
	if len(f) != 3 {
		return o, fmt.Errorf("bad header %q", line)
	}
	if _, err := hex.Decode(o.id[:], []byte(f[0])); err != nil {
		return o, err
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return o, err
	}
	o.typ = f[1]
	o.data = make([]byte, size+1)
	if _, err := io.ReadFull(r, o.data); err != nil {
		return o, err
	}
	if o.data[size] != '\n' {
		return o, errors.New("record not ended by a newline")
	}
	o.data = o.data[:size]
	return o, nil
}

// parseID decodes a hex object name.
func parseID(tb testing.TB, s string) [20]byte {
	tb.Helper()
	var id [20]byte
	if _, err := hex.Decode(id[:], []byte(strings.TrimSpace(s))); err != nil || len(strings.TrimSpace(s)) != 40 {
		tb.Fatalf("bad object name %q", s)
	}
	return id
}

// openDB opens the objects folder of the repository at dir.
func openDB(tb testing.TB, dir string) *DB {
	tb.Helper()
	db, err := Open(objectsDir(tb, dir))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}
