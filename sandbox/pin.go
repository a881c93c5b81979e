package sandbox

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// pinTokenLife is how long a hosted PIN token lives: "about 10 minutes".
const pinTokenLife = 10 * time.Minute

// Kinds of hosted PIN tokens; a token only opens the page of its kind.
const (
	tokSetPIN  = "set-pin"
	tokViewPIN = "view-pin"
	tokDetails = "card-details"
)

// pinState is the hosted-PIN state of a Server, guarded by Server.mu.
type pinState struct {
	tokens map[string]*pinToken // by token
	pages  map[string]*pinPage  // open set-PIN pages by session id
	pins   map[string]string    // PIN set on the hosted page, by card id
}

// pinToken is one issued token, bound to the user and card it was issued for.
type pinToken struct {
	kind   string
	be     *backend
	userID string
	cardID string
	issued time.Time
	used   bool

	// set-PIN page
	redirectURL string
	embedded    bool
	css         setPINCSS

	// images: colours as #RRGGBB
	colors map[string]string
}

// setPINCSS is the set-PIN page's customCss with the interface's defaults
// applied.
type setPINCSS struct {
	BackgroundColor, TextColor               string
	BackgroundColorPrimary, TextColorPrimary string
	ButtonBorderRadius, PinBorderRadius      float64
	PinBorderColor                           string
}

// pinPage is a set-PIN page that was opened: its form may be posted until
// the token's lifetime ends or the PIN is set.
type pinPage struct{ tok *pinToken }

// pinStore returns the state, creating it on first use; s.mu must be held.
func (s *Server) pinStore() *pinState {
	if s.pin.tokens == nil {
		s.pin = pinState{tokens: map[string]*pinToken{}, pages: map[string]*pinPage{}, pins: map[string]string{}}
	}
	return &s.pin
}

// expired reports whether the token's lifetime is over at now.
func (t *pinToken) expired(now time.Time) bool { return !now.Before(t.issued.Add(pinTokenLife)) }

// randomToken is a random UUID (version 4): hosted tokens must not be
// guessable, unlike the seeded ids.
func randomToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// issuePINToken stores a new token for the caller's card; it answers 404 and
// returns "" when the user has no card.
func (s *Server) issuePINToken(c *call, t *pinToken) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.user.Card == nil {
		c.fail(http.StatusNotFound, "Card not found")
		return ""
	}
	st := s.pinStore()
	now := s.now()
	// Forget what can no longer be used, so the maps stay small.
	for k, old := range st.tokens {
		if old.expired(now) {
			delete(st.tokens, k)
		}
	}
	for k, p := range st.pages {
		if p.tok.expired(now) {
			delete(st.pages, k)
		}
	}
	t.be, t.userID, t.cardID, t.issued = c.be, c.user.ID, c.user.Card.ID, now
	tok := randomToken()
	st.tokens[tok] = t
	return tok
}

// cssObject reads an optional customCss member as raw members, answering
// 422 when it is not an object.
func cssObject(c *call, raw json.RawMessage) (map[string]json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		writeValidation(c.w, http.StatusUnprocessableEntity, "Validation failed",
			fieldError{"customCss", "customCss must be an object"})
		return nil, false
	}
	return m, true
}

// cssColors reads the named colour members of customCss into #RRGGBB
// values (defaults where absent) and collects the validation errors.
func cssColors(css map[string]json.RawMessage, defaults map[string]string, names ...string) (map[string]string, []fieldError) {
	out := map[string]string{}
	var errs []fieldError
	for _, n := range names {
		out[n] = defaults[n]
		raw, ok := css[n]
		if !ok || string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		var v string
		if json.Unmarshal(raw, &v) != nil {
			errs = append(errs, fieldError{"customCss." + n, "Must be a string holding a hex color"})
			continue
		}
		norm := normHex(v)
		if norm == "" {
			errs = append(errs, fieldError{"customCss." + n, "Invalid hex color format (use #RGB or #RRGGBB)"})
			continue
		}
		out[n] = norm
	}
	return out, errs
}

// normHex returns #RRGGBB (upper case) for #RGB or #RRGGBB, else "".
func normHex(s string) string {
	if (len(s) != 4 && len(s) != 7) || s[0] != '#' {
		return ""
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return ""
		}
	}
	s = strings.ToUpper(s)
	if len(s) == 4 {
		return string([]byte{'#', s[1], s[1], s[2], s[2], s[3], s[3]})
	}
	return s
}

// mustDiffer adds an error when a text colour equals its background.
func mustDiffer(errs []fieldError, colors map[string]string, text, bg string) []fieldError {
	if colors[text] != "" && colors[text] == colors[bg] {
		errs = append(errs, fieldError{"customCss." + text, "Must differ from " + bg})
	}
	return errs
}

