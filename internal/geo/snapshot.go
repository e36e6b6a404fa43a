package geo

import (
	"compress/gzip"
	"encoding/binary"
	"hash/fnv"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// Snapshot layout of /static/gps/gps_{x}.bin (docs/geo.md "gps_{x}.bin"), all little-endian:
//
//	header (24 bytes): magic "T4GP" · version u16 (1) · record size u16 (24, the fixed part) · count u32 ·
//	                   reserved u32 · generated-at i64 (UTC ms)
//	record × count:    lat i32 (degrees × 1e7) · lng i32 (× 1e7) · time i64 (fix, UTC ms) ·
//	                   speed u16 (cm/s) · direction u16 (0.01°) · altitude i16 (m) · battery i8 (-1 unknown) ·
//	                   signal i8 (-1 unknown) · id length u8 · id (UTF-8)
const (
	snapMagic   = "T4GP"
	snapVersion = 1
	snapHeader  = 24
	snapRecord  = 24
)

var snapName = regexp.MustCompile(`^gps_([0-9]{1,19})\.bin$`)

// EncodeSnapshot writes the binary snapshot of lives (terminals without a fix are left out), ordered by id.
func EncodeSnapshot(lives []Live, generatedAt int64) []byte {
	lives = slices.DeleteFunc(slices.Clone(lives), func(l Live) bool { return l.Lat == nil || len(l.MsID) > 255 })
	slices.SortFunc(lives, func(a, b Live) int { return strings.Compare(a.MsID, b.MsID) })
	size := snapHeader
	for _, l := range lives {
		size += snapRecord + 1 + len(l.MsID)
	}
	b := make([]byte, 0, size)
	le := binary.LittleEndian
	b = append(b, snapMagic...)
	b = le.AppendUint16(b, snapVersion)
	b = le.AppendUint16(b, snapRecord)
	b = le.AppendUint32(b, uint32(len(lives)))
	b = le.AppendUint32(b, 0)
	b = le.AppendUint64(b, uint64(generatedAt))
	for _, l := range lives {
		b = le.AppendUint32(b, uint32(int32(math.Round(*l.Lat*1e7))))
		b = le.AppendUint32(b, uint32(int32(math.Round(*l.Lng*1e7))))
		b = le.AppendUint64(b, uint64(l.Time))
		b = le.AppendUint16(b, uint16(clamp(math.Round(*l.Speed*100), 0, math.MaxUint16)))
		b = le.AppendUint16(b, uint16(clamp(math.Round(*l.Direction*100), 0, 36000)))
		b = le.AppendUint16(b, uint16(int16(clamp(math.Round(*l.Altitude), math.MinInt16, math.MaxInt16))))
		b = append(b, byte(int8(orMinus1(l.Battery))), byte(int8(orMinus1(l.Signal))), byte(len(l.MsID)))
		b = append(b, l.MsID...)
	}
	return b
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

func orMinus1(v *int) int {
	if v == nil {
		return -1
	}
	return *v
}

// snapshot serves GET /static/gps/gps_{x}.bin where x is the caller's customer id (another value is 404).
// The ETag covers the records, so a reload with If-None-Match costs a 304 while nothing moved.
func (s *Service) snapshot(w http.ResponseWriter, r *http.Request) {
	p := identity.Must(r.Context())
	m := snapName.FindStringSubmatch(r.PathValue("file"))
	if m == nil || m[1] != strconv.FormatInt(p.CustomerID, 10) {
		httpx.WriteError(w, r, httpx.ErrNotFound)
		return
	}
	body := EncodeSnapshot(s.cache.customer(p.CustomerID), s.now().UnixMilli())
	h := fnv.New64a()
	_, _ = h.Write(body[snapHeader:])
	etag := `"` + strconv.FormatUint(h.Sum64(), 36) + `-` + strconv.Itoa(len(body)) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "private, no-cache")
	w.Header().Set("Vary", "Accept-Encoding")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	if httpx.AcceptsEncoding(r, "gzip") && len(body) > 1024 {
		w.Header().Set("Content-Encoding", "gzip")
		gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
		_, _ = gz.Write(body)
		_ = gz.Close()
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}
