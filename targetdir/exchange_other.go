//go:build !linux

package targetdir

import (
	"errors"
	"os"
)

// exchange is not available here; the caller renames the old entry aside instead.
func exchange(*os.Root, string, string) error { return errors.ErrUnsupported }
