package main

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"tenfour/internal/app"
	"tenfour/internal/config"
	tdemo "tenfour/internal/demo"
	"tenfour/internal/platform/failover"
	"tenfour/internal/platform/ticker"
	"tenfour/internal/sim"
)

const simUsage = `tenfour sim — a fleet of simulated terminals (docs/terminal-protocol.md)

  tenfour sim --server URL --demo [--count N] [--duration D] [--seed S]
  tenfour sim --server URL --ids 30000001-30010000 --password PW [flags]
  tenfour sim --server URL --accounts FILE [flags]        (lines: id,password[,type[,city[,hint]]])
  tenfour sim --provision --data DIR --ids 30000001 --count 10000 --password 123456 [--dispatcher 30000000]
  tenfour sim --server URL --speaker-org ID --speaker-password PW --speaker-codes spk-1,spk-2 [--duration D]
                                                        (public-address speakers, docs/speaker-protocol.md)

--provision creates the accounts in the server's store (--data or --db) and exits; run it before starting the
server. Terminals without a type take the fleet mix (radios, apps, gateways, SOS buttons, cameras).

`

func simCmd(args []string) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), simUsage); fs.PrintDefaults() }
	server := fs.String("server", "http://127.0.0.1:8080", "server base URL; a cluster's nodes comma-separated (each terminal starts on one and moves to the next when a login fails)")
	demo := fs.Bool("demo", false, "use the demo terminals of `serve --demo` (61: 10000101…10000149, 20000101…20000112)")
	count := fs.Int("count", 0, "terminals to run (default: every account given)")
	ids := fs.String("ids", "", "account numbers: FIRST-LAST, or FIRST with --count")
	password := fs.String("password", sim.DemoPassword, "password of the --ids accounts")
	accounts := fs.String("accounts", "", "accounts file: id,password[,type[,city[,hint]]] per line")
	duration := fs.Duration("duration", 0, "stop after this long (0 = until interrupted)")
	seed := fs.Uint64("seed", 1, "random seed: the same seed, the same behaviour")
	city := fs.String("city", "istanbul", "city of accounts without one: istanbul or izmir")
	around := fs.String("around", "", "LAT,LNG: move around this place instead of a known city")
	radius := fs.Float64("radius", 3000, "with --around: radius in metres")
	ramp := fs.Duration("ramp", -1, "spread the first logins over this long (default 20 ms per terminal)")
	gps := fs.Duration("gps-interval", 0, "report interval of moving terminals (default per type: 15-60 s)")
	talk := fs.Duration("talk-every", 0, "mean time between a terminal's talk bursts (default 10m; negative: never)")
	sos := fs.Duration("sos-every", 0, "mean time between a terminal's SOS alarms (default 24h; negative: never)")
	drop := fs.Duration("drop-every", 0, "mean time online between network losses (default 45m; negative: never)")
	offline := fs.Duration("offline", 0, "longest network loss (default 3m)")
	switchEvery := fs.Duration("switch-every", 0, "mean time between own talk-group switches (default 2h; negative: never)")
	forget := fs.Float64("forget-checkin", 0, "share of lone-worker checks left unanswered (default 0.12; negative: none)")
	jobPace := fs.Duration("job-pace", 0, "time a worker takes for each step of a job ticket (default 2m; negative: tickets are never answered)")
	jobReject := fs.Float64("job-reject", 0, "share of job tickets rejected (default 0.15; negative: none)")
	punchEvery := fs.Duration("punch-every", 0, "mean time between a school bus's stops where students board or get off (default 3m; --demo's bus)")
	uploadEvery := fs.Duration("upload-every", 0, "mean time between an app's photos to the media cloud (default 12h, cameras 12× as often; negative: never)")
	patrolEvery := fs.Duration("patrol-every", 0, "how often a terminal looks at its patrol orders and punches the next point due (default 1m; negative: never)")
	maxMedia := fs.Int("max-media", 64, "PeerConnections open at once, at most")
	dialers := fs.Int("dialers", 16, "logins in progress at once, at most (a server answers each after a password hash)")
	mediaIdle := fs.Duration("media-idle", 20*time.Second, "close a PeerConnection unused this long")
	loopback := fs.String("loopback", "auto", "restrict WebRTC to the loopback interface: auto (when the server is local), yes, no")
	insecure := fs.Bool("insecure", false, "accept any TLS certificate (a self-signed server)")
	audio := fs.String("audio", "", "directory of Ogg Opus files to speak instead of the built-in ones")
	indoorIDs := fs.String("indoor", "", "accounts that walk through the demo building reporting the beacons they hear "+
		"(indoor.report) instead of GPS: a comma list; demo accounts left to people (e.g. 10000168,10000169) are added to --demo")
	indoorEvery := fs.Duration("indoor-interval", sim.DefaultIndoorInterval, "how often an indoor walker reports its beacon scan")
	every := fs.Duration("stats", 10*time.Second, "print the fleet's counters this often (0 = only at the end)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the simulator to this file")
	provision := fs.Bool("provision", false, "create the --ids accounts in the store (--data/--db) and exit")
	customer := fs.String("customer", "Sim Fleet", "with --provision: the customer to create them in")
	groupSize := fs.Int("group-size", 50, "with --provision: terminals per group")
	dispatcher := fs.String("dispatcher", "", "with --provision: also create this dispatcher (member of every group)")
	speakerOrg := fs.Int64("speaker-org", 0, "run simulated PA speakers of this broadcast organisation id instead of terminals")
	speakerPassword := fs.String("speaker-password", "", "with --speaker-org: the organisation's password")
	speakerCodes := fs.String("speaker-codes", "", "with --speaker-org: the speakers' device codes, comma-separated")
	store := storeFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}

	if *speakerOrg != 0 {
		return simSpeakers(strings.TrimSuffix(*server, "/"), *speakerOrg, *speakerPassword, *speakerCodes, *duration, *every)
	}
	if *provision {
		return simProvision(store, *ids, *count, *password, *customer, *groupSize, *dispatcher)
	}

	var accts []sim.Account
	switch {
	case *demo:
		accts = sim.FleetAccounts()
		if *count > len(accts) {
			return fmt.Errorf("--demo has %d terminals (10000150…10000160 are left to people and tests), not %d; for a "+
				"larger fleet create accounts first: tenfour sim --provision --data DIR --ids 30000001 --count %d, then "+
				"tenfour sim --ids 30000001 --count %d", len(accts), *count, *count, *count)
		}
	case *ids != "":
		first, n, err := sim.ParseRange(*ids)
		if err != nil {
			return err
		}
		if !strings.Contains(*ids, "-") && *count > 0 {
			n = *count
		}
		if accts, err = sim.RangeAccounts(first, n, *password); err != nil {
			return err
		}
	case *accounts != "":
		var err error
		if accts, err = sim.ReadAccountsFile(*accounts); err != nil {
			return err
		}
	default:
		return errors.New("say which accounts: --demo, --ids or --accounts (tenfour sim --help)")
	}
	if *count > 0 && *count < len(accts) {
		accts = accts[:*count]
	}
	walkers, err := sim.IndoorWalkers(*indoorIDs, accts)
	if err != nil {
		return err
	}
	accts = walkers.Accounts
	servers := failover.ParseList(*server)
	if len(servers) == 0 {
		return errors.New("sim: --server needs a URL")
	}
	opts := sim.Options{URL: servers[0], URLs: servers[1:], Accounts: accts, Seed: *seed, City: *city,
		Rates: sim.Rates{TalkEvery: *talk, SOSEvery: *sos, DropEvery: *drop, Offline: *offline,
			SwitchEvery: *switchEvery, ForgetCheckin: *forget, UploadEvery: *uploadEvery, PatrolEvery: *patrolEvery,
			JobPace: *jobPace, JobReject: *jobReject, PunchEvery: *punchEvery},
		GPSInterval: *gps, Ramp: *ramp, MaxMedia: *maxMedia, MediaIdle: *mediaIdle, Insecure: *insecure, AudioDir: *audio,
		Dialers: *dialers, Indoor: walkers.IDs, IndoorInterval: *indoorEvery}
	if *demo {
		opts.BusCards = tdemo.BusCards() // the demo's school bus reads its students' cards
	}
	if opts.Ramp < 0 {
		opts.Ramp = time.Duration(len(accts)) * 20 * time.Millisecond
	}
	if *around != "" {
		lat, lng, ok := strings.Cut(*around, ",")
		la, err1 := strconv.ParseFloat(strings.TrimSpace(lat), 64)
		ln, err2 := strconv.ParseFloat(strings.TrimSpace(lng), 64)
		if !ok || err1 != nil || err2 != nil {
			return fmt.Errorf("--around %q: want LAT,LNG", *around)
		}
		opts.Around, opts.Radius = &sim.LatLng{Lat: la, Lng: ln}, *radius
	}
	switch *loopback {
	case "yes":
		opts.Loopback = true
	case "auto":
		opts.Loopback = sim.IsLocal(opts.URL)
	case "no":
	default:
		return fmt.Errorf("--loopback must be auto, yes or no")
	}
	f, err := sim.New(opts)
	if err != nil {
		return err
	}
	if *cpuProfile != "" {
		out, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer out.Close()
		if err := pprof.StartCPUProfile(out); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	slog.Info("sim starting", "server", opts.URL, "terminals", len(accts), "seed", *seed, "ramp", opts.Ramp,
		"loopback", opts.Loopback)
	if *every > 0 {
		go func() {
			ticker.Every(ctx, *every, func() {
				slog.Info("sim", "talking", f.Talking(), "scheduled", f.Pending(), "late", f.TakeLate(), "stats", f.Stats().String())
			})
		}()
	}
	err = f.Run(ctx)
	slog.Info("sim stopped", "stats", f.Stats().String())
	return err
}

