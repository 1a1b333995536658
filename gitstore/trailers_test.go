package gitstore

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// trailerMessages are commit messages whose trailers ParseTrailers must
// read exactly as `git interpret-trailers --parse` does.
var trailerMessages = map[string]string{
	"lifecycle":           "publish: pdf-tools (candidate pdf-tools-7f3a)\n\nSkillgit-Action: publish\nSkillgit-Skill: pdf-tools\nApproved-By: Ada Lovelace <ada@example.com>\n",
	"body then trailers":  "subject\n\nSome body text: with a colon.\n\nKey: value\nOther-Key: other value\n",
	"subject only":        "Key: value\n",
	"no blank before":     "subject\nKey: value\n",
	"mixed paragraph":     "subject\n\nbody line\nKey: value\n",
	"signed-off quarter":  "subject\n\nsome text\nmore text\nSigned-off-by: A <a@b>\n",
	"cherry pick":         "subject\n\n(cherry picked from commit abc)\nnot a trailer\nnot one either\nKey: v\n",
	"continuation":        "subject\n\nKey: first line\n  continued here\n\tand here\nNext: x\n",
	"comments ignored":    "subject\n\nKey: value\n# a comment\n#another\n",
	"comment inside":      "subject\n\nKey: value\n# comment\nNext: y\n",
	"divider":             "subject\n\nKey: before\n---\npatch: text\n",
	"divider with space":  "subject\n\nbody\n--- \nKey: after\n",
	"spaces before colon": "subject\n\nKey : spaced\nAnother\t: tabbed\n",
	"not a token":         "subject\n\nKey word: nope\nKey: yes\n",
	"empty value":         "subject\n\nKey:\nOther: x\n",
	"trailing blank":      "subject\n\nKey: value\n\n\n",
	"crlf-free unicode":   "sujet\n\nRévisé-Par: Zoë\nKey: ünïcode value\n",
	"conflicts block":     "subject\n\nKey: value\n\nConflicts:\n\tfile.txt\n",
	"empty":               "",
	"only blank lines":    "\n\n\n",
	"value with colon":    "subject\n\nLink: https://example.com/a:b\n",
	"leading space line":  "subject\n\n  indented: no\nKey: v\n",
	"no trailing newline": "subject\n\nKey: value",
	"revert":              "Revert \"publish: x\"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.\n\nSkillgit-Action: rollback\n",
}

func formatParsed(ts []Trailer) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.Key + ": " + t.Value + "\n")
	}
	return b.String()
}

func TestParseTrailersMatchesGit(t *testing.T) {
	dir := t.TempDir()
	for name, msg := range trailerMessages {
		t.Run(name, func(t *testing.T) {
			want := gitIn(t, dir, msg, "interpret-trailers", "--parse")
			// git prints "Key: " for an empty value; compare modulo
			// that trailing blank.
			got := formatParsed(ParseTrailers(msg))
			if diff := cmp.Diff(trimLines(want), trimLines(got)); diff != "" {
				t.Errorf("ParseTrailers vs git (-git +ours):\n%s", diff)
			}
		})
	}
}

func trimLines(s string) string {
	ls := strings.Split(s, "\n")
	for i := range ls {
		ls[i] = strings.TrimRight(ls[i], " ")
	}
	return strings.Join(ls, "\n")
}

func TestFormatMessageIsReadByGit(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name     string
		subject  string
		body     string
		trailers []Trailer
		want     []Trailer
	}{
		{"plain", "publish: pdf-tools", "", []Trailer{{"Skillgit-Action", "publish"}, {"Skillgit-Risk", "low"}},
			[]Trailer{{"Skillgit-Action", "publish"}, {"Skillgit-Risk", "low"}}},
		{"body that looks like trailers", "propose: x", "Note: this is body text\nMore: body",
			[]Trailer{{"Skillgit-Skill", "x"}}, []Trailer{{"Skillgit-Skill", "x"}}},
		{"divider in body", "revise: x", "Changes:\n---\nrest", []Trailer{{"Skillgit-Skill", "x"}},
			[]Trailer{{"Skillgit-Skill", "x"}}},
		{"multi-line value", "reject: x", "", []Trailer{{"Skillgit-Reason", "too risky\n  and unclear"}},
			[]Trailer{{"Skillgit-Reason", "too risky and unclear"}}},
		{"odd key", "s", "", []Trailer{{"Approved By:", "Ada"}, {"", "dropped"}},
			[]Trailer{{"Approved-By-", "Ada"}}},
		{"multi-line subject", "line one\nline two", "", []Trailer{{"K", "v"}}, []Trailer{{"K", "v"}}},
		{"no trailers", "just a subject", "and a body", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := FormatMessage(tt.subject, tt.body, tt.trailers)
			if diff := cmp.Diff(tt.want, ParseTrailers(msg)); diff != "" {
				t.Errorf("ParseTrailers(FormatMessage) (-want +got):\n%s", diff)
			}
			gitOut := gitIn(t, dir, msg, "interpret-trailers", "--parse")
			if diff := cmp.Diff(formatParsed(tt.want), gitOut); diff != "" {
				t.Errorf("git interpret-trailers --parse (-want +got):\n%s\nmessage:\n%s", diff, msg)
			}
			if strings.Contains(msg, "\n\n\n") || !strings.HasSuffix(msg, "\n") {
				t.Errorf("message is not tidy: %q", msg)
			}
		})
	}
}

