package targetdir

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// freshManifest is the manifest readManifest decodes into.
func freshManifest() manifest { return manifest{Version: 1, Skills: map[string]manifestEntry{}} }

// sameAsJSON decodes data both ways and fails when the results differ; fast says whether the
// manifest decoder took it in itself.
func sameAsJSON(t *testing.T, data []byte) (fast bool) {
	t.Helper()
	want := freshManifest()
	werr := json.Unmarshal(data, &want)
	got := freshManifest()
	d := manifestDecoder{data: data}
	probe := manifest{Version: 1}
	fast = d.manifest(&probe)
	gerr := decodeManifest(data, &got)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("decoding %q: encoding/json says %v, decodeManifest %v", data, werr, gerr)
	}
	if fast && werr != nil {
		t.Fatalf("the fast decoder took in %q, which encoding/json refuses: %v", data, werr)
	}
	if werr == nil {
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(manifest{})); diff != "" {
			t.Fatalf("decoding %q (fast %v) differs from encoding/json (-json +got):\n%s", data, fast, diff)
		}
	}
	return fast
}

// randomManifest makes a manifest with the strings a target folder's manifest holds, and
// some that need escaping.
func randomManifest(rng *rand.Rand, n int) manifest {
	pieces := []string{"SKILL.md", "scripts/run.sh", "café", "a b", `q"uote`, `back\slash`, "tab\there", "<&>", "ü", "\u2028", "x"}
	pick := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	m := manifest{Version: 1, Skills: map[string]manifestEntry{}}
	for i := range n {
		e := manifestEntry{
			Source:  fmt.Sprintf("%040x", rng.Uint64()),
			Written: fmt.Sprintf("sha256:%064x", rng.Uint64()),
			Mode:    []Mode{Copy, Symlink}[rng.IntN(2)],
		}
		if rng.IntN(4) == 0 {
			e.Written, e.Pending = pendingHash, fmt.Sprintf("sha256:%064x", rng.Uint64())
		}
		if rng.IntN(3) > 0 {
			e.Stat = fmt.Sprintf("%032x %d\n%s\n%s", rng.Uint64(), rng.Int64(), pick(), pick())
		}
		m.Skills[fmt.Sprintf("skill-%d", i)] = e
	}
	return m
}

func TestManifestDecodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fastCount, plainCount := 0, 0
	for i := range 300 {
		m := randomManifest(rng, i%20)
		data, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if sameAsJSON(t, data) {
			fastCount++
		}
		plain := !strings.Contains(string(data), `\u`)
		if plain {
			plainCount++
		}
		if d := (manifestDecoder{data: data}); plain && !d.manifest(&manifest{Version: 1}) {
			t.Fatalf("the fast decoder refused a manifest as skillgit writes it:\n%s", data)
		}
	}
	if fastCount != plainCount || plainCount < 30 {
		t.Fatalf("the fast decoder took in %d of 300 written manifests, %d of them without \\u escapes", fastCount, plainCount)
	}
}

func TestManifestDecodeEdges(t *testing.T) {
	for _, tc := range []struct {
		data string
		fast bool
	}{
		{`{"version":1,"skills":{}}`, true},
		{"{ \"version\" : 1 , \"skills\" : { } }\n", true},
		{`{"skills":{"a":{"source":"s","written":"w","mode":"copy"}}}`, true}, // version kept
		{`{"version":1}`, false},                                              // skills kept
		{`{"VERSION":1,"skills":{}}`, false},
		{`{"version":1,"skills":{"a":{"Source":"s"}}}`, false},
		{`{"version":1,"skills":{"a":{"source":"\u0041"}}}`, false},
		{`{"version":01,"skills":{}}`, false},
		{`{"version":1.0,"skills":{}}`, false},
		{`{"version":-1,"skills":{}}`, false},
		{`{"version":1,"skills":{}} x`, false},
		{`{"version":1,"skills":{},"skills":{}}`, false},
		{`{"version":1,"skills":null}`, false},
		{`{"version":1,"skills":{"a":{"source":"s"},"a":{"written":"w"}}}`, true},
		{`{"version":1,"skills":{"a":{"stat":"x\ny\\z\"q\/r"}}}`, true},
		{"{\"version\":1,\"skills\":{\"a\":{\"stat\":\"bad\xff\"}}}", false},
		{"{\"version\":1,\"skills\":{\"a\":{\"stat\":\"raw\nline\"}}}", false},
		{`{"version":1,"skills":{"a":{"stat":"x\q"}}}`, false},
		{`{"version":1,"skills":{"a":{"extra":1}}}`, false},
		{`{"version":1,"skills":{"a":{"source":"s",}}}`, false},
		{`[]`, false},
		{``, false},
		{`{"version":1,"skills":{"a":{"source":"s"}`, false},
	} {
		if got := sameAsJSON(t, []byte(tc.data)); got != tc.fast {
			t.Errorf("%q: fast decoder took it in: %v, want %v", tc.data, got, tc.fast)
		}
	}
}

