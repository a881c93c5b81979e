package sandbox

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"
	"strings"
)

// font5x7 is a tiny built-in bitmap font (5 columns, 7 rows a glyph), enough
// for PINs, card numbers, names and labels without a font dependency.
// Made at the first image drawn.
var font5x7 = lazy[map[rune][7]string]{build: func() map[rune][7]string {
	return map[rune][7]string{
		'0': {".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."},
		'1': {"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."},
		'2': {".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"},
		'3': {"#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."},
		'4': {"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."},
		'5': {"#####", "#....", "####.", "....#", "....#", "#...#", ".###."},
		'6': {"..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."},
		'7': {"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."},
		'8': {".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."},
		'9': {".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."},
		'A': {".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
		'B': {"####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."},
		'C': {".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."},
		'D': {"###..", "#..#.", "#...#", "#...#", "#...#", "#..#.", "###.."},
		'E': {"#####", "#....", "#....", "####.", "#....", "#....", "#####"},
		'F': {"#####", "#....", "#....", "####.", "#....", "#....", "#...."},
		'G': {".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"},
		'H': {"#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
		'I': {".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."},
		'J': {"..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."},
		'K': {"#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"},
		'L': {"#....", "#....", "#....", "#....", "#....", "#....", "#####"},
		'M': {"#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"},
		'N': {"#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"},
		'O': {".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
		'P': {"####.", "#...#", "#...#", "####.", "#....", "#....", "#...."},
		'Q': {".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"},
		'R': {"####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"},
		'S': {".####", "#....", "#....", ".###.", "....#", "....#", "####."},
		'T': {"#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."},
		'U': {"#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
		'V': {"#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."},
		'W': {"#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."},
		'X': {"#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"},
		'Y': {"#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."},
		'Z': {"#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"},
		' ': {".....", ".....", ".....", ".....", ".....", ".....", "....."},
		'/': {"....#", "....#", "...#.", "..#..", ".#...", "#....", "#...."},
		':': {".....", "..#..", "..#..", ".....", "..#..", "..#..", "....."},
		'-': {".....", ".....", ".....", "#####", ".....", ".....", "....."},
		'.': {".....", ".....", ".....", ".....", ".....", ".##..", ".##.."},
		'*': {".....", "..#..", "#.#.#", ".###.", "#.#.#", "..#..", "....."},
		'?': {".###.", "#...#", "....#", "...#.", "..#..", ".....", "..#.."},
	}
}}

// canvas is an RGBA image with text drawing in font5x7.
type canvas struct{ img *image.RGBA }

func newCanvas(w, h int, bg color.RGBA) canvas {
	c := canvas{img: image.NewRGBA(image.Rect(0, 0, w, h))}
	c.fill(0, 0, w, h, bg)
	return c
}

// fill paints a rectangle.
func (c canvas) fill(x, y, w, h int, col color.RGBA) {
	r := image.Rect(x, y, x+w, y+h).Intersect(c.img.Rect)
	for py := r.Min.Y; py < r.Max.Y; py++ {
		for px := r.Min.X; px < r.Max.X; px++ {
			c.img.SetRGBA(px, py, col)
		}
	}
}

// text draws s (upper-cased; unknown runes as '?') at x, y with each font
// pixel scale x scale, and returns the width drawn.
func (c canvas) text(x, y, scale int, s string, col color.RGBA) int {
	start := x
	font := font5x7.get()
	for _, r := range strings.ToUpper(s) {
		g, ok := font[r]
		if !ok {
			g = font['?']
		}
		for row, line := range g {
			for columnIndex := 0; columnIndex < len(line); columnIndex++ {
				if line[columnIndex] == '#' {
					c.fill(x+columnIndex*scale, y+row*scale, scale, scale, col)
				}
			}
		}
		x += 6 * scale
	}
	return x - start
}

// textWidth is the width text would take at scale.
func textWidth(s string, scale int) int { return len([]rune(s)) * 6 * scale }

// rgb reads a validated #RRGGBB colour.
func rgb(hexColor string) color.RGBA {
	v, err := strconv.ParseUint(strings.TrimPrefix(normHex(hexColor), "#"), 16, 32)
	if err != nil {
		return color.RGBA{0, 0, 0, 255}
	}
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
}

// pinImage renders the view-PIN image: the PIN large, in the requested
// colours.
func pinImage(pin, last4 string, colors map[string]string) []byte {
	bg, fg := rgb(colors["backgroundColor"]), rgb(colors["textColor"])
	c := newCanvas(360, 200, bg)
	c.text(24, 24, 3, "CARD PIN", fg)
	c.text((360-textWidth(pin, 10))/2, 70, 10, pin, fg)
	c.text(24, 170, 2, "CARD **** "+last4, fg)
	return encodePNG(c.img)
}

// detailsImage renders the card-details image: the full number on its own
// band, expiry, CVV and holder, in the requested colours.
func detailsImage(holder, pan, expiry, cvv string, colors map[string]string) []byte {
	cardBG, cardFG := rgb(colors["cardBackgroundColor"]), rgb(colors["cardTextColor"])
	panBG, panFG := rgb(colors["panBackgroundColor"]), rgb(colors["panTextColor"])
	c := newCanvas(540, 320, cardBG)
	c.text(28, 28, 3, "DEBIT CARD", cardFG)
	c.fill(20, 100, 500, 64, panBG)
	grouped := pan[0:4] + " " + pan[4:8] + " " + pan[8:12] + " " + pan[12:16]
	c.text((540-textWidth(grouped, 4))/2, 118, 4, grouped, panFG)
	c.text(28, 196, 2, "EXPIRES", cardFG)
	c.text(28, 218, 3, expiry, cardFG)
	c.text(220, 196, 2, "CVV", cardFG)
	c.text(220, 218, 3, cvv, cardFG)
	c.text(28, 270, 3, asciiUpper(holder, 26), cardFG)
	return encodePNG(c.img)
}

// asciiUpper keeps what the font can draw, at most n runes.
func asciiUpper(s string, n int) string {
	var b strings.Builder
	count := 0
	for _, r := range strings.ToUpper(s) {
		if count >= n {
			break
		}
		if _, ok := font5x7.get()[r]; ok {
			b.WriteRune(r)
			count++
		}
	}
	return b.String()
}

func encodePNG(img image.Image) []byte {
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

// cardPAN is the sandbox's full card number for a card: 16 digits ending in
// its last4, Luhn-valid, stable for the card id.
func cardPAN(cardID, last4 string) string {
	d := make([]byte, 16)
	d[0] = '4'
	h := hashNum("pan/" + cardID)
	for i := 1; i < 11; i++ {
		h = (h*1103515245 + 12345) % 2147483648
		d[i] = byte('0' + h%10)
	}
	copy(d[12:], fmt.Sprintf("%04s", last4))
	for k := 0; k < 10; k++ {
		d[11] = byte('0' + k)
		if luhnValid(d) {
			break
		}
	}
	return string(d)
}

func luhnValid(d []byte) bool {
	sum := 0
	for i := len(d) - 1; i >= 0; i-- {
		v := int(d[i] - '0')
		if (len(d)-1-i)%2 == 1 {
			v *= 2
			if v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return sum%10 == 0
}

// detailsImageRoute: GET /details-image?token= serves the PIN or the card
// details as a PNG, once.
func (s *Server) detailsImageRoute(w http.ResponseWriter, r *http.Request) {
	raw := r.URL.Query().Get("token")
	s.mu.Lock()
	kind := ""
	if t := s.pinStore().tokens[raw]; t != nil {
		kind = t.kind
	}
	s.mu.Unlock()
	if kind != tokViewPIN && kind != tokDetails {
		kind = tokViewPIN // unknown tokens get the same refusal
	}
	t, status, msg := s.takeToken(raw, kind)
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	if t == nil {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(msg + "\n"))
		return
	}
	s.mu.Lock()
	var card *cardRecord
	if u := t.be.users[t.userID]; u != nil && u.Card != nil && u.Card.ID == t.cardID {
		cp := *u.Card
		card = &cp
	}
	pin := s.cardPIN(t.cardID)
	s.mu.Unlock()
	if card == nil {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusGone)
		_, _ = w.Write([]byte("The card this link was issued for is no longer active.\n"))
		return
	}
	var img []byte
	if t.kind == tokViewPIN {
		img = pinImage(pin, card.Last4, t.colors)
	} else {
		exp := card.Expiry // YYYY/MM -> MM/YY
		if len(exp) == 7 {
			exp = exp[5:7] + "/" + exp[2:4]
		}
		cvv := fmt.Sprintf("%03d", hashNum("cvv/"+card.ID)%1000)
		img = detailsImage(card.HolderName, cardPAN(card.ID, card.Last4), exp, cvv, t.colors)
	}
	h.Set("Content-Type", "image/png")
	h.Set("Content-Length", strconv.Itoa(len(img)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(img)
}
