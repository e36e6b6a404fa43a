package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	sipside "tenfour/internal/sip"
)

// adminSIPTalk is `tenfour admin sip-talk`: how a SIP account asks for the floor (docs/sip.md "Talk keys and
// voice"), shown, or set with --talk.
var adminSIPTalk = customerCommand("sip-talk", []string{"uid"}, func(fs *flag.FlagSet) customerRun {
	uid := fs.String("uid", "", "the SIP account (8 digits)")
	talk := fs.String("talk", "", "auto (keys when the phone offers them, else voice activity), keys, or voice (voice activity only); empty: show it")
	return func(ctx context.Context, store *db.DB, id int64, customer string) error {
		dir := directory.NewStore(store)
		if *talk != "" {
			if err := dir.SetSIPTalk(ctx, id, *uid, *talk); err != nil {
				return sipAccountErr(err, *uid, customer)
			}
		}
		now, err := dir.SIPTalk(ctx, id, *uid)
		if err != nil {
			return sipAccountErr(err, *uid, customer)
		}
		fmt.Printf("SIP account %s talks: %s (its next call)\n", *uid, now)
		return nil
	}
})

// sipAccountErr names a missing SIP account.
func sipAccountErr(err error, uid, customer string) error {
	if errors.Is(err, db.ErrNotFound) {
		return fmt.Errorf("--uid %s: not a SIP account of customer %q", uid, customer)
	}
	return err
}

// adminSIPTrunk is `tenfour admin sip-trunk add|list|remove` (docs/sip.md "Trunks").
func adminSIPTrunk(ctx context.Context, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "add":
			return adminSIPTrunkAdd(ctx, args[1:])
		case "list":
			return adminSIPTrunkList(ctx, args[1:])
		case "remove":
			return adminSIPTrunkRemove(ctx, args[1:])
		}
	}
	return errors.New("sip-trunk add|list|remove (tenfour admin help)")
}

// numberFlags are --number's, repeated: NUMBER=group:GID or NUMBER=dispatcher:ID.
type numberFlags []sipside.TrunkNumber

func (n *numberFlags) String() string { return fmt.Sprint(len(*n)) }

func (n *numberFlags) Set(v string) error {
	num, err := sipside.ParseTrunkNumber(v)
	if err == nil {
		*n = append(*n, num)
	}
	return err
}

var adminSIPTrunkAdd = customerCommand("sip-trunk add", []string{"name", "registrar", "user", "password", "account"}, func(fs *flag.FlagSet) customerRun {
	var t sipside.TrunkConfig
	var numbers numberFlags
	fs.StringVar(&t.Name, "name", "", "the trunk's name (unique in the customer)")
	fs.StringVar(&t.Registrar, "registrar", "", "HOST[:PORT] of the PBX or provider tenfour registers to (UDP; port 5060 when left out)")
	fs.StringVar(&t.Username, "user", "", "the user name tenfour registers as")
	fs.StringVar(&t.Password, "password", "", "its digest password")
	fs.StringVar(&t.Proxy, "outbound-proxy", "", "HOST[:PORT] every request of the trunk goes through (empty: none)")
	fs.StringVar(&t.AccountID, "account", "", "the SIP account (8 digits) that carries the trunk's calls: a member of the groups its numbers land in")
	fs.Var(&numbers, "number", "NUMBER=group:GID or NUMBER=dispatcher:ID, where a call from the trunk to NUMBER lands (repeat the flag)")
	return func(ctx context.Context, store *db.DB, id int64, customer string) error {
		dir := directory.NewStore(store)
		if _, err := dir.Account(ctx, directory.CustomerID(id), directory.TerminalID(t.AccountID)); err != nil {
			return fmt.Errorf("--account %s: not an account of customer %q", t.AccountID, customer)
		}
		for _, n := range numbers {
			if n.Group > 0 {
				if member, err := dir.IsMember(ctx, id, n.Group, t.AccountID); err != nil || !member {
					return fmt.Errorf("--number %s: account %s is not a member of group %d of customer %q", n.Number, t.AccountID, n.Group, customer)
				}
			} else if a, err := dir.Account(ctx, directory.CustomerID(id), directory.TerminalID(n.Dispatcher)); err != nil || !a.Dispatcher() {
				return fmt.Errorf("--number %s: %s is not a dispatcher of customer %q", n.Number, n.Dispatcher, customer)
			}
		}
		t.CustomerID, t.Numbers = id, numbers
		if _, err := sipside.NewTrunkStore(store).Add(ctx, t); err != nil {
			return err
		}
		fmt.Printf("trunk %q of customer %q added: registers as %s at %s (at the next start of the SIP side)\n", t.Name, customer, t.Username, t.Registrar)
		return nil
	}
})

var adminSIPTrunkList = customerCommand("sip-trunk list", nil, func(fs *flag.FlagSet) customerRun {
	return func(ctx context.Context, store *db.DB, id int64, customer string) error {
		list, err := sipside.NewTrunkStore(store).List(ctx, id)
		if err != nil {
			return err
		}
		for _, t := range list {
			status := cmp.Or(t.Status, "not registered yet")
			if t.StatusAt > 0 {
				status += " (" + time.UnixMilli(t.StatusAt).UTC().Format(time.RFC3339) + ")"
			}
			var numbers []string
			for _, n := range t.Numbers {
				if n.Group > 0 {
					numbers = append(numbers, fmt.Sprintf("%s=group:%d", n.Number, n.Group))
				} else {
					numbers = append(numbers, n.Number+"=dispatcher:"+n.Dispatcher)
				}
			}
			fmt.Printf("%s\tregistrar %s\tuser %s\tproxy %s\taccount %s\tnumbers %s\t%s\n", t.Name, t.Registrar, t.Username,
				cmp.Or(t.Proxy, "-"), t.AccountID, cmp.Or(strings.Join(numbers, ","), "-"), status)
		}
		return nil
	}
})

var adminSIPTrunkRemove = customerCommand("sip-trunk remove", []string{"name"}, func(fs *flag.FlagSet) customerRun {
	name := fs.String("name", "", "the trunk's name")
	return func(ctx context.Context, store *db.DB, id int64, customer string) error {
		err := sipside.NewTrunkStore(store).Remove(ctx, id, *name)
		if errors.Is(err, db.ErrNotFound) {
			return fmt.Errorf("customer %q has no trunk %q", customer, *name)
		}
		if err == nil {
			fmt.Printf("trunk %q of customer %q removed\n", *name, customer)
		}
		return err
	}
})
