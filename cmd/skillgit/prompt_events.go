package main

import (
	"encoding/json"
	"io"
)

// eventWriter writes progress events as NDJSON, one object with a "type" field per line,
// when it is on; --events of prompt turns it on, with stderr as w.
type eventWriter struct {
	w      io.Writer
	on     bool
	counts *eventCounts
}

func (e eventWriter) emit(v any) {
	if !e.on {
		return
	}
	e.counts.count(v)
	line, err := json.Marshal(v)
	if err != nil {
		panic(err) // the event types are ours and always marshal
	}
	e.w.Write(append(line, '\n'))
}

// The events of `skillgit prompt --events`. Fields are added, never renamed.
type (
	discoveredEvent struct {
		Type  string `json:"type"` // skills_discovered
		Count int    `json:"count"`
	}
	selectedEvent struct {
		Type    string   `json:"type"` // skills_selected
		Names   []string `json:"names"`
		By      string   `json:"by"`
		Profile string   `json:"profile,omitempty"`
		Task    *string  `json:"task,omitempty"`
		Step    string   `json:"step,omitempty"`
	}
	loadFailedEvent struct {
		Type  string `json:"type"` // skill_load_failed
		Name  string `json:"name"`
		Error string `json:"error"`
	}
	truncatedEvent struct {
		Type     string `json:"type"` // skill_truncated
		Name     string `json:"name"`
		Chars    int    `json:"chars"`
		MaxChars int    `json:"max_chars"`
	}
	warningEvent struct {
		Type    string `json:"type"` // warning
		Message string `json:"message"`
	}
)
