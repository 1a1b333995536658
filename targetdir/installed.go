package targetdir

import (
	"os"

	"github.com/skillgit/skillgit/internal/parallel"
)

// installed is what the plan found of one installed skill: the hash of the folder, or the
// error reading it.
type installed struct {
	hash string
	err  error
	// trusted says the stamps of the manifest matched, so nothing was hashed.
	trusted bool
	// stamps is the record of the stamps taken while hashing.
	stamps string
}

// checkInstalled finds, with the workers in parallel, the hash of every folder that the
// manifest lists, trusting the stamps of a folder where they all match and hashing it where
// not, and for the folders of the listing (which listed reports, once ready: the folders are
// inspected while it is read) records the hashes and fresh stamps of every folder found as
// written. A listed folder the listing does not hold is left out, as if never inspected.
func (p *Folder) checkInstalled(listed func() (map[string]bool, error)) (map[string]bool, error) {
	names := make([]string, 0, len(p.man.Skills))
	for name := range p.man.Skills {
		names = append(names, name)
	}
	if p.root != nil {
		if check, err := newStampChecker(p.root); err == nil {
			p.check = check
		}
	}
	found := p.inspectAll(names)
	listing, err := listed()
	if err != nil {
		return nil, err
	}
	p.installed = make(map[string]installed, len(names))
	p.fresh = make(map[string]bool, len(names))
	for i, name := range names {
		if _, ok := listing[name]; ok {
			p.installed[name] = found[i]
			p.restamp(name, found[i])
		}
	}
	return listing, nil
}

// inspectAll inspects the installed folders of names, with the workers in parallel.
func (p *Folder) inspectAll(names []string) []installed {
	found := make([]installed, len(names))
	if len(names) == 0 {
		return found
	}
	check := p.check
	parallel.For(len(names), p.workers(), func(i int) {
		found[i] = inspectInstalled(p.root, check, names[i], p.man.Skills[names[i]], p.man.ref)
	})
	return found
}

// inspectInstalled returns the hash of installed folder name whose manifest entry is m: the
// written hash when check finds that every stamp of m matches and none is racy against ref,
// else the hash of its content, with fresh stamps. A nil check trusts nothing.
func inspectInstalled(root *os.Root, check *stampChecker, name string, m manifestEntry, ref int64) installed {
	if m.Written != pendingHash && m.Stat != "" && check != nil && check.trust(name, m.Stat, ref) {
		return installed{hash: m.Written, trusted: true}
	}
	sw := newStampWalk()
	got, err := hashInstalledStamps(root, name, sw)
	return installed{hash: got, err: err, stamps: sw.result()}
}

// restamp keeps the stamps of a folder just hashed in its manifest entry when the folder
// holds what was written; the manifest is then written, unless they are the stamps it has.
// A folder whose stamps were trusted keeps them.
func (p *Folder) restamp(name string, found installed) {
	m := p.man.Skills[name]
	switch {
	case found.trusted:
		p.fresh[name] = true
		return
	case found.err != nil || m.Written == pendingHash || found.hash != m.Written || found.stamps == "":
		return
	}
	p.fresh[name] = true
	if found.stamps != m.Stat {
		m.Stat = found.stamps
		p.man.Skills[name] = m
		p.restamped = true
	}
}

// installedHash is the hash of installed folder name, as checkInstalled found it.
func (p *Folder) installedHash(name string) (string, error) {
	if found, ok := p.installed[name]; ok {
		return found.hash, found.err
	}
	return hashInstalled(p.root, name)
}

// smudge drops, before the manifest is written, the stamps of every entry that this sync
// neither checked nor wrote and that are racy against the manifest read: a later manifest
// would make them look settled, and a change made in their last tick would go unseen.
func (p *Folder) smudge() {
	for name, m := range p.man.Skills {
		if m.Stat != "" && !p.fresh[name] && stampsRacy(m.Stat, p.man.ref) {
			m.Stat = ""
			p.man.Skills[name] = m
		}
	}
}

// fastWriter is the checker that writes skill folders straight into the target folder
// when w is the real writer of that folder; nil otherwise, and then w writes them.
func (p *Folder) fastWriter(w Writer) *stampChecker {
	if _, real := w.(rootWriter); !real {
		return nil
	}
	return p.check
}
