package lifecycle

import (
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// keyManagedBy marks the propose and publish commits of a skill an unattended actor created.
const keyManagedBy = ledger.KeyManagedBy
