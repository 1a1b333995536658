//go:build !linux

package doctor

// openers cannot tell, on this system, which processes have a file open.
func openers(string) ([]int, bool) { return nil, false }

// gitsIn cannot tell, on this system, which git processes run where.
func gitsIn([]string) []int { return nil }
