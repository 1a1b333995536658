// Package layering holds the test that keeps the packages pointing one way: commands over
// the lifecycle's packages, those over the lifecycle, and the lifecycle over git, the agent
// folders, the catalog and the audit, which know nothing of git.
package layering
