package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
)

// Options controls a Scan.
type Options struct {
	// Skill is the skill's name. It is part of every fingerprint, so a
	// finding accepted in one skill is never accepted in another, and
	// allow-list entries that name a skill apply to that skill only.
	Skill string
	// Base is the skill's previous version, or nil for a new skill. With
	// a base, the diff rules run and findings it already had are not New.
	Base fs.FS
	// Allow lists accepted findings. A suppressed finding is still
	// reported, with its reason, but does not count toward the risk.
	Allow *AllowList
	// Installers are installer script addresses that the repository's
	// configuration trusts; piping one of them into a shell is LOW.
	Installers []string
	// Custom are the repository's own rules, run on every text like the audit's; nil for
	// none. They are compiled once, by ParseCustomRules, for every skill they audit.
	Custom *CustomRules
	// Stats, if not nil, receives the counts of the text rules' work.
	Stats *Stats

	noPrefilter bool // for benchmarks: run every pattern on every line
}

// Limits of what is read; beyond them a skill is reported as unauditable.
const (
	maxTextBytes  = 5 << 20  // a text file is audited up to this size
	maxFileBytes  = 5 << 20  // any file larger is not read
	maxFiles      = 1000     // files in one skill
	maxTreeDepth  = 32       // folder nesting
	maxTotalBytes = 64 << 20 // bytes read from one skill
)

// scanner holds the state of one Scan.
type scanner struct {
	opts Options
	eng  *engine
	st   Stats
	cand *candidates
	wins [][2]int
	tree *treeScan // the tree being scanned
}

// Scan audits the skill whose root folder is "." of skill and returns its
// findings and risk. It fails only when the skill cannot be read at all;
// unreadable or oversized parts of it are findings, and so is a part the audit
// crashes on: it is reported as not audited (high), never as a panic.
func Scan(skill fs.FS, opts Options) (*Report, error) {
	if skill == nil {
		return nil, errors.New("audit: no skill to scan; pass the skill folder as an fs.FS")
	}
	s := &scanner{opts: opts, eng: compiled(), cand: takeCandidates()}
	defer func() { releaseCandidates(s.cand) }()
	return s.scanClosed(skill)
}

// scan is Scan's work, on the skill and opts' base.
func (s *scanner) scan(skill fs.FS) (*Report, error) {
	opts := s.opts
	head, err := s.analyze(skill)
	if err != nil {
		return nil, fmt.Errorf("audit: read skill: %w", err)
	}
	var base *treeScan
	if opts.Base != nil {
		if base, err = s.analyze(opts.Base); err != nil {
			return nil, fmt.Errorf("audit: read base version: %w", err)
		}
		base.hits = append(base.hits, execBitHits(base, nil)...)
		head.hits = append(head.hits, diffHits(base, head)...)
	}
	head.hits = append(head.hits, execBitHits(head, base)...)
	if crashHook != nil {
		crashHook("finish", "")
	}
	findings := s.finish(head, base)
	if opts.Stats != nil {
		opts.Stats.RegexEvals += s.st.RegexEvals
		opts.Stats.PrefilterHits += s.st.PrefilterHits
	}
	return &Report{Findings: findings, Risk: riskOf(findings), Files: head.files, Bytes: head.bytes}, nil
}

// analyze scans a tree and applies the policy that is part of each
// finding: trusted installers and fingerprints.
func (s *scanner) analyze(fsys fs.FS) (*treeScan, error) {
	t, err := s.scanTree(fsys)
	if err != nil {
		return nil, err
	}
	trustInstallers(t.hits, s.opts.Installers)
	bindFileContent(fsys, t)
	return t, nil
}

// finish adds the combination findings, fingerprints everything, folds
// the matches of one rule in one file into one finding, marks what is new
// relative to base and applies the allow list.
func (s *scanner) finish(head, base *treeScan) []Finding {
	out := s.findingsOf(head)
	old := map[string]bool{}
	if base != nil {
		for _, f := range s.findingsOf(base) {
			old[f.Fingerprint] = true
		}
	}
	for i := range out {
		f := &out[i]
		f.New = !old[f.Fingerprint]
		s.opts.Allow.apply(s.opts.Skill, f)
	}
	sortFindings(out)
	return out
}

// findingsOf fingerprints a tree's hits, adds the combination findings
// and returns one finding per rule and file.
func (s *scanner) findingsOf(t *treeScan) []Finding {
	fingerprint(t.hits, s.opts.Skill)
	t.hits = append(t.hits, combine(t.hits)...)
	return aggregate(t.hits, s.opts.Skill)
}

// fingerprint gives each hit its fingerprint; hits are ordered by place
// first so that repeated content is numbered the same way in every version.
func fingerprint(hits []hit, skill string) {
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.start != b.start {
			return a.start < b.start
		}
		return a.RuleID < b.RuleID
	})
	fp := fingerprinter{}
	for i := range hits {
		h := &hits[i]
		content := h.content
		if h.tags&tagSecret != 0 {
			content = redactString(content)
		}
		h.Fingerprint = fp.nextIn(skill, h.RuleID, h.File, content)
	}
}
