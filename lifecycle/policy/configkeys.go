package policy

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// configSchema is the type whose yaml tags list the keys .skillgit.yaml may hold.
var configSchema = reflect.TypeOf(Config{})

// checkKeys reports the first key in n that the type t does not declare, with its line.
func checkKeys(n *yaml.Node, t reflect.Type, where string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case n.Kind == yaml.AliasNode:
		return fmt.Errorf("%s:%d: aliases are not allowed in the configuration", ConfigFile, n.Line)
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		return checkStructKeys(n, t, where)
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			if err := checkKeys(item, t.Elem(), fmt.Sprintf("%s[%d]", where, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkStructKeys(n *yaml.Node, t reflect.Type, where string) error {
	fields := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		fields[tag] = t.Field(i).Type
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		ft, ok := fields[k.Value]
		if !ok {
			return unknownKey(k, where, fields)
		}
		if err := checkKeys(v, ft, joinKey(where, k.Value)); err != nil {
			return err
		}
	}
	return nil
}

func unknownKey(k *yaml.Node, where string, fields map[string]reflect.Type) error {
	known := make([]string, 0, len(fields))
	for f := range fields {
		known = append(known, f)
	}
	sort.Strings(known)
	in := ""
	if where != "" {
		in = " in " + where
	}
	return fmt.Errorf("%s:%d: unknown key %q%s; known keys: %s", ConfigFile, k.Line, k.Value, in, strings.Join(known, ", "))
}

func joinKey(where, k string) string {
	if where == "" {
		return k
	}
	return where + "." + k
}