// TestManifestDecodeMutations damages written manifests byte by byte: whatever the fast
// decoder takes in must be what encoding/json gives.
func TestManifestDecodeMutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("{}[]\":,\\ \n0123456789-.eEnulltrufasx\x00\xff/uU")
	for range 20000 {
		data, err := json.MarshalIndent(randomManifest(rng, 1+rng.IntN(3)), "", " ")
		if err != nil {
			t.Fatal(err)
		}
		for range 1 + rng.IntN(3) {
			i := rng.IntN(len(data))
			switch rng.IntN(3) {
			case 0:
				data[i] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				data = append(data[:i], data[i+1:]...)
			default:
				data = append(data[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, data[i:]...)...)
			}
			if len(data) == 0 {
				break
			}
		}
		sameAsJSON(t, data)
	}
}

func FuzzManifestDecode(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 5 {
		data, _ := json.MarshalIndent(randomManifest(rng, i), "", "  ")
		f.Add(data)
	}
	f.Add([]byte(`{"version":1,"skills":{"a":{"stat":"x\ny"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsJSON(t, data)
	})
}

// TestManifestEncodeIsMarshalIndent holds the manifest encoder to json.MarshalIndent, byte
// for byte, on manifests with every kind of string, and makes sure plain ones take the fast
// path.
func TestManifestEncodeIsMarshalIndent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	fast := 0
	for i := range 500 {
		m := randomManifest(rng, i%12)
		if i%50 == 0 {
			m.Skills = map[string]manifestEntry{}
		}
		if i%7 == 0 {
			e := m.Skills["skill-0"]
			e.Stat += string([]byte{byte(rng.IntN(0x20)), 0x7f, 0xff})
			m.Skills["skill-0"] = e
		}
		want, err := json.MarshalIndent(&m, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeManifest(&m)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("encodeManifest differs from MarshalIndent:\n%s\nwant:\n%s", got, want)
		}
		if _, ok := encodePlainManifest(&m); ok {
			fast++
		}
	}
	if fast < 50 {
		t.Fatalf("only %d of 500 manifests took the fast path", fast)
	}
	plain := manifest{Version: 1, Skills: map[string]manifestEntry{"café-notes": {Source: "s", Written: "w", Mode: Copy, Stat: "d 1\nSKILL.md\nréf/a b.md"}}}
	if _, ok := encodePlainManifest(&plain); !ok {
		t.Error("a manifest of plain strings did not take the fast path")
	}
}

func FuzzManifestEncode(f *testing.F) {
	f.Add("skill", "d 1\nSKILL.md", "copy")
	f.Add("x", "<\u2028\xff\"\\\t", "")
	f.Fuzz(func(t *testing.T, name, stat, mode string) {
		m := manifest{Version: 1, Skills: map[string]manifestEntry{name: {Source: name + stat, Written: "w", Mode: Mode(mode), Stat: stat}, "b": {Pending: stat}}}
		want, err := json.MarshalIndent(&m, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeManifest(&m)
		if err != nil || string(got) != string(want) {
			t.Fatalf("encodeManifest = %q, %v; MarshalIndent %q", got, err, want)
		}
	})
}

// TestPlainRunMatchesBytewise holds the eight-bytes-at-a-time scan of the decoder to a
// byte-by-byte one.
func TestPlainRunMatchesBytewise(t *testing.T) {
	stop := func(c byte) bool { return c < 0x20 || c >= 0x80 || c == '"' || c == '\\' }
	special := []byte{0, 0x1f, 0x20, '"', '\\', 0x7f, 0x80, 0xff, '!', '#', '[', ']', 'a'}
	checkRunScan(t, "plainRun", func(b []byte) int { return plainRun(b) }, stop, special, 9)
}

// TestHTMLSafeRunMatchesBytewise holds the eight-bytes-at-a-time scan of the encoder to a
// byte-by-byte one.
func TestHTMLSafeRunMatchesBytewise(t *testing.T) {
	stop := func(c byte) bool {
		return c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&'
	}
	special := []byte{0, '\n', 0x1f, 0x20, '"', '\\', '<', '>', '&', 0x7f, 0x80, 0xff, '=', '?', '%', '\'', 'a'}
	checkRunScan(t, "asIsRun", func(b []byte) int { return asIsRun(string(b), true) }, stop, special, 13)
}

// checkRunScan compares scan with a byte-by-byte search for the first byte stop takes, on
// 100,000 random texts of printable ASCII sprinkled with special bytes.
func checkRunScan(t *testing.T, name string, scan func([]byte) int, stop func(byte) bool, special []byte, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for range 100000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(0x21 + rng.IntN(0x5e))
			if rng.IntN(12) == 0 {
				b[i] = special[rng.IntN(len(special))]
			}
		}
		want := len(b)
		for i, c := range b {
			if stop(c) {
				want = i
				break
			}
		}
		if got := scan(b); got != want {
			t.Fatalf("%s(%q) = %d, want %d", name, b, got, want)
		}
	}
}
