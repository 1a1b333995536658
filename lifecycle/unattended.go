package lifecycle

import (
	"fmt"

	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// autoChannel says where the mode publishes a change on its own (DESIGN.md §3): in autonomous
// mode a low-risk patch goes to the publish branch and a low-risk new skill to canary only;
// nothing else is published without a person. It returns "" and the reason otherwise.
func autoChannel(mode policy.Mode, risk string, change Change, fromPack bool) (string, string) {
	switch {
	case mode != policy.ModeAutonomous:
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

// managedByOf is the Skillgit-Managed-By trailer of a propose: skillgit when an unattended
// actor proposes a new skill that comes from no pack, which puts the skill in the agents'
// scope.
func managedByOf(change Change, o ProposeOptions) string {
	if o.Unattended && change == ChangeCreate && o.Pack == "" {
		return policy.ManagedBy
	}
	return ""
}

// checkUnattended refuses a publish of c that an unattended caller asks for and the mode would
// not make on its own: the same rule the mode applies after a proposal, so an agent can
// publish no more than the policy lets run automatically, and only skills in the agents'
// scope.
func (p *publication) checkUnattended(c *Candidate) error {
	if !p.o.Unattended {
		return nil
	}
	r := p.t.r
	fromPack := p.ch.Propose().Claims.Get(keyPack) != ""
	allowed, why := autoChannel(r.cfg.Mode, c.Risk, c.Change, fromPack)
	if allowed == "canary" && p.target != canaryRef {
		why = "it is a new skill, which the mode publishes to the canary channel only"
	}
	why = orDuplicate(why, c)
	if why == "" && c.Change != ChangePolicy {
		if why = r.book().OutOfScopeWhy(c.Skill, c.Change, c.ManagedBy == policy.ManagedBy, fromPack); why != "" {
			return fmt.Errorf("%s: %w: an agent cannot publish it: %s (`skillgit review %s`, `skillgit approve %s`, then `skillgit publish %s`)",
				c.ID, ErrRefused, why, c.ID, c.ID, c.ID)
		}
	}
	if why == "" {
		return nil
	}
	return fmt.Errorf("%s: %w: an agent cannot publish it: %s; a person must review it (`skillgit review %s`) and publish it (`skillgit approve %s`, then `skillgit publish %s`)",
		c.ID, ErrRefused, why, c.ID, c.ID, c.ID)
}

// checkUnattendedRollback refuses a rollback that an unattended caller asks for and the mode
// would not publish on its own, or of a skill outside the agents' scope: a rollback publishes
// the version it restores, so it gets the same rule as a publish. Restoring an earlier version
// is a patch, removing a skill its publish created is a deletion, and bringing back a skill
// its publish deleted is a new skill.
func (rb *rollback) checkUnattended(changes []skilltree.Change, res *Result) error {
	if !rb.o.Unattended {
		return nil
	}
	r := rb.t.r
	for _, f := range changes {
		if why := r.book().RollbackOutOfScopeWhy(f.Name(), f.Head, f.Base); why != "" {
			return fmt.Errorf("%s: %w: an agent cannot roll it back: %s; a person must do it (`skillgit rollback %s`)",
				f.Name(), ErrRefused, why, f.Name())
		}
		change, risk := ChangePatch, res.Risk
		switch {
		case f.Base.IsZero():
			change, risk = ChangeDelete, "low" // nothing is restored, so nothing is rated
		case f.Head.IsZero():
			change = ChangeCreate
		}
		allowed, why := autoChannel(r.cfg.Mode, risk, change, false)
		if allowed == "canary" {
			why = "it would bring back a deleted skill, which the mode publishes to the canary channel only"
		}
		if why != "" {
			return fmt.Errorf("%s: %w: an agent cannot roll it back: %s; a person must do it (`skillgit rollback %s`)",
				f.Name(), ErrRefused, why, f.Name())
		}
	}
	return nil
}

// leaveToPeople says why the mode must not act on its own on a proposal or revision an
// unattended actor made, or "" when it may: the skill is outside the agents' scope. A new
// skill is in it when its propose commit marks it managed, so an agent's revision of a
// person's new skill waits for a person too.
func (a *automation) leaveToPeople() string {
	r, res := a.r, a.res
	if !a.o.Unattended {
		return ""
	}
	managed := false
	if res.Change == ChangeCreate {
		c, err := r.book().Candidate(res.ID)
		managed = err == nil && c.ManagedBy == policy.ManagedBy
	}
	return r.book().OutOfScopeWhy(res.Skill, res.Change, managed, false)
}
