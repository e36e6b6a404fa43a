package demo

import (
	"context"
	"fmt"
	"time"

	"tenfour/internal/job"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/identity"
	"tenfour/internal/schoolbus"
	customers "tenfour/internal/tenant"
)

// Field work of the demo customer (issue 18): job tickets in every state — the open ones reach the simulated
// fleet at its login and are worked live — and school-bus students, some of them on the bus now. Seeded once:
// a customer that has any job is left alone.

// DemoBus is the demo's school-bus terminal (a DMR radio in the Logistics group with a card reader).
const DemoBus = "10000126"

type demoJob struct {
	task, address string
	lat, lng      float64
	to            []string
	steps         []job.Action // applied to every ticket, a few minutes apart in the past
	ago           time.Duration
}

var demoJobs = []demoJob{
	{"Replace the broken lamp at the north gate", "North gate, Harbour road 2", 41.0312, 28.9601, []string{"10000113"},
		[]job.Action{job.Accept, job.Start, job.Complete}, 5 * time.Hour},
	{"Check the fire extinguishers on level 2", "Terminal building, level 2", 41.0058, 28.9744, []string{"10000114", "10000115"},
		[]job.Action{job.Accept, job.Start}, 50 * time.Minute},
	{"Escort the delivery truck to dock 7", "Dock 7", 40.9987, 28.9912, []string{"10000121"}, []job.Action{job.Reject}, 2 * time.Hour},
	{"Inspect the fence along the harbour road after the storm", "Harbour road, km 3", 41.0153, 28.9498,
		[]string{"10000101", "10000102"}, nil, 0},
	{"Unlock the east door for the cleaning crew", "East entrance", 41.0101, 28.9811, []string{"10000143"}, nil, 0},
}

var demoStudents = []schoolbus.NewStudent{
	{StudentNum: "S-1001", StudentName: "Elif Kaya", StudentBirth: "2015-03-14", StudentSex: "2", GuardianName: "Ayşe Kaya", GuardianPhone: "+90 532 410 11 01"},
	{StudentNum: "S-1002", StudentName: "Mert Demir", StudentBirth: "2014-11-02", StudentSex: "1", GuardianName: "Murat Demir", GuardianPhone: "+90 532 410 11 02"},
	{StudentNum: "S-1003", StudentName: "Zeynep Şahin", StudentBirth: "2016-06-21", StudentSex: "2", GuardianName: "Fatma Şahin", GuardianPhone: "+90 532 410 11 03"},
	{StudentNum: "S-1004", StudentName: "Can Yılmaz", StudentBirth: "2015-09-09", StudentSex: "1", GuardianName: "Hakan Yılmaz", GuardianPhone: "+90 532 410 11 04"},
	{StudentNum: "S-1005", StudentName: "Deniz Aksoy", StudentBirth: "2013-01-30", StudentSex: "0", GuardianName: "Selin Aksoy", GuardianPhone: "+90 532 410 11 05"},
}

// SeedField seeds the demo customer's job tickets and school-bus students (with enabled, once).
func SeedField(ctx context.Context, d *db.DB, enabled bool, jobs *job.Store, bus *schoolbus.Service) error {
	if !enabled {
		return nil
	}
	cust, err := customers.ByName(ctx, d, tenants[0].name)
	if err != nil {
		return nil // not the demo database
	}
	var n int
	if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM jobs WHERE customer_id = ?`, cust).Scan(&n); err != nil || n > 0 {
		return err
	}
	disp := fmt.Sprint(tenants[0].base + 1)
	now := time.Now()
	for _, dj := range demoJobs {
		lat, lng := dj.lat, dj.lng
		at := now.Add(-dj.ago)
		j, err := jobs.Create(ctx, cust, job.Input{Job: dj.task, Address: dj.address, Lat: &lat, Lng: &lng, MsIDs: dj.to},
			disp, tenants[0].dispatcher, at.UnixMilli())
		if err != nil {
			return fmt.Errorf("demo job: %w", err)
		}
		for _, ms := range dj.to {
			step := at
			for _, a := range dj.steps {
				step = step.Add(7 * time.Minute)
				reason := ""
				if a == job.Reject {
					reason = "Busy with another delivery at dock 2."
				}
				if _, err := jobs.Act(ctx, cust, j.JobID, ms, a, reason, "", "", step.UnixMilli()); err != nil {
					return fmt.Errorf("demo job step: %w", err)
				}
			}
		}
	}
	admin := identity.Principal{AccountID: disp, CustomerID: cust, Type: "20", Name: tenants[0].dispatcher}
	reader := identity.Principal{AccountID: DemoBus, CustomerID: cust, Name: "DMR 126"}
	for i, st := range demoStudents {
		if _, err := bus.Add(ctx, admin, st); err != nil {
			return fmt.Errorf("demo student: %w", err)
		}
		// This morning's ride: everyone boarded, the last two already got off.
		board := now.Add(-time.Duration(90-i*5) * time.Minute).UnixMilli()
		if _, err := bus.Record(ctx, reader, schoolbus.RawPunch{StudentNum: st.StudentNum, Kind: "1", Time: fmt.Sprint(board),
			Lat: fmt.Sprint(41.02 - float64(i)*0.002), Lng: fmt.Sprint(28.95 + float64(i)*0.003)}); err != nil {
			return fmt.Errorf("demo punch: %w", err)
		}
		if i >= 3 {
			off := now.Add(-time.Duration(30-i*2) * time.Minute).UnixMilli()
			if _, err := bus.Record(ctx, reader, schoolbus.RawPunch{StudentNum: st.StudentNum, Kind: "2", Time: fmt.Sprint(off),
				Lat: "41.0082", Lng: "28.9784"}); err != nil {
				return fmt.Errorf("demo punch: %w", err)
			}
		}
	}
	return nil
}

// BusCards are the student cards the demo's school bus reads (the simulated fleet's bus punches them).
func BusCards() map[string][]string {
	cards := make([]string, len(demoStudents))
	for i, s := range demoStudents {
		cards[i] = s.StudentNum
	}
	return map[string][]string{DemoBus: cards}
}
