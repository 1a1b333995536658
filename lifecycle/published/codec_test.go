package published

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillgit/skillgit/catalog"
)

// codecSample returns a result that sets every exported field of a skill and of a problem,
// each to a value of its own, found by reflection, so that a field added later and not
// stored by the codec fails the round trip.
func codecSample(t testing.TB) *catalog.Result {
	t.Helper()
	n := 0
	fill := func(v reflect.Value) {
		for i := range v.NumField() {
			f := v.Field(i)
			if !v.Type().Field(i).IsExported() {
				continue
			}
			n++
			switch f.Kind() {
			case reflect.String:
				f.SetString(fmt.Sprintf("value %d, ünïcode \x00 %d", n, n))
			case reflect.Int:
				f.SetInt(int64(-n))
			case reflect.Bool:
				f.SetBool(true)
			case reflect.Map:
				f.Set(reflect.ValueOf(map[string]string{"b": "2", "a": "1", "": ""}))
			default:
				t.Fatalf("the codec test does not know how to fill %s (%s); teach it and the codec", v.Type().Field(i).Name, f.Kind())
			}
		}
	}
	var s catalog.Skill
	var p catalog.Problem
	fill(reflect.ValueOf(&s).Elem())
	fill(reflect.ValueOf(&p).Elem())
	plain := catalog.Skill{Name: "plain", Description: "d", Dir: "skills/plain"}
	empty := catalog.Skill{Name: "empty", Description: "d", Dir: "skills/empty", Metadata: map[string]string{}}
	warning := catalog.Problem{File: "skills/x/SKILL.md", Line: 3, Message: "m", Warning: false}
	return &catalog.Result{Skills: []*catalog.Skill{&s, &plain, &empty}, Problems: []catalog.Problem{p, warning}, Folders: []string{"skills/a", ""}}
}

// TestCatalogCodecRoundTrip checks that what the codec writes reads back equal, with nil
// and empty metadata kept apart, and that an empty result does too.
func TestCatalogCodecRoundTrip(t *testing.T) {
	for _, res := range []*catalog.Result{codecSample(t), {}} {
		got, ok := decodeCatalog(encodeCatalog(res))
		if !ok {
			t.Fatalf("the codec cannot read what it wrote for %+v", res)
		}
		if diff := cmp.Diff(res, got, cmpopts.IgnoreUnexported(catalog.Skill{})); diff != "" {
			t.Errorf("round trip (-wrote +read):\n%s", diff)
		}
	}
}

// TestCatalogCodecDamaged checks that every truncation of an entry, one changed byte anywhere
// in it, and bytes after its end are misses, never panics.
func TestCatalogCodecDamaged(t *testing.T) {
	data := encodeCatalog(codecSample(t))
	for n := range len(data) {
		if _, ok := decodeCatalog(data[:n]); ok {
			t.Errorf("the entry cut to %d of %d bytes reads as a catalog", n, len(data))
		}
	}
	if _, ok := decodeCatalog(append(append([]byte(nil), data...), 0)); ok {
		t.Error("an entry with a byte after its end reads as a catalog")
	}
	for i := range data {
		for _, b := range []byte{0, 0x7f, 0x80, 0xff} {
			bad := append([]byte(nil), data...)
			bad[i] = b
			decodeCatalog(bad) // must not panic; a changed string byte may still read
		}
	}
}

// FuzzDecodeCatalog feeds arbitrary bytes to the cache's reader, which must not panic, and
// checks that what it accepts it writes back the same.
func FuzzDecodeCatalog(f *testing.F) {
	f.Add(encodeCatalog(codecSample(f)))
	f.Add(encodeCatalog(&catalog.Result{}))
	f.Add([]byte(catalogMagic + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, ok := decodeCatalog(data)
		if !ok {
			return
		}
		again, ok := decodeCatalog(encodeCatalog(res))
		if !ok {
			t.Fatal("the codec cannot read back a result it read")
		}
		if diff := cmp.Diff(res, again, cmpopts.IgnoreUnexported(catalog.Skill{}), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("read, written and read again (-first +second):\n%s", diff)
		}
	})
}

// TestCatalogCodecExactSize checks that the encoder sizes its buffer exactly, so that it never
// grows a copy of a large catalog, nor holds memory it does not fill.
func TestCatalogCodecExactSize(t *testing.T) {
	res := codecSample(t)
	res.Problems = append(res.Problems, catalog.Problem{File: "f", Line: -70000}, catalog.Problem{File: "g", Line: 1 << 40})
	for _, r := range []*catalog.Result{res, {}} {
		if b := encodeCatalog(r); len(b) != cap(b) {
			t.Errorf("encoded %d bytes into a buffer of %d", len(b), cap(b))
		}
	}
}

// TestCatalogCodecSharesMetadata checks that skills whose metadata is the same read back
// sharing one map, and that different metadata stays apart.
func TestCatalogCodecSharesMetadata(t *testing.T) {
	meta := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	res := &catalog.Result{Skills: []*catalog.Skill{
		{Name: "a", Metadata: meta("author", "x", "version", "1")},
		{Name: "b", Metadata: meta("version", "1", "author", "x")},
		{Name: "c", Metadata: meta("author", "y", "version", "1")},
	}}
	got, ok := decodeCatalog(encodeCatalog(res))
	if !ok {
		t.Fatal("the codec cannot read what it wrote")
	}
	if diff := cmp.Diff(res, got, cmpopts.IgnoreUnexported(catalog.Skill{})); diff != "" {
		t.Fatalf("round trip (-wrote +read):\n%s", diff)
	}
	if reflect.ValueOf(got.Skills[0].Metadata).UnsafePointer() != reflect.ValueOf(got.Skills[1].Metadata).UnsafePointer() {
		t.Error("equal metadata read back as two maps")
	}
	if reflect.ValueOf(got.Skills[0].Metadata).UnsafePointer() == reflect.ValueOf(got.Skills[2].Metadata).UnsafePointer() {
		t.Error("different metadata read back as one map")
	}
}
