package targetdir

import "testing"

// TestStampDigestIsStable holds the digest of stamps to the value manifests already record:
// a change would make every installed skill's stamps look changed, and hash them all again.
func TestStampDigestIsStable(t *testing.T) {
	stamps := []stamp{
		{path: ".", size: 4096, mtime: 1700000000123456789, ctime: 1700000000987654321, ino: 12345, mode: 040755},
		{path: "SKILL.md", size: 812, mtime: 1, ctime: 2, ino: 3, mode: 0100644},
		{path: "scripts/run.sh", size: -1, mtime: -5, ctime: 0, ino: 1 << 63, mode: 0120777},
	}
	const want = "f3b3c4156c5fc365e68ca258691fb13f"
	if got := stampDigest(stamps); got != want {
		t.Errorf("stampDigest = %s, want %s", got, want)
	}
	if !hexEqual(stampSum(stamps), want) {
		t.Error("the digest read back does not match the one stampDigest gives")
	}
	stamps[1].ctime++
	if hexEqual(stampSum(stamps), want) {
		t.Error("the digest of other stamps matches")
	}
}
