package gitstore

import (
	"bytes"
	"strconv"
	"strings"
)

// ctNode is one folder of the cache-tree extension: its name, the number of index entries
// it covers (-1 when invalid), its tree id when valid, and its subfolders in file order.
type ctNode struct {
	name  string
	count int
	hash  Hash
	subs  []*ctNode
}

// parseCacheTreeNodes reads a cache-tree extension, invalid entries and all.
func parseCacheTreeNodes(data []byte) (*ctNode, error) {
	p := &cacheTreeParser{b: data}
	root, err := p.node(0)
	if err != nil || p.pos != len(data) {
		return nil, errBadIndex
	}
	return root, nil
}

// node reads one entry and, depth first, those of its subfolders.
func (p *cacheTreeParser) node(depth int) (*ctNode, error) {
	name, ok1 := p.until(0)
	count, ok2 := p.until(' ')
	subs, ok3 := p.until('\n')
	if !ok1 || !ok2 || !ok3 || depth > maxDepth || (depth > 0 && name == "") {
		return nil, errBadIndex
	}
	n, err1 := strconv.Atoi(count)
	k, err2 := strconv.Atoi(subs)
	if err1 != nil || err2 != nil || k < 0 || k > len(p.b) {
		return nil, errBadIndex
	}
	nd := &ctNode{name: name, count: n}
	if n >= 0 {
		if p.pos+len(Hash{}) > len(p.b) {
			return nil, errBadIndex
		}
		p.pos += copy(nd.hash[:], p.b[p.pos:])
	}
	for range k {
		c, err := p.node(depth + 1)
		if err != nil {
			return nil, err
		}
		nd.subs = append(nd.subs, c)
	}
	return nd, nil
}

// patchCacheTree returns the cache-tree extension data with the folders holding each of
// changed invalidated and the changed paths forgotten, as git does when it changes the
// index there; nil when data is nil or unreadable, and then the index is written without
// the extension, which git rebuilds. The bytes of the folders off the changed paths are
// copied as they are: a cache-tree of 100,000 folders is not parsed into nodes to change
// three of them.
func patchCacheTree(data []byte, changed []string) []byte {
	if data == nil {
		return nil
	}
	for _, p := range changed {
		out, end, ok := invalidateCacheTree(data, 0, strings.Split(strings.Trim(p, "/"), "/"), 0, make([]byte, 0, len(data)))
		if !ok || end != len(data) {
			return nil
		}
		data = out
	}
	if len(changed) == 0 {
		if end, ok := skipCacheTree(data, 0, 0); !ok || end != len(data) {
			return nil
		}
	}
	return data
}

// wideFolder is the number of subfolders above which an invalidated folder is written with
// none. A folder of 100,000 skills keeps 4.5 MB of ids in the extension, which every publish
// would read, patch, hash and write again, though the split index around it holds only the
// entries that changed; git accepts a folder listed without its subfolders and computes their trees the next time
// it writes a tree from the index (1.2 s at 100,000 skills, once, in `git commit`). Then the
// folder holds none, and the publishes after it cost what they change.
const wideFolder = 1000

// invalidateCacheTree appends to out the folder whose entry starts at pos, which holds the
// path parts below it, marked invalid, without the subfolder the path names when parts is
// its name alone, and with the folder on the path invalidated in turn otherwise; a folder of
// more than wideFolder subfolders is written without them. It returns out and the end of
// the folder's entry and subfolders.
func invalidateCacheTree(b []byte, pos int, parts []string, depth int, out []byte) ([]byte, int, bool) {
	h, ok := readCacheTreeHeader(b, pos, depth)
	if !ok {
		return nil, 0, false
	}
	// Find the subfolder on the path among the folder's subfolders.
	at, atEnd, end := -1, -1, h.next
	for range h.subs {
		next, ok := skipCacheTree(b, end, depth+1)
		if !ok {
			return nil, 0, false
		}
		if c, _ := readCacheTreeHeader(b, end, depth+1); at < 0 && len(parts) > 0 && string(c.name) == parts[0] {
			at, atEnd = end, next
		}
		end = next
	}
	if h.subs > wideFolder {
		return appendCacheTreeHeader(out, h.name, -1, 0), end, true
	}
	subs := h.subs
	if at >= 0 && len(parts) == 1 {
		subs--
	}
	out = appendCacheTreeHeader(out, h.name, -1, subs)
	if at < 0 {
		return append(out, b[h.next:end]...), end, true
	}
	out = append(out, b[h.next:at]...)
	if len(parts) > 1 {
		var sub int
		if out, sub, ok = invalidateCacheTree(b, at, parts[1:], depth+1, out); !ok || sub != atEnd {
			return nil, 0, false
		}
	}
	return append(out, b[atEnd:end]...), end, true
}

// skipCacheTree returns the end of the folder entry at pos and of its subfolders.
func skipCacheTree(b []byte, pos, depth int) (int, bool) {
	h, ok := readCacheTreeHeader(b, pos, depth)
	if !ok {
		return 0, false
	}
	end := h.next
	for range h.subs {
		if end, ok = skipCacheTree(b, end, depth+1); !ok {
			return 0, false
		}
	}
	return end, true
}

// cacheTreeHeader is one folder's entry of the cache-tree extension: its name (cut from the
// extension's bytes), the number of its subfolders, and where the entry ends (after the id,
// when the folder is valid).
type cacheTreeHeader struct {
	name       []byte
	subs, next int
}

// readCacheTreeHeader reads the entry at pos, without allocating: a name, NUL, the number
// of index entries the folder covers (-1 when invalid), a space, the number of subfolders,
// a newline, and the id when valid.
func readCacheTreeHeader(b []byte, pos, depth int) (cacheTreeHeader, bool) {
	field := func(delim byte) ([]byte, bool) {
		i := bytes.IndexByte(b[pos:], delim)
		if i < 0 {
			return nil, false
		}
		f := b[pos : pos+i]
		pos += i + 1
		return f, true
	}
	name, ok1 := field(0)
	count, ok2 := field(' ')
	subs, ok3 := field('\n')
	n, ok4 := parseCount(count)
	k, ok5 := parseCount(subs)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || k < 0 || k > len(b) || depth > maxDepth || (depth > 0 && len(name) == 0) {
		return cacheTreeHeader{}, false
	}
	if n >= 0 {
		pos += len(Hash{})
	}
	if pos > len(b) {
		return cacheTreeHeader{}, false
	}
	return cacheTreeHeader{name: name, subs: k, next: pos}, true
}

// parseCount reads a decimal number of at most nine digits, perhaps negative.
func parseCount(b []byte) (int, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		return -n, true
	}
	return n, true
}

// appendCacheTreeHeader appends the entry of an invalid folder or of a valid one's counts.
func appendCacheTreeHeader(b, name []byte, count, subs int) []byte {
	b = append(b, name...)
	b = append(b, 0)
	b = strconv.AppendInt(b, int64(count), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(subs), 10)
	return append(b, '\n')
}
