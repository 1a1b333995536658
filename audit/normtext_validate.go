package audit

import "bytes"

// voidedRulesOnly applies notConditional to the matches of SG-INJ-001 that
// declare the rules above void, and accepts its other matches as they are.
func voidedRulesOnly(data []byte, loc []int) bool {
	first := bytes.ToLower(data[loc[0]:min(loc[1], loc[0]+12)])
	for _, w := range []string{"the ", "rules", "instructions", "guidelines", "guidance", "directives"} {
		if bytes.HasPrefix(first, []byte(w)) {
			return notConditional(data, loc)
		}
	}
	return true
}

// notConditional rejects a match that a condition introduces ("if the
// rules above no longer apply, ...") or that is negated: that describes a
// case, it does not declare the rules void.
func notConditional(data []byte, loc []int) bool {
	before := bytes.TrimRight(bytes.ToLower(data[lineStartNear(data, loc[0]):loc[0]]), " \t")
	for _, w := range []string{"if", "when", "once", "unless", "whether", "where", "until"} {
		if bytes.HasSuffix(before, []byte(w)) && (len(before) == len(w) || !isWordByte(before[len(before)-len(w)-1])) {
			return false
		}
	}
	return notNegated(data, loc)
}
