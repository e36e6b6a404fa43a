// Package app is the only wiring point: it opens the store, builds every service and mounts their routes.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/branding"
	"tenfour/internal/broadcast"
	"tenfour/internal/call"
	"tenfour/internal/camera"
	"tenfour/internal/cluster"
	"tenfour/internal/config"
	"tenfour/internal/demo"
	"tenfour/internal/directory"
	"tenfour/internal/files"
	"tenfour/internal/geo"
	"tenfour/internal/indoor"
	"tenfour/internal/job"
	"tenfour/internal/lonework"
	"tenfour/internal/media"
	"tenfour/internal/media/ffchild"
	"tenfour/internal/medialib"
	"tenfour/internal/message"
	"tenfour/internal/oplog"
	"tenfour/internal/patrol"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/quota"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/presence"
	"tenfour/internal/schoolbus"
	"tenfour/internal/secretkey"
	"tenfour/internal/sim"
	sipside "tenfour/internal/sip"
	"tenfour/internal/sos"
	"tenfour/internal/termclient"
	"tenfour/internal/terminalctl"
	"tenfour/internal/tiles"
	"tenfour/internal/tone"
	"tenfour/internal/video"
	"tenfour/web"
)

// App is one running tenfour node.
type App struct {
	Cfg      config.Config
	DB       *db.DB
	Sessions *auth.Sessions
	Auth     *auth.Service
	Hub      *realtime.Hub
	Log      *oplog.Log
	SOS      *sos.Service       // safety: SOS alarms
	LoneWork *lonework.Service  // safety: lone-worker plans, engine and alarms
	Presence *presence.Service  // reports: online/offline intervals
	Voice    *call.Service      // voice: floor control, calls, monitoring, records (SOS and terminal control call it)
	Cameras  *camera.Service    // video surveillance: cameras, pulled streams, viewers, recordings
	Indoor   *indoor.Service    // indoor positioning: plans, beacons, estimated positions
	Patrol   *patrol.Service    // field work: the patrol service (/patrolService), its order engine and punches
	Video    *video.Service     // video calls and video monitoring
	Jobs     *job.Service       // field work: job tickets
	Bus      *schoolbus.Service // field work: school-bus students and punches
	// Cluster is this node's membership of a cluster (--nats; nil when it runs alone).
	Cluster *cluster.Node
	// MediaRelay carries voice between the nodes of a cluster (nil when it runs alone).
	MediaRelay *cluster.MediaRelay
	// Broadcast is the public-address service (/broadcast/v1, spec §7 "Broadcast service"); tests move its clock.
	Broadcast *broadcast.Service
	// SIP is the SIP side (--sip-addr; nil when off): registrations of SIP accounts (docs/sip.md).
	SIP *sipside.Server

	mux     *http.ServeMux
	router  httpx.Router   // every service's routes are mounted through it, and it lists them (Routes)
	trusted []netip.Prefix // reverse proxies whose X-Forwarded-For names the client
	ready   atomic.Bool
	bg      []func(ctx context.Context)       // background loops started by Start
	prepare []func(ctx context.Context) error // start-up work run by Prepare
	running sync.WaitGroup                    // the background loops, awaited by Wait
}

// Connect opens the store named by cfg, PostgreSQL or SQLite, without migrating it: Open migrates it all the
// way, a test of a migration only up to the version before (testkit.OpenStoreAt).
func Connect(ctx context.Context, cfg config.Config) (*db.DB, error) {
	if cfg.UsesPostgres() {
		return db.OpenPostgres(ctx, cfg.DB)
	}
	return db.OpenSQLite(cfg.SQLitePath())
}

