//go:build !linux

package hugeheap

// Settle does nothing: the heap asks for no huge pages on this system.
func Settle() {}