func TestTrailerValue(t *testing.T) {
	ts := []Trailer{{"Skillgit-Skill", "a"}, {"skillgit-skill", "b"}, {"Approved-By", "Ada"}}
	tests := map[string]string{"Skillgit-Skill": "a", "SKILLGIT-SKILL": "a", "approved-by": "Ada", "Missing": ""}
	for key, want := range tests {
		if got := TrailerValue(ts, key); got != want {
			t.Errorf("TrailerValue(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestGitInterpretTrailersOutputIsParsed(t *testing.T) {
	dir := t.TempDir()
	msg := gitIn(t, dir, "subject\n\nbody\n", "interpret-trailers",
		"--trailer", "Skillgit-Action: approve", "--trailer", "Approved-By: Ada <ada@example.com>")
	want := []Trailer{{"Skillgit-Action", "approve"}, {"Approved-By", "Ada <ada@example.com>"}}
	if diff := cmp.Diff(want, ParseTrailers(msg)); diff != "" {
		t.Errorf("ParseTrailers of git interpret-trailers output (-want +got):\n%s", diff)
	}
}

// randomMessage assembles a commit message from line shapes that the
// trailer rules treat differently.
func randomMessage(rng *rand.Rand) string {
	shapes := []string{"", "\n", "Key: v\n", "Signed-off-by: A <a@b>\n", "(cherry picked from commit 1)\n",
		"text line\n", "  continued\n", "\tcont tab\n", "# comment\n", "---\n", "--- x\n", "----\n",
		"Conflicts:\n", "\tpath\n", "Key : v\n", "K-2: x: y\n", ": nokey\n", "Bad key: v\n", " \n"}
	var b strings.Builder
	n := rng.IntN(9)
	for range n {
		b.WriteString(shapes[rng.IntN(len(shapes))])
	}
	s := b.String()
	if rng.IntN(4) == 0 {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}

func TestParseTrailersRandomMatchesGit(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		msg := randomMessage(rng)
		want := gitIn(t, dir, msg, "interpret-trailers", "--parse")
		got := formatParsed(ParseTrailers(msg))
		if diff := cmp.Diff(trimLines(want), trimLines(got)); diff != "" {
			t.Fatalf("case %d %q (-git +ours):\n%s", i, msg, diff)
		}
	}
}

func FuzzParseTrailers(f *testing.F) {
	for _, msg := range trailerMessages {
		f.Add(msg)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		ts := ParseTrailers(msg)
		for _, tr := range ts {
			if tr.Key == "" || strings.ContainsAny(tr.Key, ":\n") || strings.Contains(tr.Value, "\n") {
				t.Fatalf("bad trailer %q from %q", tr, msg)
			}
		}
		again := ParseTrailers(FormatMessage("s", "", ts))
		if len(again) != len(ts) {
			t.Fatalf("round trip lost trailers: %q -> %q", ts, again)
		}
	})
}

func TestSplitMessage(t *testing.T) {
	tests := []struct {
		msg, subject, body string
		trailers           int
	}{
		{"publish: a\n\nWhy it matters.\nSecond line.\n\nSkillgit-Action: publish\nSkillgit-Skill: a\n", "publish: a", "Why it matters.\nSecond line.", 2},
		{"approve: a\n\nSkillgit-Action: approve\n", "approve: a", "", 1},
		{"just a subject\n", "just a subject", "", 0},
		{"subject\nwrapped\n\nbody only\n", "subject wrapped", "body only", 0},
	}
	for _, tc := range tests {
		s, b, ts := SplitMessage(tc.msg)
		if s != tc.subject || b != tc.body || len(ts) != tc.trailers {
			t.Errorf("SplitMessage(%q) = %q, %q, %d trailers; want %q, %q, %d", tc.msg, s, b, len(ts), tc.subject, tc.body, tc.trailers)
		}
	}
}
