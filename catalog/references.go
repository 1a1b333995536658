package catalog

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"
	"unicode/utf8"
)

// ReferencesDir is the folder of a skill whose text files an agent may be given with the
// SKILL.md.
const ReferencesDir = "references"

// Bounds on the references of one skill: how many entries are looked at and how many bytes
// of text are read in all. A single file is bounded by MaxSkillFileSize.
const (
	maxReferenceEntries = 10_000
	maxReferenceBytes   = 8 << 20
)

// Reference is one text file below a skill's references folder.
type Reference struct {
	// Path is the slash-separated path inside the skill folder, such as "references/api.md".
	Path string
	Text []byte
}

// References reads the text files below the references folder of the skill folder fsys, in
// path order. Only regular files are read: symbolic links are never followed. A file is text
// when it is valid UTF-8 without NUL bytes; others, and files over MaxSkillFileSize, are left
// out. A skill without a references folder has none.
func References(fsys fs.FS) ([]Reference, error) {
	info, err := fs.Lstat(fsys, ReferencesDir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !info.IsDir()) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var refs []Reference
	seen, total := 0, 0
	err = fs.WalkDir(fsys, ReferencesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if seen++; seen > maxReferenceEntries {
			return fs.SkipAll
		}
		if !d.Type().IsRegular() {
			return nil
		}
		text, ok, err := readText(fsys, p)
		if err != nil || !ok || total+len(text) > maxReferenceBytes {
			return err
		}
		total += len(text)
		refs = append(refs, Reference{Path: p, Text: text})
		return nil
	})
	slices.SortFunc(refs, func(a, b Reference) int { return strings.Compare(a.Path, b.Path) })
	return refs, err
}

// readText reads file p of fsys, bounded; ok is false when it is too large or not text.
func readText(fsys fs.FS, p string) (text []byte, ok bool, err error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSkillFileSize+1))
	if err != nil {
		return nil, false, err
	}
	if len(data) > MaxSkillFileSize || bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return nil, false, nil
	}
	return data, true, nil
}

// AppendReferences returns content followed by each reference: a blank line, a
// "Reference: PATH" line, a blank line and the file's text.
func AppendReferences(content []byte, refs []Reference) []byte {
	if len(refs) == 0 {
		return content
	}
	var b bytes.Buffer
	b.Write(content)
	for _, r := range refs {
		if b.Len() > 0 && !bytes.HasSuffix(b.Bytes(), []byte{'\n'}) {
			b.WriteByte('\n')
		}
		b.WriteString("\nReference: " + r.Path + "\n\n")
		b.Write(r.Text)
	}
	return b.Bytes()
}
