package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// pathPolicyDigests records, for each PathPolicyVersion, the digest of the policy's verdicts
// (pass or refuse; the wording of a reason may change freely) on policyProbes. When TestPathPolicyVersion fails, the policy's verdicts changed: give
// PathPolicyVersion a new number and record the digest the test prints under it.
var pathPolicyDigests = map[int]string{
	1: "f5ba7dc5611f61a13f6f67cd71f90f1d4b59ccb434ed9792a91cd5dd220ea216",
}

// policyAtoms are names at the edges of every rule of the policy.
var policyAtoms = []string{
	"a", "A", "SKILL.md", "skill.md", "Skill.MD", "SKІLL.md", "ЅKILL.md", "SK1LL.md", "SKILL.ｍd",
	"SK\u200bILL.md", "SKÍLL.md", "SKILL.md.", "SKILL.md ", "", ".", "..", "...", ".git", ".GIT",
	".git.", "git~1", "GIT~1", ".gitignore", "CON", "con.txt", "AUX ", "nul.tar.gz", "COM1",
	"com10", "LPT9.md", "console", "a:b", `a\b`, "a\x00b", "a\x1bb", "a\u0085b", "x\u202ey",
	"bad\xff", "café", "cafe\u0301", "CAFÉ", "straße", "STRASSE", "\u212a", "k", "ﬃ", "ffi",
	"a.", "a ", "a. .", strings.Repeat("a", MaxNameBytes), strings.Repeat("a", MaxNameBytes+1),
	strings.Repeat("é", 128), "scripts", "Scripts", "ı", "I", "i", "İ",
}

// policyProbes lists every input the digest covers: each atom as a name and as a path, each
// pair of atoms as a nested path, and each pair added to one PathSet, where case collisions
// show.
func policyProbes(yield func(string, error)) {
	for _, a := range policyAtoms {
		yield("name "+a, CheckName(a))
		yield("path "+a, CheckPath(a))
		yield("path /"+a, CheckPath("/"+a))
		for _, b := range policyAtoms {
			yield("path "+a+"/"+b, CheckPath(a+"/"+b))
			var s PathSet
			_ = s.Add(a)
			yield("set "+a+" "+b, s.Add(b))
		}
	}
}

func TestPathPolicyVersion(t *testing.T) {
	want, ok := pathPolicyDigests[PathPolicyVersion]
	if !ok {
		t.Fatalf("no digest is recorded for PathPolicyVersion %d", PathPolicyVersion)
	}
	h := sha256.New()
	n := 0
	policyProbes(func(in string, err error) {
		n++
		fmt.Fprintf(h, "%q %t\n", in, err == nil)
	})
	got := hex.EncodeToString(h.Sum(nil))
	if n < len(policyAtoms)*len(policyAtoms) {
		t.Fatalf("only %d probes ran", n)
	}
	if got != want {
		t.Errorf("the path policy's verdicts changed (digest %s, version %d records %q): give PathPolicyVersion a new number and record this digest under it", got, PathPolicyVersion, want)
	}
}

// TestPathPolicyDigestSeesChange makes sure the digest moves when one verdict does.
func TestPathPolicyDigestSeesChange(t *testing.T) {
	sum := func(flip string) string {
		h := sha256.New()
		policyProbes(func(in string, err error) {
			if in == flip {
				err = nil
			}
			fmt.Fprintf(h, "%q %t\n", in, err == nil)
		})
		return hex.EncodeToString(h.Sum(nil))
	}
	if sum("") == sum("name CON") {
		t.Fatal("passing CON left the digest as it was")
	}
}
