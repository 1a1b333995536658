package catalog

// PathPolicyVersion names the verdicts of the path policy: it changes whenever a name or path
// that passed would be refused, or the other way round. A record that a folder passed the
// policy, such as the pass cache of a sync, is trusted only under the version it was made
// with. A test holds the verdicts on a fixed set of names to a digest recorded for this
// version, so that a change to the policy cannot land without a new version.
const PathPolicyVersion = 1
