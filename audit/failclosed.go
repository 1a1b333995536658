package audit

import (
	"fmt"
	"io/fs"
)

// The audit fails closed: a panic while reading one file, in a rule or a reader, makes that
// file one SG-TREE-008 finding (not audited, high) and the other files are still audited; a
// panic in what follows the files (combining, fingerprinting, comparing with the base) makes
// the whole skill one such finding. A crash never lets content through unread, and never
// stops a hook, a propose or a publish with a stack trace.

// crashHook, when not nil, runs where the audit may crash: at the start of each file's scan
// (stage "file", with the file's path) and before the findings are made (stage "finish").
// Tests set it to make those places panic.
var crashHook func(stage, path string)

// scanFileClosed scans one file as scanFile does and reports whether the scan ended; a panic
// becomes an SG-TREE-008 finding that names the file.
func (s *scanner) scanFileClosed(t *treeScan, e treeEntry, c content) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			s.cand = takeCandidates() // the crashed scan may have left its candidates half made
			t.add("SG-TREE-008", e.path, notAudited("file "+e.path, v), e.path)
		}
	}()
	if crashHook != nil {
		crashHook("file", e.path)
	}
	s.scanFile(t, e, c)
	return true
}

// codeFlowClosed analyses the skill's code as codeFlowHits does; a panic becomes an
// SG-TREE-008 finding for the code, and the findings of the files stand.
func (s *scanner) codeFlowClosed(t *treeScan) {
	defer func() {
		if v := recover(); v != nil {
			t.add("SG-TREE-008", ".", notAudited("the skill's code, read as a program,", v), "code")
		}
	}()
	if crashHook != nil {
		crashHook("code", "")
	}
	s.codeFlowHits(t)
}

// notAudited says that what failed was not audited, and why, bounded.
func notAudited(what string, v any) string {
	return fmt.Sprintf("%s was not audited: the audit failed on it (%s); it counts as high risk until skillgit reads it, so report the failure with the file", what, bounded(fmt.Sprint(v), 160))
}

// scanClosed runs Scan's work; a panic after the files were read makes the report one
// SG-TREE-008 finding for the whole skill, at high risk.
func (s *scanner) scanClosed(skill fs.FS) (rep *Report, err error) {
	defer func() {
		if v := recover(); v != nil {
			s.cand = takeCandidates()
			rep, err = crashedReport(s.opts.Skill, v), nil
		}
	}()
	return s.scan(skill)
}

// crashedReport is the report of a skill whose audit failed as a whole.
func crashedReport(skill string, v any) *Report {
	t := &treeScan{}
	t.add("SG-TREE-008", ".", notAudited("the skill", v), ".")
	fingerprint(t.hits, skill)
	findings := aggregate(t.hits, skill)
	return &Report{Findings: findings, Risk: riskOf(findings)}
}
