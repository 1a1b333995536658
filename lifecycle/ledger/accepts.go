package ledger

import (
	"slices"
	"strings"

	"github.com/skillgit/skillgit/internal/sshsig"
)

// IsWriter reports whether email belongs to one of the candidate's writers; emails compare
// case-insensitively, as git hosts treat them, and a writer may be a principal pattern of
// the allowed-signers file (writersOf).
func IsWriter(writers []string, email string) bool {
	return slices.ContainsFunc(writers, func(w string) bool { return sshsig.MatchPrincipal(w, email) })
}

// ParseAccept reads a Skillgit-Accept trailer: "FP RULE PATH" on an approval, followed by
// " | WHO | REASON" on a publish. Only the fingerprint is required.
func ParseAccept(v string) AcceptedFinding {
	parts := strings.SplitN(v, " | ", 3)
	fields := strings.SplitN(strings.TrimSpace(parts[0]), " ", 3)
	a := AcceptedFinding{Fingerprint: fields[0]}
	if len(fields) > 1 {
		a.Rule = fields[1]
	}
	if len(fields) > 2 {
		a.Path = fields[2]
	}
	if len(parts) > 1 {
		a.By = parts[1]
	}
	if len(parts) > 2 {
		a.Reason = parts[2]
	}
	return a
}

// AcceptsOf reads the acceptances a commit records.
func AcceptsOf(ci Commit) []AcceptedFinding {
	var out []AcceptedFinding
	for _, v := range ci.Claims.All(KeyAccept) {
		if a := ParseAccept(v); a.Fingerprint != "" {
			out = append(out, a)
		}
	}
	return out
}
