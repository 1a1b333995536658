package plan

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxSize is the largest plan Read accepts, in bytes.
const MaxSize = 4 << 20

// ErrTooLarge reports a plan larger than MaxSize.
var ErrTooLarge = errors.New("larger than the 4 MiB limit")

// Read reads the plan at path, refusing a file larger than MaxSize without reading it whole.
// Errors name the path.
func Read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return nil, fmt.Errorf("plan %s: %w", path, pe.Err)
	}
	if err != nil {
		return nil, fmt.Errorf("plan %s: %w", path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("plan %s: is a folder; give a Markdown file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("plan %s: %w", path, err)
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("plan %s: %w (%d bytes); split the plan", path, ErrTooLarge, MaxSize)
	}
	return data, nil
}
