package main

import "github.com/spf13/cobra"

// commandGroups are the headings of `skillgit --help`, in the order they are shown.
var commandGroups = []*cobra.Group{
	{ID: "start", Title: "Getting started:"},
	{ID: "skills", Title: "Skills:"},
	{ID: "lifecycle", Title: "Lifecycle of a change:"},
	{ID: "audit", Title: "Audit:"},
	{ID: "sync", Title: "Sync and packs:"},
	{ID: "hooks", Title: "Git hooks:"},
	{ID: "agents", Title: "Agents:"},
	{ID: "repair", Title: "Repair:"},
}

// commandGroup places each top-level command under a heading of commandGroups. A command
// missing here is listed under "Additional Commands", as help and completion are.
var commandGroup = map[string]string{
	"init": "start", "version": "start",

	"list": "skills", "read": "skills", "show": "skills", "match": "skills",
	"prompt": "skills", "new": "skills", "validate": "skills",

	"propose": "lifecycle", "revise": "lifecycle", "review": "lifecycle", "approve": "lifecycle",
	"reject": "lifecycle", "merge-candidate": "lifecycle", "publish": "lifecycle", "rollback": "lifecycle", "rebase": "lifecycle",
	"candidates": "lifecycle", "log": "lifecycle", "mode": "lifecycle",

	"audit": "audit",

	"sync": "sync", "pack": "sync", "fetch": "sync", "push": "sync",

	"hooks": "hooks", "hook": "hooks",

	"mcp": "agents",

	"doctor": "repair",
}

// applyGroups adds the headings to root and puts each of its commands under one.
func applyGroups(root *cobra.Command) {
	root.AddGroup(commandGroups...)
	for _, c := range root.Commands() {
		if id, ok := commandGroup[c.Name()]; ok {
			c.GroupID = id
		}
	}
}
