package lifecycle

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// openProposal is a skill a dedupe test proposes: its name, description and body.
type openProposal struct{ name, desc, body string }

// proposeOpen proposes p from a fresh folder through r.
func proposeOpen(t *testing.T, r *Repo, p openProposal) *Result {
	t.Helper()
	src := t.TempDir()
	md := "---\nname: " + p.name + "\ndescription: " + p.desc + "\n---\n# " + p.name + "\n\n" + p.body + "\n"
	testenv.WriteFiles(t, src, map[string]string{p.name + "/SKILL.md": md})
	res, err := r.Propose(ProposeOptions{ActOptions: agent, From: src + "/" + p.name})
	if err != nil {
		t.Fatalf("propose %s: %v", p.name, err)
	}
	return res
}

// openProposals makes n proposals on a few topics, so that names, descriptions and bodies
// overlap in many ways: every third repeats the steps of the one three before it.
func openProposals(n int) []openProposal {
	topics := []string{"csv", "pdf", "image", "deploy"}
	verbs := []string{"clean", "check", "convert", "review", "split"}
	var out []openProposal
	for i := range n {
		topic, verb := topics[i%len(topics)], verbs[(i/len(topics))%len(verbs)]
		steps := i
		if i%3 == 2 {
			steps = i - 3 + 1
		}
		var body []string
		for k := range 6 {
			body = append(body, fmt.Sprintf("%d. %s the %s file number %d with care, then write step %d down.", k+1, verbs[(steps+k)%len(verbs)], topic, steps*7+k, k))
		}
		out = append(out, openProposal{
			name: fmt.Sprintf("%s-%s-%d", topic, verb, i),
			desc: fmt.Sprintf("%s %s files for the team; use it to %s every %s the agent meets.", strings.ToUpper(verb[:1])+verb[1:], topic, verb, topic),
			body: strings.Join(body, "\n"),
		})
	}
	return out
}

// overlapNames is what a comparison of overlaps looks at: the skill, the score and the mark,
// not the candidate ids, which differ between repositories.
func overlapNames(os []ledger.Overlap) []string {
	var out []string
	for _, o := range os {
		out = append(out, fmt.Sprintf("%s %.2f %v candidate=%v", o.Skill, o.Score, o.Duplicate, o.Candidate != ""))
	}
	return out
}

// TestDedupeOpenCandidatesSameInBatch checks that a batch, which keeps the open candidates
// in memory, reports for every proposal the overlaps that proposing one at a time reports,
// with more open candidates than are compared whole.
func TestDedupeOpenCandidatesSameInBatch(t *testing.T) {
	props := openProposals(3 * 20)
	single := newRepo(t)
	var want [][]string
	for _, p := range props {
		want = append(want, overlapNames(proposeOpen(t, open(t, single), p).Overlaps))
	}
	batched := newRepo(t)
	r := open(t, batched)
	var got [][]string
	err := r.Batch(func() error {
		for _, p := range props {
			got = append(got, overlapNames(proposeOpen(t, r, p).Overlaps))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("overlaps in a batch differ from one at a time (-single +batch):\n%s", diff)
	}
	marked := 0
	for _, os := range want {
		for _, o := range os {
			if strings.Contains(o, " true candidate=true") {
				marked++
			}
		}
	}
	if marked < len(props)/4 {
		t.Fatalf("%d likely duplicates among open candidates; the test needs the repeated steps found:\n%v", marked, want)
	}
}

// TestDedupeOpenCandidatesRankedByName checks that open candidates are chosen as published
// skills are, by their names and descriptions: among many candidates of the same topic, the
// one with the same steps is found, and one with the same steps but nothing in common in its
// name and description is not compared.
func TestDedupeOpenCandidatesRankedByName(t *testing.T) {
	dir := newRepo(t)
	r := open(t, dir)
	steps := "1. Read the CSV file with its header row.\n2. Trim the spaces around every cell.\n3. Drop the columns that are empty in every row.\n4. Write the cleaned file next to the original."
	for _, p := range openProposals(40) {
		proposeOpen(t, r, p)
	}
	proposeOpen(t, r, openProposal{"csv-tidy", "Tidy csv files for the team.", steps})
	proposeOpen(t, r, openProposal{"photo-album", "Arrange holiday photographs into albums.", steps})
	res := proposeOpen(t, r, openProposal{"csv-trim", "Trim csv files for the team.", steps})
	got := overlapNames(res.Overlaps)
	if len(got) == 0 || !strings.HasPrefix(got[0], "csv-tidy ") || !res.Overlaps[0].Duplicate {
		t.Fatalf("overlaps %v; want csv-tidy first, as a likely duplicate", got)
	}
	for _, o := range res.Overlaps {
		if o.Skill == "photo-album" {
			t.Fatalf("overlaps %v: photo-album shares no word of the name or description, so it is not compared", got)
		}
	}
}
