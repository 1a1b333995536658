package auditrun

// ItemPolicy is itemPolicy, for the tests of the cache keys.
func (a *Auditor) ItemPolicy(it Item) string { return a.itemPolicy(it) }
