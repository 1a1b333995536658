package hooks

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/termtext"
)

// Bounds on the ref updates git feeds a hook.
const (
	// MaxUpdates is the most lines a hook reads from standard input.
	MaxUpdates = 10000
	// MaxLineLen is the longest line a hook accepts.
	MaxLineLen = 512
)

// ParsePrePush reads pre-push input: "<local ref> <local id> <remote ref> <remote id>" per
// line. The update moves the remote ref from the remote id to the local one.
func ParsePrePush(r io.Reader) ([]gitstore.RefUpdate, error) {
	return parseLines(r, PrePush, 4, func(f []string) (gitstore.RefUpdate, error) {
		return update(f[2], f[3], f[1])
	})
}

// ParsePreReceive reads pre-receive input: "<old id> <new id> <ref>" per line.
func ParsePreReceive(r io.Reader) ([]gitstore.RefUpdate, error) {
	return parseLines(r, PreReceive, 3, func(f []string) (gitstore.RefUpdate, error) {
		return update(f[2], f[0], f[1])
	})
}

// parseLines splits hook input into lines of n fields and turns each into an update.
func parseLines(r io.Reader, hook string, n int, parse func([]string) (gitstore.RefUpdate, error)) ([]gitstore.RefUpdate, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, MaxLineLen+1), MaxLineLen+1)
	var out []gitstore.RefUpdate
	for line := 1; sc.Scan(); line++ {
		if line > MaxUpdates {
			return nil, fmt.Errorf("%s input: more than %d ref updates; push fewer refs at a time", hook, MaxUpdates)
		}
		text := strings.TrimSuffix(sc.Text(), "\r")
		if text == "" {
			continue
		}
		var u gitstore.RefUpdate
		f := strings.Split(text, " ")
		err := fmt.Errorf("want %d fields separated by single spaces, got %d", n, len(f))
		if len(f) == n {
			u, err = parse(f)
		}
		if err != nil {
			return nil, fmt.Errorf("%s input, line %d %q: %w", hook, line, clip(text, 120), err)
		}
		out = append(out, u)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s input, line %d: longer than %d bytes", hook, len(out)+1, MaxLineLen)
		}
		return nil, fmt.Errorf("%s input: %w", hook, err)
	}
	return out, nil
}

// unprintable reports a rune that has no place in a ref name a hook prints: a control
// character (tab and newline included), a bidirectional control or a tag character.
func unprintable(r rune) bool { return unicode.IsControl(r) || termtext.Hidden(r) }

// update builds a ref update from a ref name and two object ids in hex.
func update(ref, old, new string) (gitstore.RefUpdate, error) {
	if !strings.HasPrefix(ref, "refs/") || strings.ContainsFunc(ref, unprintable) {
		return gitstore.RefUpdate{}, fmt.Errorf("%q is not a ref name", clip(ref, 60))
	}
	o, err := parseID(old)
	if err != nil {
		return gitstore.RefUpdate{}, err
	}
	n, err := parseID(new)
	if err != nil {
		return gitstore.RefUpdate{}, err
	}
	return gitstore.RefUpdate{Ref: ref, Old: o, New: n}, nil
}

// parseID parses a full object id in hex.
func parseID(s string) (gitstore.Hash, error) {
	var h gitstore.Hash
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("%q is not an object id (%d hex digits)", clip(s, 60), 2*len(h))
	}
	copy(h[:], b)
	return h, nil
}
