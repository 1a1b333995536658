//go:build !unix

package gitstore

import "os"

// mapReadOnly does not map where memory maps are not used.
func mapReadOnly(*os.File, int) ([]byte, bool) { return nil, false }
