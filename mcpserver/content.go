package mcpserver

import (
	"fmt"
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
	var paths catalog.PathSet
	total := 0
	for i, f := range files {
		field := fmt.Sprintf("files[%d].path", i)
		if _, dup := out[f.Path]; dup {
			return nil, inputError(field, "%q is given twice; give each file once", f.Path)
		}
		if err := checkPath(&paths, f.Path); err != nil {
			return nil, inputError(field, "%v", err)
		}
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

// checkPath bounds the length of a path sent over MCP and applies the path policy to it,
// names that differ only in case from one in paths included.
func checkPath(paths *catalog.PathSet, p string) error {
	if len(p) > maxPathLen {
		return fmt.Errorf("%q is %d bytes long; at most %d", truncateUTF8(p, 64), len(p), maxPathLen)
	}
	return paths.Add(p)
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
