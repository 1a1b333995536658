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
// skills are, by their names and descriptions, and also by their steps: among many
// candidates of the same topic, the one with the same steps is found; under a name and
// description that share no word, one with the same steps is found and marked, one whose
// steps differ by a word is found, and one with other steps is not compared.
func TestDedupeOpenCandidatesRankedByName(t *testing.T) {
	dir := newRepo(t)
	r := open(t, dir)
	steps := "1. Read the CSV file with its header row.\n2. Trim the spaces around every cell.\n3. Drop the columns that are empty in every row.\n4. Write the cleaned file next to the original."
	for _, p := range openProposals(40) {
		proposeOpen(t, r, p)
	}
	proposeOpen(t, r, openProposal{"csv-tidy", "Tidy csv files for the team.", steps})
	proposeOpen(t, r, openProposal{"photo-album", "Arrange holiday photographs into albums.", steps})
	proposeOpen(t, r, openProposal{"photo-frames", "Arrange holiday photographs into frames.", strings.Replace(steps, "Trim", "Strip", 1)})
	proposeOpen(t, r, openProposal{"photo-prints", "Arrange holiday photographs into prints.", "1. Pick the sharpest shots.\n2. Order prints of the ones the family liked."})
	res := proposeOpen(t, r, openProposal{"csv-trim", "Trim csv files for the team.", steps})
	got := overlapNames(res.Overlaps)
	if len(got) < 2 || !strings.HasPrefix(got[0], "csv-tidy ") || !res.Overlaps[0].Duplicate {
		t.Fatalf("overlaps %v; want csv-tidy first, as a likely duplicate", got)
	}
	found := map[string]bool{}
	for _, o := range res.Overlaps {
		found[o.Skill] = o.Duplicate
	}
	if !found["photo-album"] {
		t.Errorf("overlaps %v: photo-album has the same steps, so it is compared and marked whatever its name", got)
	}
	if _, ok := found["photo-frames"]; !ok {
		t.Errorf("overlaps %v: photo-frames keeps most of the steps, so it is compared whatever its name", got)
	}
	if _, ok := found["photo-prints"]; ok {
		t.Errorf("overlaps %v: photo-prints shares no word of the name or description and none of the steps, so it is not compared", got)
	}
}

// TestDedupeOpenCopyBehindDecoys proposes the steps of an open candidate under another name
// after 30 decoys whose names and descriptions rank closer to the copy's than the original's:
// the copy is still compared with the original, and the overlap is reported.
func TestDedupeOpenCopyBehindDecoys(t *testing.T) {
	dir := newRepo(t)
	r := open(t, dir)
	steps := "1. Open the quarterly ledger export.\n2. Match every invoice to its payment.\n3. List the invoices left unpaid after thirty days."
	orig := proposeOpen(t, r, openProposal{"invoice-aging", "Find unpaid invoices.", steps})
	for i := range 30 {
		proposeOpen(t, r, openProposal{fmt.Sprintf("weather-report-%d", i), "Summarize the weather forecast for the week ahead.",
			fmt.Sprintf("%d. Fetch forecast %d and write the summary for day %d.", i, i*7, i)})
	}
	res := proposeOpen(t, r, openProposal{"weather-digest", "Summarize the weather forecast for the week ahead.", steps})
	for _, o := range res.Overlaps {
		if o.Candidate == orig.ID {
			return
		}
	}
	t.Fatalf("overlaps %v; want candidate %s (invoice-aging) among them", overlapNames(res.Overlaps), orig.ID)
}
