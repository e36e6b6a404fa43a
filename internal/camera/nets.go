package camera

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"slices"
)

// Networks are where the operator lets the server pull cameras from (--camera-allow-nets); empty: anywhere,
// internal and link-local addresses included (docs/security.md "Camera addresses").
type Networks []netip.Prefix

// allows tells whether a is inside one of the networks (any address when there are none).
func (n Networks) allows(a netip.Addr) bool {
	if len(n) == 0 {
		return true
	}
	a = a.WithZone("").Unmap()
	for _, p := range n {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// checkLiteral refuses, at add and update, a camera whose host is an IP address outside the networks; a name
// is checked where it resolves, at every pull (pinned).
func (n Networks) checkLiteral(raw string) error {
	if len(n) == 0 {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ErrNetworkNotAllowed
	}
	if a, err := netip.ParseAddr(u.Hostname()); err == nil && !n.allows(a) {
		return ErrNetworkNotAllowed
	}
	return nil
}

// pinned is the address ffmpeg is given for a pull: with networks set, the host is resolved now and an address
// it resolves to inside them replaces the name, so DNS cannot answer ffmpeg otherwise a
// moment later (the first address inside is used; none inside: ErrNetworkNotAllowed). Without networks the
// address is used as registered.
func (n Networks) pinned(ctx context.Context, raw string) (string, error) {
	if len(n) == 0 {
		return raw, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", ErrNetworkNotAllowed
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		if !n.allows(a) {
			return "", ErrNetworkNotAllowed
		}
		return raw, nil
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return "", ErrOffline
	}
	i := slices.IndexFunc(addrs, n.allows)
	if i < 0 {
		return "", ErrNetworkNotAllowed
	}
	a := addrs[i].WithZone("").Unmap()
	ip := a.String()
	if port := u.Port(); port != "" {
		u.Host = net.JoinHostPort(ip, port)
	} else if a.Is6() {
		u.Host = "[" + ip + "]"
	} else {
		u.Host = ip
	}
	return u.String(), nil
}
