package media

import (
	"errors"
	"io"
	"net"
	"net/netip"
	"os"
	"testing"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/srtp/v3"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// srtpPair is an encrypting context (the client's) and the server's decrypting one with the same keys.
func srtpPair(t *testing.T) (enc, dec *srtp.Context) {
	t.Helper()
	key, salt := make([]byte, 16), make([]byte, 12)
	for i := range key {
		key[i] = byte(i + 1)
	}
	var err error
	if enc, err = srtp.CreateContext(key, salt, srtp.ProtectionProfileAeadAes128Gcm); err != nil {
		t.Fatal(err)
	}
	if dec, err = srtp.CreateContext(key, salt, srtp.ProtectionProfileAeadAes128Gcm, srtp.SRTPReplayProtection(64)); err != nil {
		t.Fatal(err)
	}
	return enc, dec
}

func sealed(t *testing.T, enc *srtp.Context, ssrc uint32, seq uint16) []byte {
	t.Helper()
	pkt := rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: seq, Timestamp: uint32(seq) * 960, SSRC: ssrc},
		Payload: []byte{0xf8, 0xff, 0xfe}}
	plain, err := pkt.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	out, err := enc.EncryptRTP(nil, plain, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func rtcpBytes(t *testing.T, p rtcp.Packet) []byte {
	t.Helper()
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The reader takes a talker's authentic packets of its SSRC (decrypted, forwarded in order, counted for its receiver
// reports) and its sender reports, drops forged and replayed ones and the client's receiver reports, and leaves
// everything else to pion.
func TestInboundTakesTheTalkersAudioAndDropsReceiverReports(t *testing.T) {
	enc, dec := srtpPair(t)
	p := &Peer{reports: newUpstreamReports()}
	var heard []uint16
	p.route.Store(&Route{Taps: []Tap{func(h *rtp.Header, _ []byte) { heard = append(heard, h.SequenceNumber) }}})
	const ssrc = 0x1234
	in := &inbound{ssrc: ssrc, ctx: dec, up: p, stats: p.reports.stream(ssrc), buf: make([]byte, 1500)}

	var pkts [][]byte
	for seq := uint16(1); seq <= 3; seq++ {
		pkts = append(pkts, sealed(t, enc, ssrc, seq))
	}
	for i, b := range pkts {
		if !in.take(b, nil, netip.AddrPort{}) {
			t.Fatalf("packet %d left to pion", i)
		}
	}
	if len(heard) != 3 || heard[0] != 1 || heard[2] != 3 || in.taken.Load() != 3 || p.UpstreamPackets() != 3 {
		t.Fatalf("heard %v, taken %d, upstream %d", heard, in.taken.Load(), p.UpstreamPackets())
	}

	rejected := testutil.ToFloat64(mInboundRejected)
	forged := append([]byte(nil), sealed(t, enc, ssrc, 4)...)
	forged[len(forged)-1] ^= 1
	if !in.take(pkts[1], nil, netip.AddrPort{}) || !in.take(forged, nil, netip.AddrPort{}) {
		t.Fatal("a replay or a forged packet was left to pion")
	}
	if got := testutil.ToFloat64(mInboundRejected) - rejected; got != 2 || len(heard) != 3 {
		t.Fatalf("rejected %v, heard %v", got, heard)
	}

	for name, b := range map[string][]byte{
		"another SSRC":                   sealed(t, enc, ssrc+1, 1),
		"STUN":                           {0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xa4, 0x42, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
		"DTLS":                           {0x16, 0xfe, 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
		"another stream's sender report": rtcpBytes(t, &rtcp.SenderReport{SSRC: ssrc + 1, NTPTime: 1 << 40}),
	} {
		if in.take(b, nil, netip.AddrPort{}) {
			t.Fatalf("%s was not left to pion", name)
		}
	}

	rr := rtcpBytes(t, &rtcp.ReceiverReport{SSRC: 99})
	thinned := testutil.ToFloat64(mThinned)
	for range 3 {
		if !in.take(rr, nil, netip.AddrPort{}) {
			t.Fatal("a receiver report reached pion")
		}
	}
	if got := testutil.ToFloat64(mThinned) - thinned; got != 3 {
		t.Fatalf("dropped %v", got)
	}
	// The talker's sender report is read here: its time is what the receiver reports answer with; a forged one is
	// dropped like a forged packet.
	sr, err := enc.EncryptRTCP(nil, rtcpBytes(t, &rtcp.SenderReport{SSRC: ssrc, NTPTime: 0x0102030405060708}), nil)
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), sr...)
	bad[len(bad)-1] ^= 1
	rejected = testutil.ToFloat64(mInboundRejected)
	if !in.take(bad, nil, netip.AddrPort{}) || testutil.ToFloat64(mInboundRejected)-rejected != 1 || in.stats.lsr != 0 {
		t.Fatal("a forged sender report was not dropped")
	}
	if !in.take(sr, nil, netip.AddrPort{}) {
		t.Fatal("the talker's sender report was left to pion")
	}
	if in.stats.lsr != 0x03040506 || in.stats.lsrAt.IsZero() {
		t.Fatalf("last sender report %#x at %v", in.stats.lsr, in.stats.lsrAt)
	}
}

// The report block follows RFC 3550 A.3: the extended highest sequence number across a wrap, cumulative and
// interval loss, and the last sender report's time with the delay since it.
func TestUpstreamStatsReportLossAcrossAWrap(t *testing.T) {
	s := &upstreamStats{}
	now := time.Now()
	for i, seq := range []uint16{65530, 65531, 65532, 65533, 65534, 65535, 0, 1, 2, 5, 6, 7, 8, 9} { // 3 and 4 lost
		s.packet(seq, uint32(i)*960, now.Add(time.Duration(i)*20*time.Millisecond))
	}
	s.senderReport(0x0000_1234_5678_0000, now)
	b, ok := s.block(7, now.Add(time.Second))
	if !ok {
		t.Fatal("no block")
	}
	if b.SSRC != 7 || b.LastSequenceNumber != 1<<16+9 || b.TotalLost != 2 || b.FractionLost != 2*256/16 {
		t.Fatalf("block %+v", b)
	}
	if b.LastSenderReport != 0x1234_5678 || b.Delay != 65536 {
		t.Fatalf("sender report fields %+v", b)
	}
	if _, ok := s.block(7, now); ok {
		t.Fatal("a block with nothing received since the last one")
	}
	// Late and duplicate packets count as received and do not move the highest sequence number.
	s.packet(4, 0, now)
	s.packet(9, 0, now)
	s.packet(10, 11*960, now)
	b, _ = s.block(7, now)
	if b.LastSequenceNumber != 1<<16+10 || b.TotalLost != 0 || b.FractionLost != 0 {
		t.Fatalf("after late packets %+v", b)
	}
}

func loopbackUDP(t testing.TB) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// The media socket's own reads and writes: the sender's address, a read that waits for its packet, deadlines (pion's
// mux goes on after a timeout) and close (the mux ends).
func TestMediaSocketReadsAndWritesDatagrams(t *testing.T) {
	s := newMediaSocket(loopbackUDP(t))
	c := loopbackUDP(t)
	caddr := c.LocalAddr().(*net.UDPAddr).AddrPort()
	saddr := s.LocalAddr().(*net.UDPAddr).AddrPort()

	got := make(chan string, 1)
	go func() {
		b := make([]byte, 1500)
		n, from, err := s.ReadFromAddrPort(b)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- string(b[:n]) + " from " + from.String()
	}()
	time.Sleep(50 * time.Millisecond) // the read waits on the poller
	if _, err := c.WriteToUDPAddrPort([]byte("hello"), saddr); err != nil {
		t.Fatal(err)
	}
	select {
	case g := <-got:
		if want := "hello from " + caddr.String(); g != want {
			t.Fatalf("read %q, want %q", g, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the read did not return")
	}

	if n, err := s.WriteToAddrPort([]byte("back"), caddr); err != nil || n != 4 {
		t.Fatalf("write %d %v", n, err)
	}
	// The direct path's batch: two copies leave in one call, in order, each counted as written.
	bt := batches.Get().(*sendBatch)
	d := &Downstream{}
	for _, m := range []string{"now", "then"} {
		bt.add(append(bt.slot(s)[:0], m...), caddr, d, len(m))
	}
	bt.flush()
	batches.Put(bt)
	b := make([]byte, 1500)
	for _, want := range []string{"back", "now", "then"} {
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		n, from, err := c.ReadFromUDPAddrPort(b)
		if err != nil || string(b[:n]) != want || from != saddr {
			t.Fatalf("client read %q from %v: %v", b[:n], from, err)
		}
	}

	// An inbound entry under the client's address takes what it handles; the rest reaches the reader.
	s.watch(caddr, &inbound{})
	rr := rtcpBytes(t, &rtcp.ReceiverReport{SSRC: 5})
	for _, m := range [][]byte{rr, rr, []byte("last")} {
		if _, err := c.WriteToUDPAddrPort(m, saddr); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []int{4} { // the receiver reports are dropped
		_ = s.SetReadDeadline(time.Now().Add(5 * time.Second))
		n, _, err := s.ReadFromAddrPort(b)
		if err != nil || n != want {
			t.Fatalf("read %d bytes (%v), want %d", n, err, want)
		}
	}

	_ = s.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	if _, _, err := s.ReadFromAddrPort(b); !os.IsTimeout(err) {
		t.Fatalf("read past its deadline: %v", err)
	}
	_ = s.SetReadDeadline(time.Time{})
	done := make(chan error, 1)
	go func() {
		_, _, err := s.ReadFromAddrPort(b)
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	_ = s.Close()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("read after close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("close did not end the read")
	}
	if _, err := s.WriteToAddrPort([]byte("x"), netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), 9)); err == nil {
		t.Fatal("write on a closed socket")
	}
	// Copies a batch could not send are taken back from their listener's counts (sender reports, Written).
	bt = batches.Get().(*sendBatch)
	defer batches.Put(bt)
	d.packets, d.octets = 5, 50
	d.written.Store(5)
	bt.add(append(bt.slot(s)[:0], "lost"...), caddr, d, 4)
	bt.flush()
	d.mu.Lock()
	d.foldLocked()
	d.mu.Unlock()
	if d.packets != 4 || d.octets != 46 || d.Written() != 4 {
		t.Fatalf("after a copy the closed socket dropped: packets %d, octets %d, written %d; want 4, 46, 4",
			d.packets, d.octets, d.Written())
	}
	// A batch may leave under the lock of a track whose copy it drops: a video frame's batch, flushed by slot
	// when the next copy is for another socket, holds the writing track's earlier copies.
	flushed := make(chan struct{})
	go func() {
		defer close(flushed)
		d.mu.Lock()
		defer d.mu.Unlock()
		bt.add(append(bt.slot(s)[:0], "lost"...), caddr, d, 4)
		bt.flush()
	}()
	select {
	case <-flushed:
	case <-time.After(5 * time.Second):
		t.Fatal("a flush under the lock of the track whose copy it dropped did not return")
	}
}

// A recording's pages reach its file at most once a recordFlush, the writer's position is the gathered end, and
// a rewrite of an earlier page lands after what was gathered.
func TestPageFileGathersPagesAndRewritesInPlace(t *testing.T) {
	f, err := os.Create(t.TempDir() + "/r.ogg")
	if err != nil {
		t.Fatal(err)
	}
	p := &pageFile{f: f}
	onDisk := func() int64 {
		st, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	if _, err := p.Write([]byte("head")); err != nil { // the first write goes out at once
		t.Fatal(err)
	}
	for range 100 {
		if _, err := p.Write([]byte("page")); err != nil {
			t.Fatal(err)
		}
	}
	if got := onDisk(); got != 4 {
		t.Fatalf("%d bytes on disk within a second, want 4", got)
	}
	if off, err := p.Seek(0, io.SeekCurrent); err != nil || off != 404 {
		t.Fatalf("position %d %v", off, err)
	}
	if _, err := p.WriteAt([]byte("PAGE"), 400); err != nil {
		t.Fatal(err)
	}
	if got := onDisk(); got != 404 {
		t.Fatalf("%d bytes on disk after a rewrite, want 404", got)
	}
	p.last = time.Now().Add(-recordFlush)
	if _, err := p.Write([]byte("tail")); err != nil {
		t.Fatal(err)
	}
	if got := onDisk(); got != 408 {
		t.Fatalf("%d bytes on disk after recordFlush, want 408", got)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil || string(b[:4]) != "head" || string(b[396:]) != "pagePAGEtail" {
		t.Fatalf("file %q… %v", b[396:], err)
	}
}
