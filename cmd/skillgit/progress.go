package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/skillgit/skillgit/internal/progress"
)

// progressDelay is how long a batch runs before its progress line shows, unless
// SKILLGIT_PROGRESS_DELAY says otherwise: a shorter batch stays silent.
const progressDelay = time.Second

// progressHelp is the part of the help of a command about the progress line of its batch,
// which subject names, such as "a batch", and label labels, such as "publishing candidates".
func progressHelp(subject, label string) string {
	return `On a terminal (stderr, without --json), ` + subject + ` that runs over
a second shows how far it has got, as git does ("` + label + `: 37/1000"),
ending with ", done.". SKILLGIT_PROGRESS_DELAY sets the wait, in seconds.`
}

// batchProgress is the progress line of a batch on stderr, such as "publishing candidates:
// 37/1000"; nil, which shows nothing, when stderr is not a terminal or with --json.
func (a *app) batchProgress(label string) *progress.Counter {
	if a.json || !isTerminal(a.Err) {
		return nil
	}
	return progress.New(a.Err, progress.Options{Label: label, Delay: delayFrom(getenv("SKILLGIT_PROGRESS_DELAY")), Terminal: true})
}

// delayFrom is the wait that SKILLGIT_PROGRESS_DELAY sets, in seconds as git's
// GIT_PROGRESS_DELAY; a value that is not a number of seconds up to a day is ignored.
func delayFrom(v string) time.Duration {
	secs, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(secs >= 0 && secs <= 86400) {
		return progressDelay
	}
	return time.Duration(secs * float64(time.Second))
}
