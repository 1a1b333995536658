package gitstore

import (
	"strconv"
	"testing"
)

// BenchmarkWriteLoose measures storing one new small blob as a loose object on disk: a
// temporary file created, compressed into, registered for removal and linked into place.
func BenchmarkWriteLoose(b *testing.B) {
	r, err := Init(b.TempDir(), InitOptions{Bare: true})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	data := make([]byte, 0, 2100)
	i := 0
	for b.Loop() {
		i++
		data = strconv.AppendInt(append(data[:0], "---\nname: skill\ndescription: v"...), int64(i), 10)
		if _, err := r.Writes().WriteBlob(data); err != nil {
			b.Fatal(err)
		}
	}
}
