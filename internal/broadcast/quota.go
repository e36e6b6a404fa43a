package broadcast

import "tenfour/internal/platform/quota"

// Usage is the bytes of a customer's library files (their transcoded size, what is kept): a source of the
// storage quota (Options.Quota), shared with the file store's uploads.
var Usage = quota.SumSize("bc_files")
