package audit

import "path/filepath"

// allHeadSize is how much of a whole-result entry LatestAll reads to learn its key: enough for
// any folder path a repository configures, and a longer one only makes the entry unfindable.
const allHeadSize = 4 << 10

// LatestAll returns the whole result most recently stored or used for the skills folder at
// folder under the policy policyHash, whatever the folder's tree object id: after the folder
// changed, the result of a version before the change, so that the skills whose trees stayed
// the same need not be audited again. ok is false when the cache holds no such result that
// reads whole.
func (c *Cache) LatestAll(folder, policyHash string) (*AllResult, bool) {
	if c == nil || c.Dir == "" {
		return nil, false
	}
	dir := filepath.Join(c.Dir, allFolder)
	files := agedFiles(dir)
	for _, f := range files[:min(len(files), maxAllEntries)] {
		root, ok := allEntryRoot(filepath.Join(dir, f.name), folder, policyHash)
		if !ok {
			continue
		}
		if res, ok := c.getAll(root, folder, policyHash); ok {
			return res, true
		}
	}
	return nil, false
}

// allEntryRoot reads the head of the whole-result entry at name and returns the tree object id
// it is stored under, if it is one of folder under policyHash and the current ruleset.
func allEntryRoot(name, folder, policyHash string) (string, bool) {
	f, err := openEntryFile(name)
	if err != nil {
		return "", false
	}
	defer f.Close()
	head := make([]byte, allHeadSize)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	if !hasMagic(head, allMagic) && !hasMagic(head, changeMagic) {
		return "", false
	}
	d := &entryDecoder{b: head[len(allMagic):]}
	if d.byte() != allFormat || d.int() != rulesetKey() {
		return "", false
	}
	root := d.string()
	if d.string() != folder || d.string() != policyHash || d.err || root == "" {
		return "", false
	}
	return root, true
}