// Open opens the store named by cfg and migrates it.
func Open(ctx context.Context, cfg config.Config) (*db.DB, error) {
	d, err := Connect(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := d.Migrate(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// New builds the services on an open store and mounts every route.
func New(cfg config.Config, d *db.DB) (*App, error) {
	a := &App{Cfg: cfg, DB: d, mux: http.NewServeMux()}
	var err error
	if a.trusted, err = httpx.ParsePrefixes(cfg.TrustedProxies); err != nil {
		return nil, err
	}
	a.Sessions = auth.NewSessions(d, nil)
	a.Hub = realtime.NewHub(d, cfg.AllowedOrigins)
	a.Sessions.SetSockets(a.Hub) // a revoked or expired session closes its sockets
	a.Go(a.Sessions.RunExpiry)
	a.Log = oplog.New(d, a.Hub)
	a.Auth = auth.NewService(d, a.Sessions, a.Log)
	a.Hub.SetAuthenticator(a.Auth)
	a.Auth.Configure(cfg, a.Hub) // public URL, SMTP, online limit
	// [cluster] with --nats: the hub's events reach every node, presence is cluster-wide, a dead node's accounts go
	// offline (internal/cluster, docs/adr/0024). Its hooks come first: the others learn of a login before presence.
	if cfg.Cluster.NATS != "" {
		copt := cluster.FromConfig(cfg.Cluster)
		copt.PublicURL = cfg.PublicURL // listed to clients as a node to fail over to
		if a.Cluster, err = cluster.Join(context.Background(), d, a.Hub, copt); err != nil {
			return nil, err
		}
		a.Hub.SetHooks(a.Cluster.Hooks())
		a.OnPrepare(a.Cluster.ReleaseOwn)
		a.Go(func(ctx context.Context) { a.Cluster.Run(ctx); a.Hub.Wait(); a.Cluster.Close() })
	}

	// Every service is a Module in mods: its endpoints (Routes), its socket types (Verbs: the hub's index,
	// Hub.Verbs, is what docs/socket-verbs.md lists) and its hooks; mount wires them in the list's order.
	// The console session: any token carrier on a call, the cookie alone on a download (docs/adr/0009).
	router := httpx.NewRouter(a.mux, httpx.TokenAuth(auth.TokenFrom, a.Sessions.Lookup),
		httpx.TokenAuth(auth.ReadTokenFrom, a.Sessions.Lookup))
	hub := a.Hub
	a.router = router
	var mods []Module
	router.Handle("GET /healthz", http.HandlerFunc(a.healthz))
	router.Handle("GET /metrics", metricsHandler(cfg.MetricsToken))
	router.Handle("GET /metrics/pprof/{name}", profileHandler(cfg.MetricsToken))
	router.Handle("GET /ds/ws", a.Hub)
	mods = append(mods,
		Module{Name: "event-retention", Single: func(ctx context.Context) { a.Hub.RunRetention(ctx, cfg.EventRetention) }},
		Module{Routes: a.Log.Routes, Verbs: a.Log.Verbs()},
		Module{Routes: a.Auth.Routes})

	// The directory owns groups, terminals and membership; every other domain reads and writes them through dir
	// (mounted under [directory] below).
	dirSvc := directory.NewService(d, a.Hub, a.Log)
	dir := dirSvc.Store

	// Domain services (one line each; keep this list in the order of the spec's §7).
	// [safety] SOS alarms (spec §7 SOS, findSosReport); the emergency floor hook is set below with the voice service.
	a.SOS = sos.New(d, dir, a.Hub, a.Log, sos.Options{RealertEvery: cfg.Safety.SOSRealert})
	// in a cluster: one re-alert per interval, not one per node
	mods = append(mods, Module{Routes: a.SOS.Routes, Verbs: a.SOS.Verbs(), Name: "sos-realert", Single: a.SOS.Run, Start: a.SOS.Restore})
	// [safety] lone worker (spec §7 loneWork, findLoneWorkAlarm): plans, the check-in engine (ticks every second).
	a.LoneWork = lonework.New(d, dir, a.Hub, a.Log, lonework.Thresholds{OfflineGrace: cfg.Safety.LoneOfflineGrace,
		BatteryOff: cfg.Safety.LoneBatteryOff, WeakSignal: cfg.Safety.LoneWeakSignal})
	mods = append(mods, Module{Routes: a.LoneWork.Routes, Verbs: a.LoneWork.Verbs(), Name: "lonework", Single: a.LoneWork.Run})
	// [voice] media server (WebRTC SFU, one UDP port, optional TURN), floor control, calls, monitoring, records, mute
	mediaEng, err := media.NewEngine(media.Config{UDPPort: cfg.Voice.UDPPort, PublicIPs: cfg.Voice.PublicIPs,
		Interfaces: cfg.Voice.Interfaces, TURNPort: cfg.Voice.TURNPort, TURNSecret: cfg.Voice.TURNSecret,
		TURNHost: media.HostOf(cfg.PublicURL)})
	if err != nil {
		return nil, err
	}
	voiceSvc := call.New(d, dir, a.Hub, a.Log, mediaEng, call.Options{DataDir: cfg.DataDir, MaxTalkTime: cfg.Voice.MaxTalkTime,
		RingTimeout: cfg.Voice.RingTimeout, GroupHangTime: cfg.Voice.GroupHangTime, Retention: cfg.Voice.RecordingRetention,
		ReleaseTail: cfg.Voice.ReleaseTail})
	a.Voice = voiceSvc
	mods = append(mods, Module{Routes: voiceSvc.Routes, Verbs: voiceSvc.Verbs(), Start: voiceSvc.Restore,
		Run: []func(ctx context.Context){voiceSvc.RunRetention, func(ctx context.Context) { <-ctx.Done(); voiceSvc.Close(); mediaEng.Close() }}})
	a.SOS.SetFloor(voiceSvc) // an SOS terminal's floor requests pre-empt everyone
	// [cameras] /ds/camera, /ds/apiZlmk: cameras pulled with ffmpeg, watched over WebRTC on the media server's
	// port, snapshots, recordings with retention; with --demo, simulated RTSP cameras (docs/adr/0016)
	// one limiter of the ffmpeg work clients ask for: snapshots here, upload transcodes in broadcast (docs/adr/0030)
	ffJobs := ffchild.NewLimiter(ffchild.Limits(cfg.FFmpegJobs))
	a.Cameras = camera.New(d, a.Hub, mediaEng, camera.Options{DataDir: cfg.DataDir, NodeID: cfg.Cluster.NodeID,
		MaxPerCustomer: cfg.Camera.MaxPerCustomer, Retention: cfg.Camera.Retention, FFmpeg: cfg.Camera.FFmpeg,
		AllowNets: cfg.Camera.AllowNets, Jobs: ffJobs})
	// Run ends every camera child process at shutdown
	mods = append(mods, Module{Routes: a.Cameras.Routes, Verbs: a.Cameras.Verbs(), Start: a.Cameras.Restore,
		Run: []func(ctx context.Context){a.Cameras.Run, a.Cameras.RunRetention}})
	if a.Cluster != nil { // recordings a dead node left open are closed by one node (docs/adr/0024)
		a.Go(a.single("camera-orphans", func(ctx context.Context) { a.Cameras.RunOrphans(ctx, a.Cluster.LiveNodes, cfg.Cluster.Timeout) }))
	}
	if cfg.Demo && cfg.Camera.DemoRTSPPort > 0 {
		a.Go(a.single("demo-cameras", func(ctx context.Context) { a.Cameras.RunDemo(ctx, cfg.Camera.DemoRTSPPort, demo.CustomerNames) }))
	}
	// [video] video calls console ↔ terminal and video monitoring of terminals, on the same media server
	// (recordings per customer switch, muxed by ffmpeg, deleted with --camera-retention-days)
	a.Video = video.New(d, dir, a.Hub, a.Log, mediaEng, video.Options{RingTimeout: cfg.Voice.RingTimeout,
		DataDir: cfg.DataDir, FFmpeg: cfg.Camera.FFmpeg, Retention: cfg.Camera.Retention})
	mods = append(mods, Module{Routes: a.Video.Routes, Verbs: a.Video.Verbs(), Start: a.Video.Restore,
		Run: []func(ctx context.Context){a.Video.RunRetention, func(ctx context.Context) { <-ctx.Done(); a.Video.Close() }}})
	// [directory]
	hub.SetHooks(dirSvc.Hooks()) // presence: online/offline, logs 5/6/7
	mods = append(mods, Module{Routes: dirSvc.Routes, Verbs: dirSvc.Verbs(), Start: a.alone(dirSvc.ResetPresence)})
	// [realtime] SMS relay (sms.send, pending delivery at terminal login) and remote control (call.set, param.set)
	// [messages] file service (uploads, ranged downloads, terminal file tokens), messages both ways (findSms,
	// updateSms, unread, findMessageData), tones (library, tone.send), media cloud (media.uploaded, mediaLib/list)
	fileStore, err := files.NewLocal(filepath.Join(cfg.DataDir, "files"))
	if err != nil {
		return nil, err
	}
	fileSvc := files.New(d, fileStore, files.Limits(cfg.Uploads), a.Sessions)
	storageQuota := quota.New(d, cfg.StorageQuota, files.Usage, broadcast.Usage) // one quota per customer across uploads
	fileSvc.SetQuota(storageQuota)
	if a.Cluster != nil { // one file token key for the cluster: a terminal fetches from its node what another signed
		key, err := a.Cluster.SharedSecret(context.Background(), "file-token-key", 32)
		if err != nil {
			return nil, err
		}
		fileSvc.SetKey(key)
	}
	msgSvc := message.New(message.NewStore(d, dir), a.Hub, a.Log)
	msgSvc.Files = fileSvc
	toneSvc := tone.New(d, dir, fileSvc, a.Hub, a.Log)
	mediaSvc := medialib.New(d, dir, fileSvc, a.Hub, a.Log)
	a.Cameras.SetCloud(mediaSvc) // a console's camera snapshot is kept in the media cloud
	ctl := terminalctl.New(d, dir, a.Hub, a.Log)
	ctl.OnCallSet = a.Voice.CallSetStatusChanged // a killed or stunned talker loses the floor at once
	// [reports] presence intervals (findOnlineDurationPost, findOnlineDetailData); /ds/turn/send (TURN credentials)
	ctl.ICE = mediaEng
	a.Presence = presence.New(d, dir, a.Hub)
	hub.SetHooks(a.Presence.Hooks())
	mods = append(mods,
		Module{Routes: fileSvc.Routes, Verbs: fileSvc.Verbs()},
		Module{Routes: msgSvc.Routes, Verbs: msgSvc.Verbs(), Login: msgSvc.DeliverAtLogin}, // pending messages reach a terminal at its login
		Module{Routes: toneSvc.Routes, Verbs: toneSvc.Verbs()},
		Module{Routes: mediaSvc.Routes, Verbs: mediaSvc.Verbs()},
		Module{Routes: ctl.Routes, Verbs: ctl.Verbs(), Login: ctl.RemindAtLogin}, // a killed, stunned or tuned terminal is reminded at its login
		Module{Routes: a.Presence.Routes, Start: a.alone(a.Presence.Prepare), Run: []func(ctx context.Context){a.Presence.Run}})
	if a.Cluster != nil {
		// a dead node's accounts go offline and their presence intervals end; one talking node per group
		a.Cluster.OnPresence(dirSvc)
		a.Cluster.OnPresence(a.Presence)
		floors, err := a.Cluster.Floors(context.Background(), voiceSvc)
		if err != nil {
			return nil, err
		}
		voiceSvc.SetFloorLeases(floors)
		a.Go(floors.Run)
		// group bursts and terminal monitoring cross nodes over one media relay per node pair (docs/adr/0026)
		relay, err := a.Cluster.Media(mediaEng, voiceSvc, 0)
		if err != nil {
			return nil, err
		}
		voiceSvc.SetMediaRelay(relay)
		a.MediaRelay = relay
		a.Go(relay.Run)
	}
	// the demo's speakers and fleet, and the SIP side's calls, reach this node in-process, never as 127.0.0.1
	// (inprocess.go)
	inProcess := a.inProcessClient()
	// [sip] --sip-addr: SIP accounts register with digest through auth, online while registered, and call into
	// their groups through a terminal session of their own inside this node (docs/adr/0037)
	if cfg.SIP.Addr != "" {
		calls := sipside.Calls{Groups: dir, Talk: dir,
			Login: func(ctx context.Context, o termclient.Options) (*termclient.Client, error) {
				tok, err := a.Auth.IssueResume(ctx, o.UID)
				if err != nil {
					return nil, err
				}
				o.URL, o.HTTPClient, o.Resume = "http://"+httpx.InProcessAddr, inProcess, tok
				return termclient.Dial(ctx, o)
			},
			Local: func(account string, hear media.Hear) sipside.LocalMedia { return voiceSvc.NewLocalMedia(account, hear) }}
		presence := []sipside.Presence{dirSvc, a.Presence}
		if a.Cluster != nil { // the other nodes see a phone registered here online, and call it here (first: as a login's hook)
			presence = append([]sipside.Presence{a.Cluster.Held()}, presence...)
		}
		if a.SIP, err = sipside.New(a.Auth, sipside.Options{MinExpires: cfg.SIP.MinExpires, Calls: calls, Hold: a.Hub.Hold,
			Trunks: sipside.NewTrunkStore(d)}, presence...); err == nil {
			voiceSvc.SetDialer(a.SIP) // individual calls to a registered phone ring it (internal/sip/dial.go)
			err = a.SIP.Listen(cfg.SIP.Addr)
		}
		if err != nil && cfg.SIP.Optional && errors.Is(err, syscall.EADDRINUSE) { // the demo's default, not a choice
			slog.Warn("sip: the demo's SIP address is taken: running without SIP (--sip-addr picks another)", "addr", cfg.SIP.Addr)
			err = nil // Run, with nothing bound, only releases the SIP stack
		}
		if err != nil {
			return nil, err
		}
		mods = append(mods, Module{Run: []func(ctx context.Context){a.SIP.Run}})
	}
	// [geo] GPS ingest (gps.report/status.report), tracks, marks, fences and fence alarms, gps_{x}.bin
	geoSvc := geo.New(d, dir, a.Hub, a.Log, geo.Options{Retention: cfg.GPSRetention,
		Rate: cfg.GPS.Rate, Burst: cfg.GPS.Burst, MaxAge: cfg.GPS.MaxAge})
	geoSvc.OnTerminalChanged = dirSvc.TerminalChanged
	mods = append(mods, Module{Routes: geoSvc.Routes, Verbs: geoSvc.Verbs(), Start: geoSvc.Load, Run: []func(ctx context.Context){geoSvc.Run}})
	// [patrol] the patrol service (spec §7 /patrolService; its own token and code 1011, docs/adr/0019), the
	// order engine (generates and judges every Patrol.Every) and terminal punches (patrol.punch).
	a.Patrol = patrol.New(d, a.Auth, dir, a.Hub, patrol.Options{LateGrace: cfg.Patrol.LateGrace, Every: cfg.Patrol.Every})
	// in a cluster: orders generated and judged on one node
	mods = append(mods, Module{Routes: a.Patrol.Routes, Verbs: a.Patrol.Verbs(), Name: "patrol", Single: a.Patrol.Run})
	// [field work] job tickets (spec §7 /ds/job/*, findJobReport: tickets delivered with acknowledgement, pending
	// ones at the terminal's login) and the school-bus punch list (/ds/schoolCar/*, bus.punch)
	a.Jobs = job.New(d, dir, a.Hub, a.Log)
	a.Bus = schoolbus.New(d, dir, fileSvc, a.Hub, a.Log)
	mods = append(mods,
		Module{Routes: a.Jobs.Routes, Verbs: a.Jobs.Verbs(), Login: a.Jobs.DeliverAtLogin, Run: []func(ctx context.Context){a.Jobs.Run}},
		Module{Routes: a.Bus.Routes, Verbs: a.Bus.Verbs()})
	// [branding] per-host branding and client config; custom themes of a customer's hosts (customTheme, findTheme,
	// deleteTheme, getClientHostList)
	brandSvc := branding.NewService(d)
	brandSvc.Hub = a.Hub
	mods = append(mods, Module{Routes: brandSvc.Routes, Verbs: brandSvc.Verbs()})
	// [maps] the street map archive the console draws offline (--tiles or streets.pmtiles in the data directory,
	// docs/adr/0036), served by ranges beside the bundled basemap
	mods = append(mods, Module{Routes: tiles.New(tiles.Path(cfg.Tiles, cfg.DataDir), slog.Default(), cfg.Tiles != "").Routes})
	// [keys] secret keys (spec §7 /ds/key/*): the key ring, userInfo.secretKey, key.changed to terminals at login
	keySvc := secretkey.New(d, a.Hub)
	a.Auth.SetKeyRing(keySvc)
	mods = append(mods, Module{Routes: keySvc.Routes, Verbs: keySvc.Verbs(), Login: keySvc.SendAtLogin})
	// [broadcast] public address: orgs, casters, speakers, music library, tasks, plans, real-time player (/broadcast/v1)
	musicDir := filepath.Join(cfg.DataDir, "broadcast")
	if err := os.MkdirAll(musicDir, 0o750); err != nil {
		return nil, err
	}
	// auth keeps its passwords and tokens; upload transcodes share the server's one ffmpeg limiter with snapshots;
	// live paging carries the console's microphone over the PTT path
	a.Broadcast = broadcast.New(d, a.Auth, a.Hub, broadcast.Options{MusicDir: musicDir, Quota: storageQuota,
		Jobs: ffJobs, Pager: voiceSvc})
	// Login: spec §4, a console's caster exists after its login; Logout: a console that goes away ends its live
	// page. In a cluster a timed task fires on one node (docs/adr/0024); every node tells the speakers it holds.
	mods = append(mods, Module{Routes: a.Broadcast.Routes, Verbs: a.Broadcast.Verbs(), Login: a.Broadcast.AtLogin,
		Logout: a.Broadcast.AtLogout, Name: "broadcast-scheduler", Single: a.Broadcast.RunScheduler,
		Run: []func(ctx context.Context){a.Broadcast.RunSpeakers}})
	a.Go(a.single("demo-speakers", func(ctx context.Context) { // the demo's simulated speakers (serve --demo with a demo fleet)
		sim.RunDemoSpeakers(ctx, cfg, inProcess, func(ctx context.Context) ([]sim.SpeakerLogin, error) {
			list, err := a.Broadcast.DemoSpeakers(ctx)
			out := make([]sim.SpeakerLogin, len(list))
			for i, l := range list {
				out[i] = sim.SpeakerLogin(l)
			}
			return out, err
		})
	}))
	// [demo]
	mods = append(mods,
		Module{Start: func(ctx context.Context) error { return demo.Prepare(ctx, d, cfg.Demo) }},
		Module{Start: func(ctx context.Context) error { return demo.SeedField(ctx, d, cfg.Demo, a.Jobs.Store(), a.Bus) }})
	// [indoor] buildings, floor plans, beacons, indoor.report → estimated positions (docs/adr/0023); the demo
	// customer gets the demo building (after the demo seed above)
	a.Indoor = indoor.New(d, dir, fileSvc, a.Hub, indoor.Options{Retention: cfg.GPSRetention})
	mods = append(mods, Module{Routes: a.Indoor.Routes, Verbs: a.Indoor.Verbs(), Name: "indoor-retention", Single: a.Indoor.Run})
	if cfg.Demo {
		mods = append(mods, Module{Start: func(ctx context.Context) error {
			cid, ok, err := demo.FleetCustomer(ctx, d)
			if err != nil || !ok {
				return err
			}
			_, err = a.Indoor.SeedDemo(ctx, cid, demo.Dispatcher)
			return err
		}})
	}
	// [sim] the in-process demo fleet: demo terminals log in to this server in-process (--demo-fleet)
	a.Go(func(ctx context.Context) { sim.RunDemo(ctx, cfg, inProcess, a.Auth.IssueResume) })
	// and a simulated SIP desk phone and radio gateway that register at this server's SIP address and call their
	// groups now and then (not with --demo-fleet-quiet, nor without SIP)
	if cfg.Demo && cfg.DemoFleet > 0 && !cfg.DemoFleetQuiet && a.SIP != nil {
		a.Go(a.single("demo-sip-phones", func(ctx context.Context) { runDemoSIPPhones(ctx, d, dir, a.SIP.Addr()) }))
	}

	a.mount(router, mods)
	a.mux.Handle("/", consoleHandler(web.Dist())) // the console's pages: not an API, so not in Routes
	return a, nil
}

// Module is one service as New wires it: its endpoints, its socket types and the hooks it needs; a field left
// empty is a hook it does not have. New lists the modules in the spec's order and mount wires them in that
// order, which is the order of their start-up work and of their login hooks.
type Module struct {
	Routes func(httpx.Router)              // mounts its endpoints
	Verbs  []realtime.Verb                 // its socket types, given to the hub
	Start  func(ctx context.Context) error // start-up work before serving (Prepare)
	Run    []func(ctx context.Context)     // background loops on every node
	// Single is a background loop that runs on one node of a cluster at a time, elected under Name.
	Name   string
	Single func(ctx context.Context)
	Login  realtime.LoginHook  // a socket signed in (hub.OnLogin)
	Logout realtime.LogoutHook // a socket went away (hub.OnLogout)
}

// mount wires every module, in order.
func (a *App) mount(router httpx.Router, mods []Module) {
	for _, m := range mods {
		if m.Routes != nil {
			m.Routes(router)
		}
		a.Hub.Register(m.Verbs...)
		if m.Start != nil {
			a.OnPrepare(m.Start)
		}
		for _, fn := range m.Run {
			a.Go(fn)
		}
		if m.Single != nil {
			a.Go(a.single(m.Name, m.Single))
		}
		if m.Login != nil {
			a.Hub.OnLogin(m.Login)
		}
		if m.Logout != nil {
			a.Hub.OnLogout(m.Logout)
		}
	}
}

// single is a background loop that runs on one node of a cluster at a time (fn itself on a node alone).
func (a *App) single(name string, fn func(ctx context.Context)) func(ctx context.Context) {
	if a.Cluster == nil {
		return fn
	}
	return a.Cluster.Singleton(name, fn)
}

// nodeHosts are the hosts (host:port) of the cluster's live nodes (none on a node alone): a page may open its
// socket on any of them (the CSP's connect-src).
func (a *App) nodeHosts() []string {
	if a.Cluster == nil {
		return nil
	}
	var out []string
	for _, n := range a.Cluster.Nodes() {
		if u, err := url.Parse(n); err == nil && u.Host != "" {
			out = append(out, u.Host)
		}
	}
	return out
}

// alone is a start-up reset that only a node alone may run (in a cluster the other nodes hold what it resets).
func (a *App) alone(fn func(ctx context.Context) error) func(ctx context.Context) error {
	if a.Cluster == nil {
		return fn
	}
	return a.Cluster.Alone(fn)
}

// Routes lists every pattern the services mounted, in order (docs/api.md's index, TestRouteIndex).
func (a *App) Routes() []string { return a.router.Routes() }

// Go registers a background loop that Start runs until its context ends.
func (a *App) Go(fn func(ctx context.Context)) { a.bg = append(a.bg, fn) }

// Start runs the background loops and marks the node ready.
func (a *App) Start(ctx context.Context) {
	for _, fn := range a.bg {
		a.running.Go(func() { fn(ctx) })
	}
	a.ready.Store(true)
}

// Wait blocks until every background loop has returned (after Start's context ended), so work they finish on
// the way out — a recording's row, a last GPS batch — reaches the store before it is closed.
func (a *App) Wait() { a.running.Wait() }

// Stop marks the node not ready and closes every socket.
func (a *App) Stop() {
	a.ready.Store(false)
	a.Hub.CloseAll()
}

func (a *App) healthz(w http.ResponseWriter, r *http.Request) {
	if !a.ready.Load() {
		http.Error(w, "starting", http.StatusServiceUnavailable)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := a.DB.R.PingContext(ctx); err != nil {
		http.Error(w, "database unavailable", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	fmt.Fprintln(w, "ok")
}

// Close releases the store.
func (a *App) Close() error {
	slog.Info("closing store")
	return a.DB.Close()
}

// Prepare runs one-time start-up work before serving: demo seeding, first-run hints.
func (a *App) Prepare(ctx context.Context) error {
	for _, fn := range a.prepare {
		if err := fn(ctx); err != nil {
			return err
		}
	}
	return nil
}

// OnPrepare registers start-up work run by Prepare, in order.
func (a *App) OnPrepare(fn func(ctx context.Context) error) { a.prepare = append(a.prepare, fn) }
