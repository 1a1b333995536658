package hooks

import "slices"

// Status reports the hooks folder of the repository and the state of each hook skillgit
// installs there, and of any other hook of skillgit's found there.
func Status(o Options) (*Report, error) {
	rep, names, err := survey(o)
	if err != nil {
		return nil, err
	}
	for _, name := range known {
		h, err := inspect(rep.Dir, name)
		if err != nil {
			return rep, err
		}
		if slices.Contains(names, name) || h.State == StateInstalled || h.State == StateChained {
			rep.Hooks = append(rep.Hooks, h)
		}
	}
	return rep, nil
}
