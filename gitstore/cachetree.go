package gitstore

import (
	"bytes"
)

// cacheTreeSig is the signature of the index extension in which git keeps
// the tree id of every folder it has not touched since the last write-tree.
const cacheTreeSig = "TREE"

// parseCacheTree returns, by slash path ("" is the root), the tree ids of
// the folders whose cache-tree entry is valid. go-git's decoder cannot be
// used for this: it drops invalidated entries, and with them the subtree
// counts that place the entries that follow.
func parseCacheTree(data []byte) (map[string]Hash, error) {
	root, err := parseCacheTreeNodes(data)
	if err != nil {
		return nil, err
	}
	valid := map[string]Hash{}
	root.collectValid("", valid)
	return valid, nil
}

// collectValid adds the valid folders at and below n, at slash path dir, to valid.
func (n *ctNode) collectValid(dir string, valid map[string]Hash) {
	if n.count >= 0 {
		valid[dir] = n.hash
	}
	for _, c := range n.subs {
		c.collectValid(joinSlash(dir, c.name), valid)
	}
}

// cacheTreeParser reads the cache-tree extension's entries, one after the other: a name,
// NUL, the number of index entries the folder covers (-1 when invalid), a space, the number
// of subfolders, a newline, and the id when valid.
type cacheTreeParser struct {
	b   []byte
	pos int
}

// until returns the text up to the next delimiter and moves past it.
func (p *cacheTreeParser) until(delim byte) (string, bool) {
	i := bytes.IndexByte(p.b[p.pos:], delim)
	if i < 0 {
		return "", false
	}
	s := string(p.b[p.pos : p.pos+i])
	p.pos += i + 1
	return s, true
}

// joinSlash joins a folder's slash path and a name; "" is the root.
func joinSlash(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
