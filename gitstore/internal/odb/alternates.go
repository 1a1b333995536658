package odb

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// maxAlternateDepth bounds chains of alternates, as git does.
const maxAlternateDepth = 5

// alternates returns the objects folders that dir's
// info/alternates names, and theirs in turn, without repeats.
func alternates(dir string) ([]string, error) {
	seen := map[string]bool{filepath.Clean(dir): true}
	var out []string
	var walk func(string, int) error
	walk = func(d string, depth int) error {
		if depth > maxAlternateDepth {
			return nil
		}
		list, err := readAlternates(d)
		if err != nil {
			return err
		}
		for _, a := range list {
			if seen[a] {
				continue
			}
			seen[a] = true
			out = append(out, a)
			if err := walk(a, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(dir, 1)
}

// readAlternates parses dir/info/alternates: one folder a line, relative
// ones to dir, lines starting with # ignored.
func readAlternates(dir string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "info", "alternates"))
	if isNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line)
		}
		out = append(out, filepath.Clean(line))
	}
	return out, sc.Err()
}
