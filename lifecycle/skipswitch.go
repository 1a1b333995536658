package lifecycle

// riskAtPublish is the risk the approval policy weighs when publishing: the verdict of the
// audit just run on what is published. With the skip switch on there is no such verdict, and
// the risk recorded when the candidate was proposed is stale: it neither blocks nor lets a
// policy approval stand in for a person. The risk is then "unknown", which needs the
// approvals by people that the configuration requires, as in manual mode.
func riskAtPublish(res *Result) string {
	if res.Audit == auditSkipped {
		return riskUnknown
	}
	return res.Risk
}

// auditSkipped and riskUnknown are the Skillgit-Audit and Skillgit-Risk values of an action
// that ran with the skip switch on.
const (
	auditSkipped = "skipped"
	riskUnknown  = "unknown"
)
