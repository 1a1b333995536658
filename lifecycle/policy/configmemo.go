package policy

import (
	"reflect"
	"sync"
)

// memoEntries bounds the configurations kept parsed: a batch reads one .skillgit.yaml, or a
// few while a policy change is on its way.
const memoEntries = 8

// parsed keeps the configurations parsed last, by their bytes. A batch of thousands of
// actions reads the same .skillgit.yaml several times for each, and parsing it was most of
// what reading it cost. Each caller gets its own copy, so that none sees another's changes.
var parsed configMemo

type configMemo struct {
	mu   sync.Mutex
	byID map[string]*Config
}

// get returns a copy of the configuration parsed from data, if it is kept.
func (m *configMemo) get(data []byte) (*Config, bool) {
	m.mu.Lock()
	c, ok := m.byID[string(data)]
	m.mu.Unlock()
	if !ok {
		return nil, false
	}
	return cloneConfig(c), true
}

// put keeps a copy of c, parsed from data, forgetting every other once memoEntries are kept.
func (m *configMemo) put(data []byte, c *Config) {
	kept := cloneConfig(c)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byID == nil || len(m.byID) >= memoEntries {
		m.byID = map[string]*Config{}
	}
	m.byID[string(data)] = kept
}

// cloneConfig returns a copy of c that shares no memory with it.
func cloneConfig(c *Config) *Config {
	out := new(Config)
	copyDeep(reflect.ValueOf(out).Elem(), reflect.ValueOf(c).Elem())
	return out
}

// copyDeep sets dst to a copy of src that shares no memory with it: pointers, slices, maps
// and interfaces are followed and copied. A struct is copied whole first, so that a field
// reflection cannot set (an unexported one) is copied as it is; the configuration has none
// that holds memory (TestConfigHasOnlyExportedFields).
func copyDeep(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if !src.IsNil() {
			p := reflect.New(src.Type().Elem())
			copyDeep(p.Elem(), src.Elem())
			dst.Set(p)
		}
	case reflect.Struct:
		dst.Set(src)
		for i := range src.NumField() {
			if dst.Field(i).CanSet() {
				copyDeep(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if !src.IsNil() {
			s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
			for i := range src.Len() {
				copyDeep(s.Index(i), src.Index(i))
			}
			dst.Set(s)
		}
	case reflect.Map:
		if !src.IsNil() {
			m := reflect.MakeMapWithSize(src.Type(), src.Len())
			for it := src.MapRange(); it.Next(); {
				v := reflect.New(src.Type().Elem()).Elem()
				copyDeep(v, it.Value())
				m.SetMapIndex(it.Key(), v)
			}
			dst.Set(m)
		}
	case reflect.Interface:
		if !src.IsNil() {
			v := reflect.New(src.Elem().Type()).Elem()
			copyDeep(v, src.Elem())
			dst.Set(v)
		}
	default:
		dst.Set(src)
	}
}
