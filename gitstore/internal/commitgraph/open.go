package commitgraph

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Limits on what a chain file may ask for.
const (
	maxChainBytes  = 1 << 20
	maxChainLayers = 1000
)

// Open reads the commit-graph of objectsDir (a repository's objects
// folder): objects/info/commit-graph when it exists, as git prefers it,
// else the split chain objects/info/commit-graphs/commit-graph-chain and
// its graph-<hash>.graph files, base layers first. With neither it
// returns an error wrapping ErrNoGraph. Close releases the files.
func Open(objectsDir string) (*Graph, error) {
	single := filepath.Join(objectsDir, "info", "commit-graph")
	l, err := openLayer(single)
	if err == nil {
		if l.numBases() != 0 {
			closeLayers([]*layer{l})
			return nil, corrupt(single, "declares %d base graphs but is not part of a chain", l.numBases())
		}
		return newGraph([]*layer{l})
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	names, err := readChain(filepath.Join(objectsDir, "info", "commit-graphs", "commit-graph-chain"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w in %s", ErrNoGraph, objectsDir)
	}
	if err != nil {
		return nil, err
	}
	return openChain(filepath.Join(objectsDir, "info", "commit-graphs"), names)
}

// openLayer maps and parses one graph file.
func openLayer(path string) (*layer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > int64(^uint(0)>>1) {
		return nil, corrupt(path, "not a regular file of a readable size")
	}
	data, m, err := mapFile(f, int(st.Size()))
	if err != nil {
		return nil, fmt.Errorf("commitgraph: reading %s: %w", path, err)
	}
	l, err := parseLayer(path, data)
	if err != nil {
		m.release()
		return nil, err
	}
	l.release, l.drop = m.release, m.drop
	return l, nil
}

// readChain reads a commit-graph-chain file: one hexadecimal graph hash a
// line, base first.
func readChain(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxChainBytes+1))
	if err != nil {
		return nil, fmt.Errorf("commitgraph: reading %s: %w", path, err)
	}
	if len(data) > maxChainBytes {
		return nil, corrupt(path, "chain file is larger than %d bytes", maxChainBytes)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) == 0 || lines[0] == "" || len(lines) > maxChainLayers {
		return nil, corrupt(path, "chain lists %d graph files", len(lines))
	}
	for i, line := range lines {
		if len(line) != 2*hashSize || !isLowerHex(line) {
			return nil, corrupt(path, "line %d is not a graph hash", i+1)
		}
	}
	return lines, nil
}

// openChain opens the chain's files in order, checking that each file is
// the one its name promises and that its BASE chunk lists the layers
// below it.
func openChain(dir string, names []string) (g *Graph, err error) {
	var layers []*layer
	defer func() {
		if err != nil {
			closeLayers(layers)
		}
	}()
	for i, name := range names {
		l, err := openLayer(filepath.Join(dir, "graph-"+name+".graph"))
		if err != nil {
			return nil, err
		}
		layers = append(layers, l)
		if hex.EncodeToString(l.checksum()) != name {
			return nil, corrupt(l.name, "trailing checksum does not match the file's name")
		}
		if l.numBases() != i {
			return nil, corrupt(l.name, "declares %d base graphs, the chain has %d below it", l.numBases(), i)
		}
		for j := 0; j < i; j++ {
			if !bytes.Equal(l.baseIDs[j*hashSize:(j+1)*hashSize], layers[j].checksum()) {
				return nil, corrupt(l.name, "base graph %d is not %s", j, names[j])
			}
		}
	}
	return newGraph(layers)
}

// isLowerHex reports whether s is made of lowercase hexadecimal digits.
func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// closeLayers releases the layers' mappings and returns the first error.
func closeLayers(layers []*layer) error {
	var first error
	for _, l := range layers {
		if l.release != nil {
			if err := l.release(); err != nil && first == nil {
				first = err
			}
			l.release = nil
		}
	}
	return first
}
