package gitstore

import (
	"bytes"
	"strconv"
)

// cacheTreeSig is the signature of the index extension in which git keeps
// the tree id of every folder it has not touched since the last write-tree.
const cacheTreeSig = "TREE"

// parseCacheTree returns, by slash path ("" is the root), the tree ids of
// the folders whose cache-tree entry is valid. go-git's decoder cannot be
// used for this: it drops invalidated entries, and with them the subtree
// counts that place the entries that follow.
func parseCacheTree(data []byte) (map[string]Hash, error) {
	p := &cacheTreeParser{b: data, valid: map[string]Hash{}}
	for p.pos < len(p.b) {
		if err := p.entry("", 0); err != nil {
			return nil, err
		}
	}
	return p.valid, nil
}

type cacheTreeParser struct {
	b     []byte
	pos   int
	valid map[string]Hash
}

// entry reads one folder's entry and, depth first, those of its subfolders:
// a name, NUL, the number of index entries it covers (-1 when invalid),
// a space, the number of subfolders, a newline, and the id when valid.
func (p *cacheTreeParser) entry(parent string, depth int) error {
	name, ok1 := p.until(0)
	count, ok2 := p.until(' ')
	subs, ok3 := p.until('\n')
	if !ok1 || !ok2 || !ok3 || depth > maxDepth || (depth > 0 && name == "") {
		return errBadIndex
	}
	n, err1 := strconv.Atoi(count)
	k, err2 := strconv.Atoi(subs)
	if err1 != nil || err2 != nil || k < 0 {
		return errBadIndex
	}
	dir := joinSlash(parent, name)
	if n >= 0 {
		if p.pos+len(Hash{}) > len(p.b) {
			return errBadIndex
		}
		var h Hash
		p.pos += copy(h[:], p.b[p.pos:])
		p.valid[dir] = h
	}
	for range k {
		if err := p.entry(dir, depth+1); err != nil {
			return err
		}
	}
	return nil
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
