package audit

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// versionSteps are changes to a folder of skills, each as the audit finds it: the folders
// whose reports no longer hold, and the reports of the skills audited again.
type versionStep struct {
	name    string
	drop    []string
	scanned []SkillReport
}

// applyStep returns reports without those covered by the step's folders, with its scanned
// reports among them, in path order: the whole result of the folder after the step.
func applyStep(reports []SkillReport, st versionStep) []SkillReport {
	gone := newFolderSet(st.drop)
	var out []SkillReport
	for _, s := range reports {
		if !gone.covers(s.Path) {
			out = append(out, s)
		}
	}
	out = append(out, st.scanned...)
	slices.SortFunc(out, byPath)
	return out
}

// reportAt returns golden report i, at path.
func reportAt(i int, path string) SkillReport {
	s := goldenSkills()[i]
	s.Name, s.Path = path[strings.LastIndexByte(path, '/')+1:], path
	return s
}

// changedFolder returns a folder of skills, some in a category, and steps that change it.
func changedFolder() ([]SkillReport, []versionStep) {
	base := manySkills(300)
	for i := range 5 {
		base = append(base, reportAt(i%2, fmt.Sprintf("skills/cat/in-%d", i)))
	}
	slices.SortFunc(base, byPath)
	first, last := base[0].Path, base[len(base)-1].Path
	clean := func(path string) SkillReport {
		return SkillReport{Name: path, Path: path, Report: withRisk(&Report{Files: 1, Bytes: 10, Findings: []Finding{}})}
	}
	return base, []versionStep{
		{"one skill audited again", []string{"skills/skill-007"}, []SkillReport{reportAt(1, "skills/skill-007")}},
		{"one skill gone", []string{"skills/skill-010"}, nil},
		{"one skill added", []string{"skills/new-one"}, []SkillReport{reportAt(0, "skills/new-one")}},
		{"a category gone, one of it back", []string{"skills/cat"}, []SkillReport{clean("skills/cat/in-2")}},
		{"first and last audited again", []string{first, last}, []SkillReport{clean(last), clean(first)}},
		{"the same skill again", []string{"skills/skill-007"}, []SkillReport{clean("skills/skill-007")}},
		{"a skill added before the first", []string{"skills/aaa"}, []SkillReport{clean("skills/aaa")}},
	}
}

func TestPrintedSinceMatchesAWholePrint(t *testing.T) {
	for _, title := range []string{"main", ""} {
		t.Run("title "+title, func(t *testing.T) {
			c := &Cache{Dir: t.TempDir()}
			reports, steps := changedFolder()
			k := printKey(FormatText)
			k.Options.Title = title
			_, err := c.Printed().Write(&bytes.Buffer{}, k, reports)
			mustDo(t, err)
			for i, st := range steps {
				reports = applyStep(reports, st)
				var want bytes.Buffer
				mustDo(t, WriteText(&want, reports, k.Options))
				prev, ok := c.Printed().Latest(k)
				if !ok {
					t.Fatalf("%s: Printed().Latest found nothing", st.name)
				}
				next := k
				next.Root = fmt.Sprintf("root-after-%d", i)
				var got bytes.Buffer
				v, ok, err := c.Printed().Since(&got, next, prev, st.drop, st.scanned)
				mustDo(t, err)
				if !ok {
					t.Fatalf("%s: Printed().Since did not print", st.name)
				}
				if got.String() != want.String() {
					t.Fatalf("%s: printed from the change:\n%s\nwant:\n%s", st.name, got.String(), want.String())
				}
				if wantV := Judge(reports, k.Options.FailOn); v != wantV {
					t.Errorf("%s: verdict %v, want %v", st.name, v, wantV)
				}
				var copied bytes.Buffer
				v2, ok, err := c.Printed().Copy(&copied, next)
				if err != nil || !ok || v2 != v || copied.String() != want.String() {
					t.Fatalf("%s: Printed().Copy of the stored change = %v, %v, %v; report equal: %v", st.name, v2, ok, err, copied.String() == want.String())
				}
				if ch, ok := c.Printed().readChange(next); !ok || ch.base != k.Root {
					t.Errorf("%s: not stored as a change to the whole entry", st.name)
				}
			}
		})
	}
}

// TestPrintedSinceTakesOutTheOnlyRisk checks that the tail follows the skills taken out: once
// the only skills of high risk are gone, the run's risk and verdict drop.
func TestPrintedSinceTakesOutTheOnlyRisk(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	reports := manySkills(8)
	k := printKey(FormatText)
	_, err := c.Printed().Write(&bytes.Buffer{}, k, reports)
	mustDo(t, err)
	var drop []string
	for _, s := range reports {
		if s.Report.Risk >= RiskHigh {
			drop = append(drop, s.Path)
		}
	}
	if len(drop) == 0 || len(drop) == len(reports) {
		t.Fatalf("%d of %d skills are of high risk; the test needs some, not all", len(drop), len(reports))
	}
	prev, _ := c.Printed().Latest(k)
	next := k
	next.Root = "root-2"
	var got bytes.Buffer
	v, ok, err := c.Printed().Since(&got, next, prev, drop, nil)
	mustDo(t, err)
	rest := applyStep(reports, versionStep{drop: drop})
	var want bytes.Buffer
	mustDo(t, WriteText(&want, rest, k.Options))
	if !ok || got.String() != want.String() || v != Judge(rest, k.Options.FailOn) {
		t.Errorf("after the high-risk skills left: verdict %v, report:\n%s\nwant verdict %v, report:\n%s", v, got.String(), Judge(rest, k.Options.FailOn), want.String())
	}
	if Overall(rest) >= RiskHigh {
		t.Fatal("high risk remains; the test checks nothing")
	}
}

