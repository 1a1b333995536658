package agentsync

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sampleLock() *Lock {
	return &Lock{
		Repository: "../skills", Branch: "release", Channel: "main", Commit: strings.Repeat("a", 40),
		Targets: []LockTarget{{Agent: "codex", Dir: ".agents/skills"}, {Agent: "claude-code", Dir: ".claude/skills"}},
		Skills: []LockedSkill{
			{Name: "xlsx", Folder: "office/xlsx", Tree: strings.Repeat("e", 40), Commit: strings.Repeat("a", 40)},
			{Name: "docx", Tree: strings.Repeat("2", 40), Commit: strings.Repeat("b", 40), Published: strings.Repeat("c", 40), Approvers: []string{"Grace Hopper <grace@example.com>"}},
		},
	}
}

func TestLockRoundTripIsDeterministic(t *testing.T) {
	a, err := sampleLock().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	shuffled := sampleLock()
	shuffled.Skills[0], shuffled.Skills[1] = shuffled.Skills[1], shuffled.Skills[0]
	b, err := shuffled.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("the same lock in another order gave other bytes:\n%s\n%s", a, b)
	}
	file := filepath.Join(t.TempDir(), LockFileName)
	if err := WriteLock(file, shuffled); err != nil {
		t.Fatal(err)
	}
	l, ok, err := ReadLock(file)
	if err != nil || !ok {
		t.Fatalf("read back: %v %v", ok, err)
	}
	c, _ := l.Marshal()
	if !bytes.Equal(a, c) {
		t.Fatalf("a lock read back marshals to other bytes:\n%s\n%s", a, c)
	}
	if s, ok := l.Skill("docx"); !ok || s.Approvers[0] != "Grace Hopper <grace@example.com>" {
		t.Fatalf("Skill(docx) = %+v, %v", s, ok)
	}
	if _, ok := l.Skill("pdf"); ok {
		t.Fatal("Skill(pdf) found a skill the lock does not hold")
	}
	if diff := cmp.Diff([]string{".agents/skills", ".claude/skills"}, []string{l.Targets[0].Dir, l.Targets[1].Dir}); diff != "" {
		t.Fatal(diff)
	}
}

func TestParseLockRefusals(t *testing.T) {
	good, err := sampleLock().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ old, new, want string }{
		"unknown key":  {"channel: main", "channel: main\nextra: 1", "extra"},
		"version":      {"version: 1", "version: 2", "version 2"},
		"channel":      {"channel: main", "channel: beta", "not one of main, canary"},
		"branch":       {"branch: release", "branch: a..b", `branch: "a..b" is not a branch name`},
		"commit":       {"commit: " + strings.Repeat("a", 40), "commit: HEAD", "not a full commit id"},
		"tree":         {"tree: " + strings.Repeat("e", 40), "tree: 1111", "not a full object id"},
		"escape":       {"dir: .agents/skills", "dir: ../elsewhere", "not a folder inside the project"},
		"absolute":     {"dir: .agents/skills", "dir: /etc", "not a folder inside the project"},
		"name":         {"name: docx", "name: ../docx", "skills:"},
		"out of order": {"name: docx", "name: zzz", "out of order"},
		"folder name":  {"folder: office/xlsx", "folder: office/docx", `folder: "office/docx" is not a folder named xlsx`},
		"folder up":    {"folder: office/xlsx", "folder: ../xlsx", "is not a folder named xlsx"},
		"folder flat":  {"folder: office/xlsx", "folder: xlsx", "is not a folder named xlsx"},
	} {
		data := strings.Replace(string(good), c.old, c.new, 1)
		if data == string(good) {
			t.Fatalf("%s: %q not in the lock", name, c.old)
		}
		if _, err := ParseLock([]byte(data), "x.lock"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", name, err, c.want)
		}
	}
}

func TestReadLockMissingAndLink(t *testing.T) {
	dir := t.TempDir()
	if _, ok, err := ReadLock(filepath.Join(dir, LockFileName)); ok || err != nil {
		t.Fatalf("a missing lock: %v %v", ok, err)
	}
	target := filepath.Join(dir, "real")
	if err := os.WriteFile(target, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, LockFileName)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadLock(filepath.Join(dir, LockFileName)); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a linked lock: %v", err)
	}
}
