// Package ledger is the one reading of a skill repository's history: from the publish
// branch's first-parent line and the candidate branches it derives what happened (which
// commit published which candidate, which rollback undid which publish and restored what that
// publish replaced) and never copies what a commit message claims. The Skillgit-* trailers a
// commit carries are claims: the ledger is the only code that parses them, and a step whose
// claims do not match what it derives is not a publish or a rollback.
//
// The ledger only reads: git objects, history and refs, through the narrow Store and
// Reader interfaces.
package ledger
