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
	hash, err := auth.HashPassword(md5Hex(DemoOrgPassword))
	if err != nil {
		return err
	}
	orgs := []struct{ name, code string }{{"Building A", "bldg-a"}, {"Building B", "bldg-b"}}
	for i, o := range orgs {
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO bc_orgs (customer_id, parent_id, name, code, call_number, pass_hash, created_at)
			VALUES (?, 0, ?, ?, ?, ?, ?) RETURNING id`, customerID, o.name, o.code, fmt.Sprint(base/1000+900+i), hash, now).Scan(&id); err != nil {
			return err
		}
		for n := 1; n <= DemoSpeakersPerOrg; n++ {
			if _, err := tx.Exec(ctx, `INSERT INTO bc_devices (customer_id, org_id, name, code, ao_volume, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
				customerID, id, fmt.Sprintf("%s speaker %d", o.name, n), fmt.Sprintf("%s-%02d", o.code, n), DefaultVolume, now); err != nil {
				return err
			}
		}
		if i == 0 { // a nested organisation with no speakers of its own yet
			if _, err := tx.Exec(ctx, `INSERT INTO bc_orgs (customer_id, parent_id, name, code, call_number, pass_hash, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, customerID, id, o.name+" · Yard", o.code+"-yard", fmt.Sprint(base/1000+910), hash, now); err != nil {
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

// DemoSpeakers lists the demo's speakers (the organisations whose password is DemoOrgPassword), for the
// in-process simulated speakers of `serve --demo`.
func (s *Service) DemoSpeakers(ctx context.Context) ([]SpeakerLogin, error) {
	rows, err := s.db.Query(ctx, `SELECT o.id, o.pass_hash, d.code FROM bc_devices d JOIN bc_orgs o ON o.id = d.org_id ORDER BY d.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SpeakerLogin
	pw := md5Hex(DemoOrgPassword)
	okHash := map[string]bool{}
	for rows.Next() {
		var l SpeakerLogin
		var hash string
		if err := rows.Scan(&l.OrgID, &hash, &l.Code); err != nil {
			return nil, err
		}
		good, seen := okHash[hash]
		if !seen {
			good, _ = auth.CheckPassword(hash, pw)
			okHash[hash] = good
		}
		if good {
			l.Password = pw
			out = append(out, l)
		}
	}
	return out, rows.Err()
}
