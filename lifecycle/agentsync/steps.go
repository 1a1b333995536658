package agentsync

import "github.com/skillgit/skillgit/targetdir"

// steps counts the skills a sync installs, updates or removes over all its targets, for
// Request.Step. The targets are written one after the other and each reports its skills one
// at a time (targetdir.Options.Changed), so the count needs no lock.
type steps struct {
	step        func(done, total int)
	done, total int
}

// newSteps counts for step; nil, which counts nothing, when step is nil.
func newSteps(step func(done, total int)) *steps {
	if step == nil {
		return nil
	}
	return &steps{step: step}
}

// begin starts the count at none done of the changes the plans make.
func (s *steps) begin(plans []*targetdir.Folder) {
	if s == nil {
		return
	}
	s.done, s.total = 0, 0
	for _, p := range plans {
		s.total += len(p.Changes())
	}
	s.step(0, s.total)
}

// changed is the function that counts one skill written, for targetdir.Options.Changed; nil
// when s is.
func (s *steps) changed() func() {
	if s == nil {
		return nil
	}
	return func() {
		s.done++
		s.step(s.done, s.total)
	}
}
