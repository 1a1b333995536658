package mcpserver

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// limits tightens an input schema inferred from a Go type, whose struct tags give only the
// descriptions: each key names a property ("files.path" for a property of an array's items)
// and each value changes that property's schema.
type limits map[string]func(*jsonschema.Schema)

// inputSchema infers the schema of In and applies l to it. A mistake here is a programming
// error that every test catches, so it panics.
func inputSchema[In any](l limits) *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: input schema: %v", err))
	}
	for key, f := range l {
		f(property(s, key))
	}
	return s
}

// property finds the schema of a dotted property path, stepping into array items.
func property(s *jsonschema.Schema, key string) *jsonschema.Schema {
	for part := range strings.SplitSeq(key, ".") {
		if s.Items != nil {
			s = s.Items
		}
		p, ok := s.Properties[part]
		if !ok {
			panic("mcpserver: input schema has no property " + key)
		}
		s = p
	}
	return s
}

// strLen bounds a string's length in characters; lo 0 sets no lower bound.
func strLen(lo, hi int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.MaxLength = &hi
		if lo > 0 {
			s.MinLength = &lo
		}
	}
}

// enum restricts a string to the values given.
func enum(values ...string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Enum = make([]any, len(values))
		for i, v := range values {
			s.Enum[i] = v
		}
	}
}

// withDefault documents the value used when a property is left out.
func withDefault(v any) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		data, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		s.Default = data
	}
}

// intRange bounds an integer.
func intRange(lo, hi int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		l, h := float64(lo), float64(hi)
		s.Minimum, s.Maximum = &l, &h
	}
}

// array makes a list property an array (not null) of lo to hi items.
func array(lo, hi int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Type, s.Types = "array", nil
		s.MinItems, s.MaxItems = &lo, &hi
	}
}

// eachItem applies f to the schema of an array's items.
func eachItem(f func(*jsonschema.Schema)) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { f(s.Items) }
}

// pattern restricts a string to a regular expression.
func pattern(re string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Pattern = re }
}

// all applies several changes to one property.
func all(fs ...func(*jsonschema.Schema)) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		for _, f := range fs {
			f(s)
		}
	}
}

// idLimits is the schema of a candidate id, as lifecycle makes them.
var idLimits = all(strLen(1, maxIDLen), pattern(`^[a-z0-9][a-z0-9-]*$`))

// nameLimits is the schema of a skill name.
var nameLimits = strLen(1, maxNameLen)

// kib renders a byte count for messages.
func kib(n int) string { return strconv.Itoa(n>>10) + " KiB" }
