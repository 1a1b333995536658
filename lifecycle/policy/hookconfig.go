package policy

// SkillDirs lists the skills folders a change must be audited in: the one of every
// configuration involved, each once, nil ones left out, so that moving skills_dir in the same
// change does not move the audit away from what the change adds.
func SkillDirs(cfgs ...*Config) []string {
	var out []string
	for _, c := range cfgs {
		if c == nil {
			continue
		}
		seen := false
		for _, d := range out {
			seen = seen || d == c.SkillsDir
		}
		if !seen {
			out = append(out, c.SkillsDir)
		}
	}
	return out
}
