package commitgraph

import "testing"

// TestMurmur3Vectors pins the hash to published MurmurHash3 x86 32-bit
// values (version 2, unsigned bytes) and checks that version 1 differs
// exactly on bytes with the high bit set.
func TestMurmur3Vectors(t *testing.T) {
	cases := []struct {
		seed uint32
		data string
		want uint32
	}{
		{0, "", 0x00000000},
		{1, "", 0x514e28b7},
		{0xffffffff, "", 0x81f16f39},
		{0, "Hello world!", 0x627b0c2c},
		{0, "The quick brown fox jumps over the lazy dog", 0x2e4ff723},
		{0, "\x99\xaa\xbb\xcc\xdd\xee\xff", 0xa183ccfd},
		{0x9747b28c, "aaaa", 0x5a97808a},
		{0x9747b28c, "abc", 0xc84a62dd},
		{0x9747b28c, "Hello, world!", 0x24884cba},
	}
	for _, c := range cases {
		if got := murmur3(c.seed, c.data, false); got != c.want {
			t.Errorf("murmur3(%#x, %q) = %#x, want %#x", c.seed, c.data, got, c.want)
		}
		ascii := isASCII(c.data)
		if same := murmur3(c.seed, c.data, true) == c.want; same != ascii {
			t.Errorf("version 1 hash of %q equal to version 2: %v, want %v", c.data, same, ascii)
		}
	}
}

// TestPathQueryKeys: a query holds the path and each leading folder, and
// shares the version 1 keys for ASCII paths only.
func TestPathQueryKeys(t *testing.T) {
	q := NewPathQuery("/skills/pdf/SKILL.md/")
	if q.Path() != "skills/pdf/SKILL.md" || len(q.v2) != 3 || &q.v1[0] != &q.v2[0] {
		t.Fatalf("query %q has %d keys", q.Path(), len(q.v2))
	}
	if q.v2[2] != newBloomKey("skills", 2) || q.v2[1] != newBloomKey("skills/pdf", 2) {
		t.Fatal("leading folders are not hashed")
	}
	u := NewPathQuery("skills/café/SKILL.md")
	if u.v1[0] == u.v2[0] || u.v1[2] != u.v2[2] {
		t.Fatal("non-ASCII path hashed the same way by both versions, or ASCII folder not")
	}
	if e := NewPathQuery("/"); e.Path() != "" || len(e.v1)+len(e.v2) != 0 {
		t.Fatal("empty path has keys")
	}
}
