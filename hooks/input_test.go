package hooks

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/gitstore"
)

const (
	idA = "1111111111111111111111111111111111111111"
	idB = "2222222222222222222222222222222222222222"
	id0 = "0000000000000000000000000000000000000000"
)

func hash(t *testing.T, s string) gitstore.Hash {
	t.Helper()
	h, err := parseID(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestParsePrePush(t *testing.T) {
	in := "refs/heads/main " + idB + " refs/heads/main " + idA + "\n" +
		"refs/heads/new " + idB + " refs/heads/feature " + id0 + "\n" +
		"(delete) " + id0 + " refs/heads/old " + idA + "\n"
	got, err := ParsePrePush(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []gitstore.RefUpdate{
		{Ref: "refs/heads/main", Old: hash(t, idA), New: hash(t, idB)},
		{Ref: "refs/heads/feature", Old: gitstore.ZeroHash, New: hash(t, idB)},
		{Ref: "refs/heads/old", Old: hash(t, idA), New: gitstore.ZeroHash},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParsePrePush (-want +got):\n%s", diff)
	}
}

func TestParsePreReceive(t *testing.T) {
	in := idA + " " + idB + " refs/heads/main\n" + id0 + " " + idB + " refs/heads/candidate/x-1\n"
	got, err := ParsePreReceive(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []gitstore.RefUpdate{
		{Ref: "refs/heads/main", Old: hash(t, idA), New: hash(t, idB)},
		{Ref: "refs/heads/candidate/x-1", New: hash(t, idB)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParsePreReceive (-want +got):\n%s", diff)
	}
	if got, err := ParsePreReceive(strings.NewReader("")); err != nil || len(got) != 0 {
		t.Errorf("empty input: %v, %v", got, err)
	}
}

func TestParseBadInput(t *testing.T) {
	good := idA + " " + idB + " refs/heads/main\n"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"too few fields", good + idA + " refs/heads/main\n", "line 2"},
		{"two spaces", idA + "  " + idB + " refs/heads/main\n", "line 1"},
		{"short id", "1234 " + idB + " refs/heads/main\n", `"1234" is not an object id`},
		{"not hex", strings.Repeat("g", 40) + " " + idB + " refs/heads/main\n", "is not an object id"},
		{"not a ref", idA + " " + idB + " main\n", `"main" is not a ref name`},
		{"control character", idA + " " + idB + " refs/heads/a\x1bb\n", "is not a ref name"},
		{"long line", good + idA + " " + idB + " refs/heads/" + strings.Repeat("x", MaxLineLen) + "\n", "line 2: longer than"},
		{"too many lines", strings.Repeat(good, MaxUpdates+1), "more than 10000 ref updates"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePreReceive(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			if strings.ContainsRune(err.Error(), 0x1b) {
				t.Errorf("error carries a control character: %q", err)
			}
		})
	}
	if _, err := ParsePrePush(strings.NewReader("refs/heads/main " + idA + " refs/heads/main\n")); err == nil || !strings.Contains(err.Error(), "pre-push input, line 1") {
		t.Errorf("pre-push with three fields: err = %v", err)
	}
}
