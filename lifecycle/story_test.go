package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/testenv"
)

var (
	agent = ActOptions{Author: "Agent Smith <agent@example.com>"}
	lead  = ActOptions{Author: "Grace Hopper <grace@example.com>"}
)

func open(t *testing.T, dir string) *Repo {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func propose(t *testing.T, dir string, o ProposeOptions) *Result {
	t.Helper()
	res, err := open(t, dir).Propose(o)
	if err != nil {
		t.Fatalf("propose %+v: %v", o, err)
	}
	return res
}

func TestStory(t *testing.T) {
	dir := newRepo(t)
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{"pdf-tools/SKILL.md": testenv.SkillMD("pdf-tools", cleanLine)})
	res := propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/pdf-tools", Message: "learned it"})
	if res.Change != ChangeCreate || res.Risk != "low" || !strings.HasPrefix(res.ID, "pdf-tools-") {
		t.Fatalf("propose: %+v", res)
	}
	testenv.Fsck(t, dir)
	id := res.ID

	_, err := open(t, dir).Publish(id, "", lead)
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("unapproved publish: %v; want refused", err)
	}
	if _, err := open(t, dir).Approve(id, "", agent); !errors.Is(err, ErrRefused) {
		t.Fatalf("self-approval: %v; want refused", err)
	}
	if _, err := open(t, dir).Approve(id, "looks good", lead); err != nil {
		t.Fatal(err)
	}
	pub, err := open(t, dir).Publish(id, "", lead)
	if err != nil {
		t.Fatal(err)
	}
	testenv.Fsck(t, dir)
	if _, err := open(t, dir).Published().Find("pdf-tools"); err != nil {
		t.Fatalf("after publish: %v", err)
	}
	cs, err := open(t, dir).Book().Candidates("published")
	if err != nil || len(cs) != 1 || cs[0].ID != id || cs[0].PublishedBy != pub.Commit {
		t.Fatalf("published candidates: %v %+v", err, cs)
	}

	// A patch, revised after approval: the approval is void.
	testenv.WriteFiles(t, src, map[string]string{"pdf-tools/SKILL.md": testenv.SkillMD("pdf-tools", cleanLine, "Also merge PDFs.")})
	patch := propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/pdf-tools"})
	if patch.Change != ChangePatch {
		t.Fatalf("patch: %+v", patch)
	}
	if _, err := open(t, dir).Approve(patch.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	testenv.WriteFiles(t, src, map[string]string{"pdf-tools/SKILL.md": testenv.SkillMD("pdf-tools", cleanLine, "Also merge and split PDFs.")})
	if _, err := open(t, dir).Revise(patch.ID, ProposeOptions{ActOptions: agent, From: src + "/pdf-tools", Message: "split too"}); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(patch.ID, "", lead); !errors.Is(err, ErrRefused) {
		t.Fatalf("publish after revise: %v; want refused", err)
	}
	if _, err := open(t, dir).Approve(patch.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(patch.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	testenv.Fsck(t, dir)

	rb, err := open(t, dir).Rollback("pdf-tools", "", lead)
	if err != nil {
		t.Fatal(err)
	}
	testenv.Fsck(t, dir)
	log, err := open(t, dir).Log("pdf-tools")
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, e := range log {
		actions = append(actions, e.Action+" "+e.Who)
	}
	want := "rollback Grace Hopper <grace@example.com>|publish Grace Hopper <grace@example.com>|publish Grace Hopper <grace@example.com>"
	if got := strings.Join(actions, "|"); got != want || log[0].Commit != rb.Commit {
		t.Fatalf("log:\n%s\nwant\n%s", got, want)
	}
	data, err := open(t, dir).Published().Content(mustFind(t, dir, "pdf-tools"))
	if err != nil || strings.Contains(string(data), "merge") {
		t.Fatalf("after rollback the first version is published: %v\n%s", err, data)
	}
}

func mustFind(t *testing.T, dir, name string) *catalog.Skill {
	t.Helper()
	s, err := open(t, dir).Published().Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
