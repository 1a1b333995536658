package genrepo

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/catalog"
)

func TestPlan(t *testing.T) {
	tests := []struct {
		name           string
		budget, skills int
	}{
		{"one commit", 1, 10},
		{"one skill", 500, 1},
		{"few skills many commits", 3000, 4},
		{"benchmark size", 2999, 10000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events, creates, deletes := plan(rand.New(rand.NewPCG(1, 2)), tt.budget, tt.skills)
			spent, open := 0, 0
			for _, e := range events {
				spent += e.cost()
				open += b2i(e.kind == kindOpen)
			}
			if spent != tt.budget {
				t.Errorf("events cost %d commits, want %d", spent, tt.budget)
			}
			if creates > tt.skills/2 || deletes > creates/2 || open > maxOpen {
				t.Errorf("creates %d, deletes %d, open %d for %d skills: bounds broken", creates, deletes, open, tt.skills)
			}
		})
	}
}

func TestSkillNames(t *testing.T) {
	for _, n := range []int{1, 3000, 3001, 70_000} {
		names := skillNames(rand.New(rand.NewPCG(9, 9)), n)
		seen := map[string]bool{}
		for _, name := range names {
			if err := catalog.ValidateName(name); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			if seen[name] {
				t.Fatalf("n=%d: %s twice", n, name)
			}
			seen[name] = true
		}
		if len(names) != n {
			t.Errorf("got %d names, want %d", len(names), n)
		}
	}
}

func TestRenderSkill(t *testing.T) {
	names := skillNames(rand.New(rand.NewPCG(5, 5)), 300)
	for _, name := range names {
		for _, v := range []int{1, 2, 7} {
			data := renderSkill(11, name, v)
			s, problems := catalog.Parse(name, data, catalog.Strict)
			if diff := cmp.Diff([]catalog.Problem(nil), problems); diff != "" {
				t.Fatalf("%s v%d: problems (-want +got):\n%s\n%s", name, v, diff, data)
			}
			if s.Name != name || len(data) < 1200 || len(data) > 4000 {
				t.Errorf("%s v%d: name %q, %d bytes; want its own name and 1.2-4 KB", name, v, s.Name, len(data))
			}
			if !bytes.Equal(data, renderSkill(11, name, v)) {
				t.Errorf("%s v%d: two renderings differ", name, v)
			}
		}
		if bytes.Equal(renderSkill(11, name, 1), renderSkill(11, name, 2)) {
			t.Errorf("%s: versions 1 and 2 are equal", name)
		}
	}
}

func TestYAMLString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "plain words"},
		{"has: colon", `"has: colon"`},
		{`say "hi"`, `"say \"hi\""`},
		{" padded", `" padded"`},
		{"# comment", `"# comment"`},
	}
	for _, tt := range tests {
		if got := yamlString(tt.in); got != tt.want {
			t.Errorf("yamlString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
