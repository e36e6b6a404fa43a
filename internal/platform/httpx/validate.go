package httpx

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxIDLen bounds an account id parameter (msId, cid, dcid): accounts.id is at most 32 characters.
const MaxIDLen = 32

// ID checks an account id parameter: trimmed, required, at most MaxIDLen characters.
func ID(name, id string) (string, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return "", BadParam(name, "required")
	}
	if len(id) > MaxIDLen {
		return "", BadParam(name, "too long")
	}
	return id, nil
}

// IDs checks a list of account ids: at most maxLen of them, each an ID, duplicates removed keeping the order.
// An empty list is a "required" 400 when required, else nil.
func IDs(name string, ids []string, maxLen int, required bool) ([]string, error) {
	if len(ids) == 0 {
		if required {
			return nil, BadParam(name, "required")
		}
		return nil, nil
	}
	if len(ids) > maxLen {
		return nil, BadParam(name, "too many")
	}
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		id, err := ID(name, id)
		if err != nil {
			return nil, err
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// RowIDs checks a list of numeric row ids (positive integers: marks, fences, alarms, groups): at most maxLen,
// duplicates removed keeping the order. An empty list is a "required" 400 when required, else nil.
func RowIDs(name string, ids []string, maxLen int, required bool) ([]int64, error) {
	if len(ids) == 0 && required {
		return nil, BadParam(name, "required")
	}
	if len(ids) > maxLen {
		return nil, BadParam(name, "too many")
	}
	seen := map[int64]bool{}
	var out []int64
	for _, v := range ids {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n <= 0 {
			return nil, BadParam(name, "not an id")
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// Text checks a free-text parameter (remark, icon): trimmed, valid UTF-8, at most maxLen characters.
func Text(name, v string, maxLen int) (string, error) {
	v = strings.TrimSpace(v)
	if !utf8.ValidString(v) || utf8.RuneCountInString(v) > maxLen {
		return "", BadParam(name, fmt.Sprintf("at most %d characters", maxLen))
	}
	return v, nil
}

// MaxOffset bounds where a page may start (pageNo−1)×pageSize: a larger pageNo is refused, never wrapped
// around (a pageNo of 2^63−1 used to overflow into page 1). A billion rows is beyond any list the server keeps.
const MaxOffset = 1 << 30

// PagingUpTo reads pageNo (from 1) and pageSize (1 to maxSize, default 1000: spec §9 "lists default page size
// 1000") into an offset and a limit; blank values take the defaults.
func PagingUpTo(pageNo, pageSize string, maxSize int) (offset, limit int, err error) {
	return PagingFrom(pageNo, pageSize, min(1000, maxSize), maxSize)
}

// PagingFrom is PagingUpTo with its own default page size (lists whose spec default is not 1000). pageNo
// may not start a page beyond MaxOffset: "400" "pageNo: 1 to N" (N for the page size asked).
func PagingFrom(pageNo, pageSize string, defSize, maxSize int) (offset, limit int, err error) {
	return PageParams{"pageNo", "pageSize"}.Read(pageNo, pageSize, defSize, maxSize)
}

// PageParams names a list's two paging parameters: pageNo and pageSize on /ds and /patrolService, page and
// limit on /broadcast (spec §7 "Broadcast service").
type PageParams struct{ Page, Size string }

// Read is PagingFrom under these names: page from 1, size 1 to maxSize (defSize when blank), no page
// starting beyond MaxOffset.
func (n PageParams) Read(page, size string, defSize, maxSize int) (offset, limit int, err error) {
	p, l := int64(1), int64(defSize)
	if strings.TrimSpace(size) != "" {
		if l, err = Int(n.Size, size); err != nil || l < 1 || l > int64(maxSize) {
			return 0, 0, BadParam(n.Size, fmt.Sprintf("1 to %d", maxSize))
		}
	}
	if strings.TrimSpace(page) != "" {
		if p, err = Int(n.Page, page); err != nil || p < 1 {
			return 0, 0, BadParam(n.Page, "from 1")
		}
		if lastPage := MaxOffset/l + 1; p > lastPage {
			return 0, 0, BadParam(n.Page, fmt.Sprintf("1 to %d", lastPage))
		}
	}
	return int((p - 1) * l), int(l), nil
}
