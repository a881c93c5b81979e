package sandbox

import (
	"net/http"
	"time"
)

// userJSON is the wire form of the interface's User.
type userJSON struct {
	ID                   string  `json:"id"`
	FirstName            string  `json:"firstName"`
	LastName             string  `json:"lastName"`
	DateOfBirth          string  `json:"dateOfBirth"`
	Email                string  `json:"email"`
	VerificationState    string  `json:"verificationState"`
	PhoneNumber          string  `json:"phoneNumber"`
	PhoneCountryCode     string  `json:"phoneCountryCode"`
	AddressLine1         string  `json:"addressLine1"`
	AddressLine2         *string `json:"addressLine2"`
	City                 string  `json:"city"`
	Zip                  string  `json:"zip"`
	CountryOfResidence   string  `json:"countryOfResidence"`
	CountryOfNationality string  `json:"countryOfNationality"`
	USState              *string `json:"usState"`
	SSN                  *string `json:"ssn"`
	CreatedAt            string  `json:"createdAt"`
}

// maskSSN keeps only the last four digits: ***-**-6789.
func maskSSN(ssn *string) *string {
	if ssn == nil {
		return nil
	}
	s := *ssn
	if len(s) > 4 {
		s = s[len(s)-4:]
	}
	m := "***-**-" + s
	return &m
}

// toJSON renders a stored user. Caller holds s.mu.
func (u *userRecord) toJSON() userJSON {
	return userJSON{
		ID: u.ID, FirstName: u.FirstName, LastName: u.LastName, DateOfBirth: u.DateOfBirth, Email: u.Email,
		VerificationState: u.Verification, PhoneNumber: u.Phone, PhoneCountryCode: u.PhoneCC,
		AddressLine1: u.Addr1, AddressLine2: u.Addr2, City: u.City, Zip: u.Zip,
		CountryOfResidence: u.CountryRes, CountryOfNationality: u.CountryNat,
		USState: u.USState, SSN: maskSSN(u.SSN), CreatedAt: u.CreatedAt,
	}
}

// getUser: GET /v1/user, rate limited per access token (per minute) and per
// client key (per hour) on sliding windows.
func (s *Server) getUser(c *call) {
	s.mu.Lock()
	wait := s.limiter.allow(s.now(),
		rule{key: "token:" + c.token, max: s.opts.UserRateLimitPerMinute, window: time.Minute},
		rule{key: "client:" + c.cred.ClientKey, max: s.opts.UserRateLimitPerHour, window: time.Hour},
	)
	if wait > 0 {
		s.mu.Unlock()
		c.w.Header().Set("Retry-After", retryAfterSeconds(wait))
		c.fail(http.StatusTooManyRequests, "Too many requests")
		return
	}
	out := c.user.toJSON()
	s.mu.Unlock()
	c.json(http.StatusOK, out)
}
