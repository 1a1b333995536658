package audit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// printKey returns a key of goldenSkills printed in format f.
func printKey(f Format) PrintKey {
	return PrintKey{Root: "root-1", Folder: "skills", Policy: PolicyHash(nil, nil), Format: f,
		Options: WriteOptions{Version: "v1.2.3", FailOn: RiskHigh, Title: "main"}}
}

func TestPrintedRoundTrip(t *testing.T) {
	skills := manySkills(600)
	for f := FormatText; f <= FormatMarkdown; f++ {
		t.Run(f.String(), func(t *testing.T) {
			c := &Cache{Dir: t.TempDir()}
			k := printKey(f)
			var direct, stored, copied bytes.Buffer
			mustDo(t, Write(&direct, f, skills, k.Options))
			v, err := c.Printed().Write(&stored, k, skills)
			mustDo(t, err)
			if !bytes.Equal(stored.Bytes(), direct.Bytes()) {
				t.Fatal("Printed().Write printed other bytes than Write")
			}
			if want := Judge(skills, RiskHigh); v != want {
				t.Errorf("Printed().Write verdict %v, want %v", v, want)
			}
			got, ok, err := c.Printed().Copy(&copied, k)
			mustDo(t, err)
			if !ok || got != v {
				t.Fatalf("Printed().Copy = %v, %v; want %v, true", got, ok, v)
			}
			if !bytes.Equal(copied.Bytes(), direct.Bytes()) {
				t.Error("Printed().Copy copied other bytes than Write printed")
			}
			// A markdown report lists a bounded number of findings.
			if f != FormatMarkdown && direct.Len() <= printedChunk {
				t.Errorf("the report is %d bytes, one chunk: the test reads no chunk boundary", direct.Len())
			}
		})
	}
}

func TestPrintedMissesOtherKeys(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	k := printKey(FormatText)
	_, err := c.Printed().Write(&bytes.Buffer{}, k, goldenSkills())
	mustDo(t, err)
	others := map[string]func(*PrintKey){
		"other tree":    func(k *PrintKey) { k.Root = "root-2" },
		"other folder":  func(k *PrintKey) { k.Folder = "agents/skills" },
		"other policy":  func(k *PrintKey) { k.Policy = PolicyHash(nil, []string{"https://get.example.dev/i.sh"}) },
		"other format":  func(k *PrintKey) { k.Format = FormatJSON },
		"colors":        func(k *PrintKey) { k.Options.Color = true },
		"other version": func(k *PrintKey) { k.Options.Version = "v1.2.4" },
		"other fail-on": func(k *PrintKey) { k.Options.FailOn = RiskMedium },
		"other title":   func(k *PrintKey) { k.Options.Title = "main~1" },
		"no tree":       func(k *PrintKey) { k.Root = "" },
	}
	for name, change := range others {
		o := k
		change(&o)
		var out bytes.Buffer
		if _, ok, err := c.Printed().Copy(&out, o); ok || err != nil || out.Len() != 0 {
			t.Errorf("%s: Printed().Copy = %v, %v and wrote %d bytes; want a miss that writes nothing", name, ok, err, out.Len())
		}
	}
}

// storedPrinted stores goldenSkills printed under k in a new cache and returns the cache and
// the entry's bytes.
func storedPrinted(t *testing.T, k PrintKey) (*Cache, []byte) {
	t.Helper()
	c := &Cache{Dir: t.TempDir()}
	_, err := c.Printed().Write(&bytes.Buffer{}, k, goldenSkills())
	mustDo(t, err)
	data, err := os.ReadFile(c.Printed().file(k))
	mustDo(t, err)
	return c, data
}

func TestPrintedDamagedIsAMiss(t *testing.T) {
	k := printKey(FormatText)
	c, good := storedPrinted(t, k)
	name := c.Printed().file(k)
	other := k
	other.Options.Title = "elsewhere"
	_, otherEntry := storedPrinted(t, other)
	damaged := map[string][]byte{
		"empty":             nil,
		"cut short":         good[:len(good)/2],
		"no checksum":       good[:len(good)-4],
		"a byte more":       append(slices.Clone(good), 0),
		"another key's":     otherEntry,
		"only a head":       good[:40],
		"not an entry":      []byte("skillgit audit of main\n\nall fine\n"),
		"other format byte": resum(func(b []byte) { b[len(printedMagic)]++ }, good),
		"verdict out of range": resum(func(b []byte) {
			head, _, _ := printedHead(b, k)
			b[head-1] = 9
		}, good),
	}
	for i := range good {
		b := slices.Clone(good)
		b[i] ^= 0x01
		damaged[fmt.Sprintf("bit flipped at %d", i)] = b
	}
	for what, data := range damaged {
		mustDo(t, os.WriteFile(name, data, 0o600))
		var out bytes.Buffer
		if _, ok, err := c.Printed().Copy(&out, k); ok || err != nil || out.Len() != 0 {
			t.Fatalf("%s: Printed().Copy = %v, %v and wrote %d bytes; want a miss that writes nothing", what, ok, err, out.Len())
		}
	}
}

