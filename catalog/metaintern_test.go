package catalog

import (
	"fmt"
	"reflect"
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
// and still hands back each mapping unchanged.
func TestMetaInternerBounded(t *testing.T) {
	var in metaInterner
	for i := range maxInterned + 10 {
		m := map[string]string{"k": fmt.Sprint(i)}
		if got := in.intern(m); got["k"] != fmt.Sprint(i) {
			t.Fatalf("mapping %d came back as %v", i, got)
		}
	}
	if len(in.maps) != maxInterned {
		t.Errorf("the interner remembers %d mappings, want %d", len(in.maps), maxInterned)
	}
	if got := in.intern(map[string]string{"k\x01": "2"}); got["k\x01"] != "2" {
		t.Errorf("a key that ends like a length came back as %v", got)
	}
}
