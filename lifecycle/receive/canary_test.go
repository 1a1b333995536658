package receive_test

import (
	"strings"
	"testing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// catchUpMessage is what a merge of the publish branch into canary says of itself.
const catchUpMessage = "sync: canary with main\n\nSkillgit-Action: sync\nSkillgit-Channel: canary\n"

// canaryRepo makes a protected repository whose canary channel is one publish ahead of main
// and main one publish ahead of where canary parted from it, so that the next canary publish
// first merges main in. It returns the folder and canary's tip before that publish.
func canaryRepo(t *testing.T) (string, gitstore.Hash) {
	t.Helper()
	dir := lifecycletest.NewRepo(t)
	cfg := policy.DefaultConfig("main")
	cfg.Server.Protect = true
	testenv.WriteFiles(t, dir, map[string]string{policy.ConfigFile: string(cfg.Marshal())})
	testenv.CommitAll(t, dir, "protect main")
	publishTo := func(name, channel string) {
		res := lifecycletest.ProposeNew(t, dir, name, "Use the date command to print the date.")
		lifecycletest.ApproveAsLead(t, dir, res.ID)
		if _, err := lifecycletest.Open(t, dir).Publish(res.ID, channel, lifecycletest.Lead); err != nil {
			t.Fatalf("publish %s to %s: %v", res.ID, channel, err)
		}
	}
	publishTo("early", "canary")
	publishTo("stable", "main")
	return dir, lifecycletest.RevParse(t, dir, "canary")
}

// TestCheckCanaryCatchUp checks the merges of the publish branch into canary that a
// protected server takes: the one skillgit makes before a canary publish, and not one that
// drops what main published or brings in a commit main never had.
func TestCheckCanaryCatchUp(t *testing.T) {
	dir, old := canaryRepo(t)
	mainTip := lifecycletest.RevParse(t, dir, "main")
	candidate := lifecycletest.ProposeNew(t, dir, "late", "Use the date command to print the date.")
	candTip := lifecycletest.RevParse(t, dir, "candidate/"+candidate.ID)
	tree := func(rev string) string { return strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", rev+"^{tree}")) }
	handMerge := func(tree string, second gitstore.Hash) gitstore.Hash {
		out := testenv.GitText(t, dir, "commit-tree", tree, "-p", old.String(), "-p", second.String(), "-m", catchUpMessage)
		return lifecycletest.RevParse(t, dir, strings.TrimSpace(out))
	}
	merged := strings.TrimSpace(testenv.GitText(t, dir, "merge-tree", "--write-tree", old.String(), mainTip.String()))

	lifecycletest.ApproveAsLead(t, dir, candidate.ID)
	if _, err := lifecycletest.Open(t, dir).Publish(candidate.ID, "canary", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	made := lifecycletest.RevParse(t, dir, "canary")
	if got := testenv.GitText(t, dir, "log", "--format=%s", "--first-parent", old.String()+".."+made.String()); !strings.Contains(got, "sync: canary with main") {
		t.Fatalf("skillgit's canary publish made no catch-up merge:\n%s", got)
	}

	tests := []struct {
		name   string
		new    gitstore.Hash
		refuse string // part of the refusal; empty when the update passes
	}{
		{"skillgit's catch-up and publish", made, ""},
		{"the clean merge made by hand", handMerge(merged, mainTip), ""},
		{"a merge that keeps canary's tree", handMerge(tree(old.String()), mainTip), "does not hold exactly the merge of main into canary"},
		{"a merge of a candidate's tip", handMerge(tree(candTip.String()), candTip), "which is not on main"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkUpdate(t, dir, gitstore.RefUpdate{Ref: "refs/heads/canary", Old: old, New: tt.new}, tt.refuse, strings.Contains)
		})
	}
}
