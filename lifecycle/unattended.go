package lifecycle

import "fmt"

// autoChannel says where the mode publishes a change on its own (DESIGN.md §3): in autonomous
// mode a low-risk patch goes to the publish branch and a low-risk new skill to canary only;
// nothing else is published without a person. It returns "" and the reason otherwise.
func autoChannel(mode Mode, risk string, change Change, fromPack bool) (string, string) {
	switch {
	case mode != ModeAutonomous:
		return "", fmt.Sprintf("the mode is %s, and only autonomous mode publishes without a person", mode)
	case change == ChangePolicy:
		return "", "it changes the repository's policy, which only people approve and publish"
	case fromPack:
		return "", "it comes from a skill pack, which people review"
	case risk != "low":
		return "", fmt.Sprintf("the audit rates it %s risk, and only low risk is published without a person", orUnknown(risk))
	case change == ChangeDelete:
		return "", "deletions are never published without a person"
	case change == ChangeCreate:
		return "canary", ""
	}
	return "main", ""
}

func orUnknown(risk string) string {
	if risk == "" {
		return "unknown"
	}
	return risk
}

// checkUnattended refuses a publish that an unattended caller asks for and the mode would not
// make on its own: the same rule the mode applies after a proposal, so an agent can publish no
// more than the policy lets run automatically.
func (r *Repo) checkUnattended(ch *chain, c *Candidate, target string, o ActOptions) error {
	if !o.Unattended {
		return nil
	}
	allowed, why := autoChannel(r.Config.Mode, c.Risk, c.Change, ch.propose().get(keyPack) != "")
	if allowed == "canary" && target != canaryRef {
		why = "it is a new skill, which the mode publishes to the canary channel only"
	}
	why = orDuplicate(why, c)
	if why == "" {
		return nil
	}
	return fmt.Errorf("%s: %w: an agent cannot publish it: %s; a person must review it (`skillgit review %s`) and publish it (`skillgit approve %s`, then `skillgit publish %s`)",
		c.ID, ErrRefused, why, c.ID, c.ID, c.ID)
}

// checkUnattendedRollback refuses a rollback that an unattended caller asks for and the mode
// would not publish on its own: a rollback publishes the version it restores, so it gets the
// same rule as a publish. Restoring an earlier version is a patch, removing a skill its
// publish created is a deletion, and bringing back a skill its publish deleted is a new skill.
func (r *Repo) checkUnattendedRollback(changes []folderChange, res *Result, o ActOptions) error {
	if !o.Unattended {
		return nil
	}
	for _, f := range changes {
		change, risk := ChangePatch, res.Risk
		switch {
		case f.base.IsZero():
			change, risk = ChangeDelete, "low" // nothing is restored, so nothing is rated
		case f.head.IsZero():
			change = ChangeCreate
		}
		allowed, why := autoChannel(r.Config.Mode, risk, change, false)
		if allowed == "canary" {
			why = "it would bring back a deleted skill, which the mode publishes to the canary channel only"
		}
		if why != "" {
			return fmt.Errorf("%s: %w: an agent cannot roll it back: %s; a person must do it (`skillgit rollback %s`)",
				f.name(), ErrRefused, why, f.name())
		}
	}
	return nil
}
