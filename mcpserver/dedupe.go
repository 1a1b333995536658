package mcpserver

import (
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/lifecycle"
)

// withOverlaps adds to a create or patch result the skills the candidate resembles, and
// advises patching the closest instead of keeping two; for a new candidate of a skill that
// has open ones, it advises patching those.
func withOverlaps(out actionOut, res *lifecycle.Result) actionOut {
	out.Overlaps = res.Overlaps
	if len(res.OpenCandidates) > 0 {
		out.Next = fmt.Sprintf("%s also open for %s: patch_candidate updates an open candidate instead of adding one; %s",
			strings.Join(res.OpenCandidates, ", "), res.Skill, out.Next)
	}
	if len(res.Overlaps) == 0 {
		return out
	}
	o := res.Overlaps[0]
	what := "overlaps"
	if o.Duplicate {
		what = "is a likely duplicate of"
	}
	advice := fmt.Sprintf("this candidate %s %s (score %.2f: %s); prefer patching it", what, o.Label(), o.Score, o.Reason)
	if o.Candidate != "" {
		advice += fmt.Sprintf(" with patch_candidate on %s", o.Candidate)
	} else {
		advice += fmt.Sprintf(" with create_candidate named %s", o.Skill)
	}
	out.Next = advice + " and dropping this one; " + out.Next
	return out
}