// setPINToken: POST /v1/card/set-pin/token {redirectUrl, isEmbedded,
// customCss} -> {token, hostedPageUrl}. The interface lists no validation
// error for this operation, so a customCss value that is not a hex colour
// or a number, or a text colour equal to its background, is dropped for
// the default (the page stays readable), and a redirectUrl that is not an
// absolute http(s) URL is ignored (the page then shows its own end page).
func (s *Server) setPINToken(c *call) {
	var in struct {
		RedirectURL *string         `json:"redirectUrl"`
		IsEmbedded  *bool           `json:"isEmbedded"`
		CustomCSS   json.RawMessage `json:"customCss"`
	}
	if !c.decode(&in) {
		return
	}
	var css map[string]json.RawMessage
	_ = json.Unmarshal(bytes.TrimSpace(in.CustomCSS), &css) // not an object: defaults
	defaults := map[string]string{
		"backgroundColor": "#EFEFEF", "textColor": "#000000",
		"backgroundColorPrimary": "#000000", "textColorPrimary": "#FFFFFF",
	}
	colors, _ := cssColors(css, defaults, "backgroundColor", "textColor", "backgroundColorPrimary", "textColorPrimary", "pinBorderColor")
	for _, p := range [][2]string{{"textColor", "backgroundColor"}, {"textColorPrimary", "backgroundColorPrimary"}} {
		if colors[p[0]] == colors[p[1]] {
			colors[p[0]], colors[p[1]] = defaults[p[0]], defaults[p[1]]
		}
	}
	if colors["pinBorderColor"] == "" {
		colors["pinBorderColor"] = colors["backgroundColorPrimary"]
	}
	radius := func(name string, def float64) float64 {
		var f float64
		if raw, ok := css[name]; ok && json.Unmarshal(raw, &f) == nil && f >= 0 && f <= 999 {
			return f
		}
		return def
	}
	t := &pinToken{kind: tokSetPIN, css: setPINCSS{
		BackgroundColor: colors["backgroundColor"], TextColor: colors["textColor"],
		BackgroundColorPrimary: colors["backgroundColorPrimary"], TextColorPrimary: colors["textColorPrimary"],
		ButtonBorderRadius: radius("buttonBorderRadius", 8), PinBorderRadius: radius("pinBorderRadius", 4),
		PinBorderColor: colors["pinBorderColor"],
	}}
	if in.IsEmbedded != nil {
		t.embedded = *in.IsEmbedded
	}
	if in.RedirectURL != nil && *in.RedirectURL != "" {
		if u, err := url.Parse(*in.RedirectURL); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			t.redirectURL = u.String()
		}
	}
	tok := s.issuePINToken(c, t)
	if tok == "" {
		return
	}
	c.json(http.StatusOK, map[string]string{
		"token":         tok,
		"hostedPageUrl": s.publicBase(c.r) + "/pin-direct/set?token=" + url.QueryEscape(tok),
	})
}

// imageTokenRoute answers POST /v1/card/pin/token and
// /v1/card/details/token: validate customCss, issue a token for the image.
func (s *Server) imageTokenRoute(kind string, defaults map[string]string, pairs [][2]string, names ...string) func(*call) {
	return func(c *call) {
		var in struct {
			CustomCSS json.RawMessage `json:"customCss"`
		}
		if !c.decode(&in) {
			return
		}
		css, ok := cssObject(c, in.CustomCSS)
		if !ok {
			return
		}
		colors, errs := cssColors(css, defaults, names...)
		for _, p := range pairs {
			errs = mustDiffer(errs, colors, p[0], p[1])
		}
		if len(errs) > 0 {
			writeValidation(c.w, http.StatusUnprocessableEntity, "Validation failed", errs...)
			return
		}
		tok := s.issuePINToken(c, &pinToken{kind: kind, colors: colors})
		if tok == "" {
			return
		}
		c.json(http.StatusOK, map[string]string{
			"token":    tok,
			"imageUrl": s.publicBase(c.r) + "/details-image?token=" + url.QueryEscape(tok),
		})
	}
}

// viewPINToken: POST /v1/card/pin/token {customCss:{backgroundColor,
// textColor}} -> {token, imageUrl}; 422 {message, errors[]} on bad colours.
func (s *Server) viewPINToken() func(*call) {
	return s.imageTokenRoute(tokViewPIN,
		map[string]string{"backgroundColor": "#FFFFFF", "textColor": "#111111"},
		[][2]string{{"textColor", "backgroundColor"}},
		"backgroundColor", "textColor")
}

// detailsToken: POST /v1/card/details/token {customCss:{cardBackgroundColor,
// cardTextColor, panBackgroundColor, panTextColor}} -> {token, imageUrl}.
func (s *Server) detailsToken() func(*call) {
	return s.imageTokenRoute(tokDetails,
		map[string]string{"cardBackgroundColor": "#1A1F36", "cardTextColor": "#FFFFFF", "panBackgroundColor": "#2E3558", "panTextColor": "#FFFFFF"},
		[][2]string{{"cardTextColor", "cardBackgroundColor"}, {"panTextColor", "panBackgroundColor"}},
		"cardBackgroundColor", "cardTextColor", "panBackgroundColor", "panTextColor")
}

// takeToken consumes a token of kind for a hosted page or image: it
// returns the token, or the status and message to refuse with.
func (s *Server) takeToken(raw, kind string) (*pinToken, int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.pinStore().tokens[raw]
	switch {
	case raw == "" || t == nil || t.kind != kind:
		return nil, http.StatusNotFound, "This link is not valid."
	case t.used:
		return nil, http.StatusGone, "This link has already been used. Ask the app for a new one."
	case t.expired(s.now()):
		return nil, http.StatusGone, "This link has expired. Ask the app for a new one."
	}
	t.used = true
	return t, http.StatusOK, ""
}

// cardPIN is the PIN of a card: the one set on the hosted page, or a
// deterministic seeded one (four digits, never all the same); s.mu held.
func (s *Server) cardPIN(cardID string) string {
	if p, ok := s.pinStore().pins[cardID]; ok {
		return p
	}
	n := hashNum("pin/"+cardID) % 10000
	pin := fmt.Sprintf("%04d", n)
	if strings.Count(pin, pin[:1]) == 4 {
		pin = pin[:3] + string('0'+(pin[3]-'0'+1)%10)
	}
	return pin
}
