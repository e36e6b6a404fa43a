// Package security holds no production code: its tests replay, against a real server started by the test kit, the
// attacks of the outside security probe (issue 14) — parallel password guesses past the lockout, sign-in floods,
// sockets outliving their session, cookie-only GETs with effects, bad media packets, GPS floods, trickled bodies,
// spoofing names, paging overflow, open metrics. Each file covers one family; each test fails if its attack gets
// through. docs/security.md maps every test to the requirement it proves.
package security