func TestPrintedSinceRefuses(t *testing.T) {
	reports := manySkills(100)
	k := printKey(FormatText)
	next := k
	next.Root = "root-2"
	one := []string{reports[3].Path}
	many := make([]string, minChangeLimit+1)
	for i := range many {
		many[i] = reports[i].Path
	}
	cases := map[string]struct {
		key   PrintKey
		drop  []string
		setup func(t *testing.T, c *Cache)
	}{
		"too much changed":  {next, many, nil},
		"another format":    {func() PrintKey { j := next; j.Format = FormatJSON; return j }(), one, nil},
		"the base is gone":  {next, one, func(t *testing.T, c *Cache) { mustDo(t, os.Remove(c.Printed().file(k))) }},
		"the base damaged":  {next, one, func(t *testing.T, c *Cache) { flipByte(t, c.Printed().file(k), 100) }},
		"the index damaged": {next, one, func(t *testing.T, c *Cache) { flipByte(t, c.Printed().file(k), -20) }},
		"the index malformed, checksum right": {next, one, func(t *testing.T, c *Cache) {
			e, ok := c.Printed().open(k)
			if !ok {
				t.Fatal("the stored entry does not open")
			}
			at := e.start + e.length
			e.close()
			data, err := os.ReadFile(c.Printed().file(k))
			mustDo(t, err)
			data = resum(func(b []byte) { b[at+1] = 0xff; b[at+2] = 0xff }, data)
			mustDo(t, os.WriteFile(c.Printed().file(k), data, 0o600))
			if _, ok := c.Printed().open(k); !ok {
				t.Fatal("the resealed entry does not open; the case checks nothing")
			}
		}},
		"the base printed differently": {next, one, func(t *testing.T, c *Cache) {
			other := k
			other.Options.Title = "elsewhere"
			data, err := os.ReadFile(c.Printed().file(k))
			mustDo(t, err)
			mustDo(t, os.WriteFile(c.Printed().file(k), nil, 0o600))
			mustDo(t, os.Rename(c.Printed().file(k), c.Printed().file(other)))
			mustDo(t, os.WriteFile(c.Printed().file(k), data[:len(data)/2], 0o600))
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := &Cache{Dir: t.TempDir()}
			_, err := c.Printed().Write(&bytes.Buffer{}, k, reports)
			mustDo(t, err)
			prev := &PrintedVersion{Root: k.Root}
			if tc.setup != nil {
				tc.setup(t, c)
			}
			var out bytes.Buffer
			if _, ok, err := c.Printed().Since(&out, tc.key, prev, tc.drop, nil); ok || err != nil || out.Len() != 0 {
				t.Errorf("Printed().Since = %v, %v and wrote %d bytes; want a refusal that writes nothing", ok, err, out.Len())
			}
		})
	}
}

func TestPrintedChangeDamagedIsAMiss(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	reports := manySkills(50)
	k := printKey(FormatText)
	_, err := c.Printed().Write(&bytes.Buffer{}, k, reports)
	mustDo(t, err)
	prev, _ := c.Printed().Latest(k)
	next := k
	next.Root = "root-2"
	_, ok, err := c.Printed().Since(&bytes.Buffer{}, next, prev, []string{reports[1].Path}, []SkillReport{reportAt(0, reports[1].Path)})
	if err != nil || !ok {
		t.Fatalf("Printed().Since = %v, %v", ok, err)
	}
	good, err := os.ReadFile(c.Printed().file(next))
	mustDo(t, err)
	for i := range good {
		b := slices.Clone(good)
		b[i] ^= 0x04
		mustDo(t, os.WriteFile(c.Printed().file(next), b, 0o600))
		var out bytes.Buffer
		if _, ok, err := c.Printed().Copy(&out, next); ok || err != nil || out.Len() != 0 {
			t.Fatalf("bit flipped at %d: Printed().Copy = %v, %v and wrote %d bytes; want a miss", i, ok, err, out.Len())
		}
		if latest, ok := c.Printed().Latest(k); ok && latest.Root == next.Root {
			t.Fatalf("bit flipped at %d: Printed().Latest took the damaged change", i)
		}
	}
}

// flipByte flips a bit of the byte at off of the file name; a negative off counts from its end.
func flipByte(t *testing.T, name string, off int) {
	t.Helper()
	data, err := os.ReadFile(name)
	mustDo(t, err)
	if off < 0 {
		off += len(data)
	}
	data[off] ^= 0x10
	mustDo(t, os.WriteFile(name, data, 0o600))
}
