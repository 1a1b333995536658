package policy

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fullConfig sets every key of .skillgit.yaml, so that every field of Config holds a value.
const fullConfig = `publish_branch: trunk
skills_dir: skills
mode: assisted
approvals:
  required: 2
  allow_self: true
  signed: true
  allowed_signers: .skillgit/signers
audit:
  skip_security_audit: true
  fail_on: medium
  allow: .skillgit/allow.yaml
  installers: [npm]
sync:
  channel: canary
  targets: [claude-code, {dir: out}]
server:
  protect: true
packs:
  - name: team
    url: https://example.com/skills.git
    ref: main
    path: skills
    max_bytes: 1000
    include: ["a-*"]
    exclude: ["a-b"]
    prefix: team-
    lenient: true
agents:
  - id: my-agent
    name: My Agent
    project: .my/skills
    global: ~/.my/skills
    also_project: [.my/more]
    also_global: [~/.my/more]
profiles:
  review: [a-one, a-two]
selection:
  implementation: 3
  review: 2
dedupe:
  threshold: 0.8
agent_scope: ["agent-*"]
`

// TestFullConfigSetsEveryField checks that fullConfig gives every field of Config a value,
// so that the copy tests below reach every field, also one added later.
func TestFullConfigSetsEveryField(t *testing.T) {
	c, err := parseConfig([]byte(fullConfig))
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{} // a field of a list's elements is set when one element sets it
	walkFields(reflect.ValueOf(c).Elem(), "Config", func(path string, v reflect.Value) {
		set[path] = set[path] || !v.IsZero()
	})
	for path, ok := range set {
		if !ok {
			t.Errorf("%s is not set by fullConfig; add its key", path)
		}
	}
}

// TestConfigHasOnlyExportedFields checks that copyDeep can reach every field of Config.
func TestConfigHasOnlyExportedFields(t *testing.T) {
	c, err := parseConfig([]byte(fullConfig))
	if err != nil {
		t.Fatal(err)
	}
	var check func(typ reflect.Type, path string)
	check = func(typ reflect.Type, path string) {
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice:
			check(typ.Elem(), path+"[]")
		case reflect.Map:
			check(typ.Key(), path+"{key}")
			check(typ.Elem(), path+"{}")
		case reflect.Struct:
			for i := range typ.NumField() {
				f := typ.Field(i)
				if !f.IsExported() {
					t.Errorf("%s.%s is unexported: copyDeep cannot copy what it holds", path, f.Name)
				}
				check(f.Type, path+"."+f.Name)
			}
		}
	}
	check(reflect.TypeOf(c).Elem(), "Config")
}

// TestParseConfigGivesEachCallerItsOwnCopy checks that a configuration served from the
// parsed ones equals a fresh parse, and that no change a caller makes to its copy, down to
// an element of a list, reaches the next caller.
func TestParseConfigGivesEachCallerItsOwnCopy(t *testing.T) {
	data := []byte(fullConfig)
	want, err := parseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	first, err := ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	second, err := ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	if first == second {
		t.Fatal("two callers got the same *Config")
	}
	for _, c := range []*Config{first, second} {
		if d := cmp.Diff(want, c); d != "" {
			t.Fatalf("kept configuration differs from a fresh parse (-want +got):\n%s", d)
		}
	}
	scribble(reflect.ValueOf(first).Elem())
	if cmp.Equal(want, first) {
		t.Fatal("scribble changed nothing")
	}
	third, err := ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, third); d != "" {
		t.Errorf("a caller's changes reached the next caller (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, second); d != "" {
		t.Errorf("a caller's changes reached another caller's copy (-want +got):\n%s", d)
	}
}

// TestParseConfigKeepsABoundedNumber checks that the kept configurations stay at most
// memoEntries, and that a file parsed again after they were forgotten still parses right.
func TestParseConfigKeepsABoundedNumber(t *testing.T) {
	for i := range 3 * memoEntries {
		data := []byte("approvals:\n  required: " + string(rune('1'+i%9)) + "\nskills_dir: s" + string(rune('a'+i)) + "\n")
		c, err := ParseConfig(data)
		if err != nil {
			t.Fatal(err)
		}
		if c.SkillsDir != "s"+string(rune('a'+i)) {
			t.Fatalf("parse %d: skills_dir %q", i, c.SkillsDir)
		}
		parsed.mu.Lock()
		n := len(parsed.byID)
		parsed.mu.Unlock()
		if n > memoEntries {
			t.Fatalf("%d configurations kept; want at most %d", n, memoEntries)
		}
	}
}

// walkFields calls fn with every field below v, named by its path.
func walkFields(v reflect.Value, path string, fn func(string, reflect.Value)) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if f.IsExported() {
				fn(path+"."+f.Name, v.Field(i))
				walkFields(v.Field(i), path+"."+f.Name, fn)
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			walkFields(v.Elem(), path, fn)
		}
	case reflect.Slice:
		for i := range v.Len() {
			walkFields(v.Index(i), path+"[]", fn)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			walkFields(it.Value(), path+"{}", fn)
		}
	}
}

// scribble changes every value below v in place, through the memory v shares with anything
// it was copied from: each element of a list, each value of a map, each pointed-to value.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				scribble(v.Field(i))
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			scribble(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			scribble(v.Index(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			if e.Kind() == reflect.Slice && e.Len() > 0 {
				scribble(e) // the copy of a slice header still points at the map's elements
			}
		}
	case reflect.String:
		v.SetString(v.String() + "~")
	case reflect.Int, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Float64:
		v.SetFloat(v.Float() + 1)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	}
}
