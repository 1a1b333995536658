package lifecycle

import (
	"bytes"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// markManaged adds metadata.managed-by: skillgit to the frontmatter of the SKILL.md of a new
// skill an unattended actor proposes, keeping every other byte. It leaves the snapshot as it
// is when the frontmatter has a shape it does not edit safely (a flow mapping, CRLF line
// ends) or already names a manager: the Skillgit-Managed-By trailer marks the skill then.
func (snap *snapshot) markManaged(g *gitstore.Repo) error {
	e, ok, err := g.EntryAt(snap.tree, catalog.FileName)
	if err != nil || !ok || e.Mode != filemode.Regular {
		return err
	}
	data, err := g.ReadBlob(e.Hash, catalog.MaxSkillFileSize)
	if err != nil {
		return err
	}
	marked, ok := withManagedBy(data)
	if !ok {
		return nil
	}
	_, before := catalog.Parse("", data, catalog.Lenient)
	s, after := catalog.Parse("", marked, catalog.Lenient)
	if s == nil || s.Name != snap.skill.Name || s.Metadata["managed-by"] != policy.ManagedBy || len(after) > len(before) {
		return nil
	}
	h, err := g.WriteBlob(marked)
	if err != nil {
		return err
	}
	tree, err := g.ReplacePath(snap.tree, catalog.FileName, &gitstore.TreeEntry{Name: catalog.FileName, Mode: e.Mode, Hash: h})
	if err != nil {
		return err
	}
	snap.tree = tree
	return nil
}

// withManagedBy inserts managed-by: skillgit into the block mapping metadata of the
// frontmatter of data, or adds that mapping at the frontmatter's end. It reports false when
// the frontmatter is not "---\n...\n---\n" with LF line ends, when metadata is not a block
// mapping, or when it already has a managed-by key.
func withManagedBy(data []byte) ([]byte, bool) {
	if !bytes.HasPrefix(data, []byte("---\n")) || bytes.Contains(data, []byte("\r")) {
		return nil, false
	}
	end := bytes.Index(data[4:], []byte("\n---\n"))
	if end < 0 {
		return nil, false
	}
	end += 4 + 1 // the start of the closing line
	lines := bytes.SplitAfter(data[4:end], []byte("\n"))
	at, indent := -1, "  "
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte("metadata:")) {
			if rest := bytes.TrimSpace(l[len("metadata:"):]); len(rest) > 0 {
				return nil, false
			}
			at = i + 1
			if at < len(lines) {
				if n := len(lines[at]) - len(bytes.TrimLeft(lines[at], " ")); n > 0 {
					indent = string(lines[at][:n])
				}
			}
			for _, m := range lines[at:] {
				if len(m) > 0 && m[0] != ' ' {
					break
				}
				if bytes.HasPrefix(bytes.TrimLeft(m, " "), []byte("managed-by:")) {
					return nil, false
				}
			}
		}
	}
	var b bytes.Buffer
	b.Write(data[:4])
	if at < 0 {
		b.Write(data[4:end])
		b.WriteString("metadata:\n  managed-by: " + policy.ManagedBy + "\n")
	} else {
		for _, l := range lines[:at] {
			b.Write(l)
		}
		b.WriteString(indent + "managed-by: " + policy.ManagedBy + "\n")
		for _, l := range lines[at:] {
			b.Write(l)
		}
	}
	b.Write(data[end:])
	return b.Bytes(), true
}