func TestPrintedChecksumAcrossChunks(t *testing.T) {
	k := printKey(FormatText)
	_, good := storedPrinted(t, k)
	head, _, ok := printedHead(good, k)
	if !ok {
		t.Fatal("printedHead refused a stored entry")
	}
	flipped := slices.Clone(good)
	flipped[len(flipped)-2] ^= 0x80
	// Every chunk size from the head's length up puts the checksum at another place in the
	// last chunks: whole in one, or cut across two.
	for chunk := head; chunk < head+64; chunk++ {
		if _, _, _, ok := checkPrinted(bytes.NewReader(good), int64(len(good)), k, chunk); !ok {
			t.Errorf("chunk %d: checkPrinted refused a whole entry", chunk)
		}
		if _, _, _, ok := checkPrinted(bytes.NewReader(flipped), int64(len(flipped)), k, chunk); ok {
			t.Errorf("chunk %d: checkPrinted took an entry whose checksum is damaged", chunk)
		}
	}
	if _, _, _, ok := checkPrinted(bytes.NewReader(good), int64(len(good)), k, head-1); ok {
		t.Error("checkPrinted took a head longer than its first chunk")
	}
}

func TestPrintedLinkIsAMiss(t *testing.T) {
	k := printKey(FormatText)
	c, good := storedPrinted(t, k)
	name := c.Printed().file(k)
	elsewhere := filepath.Join(t.TempDir(), "entry")
	mustDo(t, os.WriteFile(elsewhere, good, 0o600))
	mustDo(t, os.Remove(name))
	mustDo(t, os.Symlink(elsewhere, name))
	var out bytes.Buffer
	if _, ok, _ := c.Printed().Copy(&out, k); ok || out.Len() != 0 {
		t.Error("Printed().Copy followed a symbolic link")
	}
}

// failingWriter takes n bytes, then fails.
type failingWriter struct{ n int }

var errFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		n := w.n
		w.n = 0
		return n, errFull
	}
	w.n -= len(p)
	return len(p), nil
}

func TestPrintedNotStoredWhenPrintingFails(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	k := printKey(FormatText)
	if _, err := c.Printed().Write(&failingWriter{n: 100}, k, manySkills(60)); !errors.Is(err, errFull) {
		t.Fatalf("Printed().Write error %v, want %v", err, errFull)
	}
	if _, ok, _ := c.Printed().Copy(&bytes.Buffer{}, k); ok {
		t.Error("a report that failed to print was stored")
	}
	entries, _ := os.ReadDir(filepath.Join(c.Dir, printedFolder))
	if len(entries) != 0 {
		t.Errorf("the failed entry left %d files behind", len(entries))
	}
}

func TestPrintedCopyFailureIsAnError(t *testing.T) {
	k := printKey(FormatText)
	c, _ := storedPrinted(t, k)
	if _, ok, err := c.Printed().Copy(&failingWriter{n: 10}, k); !ok || !errors.Is(err, errFull) {
		t.Errorf("Printed().Copy = %v, %v; want a hit whose copy failed with %v", ok, err, errFull)
	}
}

func TestPrintedEntriesStayBounded(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	for i := range maxPrintedEntries + 3 {
		k := printKey(FormatText)
		k.Root = fmt.Sprintf("root-%d", i)
		_, err := c.Printed().Write(&bytes.Buffer{}, k, goldenSkills())
		mustDo(t, err)
	}
	entries, err := os.ReadDir(filepath.Join(c.Dir, printedFolder))
	mustDo(t, err)
	if len(entries) != maxPrintedEntries {
		t.Errorf("%d printed entries kept, want %d", len(entries), maxPrintedEntries)
	}
	k := printKey(FormatText)
	k.Root = fmt.Sprintf("root-%d", maxPrintedEntries+2)
	if _, ok, _ := c.Printed().Copy(&bytes.Buffer{}, k); !ok {
		t.Error("the entry stored last was pruned")
	}
}

func TestPrintedWithoutFolderOnlyPrints(t *testing.T) {
	var direct, out bytes.Buffer
	k := printKey(FormatJSON)
	mustDo(t, Write(&direct, k.Format, goldenSkills(), k.Options))
	for _, c := range []*Cache{nil, {}} {
		out.Reset()
		_, err := c.Printed().Write(&out, k, goldenSkills())
		mustDo(t, err)
		if !bytes.Equal(out.Bytes(), direct.Bytes()) {
			t.Error("Printed().Write without a cache folder printed other bytes than Write")
		}
		if _, ok, err := c.Printed().Copy(&out, k); ok || err != nil {
			t.Errorf("Printed().Copy without a cache folder = %v, %v", ok, err)
		}
	}
}
