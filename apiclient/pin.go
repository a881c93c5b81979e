package apiclient

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// PINTokenLifetime is how long a hosted PIN token lives ("about 10
// minutes"), so screens can count down without asking the gateway.
const PINTokenLifetime = 600 // seconds

// Defaults of the set-PIN page's customCss, as the interface lists them;
// forms show them as placeholders.
const (
	DefaultPINBackgroundColor        = "#EFEFEF"
	DefaultPINTextColor              = "#000000"
	DefaultPINBackgroundColorPrimary = "#000000"
	DefaultPINTextColorPrimary       = "#FFFFFF"
	DefaultPINButtonBorderRadius     = 8
	DefaultPINPinBorderRadius        = 4
)

// SetPINStyle is the customCss of the hosted set-PIN page. Empty strings
// and nil radii are left out, so the gateway's defaults apply.
type SetPINStyle struct {
	BackgroundColor        string   `json:"backgroundColor,omitempty"`
	TextColor              string   `json:"textColor,omitempty"`
	BackgroundColorPrimary string   `json:"backgroundColorPrimary,omitempty"`
	TextColorPrimary       string   `json:"textColorPrimary,omitempty"`
	ButtonBorderRadius     *float64 `json:"buttonBorderRadius,omitempty"`
	PinBorderRadius        *float64 `json:"pinBorderRadius,omitempty"`
	// PinBorderColor defaults to the effective BackgroundColorPrimary.
	PinBorderColor string `json:"pinBorderColor,omitempty"`
}

// IsZero reports whether no field is set (nothing to send).
func (s SetPINStyle) IsZero() bool { return s == SetPINStyle{} }

// SetPINRequest is the body of POST /v1/card/set-pin/token; every field is
// optional.
type SetPINRequest struct {
	// RedirectURL is where the page goes when done or cancelled; used only
	// when IsEmbedded is false.
	RedirectURL string `json:"redirectUrl,omitempty"`
	// IsEmbedded makes the page post {type:"abort"} to its parent instead
	// of redirecting.
	IsEmbedded bool         `json:"isEmbedded"`
	CustomCSS  *SetPINStyle `json:"customCss,omitempty"`
}

