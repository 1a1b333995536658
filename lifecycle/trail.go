package lifecycle

import (
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// The trailer keys of lifecycle commits (DESIGN.md §2.4): the ledger's, which alone reads them.
const (
	keyAction      = ledger.KeyAction
	keySkill       = ledger.KeySkill
	keyCandidate   = ledger.KeyCandidate
	keyChange      = ledger.KeyChange
	keyPath        = ledger.KeyPath
	keyBase        = ledger.KeyBase
	keyRisk        = ledger.KeyRisk
	keyAudit       = ledger.KeyAudit
	keyPolicy      = ledger.KeyPolicy
	keyChannel     = ledger.KeyChannel
	keyMode        = ledger.KeyMode
	keyReverts     = ledger.KeyReverts
	keyVia         = ledger.KeyVia
	keyUnattended  = ledger.KeyUnattended
	keyAccept      = ledger.KeyAccept
	keyPack        = ledger.KeyPack
	keyLenient     = ledger.KeyLenient
	keyPublishedAs = ledger.KeyPublishedAs
	keyApproved    = ledger.KeyApproved
	keyRejected    = ledger.KeyRejected
)

// The actions lifecycle commits record.
const (
	actPropose  = ledger.ActPropose
	actRevise   = ledger.ActRevise
	actApprove  = ledger.ActApprove
	actReject   = ledger.ActReject
	actPublish  = ledger.ActPublish
	actRollback = ledger.ActRollback
	actRebase   = ledger.ActRebase
	actMode     = ledger.ActMode
	actSync     = ledger.ActSync
)

// trailerList builds trailers in order, skipping empty values.
type trailerList []gitstore.Trailer

func (ts trailerList) add(key, value string) trailerList {
	if value == "" {
		return ts
	}
	return append(ts, gitstore.Trailer{Key: key, Value: value})
}

// message renders a commit message with the trailers, adding Skillgit-Via when set and
// Skillgit-Unattended when no person is behind the action.
func (ts trailerList) message(subject, body string, o ActOptions) string {
	ts = ts.add(keyVia, o.Via)
	if o.Unattended {
		ts = ts.add(keyUnattended, "true")
	}
	return gitstore.FormatMessage(subject, body, ts)
}

// readCommit reads commit h with its claims.
func (r *Repo) readCommit(h gitstore.Hash) (ledger.Commit, error) {
	return ledger.ReadCommit(ledger.StoreOf(r.git), h)
}