func simProvision(store *config.Config, ids string, count int, password, customer string, groupSize int, dispatcher string) error {
	if ids == "" {
		return errors.New("--provision needs --ids (and --count)")
	}
	first, n, err := sim.ParseRange(ids)
	if err != nil {
		return err
	}
	if !strings.Contains(ids, "-") && count > 0 {
		n = count
	}
	ctx := context.Background()
	d, err := app.Open(ctx, *store)
	if err != nil {
		return err
	}
	defer d.Close()
	res, err := sim.Provision(ctx, d, sim.ProvisionOptions{Customer: customer, First: first, Count: n, Password: password,
		GroupSize: groupSize, Dispatcher: dispatcher})
	if err != nil {
		return err
	}
	if res.Created == 0 {
		fmt.Printf("accounts %d…%d exist already (customer id %d); nothing to do\n", first, first+n-1, res.CustomerID)
		return nil
	}
	fmt.Printf("created %d terminals %d…%d in %d groups for customer %q (id %d); run: tenfour sim --ids %d-%d --password …\n",
		res.Created, first, first+n-1, res.Groups, customer, res.CustomerID, first, first+n-1)
	return nil
}

// simSpeakers runs simulated public-address speakers until interrupted (or for d): each registers with the
// organisation's password, plays what it is told and reports; their state is printed every `every`.
func simSpeakers(server string, org int64, password, codes string, d, every time.Duration) error {
	if password == "" || codes == "" {
		return errors.New("--speaker-org needs --speaker-password and --speaker-codes")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	sum := md5.Sum([]byte(password))
	var speakers []*sim.Speaker
	errs := make(chan error, 64)
	for _, c := range strings.Split(codes, ",") {
		if c = strings.TrimSpace(c); c == "" {
			continue
		}
		sp := &sim.Speaker{URL: server, OrgID: org, Code: c, Password: hex.EncodeToString(sum[:])}
		speakers = append(speakers, sp)
		go func() { errs <- sp.Run(ctx) }()
	}
	if every <= 0 {
		every = 10 * time.Second
	}
	go ticker.Every(ctx, every, func() {
		for _, sp := range speakers {
			st := sp.Status()
			fmt.Printf("%s online=%v %s task=%d file=%d pos=%dms level=%.2f\n", sp.Code, sp.Online(), st.State, st.TaskID, st.FileID, st.PositionMs, st.Level)
		}
	})
	for range speakers {
		if err := <-errs; err != nil && ctx.Err() == nil {
			return err
		}
	}
	return nil
}
