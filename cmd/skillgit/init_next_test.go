package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/lifecycle/initrepo"
)

// TestInitNext checks that init's next step fits what it made: a bare repository with no
// history is filled by a push, one with a history is cloned, published skills are listed,
// and an empty repository is given a skill of its own or a pack's.
func TestInitNext(t *testing.T) {
	tests := []struct {
		name string
		res  initrepo.Result
		want []string
	}{
		{"bare, empty", initrepo.Result{Dir: "/srv/skills.git", Bare: true, Empty: true},
			[]string{"it is empty until a first push: in a skill repository, `git remote add origin /srv/skills.git`, then `skillgit push origin`",
				"`git clone /srv/skills.git`, then `skillgit init` in the clone"}},
		{"bare, with history", initrepo.Result{Dir: "/srv/skills.git", Bare: true, Commits: []string{"c1"}},
			[]string{"`git clone /srv/skills.git`, then `skillgit hooks install` in the clone"}},
		{"skills published", initrepo.Result{Dir: "/w/s", Commits: []string{"c1", "c2"}, Skills: []string{"skillgit"}},
			[]string{"`skillgit -C /w/s list`"}},
		{"nothing published", initrepo.Result{Dir: "/w/s", Commits: []string{"c1"}},
			[]string{"`skillgit -C /w/s new NAME`, edit it, then `skillgit -C /w/s propose NAME`",
				"`skillgit -C /w/s pack add NAME SOURCE` to take the skills of a pack"}},
		{"adopted", initrepo.Result{Dir: "/w/s", Adopted: true, Commits: []string{"c1"}},
			[]string{"`skillgit -C /w/s new NAME`, edit it, then `skillgit -C /w/s propose NAME`",
				"`skillgit -C /w/s pack add NAME SOURCE` to take the skills of a pack"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, initNext(&tc.res)); diff != "" {
				t.Errorf("initNext (-want +got):\n%s", diff)
			}
		})
	}
}
