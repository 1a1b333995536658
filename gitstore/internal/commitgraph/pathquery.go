package commitgraph

import "strings"

// PathQuery is a path prepared for repeated changed-path Bloom filter
// queries: the hashes of the path and of each of its leading directories,
// for both filter hash versions. It is immutable and safe to share.
type PathQuery struct {
	path string
	v1   []bloomKey
	v2   []bloomKey
}

// NewPathQuery prepares path, a slash-separated path relative to the
// repository's top (surrounding slashes are ignored), for MaybeChangedQuery.
func NewPathQuery(path string) *PathQuery {
	path = strings.Trim(path, "/")
	q := &PathQuery{path: path}
	if path == "" {
		return q
	}
	for p := path; ; {
		q.v2 = append(q.v2, newBloomKey(p, 2))
		i := strings.LastIndexByte(p, '/')
		if i <= 0 {
			break
		}
		p = p[:i]
	}
	if isASCII(path) {
		q.v1 = q.v2
		return q
	}
	for p := path; ; {
		q.v1 = append(q.v1, newBloomKey(p, 1))
		i := strings.LastIndexByte(p, '/')
		if i <= 0 {
			break
		}
		p = p[:i]
	}
	return q
}

// Path returns the normalized path the query asks about.
func (q *PathQuery) Path() string { return q.path }

// keys returns the hashes for a filter hash version.
func (q *PathQuery) keys(version uint32) []bloomKey {
	if version == 1 {
		return q.v1
	}
	return q.v2
}

// isASCII reports whether s has no byte with the high bit set, where both
// hash versions agree.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
