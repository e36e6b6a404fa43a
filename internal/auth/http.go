package auth

import "net/http"

// Routes mounts the sign-in pair and the account endpoints (docs/api.md "Sign-in pair", "Other account calls").
func (s *Service) Routes(mux *http.ServeMux) {
}
