package video

import "time"

// NewTestRecordFile is a recording row as the recorder would write it (store tests).
func NewTestRecordFile(customer int64, callID, msID, rel string, start time.Time) RecordFile {
	return RecordFile{CallID: callID, Kind: KindCall, MsID: msID, MsName: "Name " + msID, ByID: "10000001",
		Codec: "VP8", StartTime: start.UnixMilli(), DurationMs: 1000, Bytes: 1, path: rel, customer: customer}
}

// RecordPathOf is a recording's file, relative to the data directory.
func RecordPathOf(f RecordFile) string { return f.path }
