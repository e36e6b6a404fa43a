package call

import "testing"

// The numbers a dispatcher may dial through a trunk (`call.invite {number}`): digits, an optional leading +, 3 to
// 20 of them; anything else is refused with ErrBadNumber (484) before a trunk is asked.
func TestPhoneNumber(t *testing.T) {
	for n, want := range map[string]bool{
		"5550100": true, "+4930123456": true, "112": true, "12345678901234567890": true, "+12345678901234567890": true,
		"": false, "12": false, "+12": false, "123456789012345678901": false, "555-0100": false, "++5550100": false,
		"5550100+": false, "*5550100#": false, "sip:5550100": false, " 5550100": false, "5550100\n": false,
	} {
		if got := phoneNumber.MatchString(n); got != want {
			t.Errorf("%q: %v, want %v", n, got, want)
		}
	}
}
