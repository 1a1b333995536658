package catalog

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestDiscoverSharesEqualMetadata checks that skills with the same metadata, whether plain or
// read by the YAML library, share one map, and that skills with other metadata do not.
func TestDiscoverSharesEqualMetadata(t *testing.T) {
	fsys := fstest.MapFS{}
	add := func(name, meta string) {
		fsys["skills/"+name+"/SKILL.md"] = &fstest.MapFile{Data: []byte(fmt.Sprintf("---\nname: %s\ndescription: does %s\nmetadata:\n%s---\nbody\n", name, name, meta))}
	}
	add("a", "  author: x\n  version: \"1\"\n")
	add("b", "  version: '1'\n  author: x\n")
	add("c", "  author: x # the same, read by the library\n  version: \"1\"\n")
	add("d", "  author: y\n  version: \"1\"\n")
	add("e", "  author: x\n")
	// One worker reads every skill: each worker shares the maps of the skills it reads.
	res, err := Discover(fsys, "skills", Options{Mode: Lenient, FrontmatterOnly: true, Workers: 1})
	if err != nil || len(res.Skills) != 5 {
		t.Fatalf("Discover: %d skills, %v, problems %v", len(res.Skills), err, res.Problems)
	}
	byName := map[string]map[string]string{}
	for _, s := range res.Skills {
		byName[s.Name] = s.Metadata
	}
	same := func(a, b string) bool {
		return reflect.ValueOf(byName[a]).UnsafePointer() == reflect.ValueOf(byName[b]).UnsafePointer()
	}
	want := map[string]string{"author": "x", "version": "1"}
	for _, n := range []string{"a", "b", "c"} {
		if !reflect.DeepEqual(byName[n], want) {
			t.Errorf("%s: metadata %v, want %v", n, byName[n], want)
		}
	}
	if !same("a", "b") || !same("a", "c") {
		t.Error("equal metadata is held in more than one map")
	}
	if same("a", "d") || same("a", "e") || byName["d"]["author"] != "y" || len(byName["e"]) != 1 {
		t.Errorf("different metadata shares a map: d %v, e %v", byName["d"], byName["e"])
	}
}

// TestMetaInternerBounded checks that the interner stops remembering mappings past its bound
// and still leaves each skill its own values, however long.
func TestMetaInternerBounded(t *testing.T) {
	var in metaInterner
	long := strings.Repeat("x", 300)
	for i := range maxInterned + 10 {
		v := fmt.Sprint(i, long)
		s := &Skill{Name: "n", Description: "d" + v, Metadata: map[string]string{"k" + v: v, "a": "b"}}
		in.compact(s)
		want := map[string]string{"k" + v: v, "a": "b"}
		if s.Name != "n" || s.Description != "d"+v || !reflect.DeepEqual(s.Metadata, want) {
			t.Fatalf("skill %d came back as %+v", i, s)
		}
	}
	if len(in.maps) != maxInterned {
		t.Errorf("the interner remembers %d mappings, want %d", len(in.maps), maxInterned)
	}
	s := &Skill{Name: "n", Metadata: map[string]string{"k\x01": "2"}}
	if in.compact(s); s.Metadata["k\x01"] != "2" || len(s.Metadata) != 1 {
		t.Errorf("a key that ends like a length came back as %v", s.Metadata)
	}
	empty := &Skill{Name: "e", Metadata: map[string]string{}}
	if in.compact(empty); empty.Metadata == nil {
		t.Error("empty metadata came back nil")
	}
}
