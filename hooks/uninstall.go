package hooks

import (
	"fmt"
	"os"
	"slices"
)

// Uninstall removes skillgit's shims from the repository's hooks folder and puts back each
// hook they had chained, as it was. A hook that is not skillgit's is never touched.
// Uninstalling again changes nothing. The hooks are then declined, as Decline records.
func Uninstall(o Options) (*Report, error) {
	rep, names, err := survey(o)
	if err != nil {
		return nil, err
	}
	for _, name := range known {
		h, err := inspect(rep.Dir, name)
		if err != nil {
			return rep, err
		}
		if h.State == StateAbsent && h.Chained == "" && !slices.Contains(names, name) {
			continue
		}
		if err := uninstallOne(&h); err != nil {
			return rep, err
		}
		if h.State == StateForeign && h.Chained != "" {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf(
				"warning: %s is not skillgit's hook and was left alone; %s, the hook skillgit had kept aside, is still there",
				h.Path, h.Chained))
		}
		rep.Hooks = append(rep.Hooks, h)
	}
	if err := decline(rep.commonDir, "hooks uninstalled by `skillgit hooks uninstall`"); err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("warning: %v; skillgit may remind you once that the hooks are missing", err))
	}
	return rep, nil
}

// uninstallOne removes the shim h, or puts back the hook it chained.
func uninstallOne(h *Hook) error {
	h.Change = ChangeNone
	if h.State == StateForeign {
		return nil
	}
	if h.Chained != "" {
		if err := os.Rename(h.Chained, h.Path); err != nil {
			return fmt.Errorf("%s: putting back the hook kept as %s: %w", h.Path, h.Chained, err)
		}
		h.State, h.Chained, h.Change = StateForeign, "", ChangeRestored
		return nil
	}
	if h.State == StateAbsent {
		return nil
	}
	if err := os.Remove(h.Path); err != nil {
		return fmt.Errorf("%s: removing the hook: %w", h.Path, err)
	}
	h.State, h.Change = StateAbsent, ChangeRemoved
	return nil
}
