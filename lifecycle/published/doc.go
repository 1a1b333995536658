// Package published is the read side of a skill repository: the skills a channel publishes at
// one commit (listed, found by name, read, matched to a task, chosen for a prompt, grouped by
// profile, traced to the pack they came from, compared for likely duplicates), the read-only
// copies agents read them from, and the skills installed in agents' folders. It reads git and
// the configuration, and never changes a branch.
package published
