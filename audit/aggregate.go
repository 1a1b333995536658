package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// aggregate folds the hits of one rule in one file into one finding that
// counts them and lists the first places. hits are in file order. The
// finding shows its most severe match (the first of those), and its
// fingerprint covers every match, so accepting it accepts exactly the
// content that was reviewed: one more match, or a changed one, makes a
// finding with another fingerprint.
func aggregate(hits []hit, skill string) []Finding {
	type group struct {
		f   Finding
		fps []string
		n   int // matches: the hits, and those counted past the report limit
	}
	var order []string
	groups := map[string]*group{}
	for _, h := range hits {
		key := h.RuleID + "\x00" + h.File
		g := groups[key]
		if g == nil {
			g = &group{f: h.Finding}
			groups[key] = g
			order = append(order, key)
		} else if h.Severity > g.f.Severity {
			g.f = representative(g.f, h.Finding)
		}
		g.fps = append(g.fps, h.Fingerprint)
		g.n += 1 + h.more
		if h.moreSum != "" {
			g.fps = append(g.fps, h.moreSum)
		}
		addLocation(&g.f, h.Finding)
	}
	out := make([]Finding, 0, len(order))
	for _, key := range order {
		g := groups[key]
		g.f.Count = g.n
		g.f.Fingerprint = groupFingerprint(skill, g.f.RuleID, g.f.File, g.fps)
		out = append(out, g.f)
	}
	return out
}

// representative returns h as the finding that stands for a group,
// keeping the places already collected.
func representative(group, h Finding) Finding {
	h.Locations = group.Locations
	return h
}

// addLocation records h's place in f when it has one and f lists fewer
// than MaxLocations.
func addLocation(f *Finding, h Finding) {
	if h.Line <= 0 || len(f.Locations) >= MaxLocations {
		return
	}
	l := Location{Line: h.Line, Column: h.Column}
	if !slices.Contains(f.Locations, l) {
		f.Locations = append(f.Locations, l)
	}
}

// groupFingerprint hashes the skill, rule, file and the fingerprints of
// every match, in sorted order so that moving matches around in the file
// does not change it.
func groupFingerprint(skill, rule, file string, fps []string) string {
	sorted := slices.Sorted(slices.Values(fps))
	h := sha256.New()
	writeField(h, "skillgit-finding/v2")
	for _, s := range []string{skill, rule, file} {
		writeField(h, s)
	}
	writeInt(h, len(sorted))
	for _, s := range sorted {
		writeField(h, s)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
