package remotes

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestPushAuditsBeforeSending refuses, before anything reaches the remote, a push of a
// candidate the audit rates high risk, as the pre-push hook would; the skip switch lets it go.
func TestPushAuditsBeforeSending(t *testing.T) {
	s := newRemoteSetup(t)
	id := lifecycletest.ProposeNew(t, s.a, "evil", evilLine).ID
	before := remoteRefsOf(t, s.bare)
	_, err := Push(context.Background(), lifecycletest.Open(t, s.a), PushOptions{Getenv: func(string) string { return "" }})
	var refused *PushAuditError
	if !errors.As(err, &refused) || !errors.Is(err, lifecycle.ErrRefused) {
		t.Fatalf("push of a high-risk candidate: err = %v; want a *PushAuditError that is ErrRefused", err)
	}
	if !refused.Run.Blocked() || len(refused.Updates) != 1 || refused.Updates[0].Ref != lifecycle.CandidatePrefix+id {
		t.Errorf("refusal = %+v, updates %+v; want the blocked run of %s", refused.Run, refused.Updates, lifecycle.CandidatePrefix+id)
	}
	for _, want := range []string{"nothing was sent", "`skillgit review ID`", id} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if diff := cmp.Diff(before, remoteRefsOf(t, s.bare)); diff != "" {
		t.Fatalf("the remote's refs moved (-before +after):\n%s", diff)
	}
	skip := func(k string) string { return map[string]string{policy.SkipAuditEnv: "1"}[k] }
	res, err := Push(context.Background(), lifecycletest.Open(t, s.a), PushOptions{Getenv: skip})
	if err != nil {
		t.Fatalf("push with the skip switch on: %v", err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "security audit skipped") {
		t.Errorf("push with the skip switch on: warnings %q, want the skip warning", res.Warnings)
	}
	if refAt(t, s.bare, lifecycle.CandidatePrefix+id) != refAt(t, s.a, lifecycle.CandidatePrefix+id) {
		t.Errorf("the remote lacks %s after the push with the skip switch on", id)
	}
}

// TestPushQuotesServerRefusal keeps what a server's pre-receive hook says when it declines a
// push, control characters replaced, and gives advice that fits instead of `skillgit fetch`.
func TestPushQuotesServerRefusal(t *testing.T) {
	s := newRemoteSetup(t)
	hook := "#!/bin/sh\nprintf 'skillgit: push refused: a reason\\n'\nprintf 'skillgit:   evil: finding \\033]0;title\\007\\n' >&2\nexit 1\n"
	if err := os.MkdirAll(filepath.Join(s.bare, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.bare, "hooks", "pre-receive"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	id := lifecycletest.ProposeNew(t, s.a, "pdf-tools", cleanLine).ID
	res, err := Push(context.Background(), lifecycletest.Open(t, s.a), PushOptions{})
	var refused *ServerRefusedError
	if !errors.As(err, &refused) || !errors.Is(err, lifecycle.ErrRefused) {
		t.Fatalf("push the server declines: err = %v; want a *ServerRefusedError that is ErrRefused", err)
	}
	want := []string{"skillgit: push refused: a reason", "skillgit:   evil: finding \uFFFD]0;title\uFFFD"}
	if diff := cmp.Diff(want, refused.Lines); diff != "" {
		t.Errorf("server lines (-want +got):\n%s", diff)
	}
	msg := err.Error()
	for _, s := range []string{"\nremote: skillgit: push refused: a reason\n", "the server's audit refused it", id, "`skillgit push origin` again"} {
		if !strings.Contains(msg, s) {
			t.Errorf("error lacks %q:\n%s", s, msg)
		}
	}
	if strings.Contains(msg, "skillgit fetch") || strings.ContainsRune(msg, 0x1b) {
		t.Errorf("error advises a fetch or carries an escape:\n%s", msg)
	}
	if res == nil {
		t.Errorf("push the server declines: no result, want one for the warnings")
	}
	if got := refAt(t, s.bare, lifecycle.CandidatePrefix+id); got != "" {
		t.Errorf("the remote holds %s at %s", id, got)
	}
}
