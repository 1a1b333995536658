package mcpserver

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillgit/skillgit/catalog"
)

// fileIn is one file of a skill folder sent by an agent.
type fileIn struct {
	Path    string `json:"path" jsonschema:"slash path inside the skill folder, such as SKILL.md or scripts/check.sh: relative, no .. element, no backslash"`
	Content string `json:"content" jsonschema:"the file's text, UTF-8"`
}

// checkFiles validates the files of a whole skill folder and returns them as a folder whose
// files are all plain (not executable).
func checkFiles(files []fileIn) (folder, error) {
	out := folder{}
	seen := map[string]string{}
	total := 0
	for i, f := range files {
		field := fmt.Sprintf("files[%d].path", i)
		if err := checkPath(f.Path); err != nil {
			return nil, inputError(field, "%q %v", f.Path, err)
		}
		if prev, dup := seen[strings.ToLower(f.Path)]; dup {
			return nil, inputError(field, "%q is given twice%s; give each file once", f.Path, alsoAs(prev, f.Path))
		}
		seen[strings.ToLower(f.Path)] = f.Path
		if err := checkSize(fmt.Sprintf("files[%d].content", i), f.Content); err != nil {
			return nil, err
		}
		if total += len(f.Content); total > maxTotalBytes {
			return nil, inputError("files", "the files add up to more than %s; a skill folder sent here holds at most that", kib(maxTotalBytes))
		}
		out[f.Path] = file{data: []byte(f.Content)}
	}
	if _, ok := out[catalog.FileName]; !ok {
		return nil, inputError("files", "no %s at the top of the folder; every skill needs one", catalog.FileName)
	}
	return out, out.checkShape()
}

// alsoAs names the earlier spelling of a path that differs from it only in case.
func alsoAs(prev, p string) string {
	if prev == p {
		return ""
	}
	return fmt.Sprintf(" (also as %q: names that differ only in case collide on many systems)", prev)
}

// checkPath refuses a path that could leave the skill folder or that git could not store.
func checkPath(p string) error {
	switch {
	case p == "":
		return errors.New("is empty; name the file inside the skill folder")
	case len(p) > maxPathLen:
		return fmt.Errorf("is %d bytes long; at most %d", len(p), maxPathLen)
	case strings.ContainsRune(p, '\\'):
		return errors.New("has a backslash; separate folders with /")
	case strings.HasPrefix(p, "/") || len(p) >= 2 && p[1] == ':':
		return errors.New("is absolute; give a path relative to the skill folder, such as scripts/run.sh")
	case strings.ContainsFunc(p, unicode.IsControl) || !utf8.ValidString(p):
		return errors.New("has a control character or invalid UTF-8")
	}
	for part := range strings.SplitSeq(p, "/") {
		switch {
		case part == "..":
			return errors.New("has a .. element; every file must stay inside the skill folder")
		case part == "" || part == ".":
			return errors.New("has an empty or . element; write it like scripts/run.sh")
		case strings.EqualFold(part, ".git"):
			return errors.New("names .git, which git does not store")
		}
	}
	if !fs.ValidPath(p) {
		return errors.New("is not a valid relative path")
	}
	return nil
}

// checkSize bounds one text in bytes.
func checkSize(field, s string) error {
	if len(s) > maxFileBytes {
		return inputError(field, "is %d bytes; at most %s", len(s), kib(maxFileBytes))
	}
	return nil
}

// truncateUTF8 cuts s to at most n bytes without splitting a character.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
