// Package auditrun runs the security audit of a skill repository for the lifecycle, the git
// hooks, sync and the audit command, and keeps its caches. It decides what to audit (folders
// on disk, the skills of a commit or of a range, what a commit stages or a push brings),
// reads the policy each audit runs under from the version compared with, never from the
// change, and audits the skill folders in parallel, caching results by tree id.
//
// It reads git through gitstore and knows nothing of the actions that use it: what it needs
// of the repository's history, such as the findings approvals accepted, it is given.
package auditrun
