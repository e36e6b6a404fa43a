package demo

import (
	"context"
	"fmt"

	"tenfour/internal/auth"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
)

// The demo's SIP accounts (docs/sip.md, the README's demo contract): Demo Fleet's desk phones 10000180…10000187 in
// Operations and its radio gateways 10000188…10000189 in Logistics, password 123456, kind sip — a softphone or the
// simulator's SIP phone registers with them at serve --demo's SIP address (127.0.0.1:5060).
const FirstSIPAccount, LastSIPAccount = 10000180, 10000189

// sipAccount is a demo SIP account: a desk phone (terminal type 0) or a radio gateway (type 8).
type sipAccount struct {
	id            int
	name, typ, in string
}

// sipAccounts are the demo's SIP accounts, the last two gateways.
func sipAccounts() []sipAccount {
	var out []sipAccount
	for id := FirstSIPAccount; id <= LastSIPAccount; id++ {
		a := sipAccount{id: id, name: fmt.Sprintf("Desk phone %d", id%1000), typ: "0", in: "Operations"}
		if id >= LastSIPAccount-1 {
			a = sipAccount{id: id, name: fmt.Sprintf("Radio gateway %d", id%1000), typ: "8", in: "Logistics"}
		}
		out = append(out, a)
	}
	return out
}

// seedSIP creates Demo Fleet's SIP accounts through auth, which keeps their digest credential beside the password
// (each is hashed on its own: ten of them, once per demo database).
func seedSIP(ctx context.Context, d *db.DB, customer int64) error {
	for _, a := range sipAccounts() {
		err := auth.CreateAccount(ctx, d, auth.NewAccount{CustomerID: customer, ID: fmt.Sprint(a.id), Name: a.name,
			Type: a.typ, Password: Password, Group: a.in, Kind: directory.KindSIP})
		if err != nil {
			return fmt.Errorf("SIP account %d: %w", a.id, err)
		}
	}
	return nil
}

// SIPPhone is a demo SIP account the demo's simulator runs (internal/sim RunSIPTalkers): its id, and whether it
// is a radio gateway (which talks by voice activity) rather than a desk phone (which presses * and #).
type SIPPhone struct {
	ID      string
	Gateway bool
}

// SimulatedSIPPhones are the demo SIP accounts serve --demo's simulator keeps registered and talking now and then:
// the first desk phone (Operations) and the first radio gateway (Logistics). The other eight are left to
// softphones and people.
func SimulatedSIPPhones() []SIPPhone {
	return []SIPPhone{{ID: fmt.Sprint(FirstSIPAccount)}, {ID: fmt.Sprint(LastSIPAccount - 1), Gateway: true}}
}
