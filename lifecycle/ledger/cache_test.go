package ledger

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/gitstore"
)

func TestCacheRecordRoundTrip(t *testing.T) {
	h := plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")
	for _, rec := range []stepRecord{
		{kind: KindCommit},
		{kind: KindPublish, via: "git merge", changes: []FolderChange{{Path: "skills/a b/\"q\"", Base: h, Head: gitstore.ZeroHash}}},
		{kind: KindRollback, undoes: h, unverified: "", changes: []FolderChange{{Path: "skills/x", Base: h, Head: h}, {Path: "skills/y", Base: gitstore.ZeroHash, Head: h}}},
		{kind: KindCommit, unverified: "claims the approvals of Security Team <s@x>, where…\nline two"},
	} {
		got, back, err := decodeRecord(encodeRecord(h, rec))
		if err != nil || got != h || !cmp.Equal(back, rec, cmp.AllowUnexported(stepRecord{})) {
			t.Errorf("round trip of %+v: %+v, %v", rec, back, err)
		}
	}
}

// TestCacheRecordChecksum checks that a line changed after it was written, or cut short, is
// refused even where what is left still reads as a record, so that a torn or edited line is
// never taken for a step.
func TestCacheRecordChecksum(t *testing.T) {
	h := plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")
	line := encodeRecord(h, stepRecord{kind: KindPublish, via: "skillgit", changes: []FolderChange{{Path: "skills/a", Base: h, Head: h}}})
	for name, bad := range map[string]string{
		"another folder":      strings.Replace(line, "skills/a", "skills/b", 1),
		"another kind":        strings.Replace(line, " publish ", " rollback ", 1),
		"without a checksum":  line[:strings.LastIndexByte(line, ' ')],
		"cut inside the line": line[:len(line)/2],
	} {
		if _, _, err := decodeRecord(bad); err == nil {
			t.Errorf("%s: %q decodes", name, bad)
		}
	}
	if _, _, err := decodeRecord(line); err != nil {
		t.Fatalf("the line as written: %v", err)
	}
}

func FuzzDecodeRecord(f *testing.F) {
	h := plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")
	f.Add(encodeRecord(h, stepRecord{kind: KindPublish, via: "skillgit", changes: []FolderChange{{Path: "skills/a", Base: h}}}))
	f.Add("0123456789abcdef0123456789abcdef01234567 publish \"\" - \"\" 99999999")
	f.Add("x")
	f.Fuzz(func(t *testing.T, line string) {
		got, rec, err := decodeRecord(line)
		if err != nil {
			return
		}
		if again, rec2, err := decodeRecord(encodeRecord(got, rec)); err != nil || again != got || !cmp.Equal(rec, rec2, cmp.AllowUnexported(stepRecord{})) {
			t.Fatalf("a record read from %q does not read back the same: %v", line, err)
		}
	})
}
