package lifecycle

// IsCommitID reports whether s is a full hexadecimal SHA-1 object id.
func IsCommitID(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
