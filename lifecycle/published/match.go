package published

import "github.com/skillgit/skillgit/catalog"

// Match ranks the published skills for a task: hinted skills first, then by the relevance of
// their names and descriptions (catalog.Matcher). The index is built once per channel, so a
// long-running caller that matches again after the publish branch moved pays only for what
// changed.
func (c *Channel) Match(task string, o catalog.MatchOptions) (*catalog.MatchResult, error) {
	m, err := c.index()
	if err != nil {
		return nil, err
	}
	return m.Match(task, o), nil
}

// index is the matcher over the channel's skills, built on first use.
func (c *Channel) index() (*catalog.Matcher, error) {
	if c.matcher != nil {
		return c.matcher, nil
	}
	res, err := c.List()
	if err != nil {
		return nil, err
	}
	c.matcher = catalog.NewMatcher(res.Skills)
	return c.matcher, nil
}
