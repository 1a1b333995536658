package catalog

import (
	"errors"
	"fmt"
)

// unreadableObject is what an error from a file system backed by git holds
// when an object the tree names cannot be read: missing or damaged.
type unreadableObject interface{ ObjectID() string }

// objectID returns the id of the git object err says cannot be read, or ""
// when err is about something else.
func objectID(err error) string {
	var u unreadableObject
	if errors.As(err, &u) {
		return u.ObjectID()
	}
	return ""
}

// objectMessage describes git object id, which cannot be read because of err.
func objectMessage(id string, err error) string {
	return fmt.Sprintf("git object %s cannot be read (%v); the repository is damaged, not the skill: run `git fsck` to find the damage and restore the object (such as by fetching from another clone)", id, err)
}

// unreadable describes a SKILL.md that cannot be read because of err.
func unreadable(err error) string {
	if id := objectID(err); id != "" {
		return objectMessage(id, err)
	}
	return "file cannot be read (" + err.Error() + "); check that it is a readable regular file"
}

// unreadable reports that c's SKILL.md cannot be read because of err.
func (c *checker) unreadable(err error) {
	c.report(fatal, 0, "%s", unreadable(err))
	if id := objectID(err); id != "" && len(c.problems) > 0 {
		c.problems[len(c.problems)-1].Object = id
	}
}

// unreadableProblem is the error that file cannot be read because of err.
func unreadableProblem(file string, err error) Problem {
	return Problem{File: file, Message: unreadable(err), Object: objectID(err)}
}

// unreadableFolder is the error that folder dir cannot be listed because of err.
func unreadableFolder(dir string, err error) Problem {
	if id := objectID(err); id != "" {
		return Problem{File: dir, Message: objectMessage(id, err), Object: id}
	}
	return Problem{File: dir, Message: "folder cannot be read (" + err.Error() + "); skills in it are not found, so check that it is readable"}
}

// Unreadable returns the problems that are git objects which could not be
// read: damage to the repository rather than to a skill.
func (r *Result) Unreadable() []Problem {
	var out []Problem
	for _, p := range r.Problems {
		if p.Object != "" {
			out = append(out, p)
		}
	}
	return out
}
