package auditrun

import (
	"io/fs"
	"slices"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
)

// ruleNotAudited is the audit rule for content the audit could not read.
const ruleNotAudited = "SG-TREE-008"

// notAudited reports whether the audit left part of a skill unread.
func notAudited(rep *audit.Report) bool {
	return slices.ContainsFunc(rep.Findings, func(f audit.Finding) bool { return f.RuleID == ruleNotAudited })
}

// FirstObjectError reads every file below dir of fsys, a git tree, and returns the first error
// that is a git object which could not be read; other errors, such as a file over the size
// limit, are for the audit to report.
func FirstObjectError(fsys fs.FS, dir string) error {
	var found error
	fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.Type()&fs.ModeSymlink != 0:
			_, err = fs.ReadLink(fsys, p)
		case d.Type().IsRegular():
			_, err = fs.ReadFile(fsys, p)
		}
		if gitstore.IsObjectError(err) {
			found = err
			return fs.SkipAll
		}
		return nil
	})
	return found
}