// SetPINToken is the answer of the set-PIN token request. The hosted page
// URL may be shown (it is the page where the user types the PIN).
type SetPINToken struct {
	Token         string `json:"token"`
	HostedPageURL string `json:"hostedPageUrl"`
	Extra         Extra  `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// PINImageStyle is the customCss of the view-PIN image.
type PINImageStyle struct {
	BackgroundColor string `json:"backgroundColor,omitempty"`
	TextColor       string `json:"textColor,omitempty"`
}

// CardDetailsStyle is the customCss of the card-details image.
type CardDetailsStyle struct {
	CardBackgroundColor string `json:"cardBackgroundColor,omitempty"`
	CardTextColor       string `json:"cardTextColor,omitempty"`
	PanBackgroundColor  string `json:"panBackgroundColor,omitempty"`
	PanTextColor        string `json:"panTextColor,omitempty"`
}

// ImageToken is the answer of the view-PIN and card-details token
// requests. ImageURL shows the PIN or the full card number to whoever opens
// it: it must be opened in the browser and never printed, logged or stored.
// Its String and GoString hide both fields, so a stray %v cannot leak them.
type ImageToken struct {
	Token    string
	ImageURL string
}

// String hides the secret fields.
func (ImageToken) String() string { return "ImageToken{[redacted]}" }

// GoString hides the secret fields from %#v too.
func (t ImageToken) GoString() string { return t.String() }

// imageTokenBody is the wire form, kept apart so ImageToken has no JSON
// tags that would make marshalling it easy.
type imageTokenBody struct {
	Token    string `json:"token"`
	ImageURL string `json:"imageUrl"`
}

// SetPINToken asks for a single-use token (about 10 minutes) for the hosted
// set-PIN page. 404 when the user has no card.
func (c *Client) SetPINToken(ctx context.Context, req SetPINRequest) (SetPINToken, error) {
	if req.CustomCSS != nil && req.CustomCSS.IsZero() {
		req.CustomCSS = nil
	}
	out, err := answer[SetPINToken](ctx, c, request{
		op:     "SetPINToken",
		method: http.MethodPost,
		path:   "/v1/card/set-pin/token",
		body:   req,
		family: familyUser,
	})
	if err != nil {
		return SetPINToken{}, err
	}
	if out.HostedPageURL == "" {
		return SetPINToken{}, &Error{Op: "SetPINToken", Status: http.StatusOK, Message: "gateway answered without a hostedPageUrl"}
	}
	if err := checkGatewayLink("SetPINToken", out.HostedPageURL, "a usable hostedPageUrl"); err != nil {
		return SetPINToken{}, err
	}
	return out, nil
}

// PINToken asks for a single-use token whose image shows the PIN; style may
// be nil. A 422 names the offending field (customCss.backgroundColor...).
func (c *Client) PINToken(ctx context.Context, style *PINImageStyle) (ImageToken, error) {
	return c.imageToken(ctx, PINTokenCall(style))
}

// PINTokenCall declares the request PINToken sends.
func PINTokenCall(style *PINImageStyle) Call {
	return Call{request{op: "PINToken", method: http.MethodPost, path: "/v1/card/pin/token", body: customCSSBody(style), family: familyUser}}
}

// CardDetailsToken asks for a single-use token whose image shows the full
// card details; style may be nil.
func (c *Client) CardDetailsToken(ctx context.Context, style *CardDetailsStyle) (ImageToken, error) {
	return c.imageToken(ctx, CardDetailsTokenCall(style))
}

// CardDetailsTokenCall declares the request CardDetailsToken sends.
func CardDetailsTokenCall(style *CardDetailsStyle) Call {
	return Call{request{op: "CardDetailsToken", method: http.MethodPost, path: "/v1/card/details/token", body: customCSSBody(style), family: familyUser}}
}

// customCSSBody is the body of an image-token request: {"customCss": style},
// or {} when style is nil or sets nothing.
func customCSSBody[Style comparable](style *Style) any {
	var unset Style
	if style == nil || *style == unset {
		return struct{}{}
	}
	return struct {
		CustomCSS *Style `json:"customCss"`
	}{style}
}

func (c *Client) imageToken(ctx context.Context, call Call) (ImageToken, error) {
	var raw json.RawMessage
	r := call.r
	r.out = &raw
	op := r.op
	err := c.do(ctx, r)
	if err != nil {
		scrubTokens(err)
		return ImageToken{}, err
	}
	var b imageTokenBody
	if json.Unmarshal(raw, &b) != nil || b.ImageURL == "" {
		// Never quote the body: it may hold the secret link.
		return ImageToken{}, &Error{Op: op, Status: http.StatusOK, Message: "gateway answered without a readable imageUrl"}
	}
	return ImageToken(b), nil
}

// tokenParam matches a token query parameter and its value.
var tokenParam = lazyRegexp{pattern: `(?i)(token=)[^&\s"']+`}

// scrubTokens removes token query values from an error's texts, in case a
// gateway echoes an image link in an error.
func scrubTokens(err error) {
	var e *Error
	if !asError(err, &e) {
		return
	}
	e.rewriteGatewayText(func(s string) string { return tokenParam.get().ReplaceAllString(s, "${1}[redacted]") })
}

// NormalizeHexColor returns #RRGGBB in upper case for a valid #RGB or
// #RRGGBB, so colours can be compared; "" otherwise.
func NormalizeHexColor(s string) string {
	if !ValidHexColor(s) {
		return ""
	}
	s = strings.ToUpper(s)
	if len(s) == 4 {
		return "#" + strings.Repeat(s[1:2], 2) + strings.Repeat(s[2:3], 2) + strings.Repeat(s[3:4], 2)
	}
	return s
}

// ParseRadius reads a border radius typed in a form: a non-negative number
// of pixels, at most 999.
func ParseRadius(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > 999 || s == "" || strings.ContainsAny(s, "eExXpP_") {
		return 0, false
	}
	return f, true
}

// Validate checks the set-PIN customCss before it is sent: colours are hex,
// the text colour differs from its background (also against the defaults
// when only one side is set). Field names are those of the gateway's 422s.
func (s SetPINStyle) Validate() []FieldError {
	var out []FieldError
	hex := func(name, v string) {
		if v != "" && !ValidHexColor(v) {
			out = append(out, FieldError{Field: "customCss." + name, Message: "must be a hex colour such as #1A2B3C"})
		}
	}
	hex("backgroundColor", s.BackgroundColor)
	hex("textColor", s.TextColor)
	hex("backgroundColorPrimary", s.BackgroundColorPrimary)
	hex("textColorPrimary", s.TextColorPrimary)
	hex("pinBorderColor", s.PinBorderColor)
	differ := func(textName, text, textDef, bgName, bg, bgDef string) {
		if text == "" && bg == "" {
			return
		}
		t, b := NormalizeHexColor(orDefault(text, textDef)), NormalizeHexColor(orDefault(bg, bgDef))
		if t != "" && t == b {
			out = append(out, FieldError{Field: "customCss." + textName, Message: "must differ from " + bgName + " (" + b + ")"})
		}
	}
	differ("textColor", s.TextColor, DefaultPINTextColor, "backgroundColor", s.BackgroundColor, DefaultPINBackgroundColor)
	differ("textColorPrimary", s.TextColorPrimary, DefaultPINTextColorPrimary, "backgroundColorPrimary", s.BackgroundColorPrimary, DefaultPINBackgroundColorPrimary)
	radius := func(name string, v *float64) {
		if v != nil && (*v < 0 || *v > 999) {
			out = append(out, FieldError{Field: "customCss." + name, Message: "must be a number of pixels from 0 to 999"})
		}
	}
	radius("buttonBorderRadius", s.ButtonBorderRadius)
	radius("pinBorderRadius", s.PinBorderRadius)
	return out
}

// Validate checks the view-PIN customCss: both colours hex when given.
func (s PINImageStyle) Validate() []FieldError {
	var out []FieldError
	for _, f := range []struct{ name, v string }{{"backgroundColor", s.BackgroundColor}, {"textColor", s.TextColor}} {
		if f.v != "" && !ValidHexColor(f.v) {
			out = append(out, FieldError{Field: "customCss." + f.name, Message: "must be a hex colour such as #1A2B3C"})
		}
	}
	return out
}

// Validate checks the card-details customCss: every colour hex when given.
func (s CardDetailsStyle) Validate() []FieldError {
	var out []FieldError
	for _, f := range []struct{ name, v string }{
		{"cardBackgroundColor", s.CardBackgroundColor}, {"cardTextColor", s.CardTextColor},
		{"panBackgroundColor", s.PanBackgroundColor}, {"panTextColor", s.PanTextColor},
	} {
		if f.v != "" && !ValidHexColor(f.v) {
			out = append(out, FieldError{Field: "customCss." + f.name, Message: "must be a hex colour such as #1A2B3C"})
		}
	}
	return out
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
