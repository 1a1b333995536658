package audit

import "slices"

// needsMet reports what windowHas(u.folded()[ws:end], r.needAny) reports for rule ri, r:
// whether the window holds, for every entry of the rule's needs, one of the entry's words.
// After the prefilter it is answered from where the matcher found the words, rather than by
// searching each window: windows of keyword starts on one long line overlap, and searching
// each costs the line's length.
func (s *scanner) needsMet(ri int, r *Rule, u *unit, ws, end int) bool {
	if len(r.needAny) == 0 {
		return true
	}
	if s.opts.noPrefilter {
		return windowHas(u.folded()[ws:end], r.needAny)
	}
	return s.eng.needsIn(s.cand, ri, ws, end)
}

// needsIn answers needsMet from the occurrences of the need words that prefilter recorded in c.
func (e *engine) needsIn(c *candidates, ri, ws, end int) bool {
	for _, ids := range e.needs[ri] {
		if !slices.ContainsFunc(ids, func(id int32) bool {
			return occursIn(c.need[id], int(e.m.lens[e.firstNeed+int(id)]), ws, end)
		}) {
			return false
		}
	}
	return true
}

// occursIn reports whether one of the ascending offsets o of an n-byte word starts at ws or
// later and ends by end. The first one from ws on ends first.
func occursIn(o []int32, n, ws, end int) bool {
	i, _ := slices.BinarySearch(o, int32(ws))
	return i < len(o) && int(o[i])+n <= end
}
