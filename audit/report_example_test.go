package audit_test

import (
	"fmt"
	"os"

	"github.com/skillgit/skillgit/audit"
)

func ExampleWriteText() {
	rep := &audit.Report{Risk: audit.RiskMedium, Findings: []audit.Finding{{
		RuleID: "SG-TREE-006", Severity: audit.Medium, File: "scripts/fill.py",
		Message: "script file scripts/fill.py: review what it does", Snippet: "scripts/fill.py", New: true,
	}}}
	skills := []audit.SkillReport{{Name: "pdf-tools", Path: "skills/pdf-tools", Report: rep}}
	if err := audit.WriteText(os.Stdout, skills, audit.WriteOptions{FailOn: audit.RiskHigh}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// pdf-tools (skills/pdf-tools): NEEDS REVIEW, risk medium; 1 medium (1 new)
	//   scripts/fill.py  MEDIUM  SG-TREE-006  script file scripts/fill.py: review what it does
	//       snippet: scripts/fill.py
	//
	// 1 skill: 1 medium (1 new). Overall risk medium, fail-on high: NEEDS REVIEW
}

func ExampleCache() {
	dir, err := os.MkdirTemp("", "audit-cache")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	cache := &audit.Cache{Dir: dir}
	policy := audit.PolicyHash(nil, nil)
	tree := "4b825dc642cb6eb9a060e54bf8d69288fbee4904" // the skill folder's tree object id
	if _, ok := cache.Get(tree, policy, ""); !ok {
		rep := &audit.Report{Files: 1} // as returned by audit.Scan
		if err := cache.Put(tree, policy, "", rep); err != nil {
			fmt.Println(err)
		}
	}
	rep, ok := cache.Get(tree, policy, "")
	fmt.Println(ok, rep.Files, rep.Risk)
	// Output: true 1 low
}
