package gitauth

import (
	"fmt"
	"io"
	"os"
)

// maxCABundle bounds the certificate file GIT_SSL_CAINFO names.
const maxCABundle = 4 << 20

// caBundle reads the certificates of the file GIT_SSL_CAINFO names, which git trusts for
// HTTPS, so that go-git trusts them beside the system's; nil when the variable is not set.
func caBundle() ([]byte, error) {
	name := os.Getenv("GIT_SSL_CAINFO")
	if name == "" {
		return nil, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("GIT_SSL_CAINFO: %w; point it at a file of PEM certificates, or unset it", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCABundle+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("GIT_SSL_CAINFO: %w", err)
	case len(data) > maxCABundle:
		return nil, fmt.Errorf("GIT_SSL_CAINFO: %s is larger than %d MiB; point it at a file of PEM certificates", name, maxCABundle>>20)
	}
	return data, nil
}
