package policy

import "bytes"

// MarkManaged inserts managed-by: skillgit (ManagedBy) into the block mapping metadata of the
// frontmatter of data, or adds that mapping at the frontmatter's end. It reports false when
// the frontmatter is not "---\n...\n---\n" with LF line ends, when metadata is not a block
// mapping, or when it already has a managed-by key.
func MarkManaged(data []byte) ([]byte, bool) {
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
		b.WriteString("metadata:\n  managed-by: " + ManagedBy + "\n")
	} else {
		for _, l := range lines[:at] {
			b.Write(l)
		}
		b.WriteString(indent + "managed-by: " + ManagedBy + "\n")
		for _, l := range lines[at:] {
			b.Write(l)
		}
	}
	b.Write(data[end:])
	return b.Bytes(), true
}
