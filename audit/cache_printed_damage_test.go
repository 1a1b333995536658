package audit

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// reseal sets the checksum at the end of an entry to what the entry holds, so that damaged
// bytes reach the decoding behind the checksum.
func reseal(data []byte) []byte {
	if len(data) >= 4 {
		binary.BigEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], castagnoli))
	}
	return data
}

// TestPrintedEntriesResealed damages a stored whole report and a change to it at random, cuts
// them short, and sets their checksums right again, so that the damage reaches the reading of
// heads, indexes and changes. Reading them every way must not panic, and must print a report
// or nothing.
func TestPrintedEntriesResealed(t *testing.T) {
	k := printKey(FormatText)
	next := k
	next.Root = "root-2"
	seed := &Cache{Dir: t.TempDir()}
	reports := manySkills(20)
	_, err := seed.Printed().Write(&bytes.Buffer{}, k, reports)
	mustDo(t, err)
	prev, _ := seed.Printed().Latest(k)
	_, ok, err := seed.Printed().Since(&bytes.Buffer{}, next, prev, []string{reports[2].Path}, []SkillReport{reportAt(0, reports[2].Path)})
	if !ok || err != nil {
		t.Fatalf("Since = %v, %v", ok, err)
	}
	whole, err := os.ReadFile(seed.Printed().file(k))
	mustDo(t, err)
	change, err := os.ReadFile(seed.Printed().file(next))
	mustDo(t, err)
	r := rand.New(rand.NewSource(1))
	// damage cuts b short or sets a few of its bytes at random; half the time in its last
	// kilobyte, where a whole entry keeps its index, and often to a byte that makes a long
	// length.
	damage := func(b []byte) []byte {
		b = bytes.Clone(b)
		if r.Intn(4) == 0 {
			return reseal(b[:r.Intn(len(b))])
		}
		from := 0
		if r.Intn(2) == 0 {
			from = max(0, len(b)-1024)
		}
		for range 1 + r.Intn(3) {
			v := byte(r.Intn(256))
			if r.Intn(2) == 0 {
				v = 0xff
			}
			b[from+r.Intn(len(b)-from)] = v
		}
		return reseal(b)
	}
	c := &Cache{Dir: t.TempDir()}
	p := c.Printed()
	mustDo(t, os.MkdirAll(filepath.Join(c.Dir, printedFolder), 0o700))
	for i := range 2000 {
		mustDo(t, os.WriteFile(p.file(k), damage(whole), 0o600))
		mustDo(t, os.WriteFile(p.file(next), damage(change), 0o600))
		for _, key := range []PrintKey{k, next} {
			var out bytes.Buffer
			if _, ok, err := p.Copy(&out, key); !ok && (err != nil || out.Len() != 0) {
				t.Fatalf("round %d: a miss wrote %d bytes, error %v", i, out.Len(), err)
			}
		}
		if latest, ok := p.Latest(k); ok {
			third := k
			third.Root = "root-3"
			var out bytes.Buffer
			if _, ok, err := p.Since(&out, third, latest, []string{"skills/skill-001"}, reports[:1]); !ok && (err != nil || out.Len() != 0) {
				t.Fatalf("round %d: a refusal wrote %d bytes, error %v", i, out.Len(), err)
			}
		}
	}
}
