package broadcast

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"

	"tenfour/internal/auth"
	"tenfour/internal/platform/db"
)

// DemoOrgPassword is the password of the demo's speaker organisations (speakers send its md5).
const DemoOrgPassword = "123456"

// DemoSpeakersPerOrg is how many speakers each of the two demo organisations gets.
const DemoSpeakersPerOrg = 4

// SeedDemo writes the demo's broadcast data for a customer inside the demo's transaction: two organisations
// ("Building A" with a nested "Building A · Yard", "Building B") and DemoSpeakersPerOrg speakers in each of
// the first two, whose registration password is DemoOrgPassword. base numbers the codes (the customer's
// account base, e.g. 10000000).
func SeedDemo(ctx context.Context, tx *db.Tx, customerID int64, base int, now int64) error {
	hash, err := auth.CredentialHash(md5Hex(DemoOrgPassword))
	if err != nil {
		return err
	}
	org := func(parent int64, name, code, call string) (int64, error) {
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO bc_orgs (customer_id, parent_id, name, code, call_number, created_at)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, customerID, parent, name, code, call, now).Scan(&id); err != nil {
			return 0, err
		}
		// the speakers' password is auth's credential (one hash for every demo organisation)
		return id, auth.PutCredential(ctx, tx, auth.RealmSpeaker, orgLogin(id), customerID, hash, now)
	}
	orgs := []struct{ name, code string }{{"Building A", "bldg-a"}, {"Building B", "bldg-b"}}
	for i, o := range orgs {
		id, err := org(0, o.name, o.code, fmt.Sprint(base/1000+900+i))
		if err != nil {
			return err
		}
		for n := 1; n <= DemoSpeakersPerOrg; n++ {
			if _, err := tx.Exec(ctx, `INSERT INTO bc_devices (customer_id, org_id, name, code, ao_volume, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
				customerID, id, fmt.Sprintf("%s speaker %d", o.name, n), fmt.Sprintf("%s-%02d", o.code, n), DefaultVolume, now); err != nil {
				return err
			}
		}
		if i == 0 { // a nested organisation with no speakers of its own yet
			if _, err := org(id, o.name+" · Yard", o.code+"-yard", fmt.Sprint(base/1000+910)); err != nil {
				return err
			}
		}
	}
	return nil
}

func md5Hex(s string) string { h := md5.Sum([]byte(s)); return hex.EncodeToString(h[:]) }

// SpeakerLogin is what a simulated speaker registers with.
type SpeakerLogin struct {
	OrgID    int64
	Code     string
	Password string // md5 hex
}

// DemoSpeakers lists the demo's speakers (those of the organisations whose password is still DemoOrgPassword,
// as auth tells), for the in-process simulated speakers of `serve --demo`.
func (s *Service) DemoSpeakers(ctx context.Context) ([]SpeakerLogin, error) {
	if s.auth == nil {
		return nil, errNoAuth
	}
	type device struct {
		SpeakerLogin
		customerID int64
	}
	rows, err := s.db.Query(ctx, `SELECT d.org_id, d.code, d.customer_id FROM bc_devices d ORDER BY d.id`)
	list, err := db.Collect(rows, err, func(r db.Scanner) (device, error) {
		var l device
		return l, r.Scan(&l.OrgID, &l.Code, &l.customerID)
	})
	if err != nil {
		return nil, err
	}
	pw := md5Hex(DemoOrgPassword)
	good := map[int64]bool{}
	var out []SpeakerLogin
	for _, l := range list {
		ok, seen := good[l.OrgID]
		if !seen {
			if ok, err = s.auth.MatchCredential(ctx, auth.RealmSpeaker, orgLogin(l.OrgID), l.customerID, pw); err != nil {
				return nil, err
			}
			good[l.OrgID] = ok
		}
		if ok {
			l.Password = pw
			out = append(out, l.SpeakerLogin)
		}
	}
	return out, nil
}
