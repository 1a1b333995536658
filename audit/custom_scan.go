package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"path"
	"slices"
	"strings"
)

// customHits runs the repository's rules over u and appends their hits to out.
func (s *scanner) customHits(u *unit, out []hit) []hit {
	if s.opts.Custom == nil {
		return out
	}
	for _, cr := range s.opts.Custom.rules {
		if cr.appliesTo(u.file) {
			out = s.customRuleHits(cr, u, out)
		}
	}
	return out
}

// customRuleHits runs one rule on the whole of u, when u holds one of its keywords or the
// rule has none.
func (s *scanner) customRuleHits(cr *customRule, u *unit, out []hit) []hit {
	if len(cr.keywords) > 0 && !slices.ContainsFunc(cr.keywords, func(k []byte) bool { return bytes.Contains(u.folded(), k) }) {
		return out
	}
	return s.runRule(-1, cr.rule, u, [][2]int{{0, len(u.text)}}, out)
}

// appliesTo reports whether the rule reads file, a path relative to the skill folder: any
// file when the rule names none, else one that a glob matches whole or, for a glob without a
// slash, by its base name.
func (cr *customRule) appliesTo(file string) bool {
	if len(cr.files) == 0 {
		return true
	}
	for _, g := range cr.files {
		if ok, _ := path.Match(g, file); ok {
			return true
		}
		if ok, _ := path.Match(g, path.Base(file)); ok && !strings.Contains(g, "/") {
			return true
		}
	}
	return false
}

// Rules returns the rules, in the order of the file.
func (c *CustomRules) Rules() []Rule {
	if c == nil {
		return nil
	}
	out := make([]Rule, 0, len(c.rules))
	for _, cr := range c.rules {
		r := *cr.rule
		r.Keywords = slices.Clone(r.Keywords)
		out = append(out, r)
	}
	return out
}

// Len is the number of rules.
func (c *CustomRules) Len() int {
	if c == nil {
		return 0
	}
	return len(c.rules)
}

// rule returns the rule with the given id, or nil.
func (c *CustomRules) rule(id string) *Rule {
	if c == nil {
		return nil
	}
	for _, cr := range c.rules {
		if cr.rule.ID == id {
			return cr.rule
		}
	}
	return nil
}

// Hash identifies what of the rules changes a scan's result: a change of any of them gives
// another hash. Empty for no rules.
func (c *CustomRules) Hash() string {
	if c == nil {
		return ""
	}
	return c.hash
}

func (c *CustomRules) contentHash() string {
	if len(c.rules) == 0 {
		return ""
	}
	h := sha256.New()
	writeField(h, "skillgit-audit-custom-rules")
	writeInt(h, len(c.rules))
	for _, cr := range c.rules {
		r := cr.rule
		for _, f := range []string{r.ID, r.Severity.String(), r.Title, r.Help, r.pattern} {
			writeField(h, f)
		}
		for _, list := range [][]string{r.Keywords, cr.files} {
			writeInt(h, len(list))
			for _, f := range list {
				writeField(h, f)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// PolicyHashWith is PolicyHash with the repository's own rules: results cached under one set
// of rules are not reused under another. Without rules it is PolicyHash, so that entries
// cached before a repository had rules stay valid.
func PolicyHashWith(allow *AllowList, installers []string, custom *CustomRules) string {
	base := PolicyHash(allow, installers)
	if custom.Len() == 0 {
		return base
	}
	h := sha256.New()
	writeField(h, "skillgit-audit-policy+custom")
	writeField(h, base)
	writeField(h, custom.Hash())
	return hex.EncodeToString(h.Sum(nil)[:16])
}
