package lifecycle

import (
	"io/fs"
	"slices"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// ruleNotAudited is the audit rule for content the audit could not read.
const ruleNotAudited = "SG-TREE-008"

// notAudited reports whether the audit left part of a skill unread.
func notAudited(rep *audit.Report) bool {
	return slices.ContainsFunc(rep.Findings, func(f audit.Finding) bool { return f.RuleID == ruleNotAudited })
}

// withObjectHint is published.WithObjectHint, for the audit of skill folders.
func withObjectHint(err error) error { return published.WithObjectHint(err) }

// FirstObjectError is published.FirstObjectError, for the audit of skill folders.
func FirstObjectError(fsys fs.FS, dir string) error { return published.FirstObjectError(fsys, dir) }
