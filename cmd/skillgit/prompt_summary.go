package main

// eventCounts counts what the events of one prompt reported, as they are emitted, for the
// summary event that ends the stream.
type eventCounts struct {
	discovered, selected, loadFailed, truncated int
}

// summaryEvent ends the events of `skillgit prompt --events`.
type summaryEvent struct {
	Type       string `json:"type"` // summary
	Discovered int    `json:"discovered"`
	Selected   int    `json:"selected"`
	LoadFailed int    `json:"load_failed"`
	Truncated  int    `json:"truncated"`
}

// count adds one emitted event to the counts; c may be nil.
func (c *eventCounts) count(v any) {
	if c == nil {
		return
	}
	switch e := v.(type) {
	case discoveredEvent:
		c.discovered += e.Count
	case selectedEvent:
		c.selected += len(e.Names)
	case loadFailedEvent:
		c.loadFailed++
	case truncatedEvent:
		c.truncated++
	}
}

// summary emits the summary event of what has been emitted so far.
func (e eventWriter) summary() {
	c := e.counts
	if c == nil {
		c = &eventCounts{}
	}
	e.emit(summaryEvent{Type: "summary", Discovered: c.discovered, Selected: c.selected,
		LoadFailed: c.loadFailed, Truncated: c.truncated})
}
