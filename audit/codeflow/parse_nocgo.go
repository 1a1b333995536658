//go:build !cgo

package codeflow

const available = false

func parse(Lang, []byte) (*node, error) { return nil, ErrUnavailable }
