// Command treehash reads the output of `git cat-file --batch` on stdin, hashes each object
// as git names it (type, size, content) with the hash skillgit writes objects with, checks
// that the hash is the id git gave, and prints how many objects and bytes it hashed and the
// seconds the hashing took, on one line:
//
//	git rev-list --first-parent main | sed 's/$/:skills/' | git cat-file --batch | treehash
//	10003 2282798235 2.131
//
// bench/packs.sh feeds it every version of the skills folder a publish of a pack left on
// the publish branch: each version is a tree that must be hashed whole, which no publish can
// do faster, so the time it prints is a floor under the cost of the publish.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// maxObject bounds an object read: a skills folder of 100,000 skills is about 5 MB.
const maxObject = 256 << 20

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: git cat-file --batch | treehash")
		os.Exit(2)
	}
	sum, err := hashBatch(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "treehash:", err)
		os.Exit(1)
	}
	fmt.Println(sum)
}

// summary is what hashBatch hashed.
type summary struct {
	objects int
	bytes   int64
	took    time.Duration
}

func (s summary) String() string {
	return fmt.Sprintf("%d %d %.3f", s.objects, s.bytes, s.took.Seconds())
}

// hashBatch hashes every object of the cat-file --batch stream r, timing the hashing only.
func hashBatch(r io.Reader) (summary, error) {
	in := bufio.NewReaderSize(r, 1<<20)
	var s summary
	var buf []byte
	for {
		line, err := in.ReadString('\n')
		if errors.Is(err, io.EOF) && line == "" {
			return s, nil
		}
		if err != nil {
			return s, fmt.Errorf("object %d: reading its header: %w", s.objects+1, err)
		}
		id, typ, size, err := parseHeader(strings.TrimSuffix(line, "\n"))
		if err != nil {
			return s, fmt.Errorf("object %d: %w", s.objects+1, err)
		}
		if cap(buf) < size+1 {
			buf = make([]byte, size+1)
		}
		b := buf[:size+1]
		if _, err := io.ReadFull(in, b); err != nil || b[size] != '\n' {
			return s, fmt.Errorf("object %s: content cut short", id)
		}
		start := time.Now()
		got := plumbing.ComputeHash(typ, b[:size])
		s.took += time.Since(start)
		if got != id {
			return s, fmt.Errorf("object %s hashes to %s", id, got)
		}
		s.objects++
		s.bytes += int64(size)
	}
}

// parseHeader parses a header line of cat-file --batch: "ID TYPE SIZE". A name git could not
// find ("NAME missing") is an error.
func parseHeader(line string) (plumbing.Hash, plumbing.ObjectType, int, error) {
	f := strings.Fields(line)
	if len(f) == 2 && f[1] == "missing" {
		return plumbing.ZeroHash, 0, 0, fmt.Errorf("git has no object named %q", f[0])
	}
	if len(f) != 3 {
		return plumbing.ZeroHash, 0, 0, fmt.Errorf("header %q is not \"ID TYPE SIZE\"", line)
	}
	if !plumbing.IsHash(f[0]) {
		return plumbing.ZeroHash, 0, 0, fmt.Errorf("header %q: %q is no object id", line, f[0])
	}
	id := plumbing.NewHash(f[0])
	typ, err := plumbing.ParseObjectType(f[1])
	if err != nil {
		return plumbing.ZeroHash, 0, 0, fmt.Errorf("header %q: %w", line, err)
	}
	size, err := strconv.Atoi(f[2])
	if err != nil || size < 0 || size > maxObject {
		return plumbing.ZeroHash, 0, 0, fmt.Errorf("header %q: size %q is not between 0 and %d", line, f[2], maxObject)
	}
	return id, typ, size, nil
}
