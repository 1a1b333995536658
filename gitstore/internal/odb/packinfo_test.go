package odb

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// packFiles returns the paths of the idx files in the repository at
// dir.
func packFiles(tb testing.TB, dir string) []string {
	tb.Helper()
	idxs, err := filepath.Glob(filepath.Join(objectsDir(tb, dir), "pack", "pack-*.idx"))
	if err != nil {
		tb.Fatal(err)
	}
	return idxs
}

// maxChain returns the longest delta chain git verify-pack reports for
// the packs of the repository at dir.
func maxChain(tb testing.TB, dir string) int {
	tb.Helper()
	longest := 0
	for _, idx := range packFiles(tb, dir) {
		for _, line := range strings.Split(git(tb, dir, "verify-pack", "-v", idx), "\n") {
			rest, ok := strings.CutPrefix(line, "chain length = ")
			if !ok {
				continue
			}
			n, err := strconv.Atoi(strings.SplitN(rest, ":", 2)[0])
			if err != nil {
				tb.Fatalf("verify-pack line %q", line)
			}
			longest = max(longest, n)
		}
	}
	return longest
}

// entryTypes counts the entry types, read from the first byte of each
// entry at the offsets git show-index lists, in the packs of the
// repository at dir.
func entryTypes(tb testing.TB, dir string) map[int]int {
	tb.Helper()
	counts := map[int]int{}
	for _, idx := range packFiles(tb, dir) {
		raw, err := os.ReadFile(strings.TrimSuffix(idx, ".idx") + ".pack")
		if err != nil {
			tb.Fatal(err)
		}
		in, err := os.ReadFile(idx)
		if err != nil {
			tb.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(gitInput(tb, dir, in, "show-index")), "\n") {
			off, err := strconv.Atoi(strings.Fields(line)[0])
			if err != nil || off >= len(raw) {
				tb.Fatalf("show-index line %q", line)
			}
			counts[int(raw[off]>>4)&7]++
		}
	}
	return counts
}
