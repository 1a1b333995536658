package packs

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"

	"github.com/skillgit/skillgit/catalog"

	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// Preview is what a pack source holds, as `pack update` would sort it out.
type Preview struct {
	URL    string `json:"url"`
	Ref    string `json:"ref"`
	Path   string `json:"path,omitempty"`
	Commit string `json:"commit"`
	// Skills are the pack's skills, by name as they would be stored.
	Skills []PreviewSkill `json:"skills"`
}

// PreviewSkill is one skill of a previewed pack.
type PreviewSkill struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Status is "ok", "lenient" (admitted only with lenient on), "not selected", or the
	// kind of a skipped skill: "invalid" or "unsafe".
	Status string `json:"status"`
	// Reason says why a skill is not "ok".
	Reason string `json:"reason,omitempty"`
	// Risk is the audit's rating of a skill that can be stored.
	Risk string `json:"risk,omitempty"`
}

// PreviewOptions say what to preview and how to audit it.
type PreviewOptions struct {
	// Pack holds the source (URL, as ParseSource reads it), ref, path, selection and prefix.
	Pack policy.Pack
	// Dir is where skillgit runs; a relative local path starts there.
	Dir string
	// Policy is the audit policy; nil means the defaults.
	Policy  *policy.AuditPolicy
	Context context.Context
	// Progress receives the remote's progress messages; nil keeps them quiet.
	Progress io.Writer
}

// PreviewSource fetches a pack source into a temporary repository, as `pack update` does, and reports its
// skills: name, description, whether they can be stored and why not, and the audit's risk.
// It writes nothing anywhere else, and removes that repository.
func PreviewSource(o PreviewOptions) (*Preview, error) {
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, err
	}
	src, err := ParseSource(o.Pack.URL, dir, dir)
	if err != nil {
		return nil, err
	}
	p, err := mergeSource(o.Pack, src)
	if err != nil {
		return nil, err
	}
	if p.Name == "" {
		p.Name = "preview"
	}
	p.Lenient = true // to tell what lenient admits from what nothing admits
	if err := policy.CheckPackSelection(p); err != nil {
		return nil, err
	}
	p.URL, err = normalizeURL(p.URL, dir)
	if err != nil {
		return nil, err
	}
	fp, sv, err := fetchSurvey(o.Context, p, o.Progress)
	if err != nil {
		return nil, err
	}
	defer fp.close()
	pv := &Preview{URL: p.URL, Ref: fp.ref, Path: p.Path, Commit: fp.commit.String(), Skills: []PreviewSkill{}}
	if err := previewSkills(fp, sv, o.Policy, pv); err != nil {
		return nil, err
	}
	sort.Slice(pv.Skills, func(i, j int) bool { return pv.Skills[i].Name < pv.Skills[j].Name })
	return pv, nil
}

func previewSkills(fp *fetchedPack, sv *survey, ap *policy.AuditPolicy, pv *Preview) error {
	if ap == nil {
		ap = policy.DefaultAuditPolicy()
	}
	items := make([]auditrun.Item, 0, len(sv.skills))
	for _, s := range sv.skills {
		items = append(items, auditrun.Item{Name: s.name, Path: s.file, Tree: s.want})
	}
	reports, err := (&auditrun.Auditor{Git: fp.repo, Policy: ap}).Run(items)
	if err != nil {
		return fmt.Errorf("auditing the pack: %w", err)
	}
	for i, s := range sv.skills {
		ps := PreviewSkill{Name: s.name, Description: describe(fp, s), Status: "ok", Risk: reports[i].Report.Risk.String()}
		if len(s.lenient) > 0 {
			ps.Status, ps.Reason = "lenient", s.lenient[0]
		}
		pv.Skills = append(pv.Skills, ps)
	}
	for _, s := range sv.skipped {
		pv.Skills = append(pv.Skills, PreviewSkill{Name: s.Skill, Status: s.Kind, Reason: s.Reason})
	}
	for n := range sv.notSelected {
		pv.Skills = append(pv.Skills, PreviewSkill{Name: n, Status: "not selected"})
	}
	return nil
}

// describe is the skill's description as its SKILL.md gives it.
func describe(fp *fetchedPack, s *packSkill) string {
	sk, _ := catalog.Load(s.src, s.dir, catalog.Lenient, true)
	if sk == nil {
		return ""
	}
	return sk.Description
}
