package published

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSelectPrompt(t *testing.T) {
	dir := profileRepo(t, map[string][]string{"p": {"gamma", "ghost", "alpha"}})
	r := channel(t, dir)
	tests := []struct {
		name     string
		o        PromptOptions
		by       string
		selected []string
		failed   []string
	}{
		{"all", PromptOptions{}, SelectAll, []string{"alpha", "beta", "gamma"}, nil},
		{"profile", PromptOptions{Profile: "p", Bodies: true}, SelectProfile, []string{"gamma", "alpha"}, []string{"ghost"}},
		{"match", PromptOptions{Match: true, Task: "help with beta", Limit: 5}, SelectMatch, []string{"beta"}, nil},
		{"no match", PromptOptions{Match: true, Task: "quantum"}, SelectMatch, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := r.SelectPrompt(tt.o)
			if err != nil {
				t.Fatal(err)
			}
			var failed []string
			for _, f := range sel.Failures {
				failed = append(failed, f.Name)
			}
			if sel.By != tt.by || sel.Discovered != 3 || !cmp.Equal(tt.selected, sel.Selected) || !cmp.Equal(tt.failed, failed) {
				t.Errorf("selection = %+v; want by %s, selected %v, failed %v", sel, tt.by, tt.selected, tt.failed)
			}
			for _, s := range sel.Skills {
				if tt.o.Bodies != strings.HasPrefix(string(s.Body), "---\nname: "+s.Skill.Name) {
					t.Errorf("%s: body %q with Bodies %v", s.Skill.Name, s.Body, tt.o.Bodies)
				}
			}
		})
	}
	sel, _ := r.SelectPrompt(PromptOptions{Profile: "p"})
	if reason := sel.Failures[0].Reason(); !strings.HasPrefix(reason, `listed in profile "p", but not found on main`) {
		t.Errorf("reason = %q", reason)
	}
	if _, err := r.SelectPrompt(PromptOptions{Profile: "nope"}); !errors.Is(err, ErrUnknownProfile) {
		t.Errorf("unknown profile: %v", err)
	}
	if _, err := r.SelectPrompt(PromptOptions{Profile: "p", Match: true}); err == nil {
		t.Error("profile and match together: want an error")
	}
}
