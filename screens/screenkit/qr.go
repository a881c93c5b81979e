package screenkit

import (
	"strings"

	"charm.land/lipgloss/v2"
	qrcode "github.com/skip2/go-qrcode"

	"cardterm/domain/lazy"
	"cardterm/theme"
)

// QRQuietZone is the light margin, in modules, drawn around the QR code.
// The standard asks for 4; 1 is what phone scanners need in practice and
// lets a version-5 code fit an 80x24 terminal.
const QRQuietZone = 1

// QRBits encodes text as a QR symbol (lowest error correction, which keeps
// links small enough for an 80x24 terminal), without go-qrcode's border:
// RenderQR draws the quiet zone. Nil when the text cannot be encoded.
func QRBits(text string) [][]bool {
	q, err := qrcode.New(text, qrcode.Low)
	if err != nil {
		return nil
	}
	q.DisableBorder = true
	return q.Bitmap()
}

// QRLines renders a symbol for the screen: black on white whatever the
// terminal's theme, or, under NO_COLOR, with the light modules as ink.
func QRLines(bits [][]bool, st *theme.Styles) []string {
	lines := RenderQR(bits, st.NoColor)
	if !st.NoColor {
		for i, l := range lines {
			lines[i] = qrStyle.Get().Render(l)
		}
	}
	return lines
}

// QRBlock is QRLines for text, joined; "" when it cannot be encoded.
func QRBlock(text string, st *theme.Styles) string {
	bits := QRBits(text)
	if bits == nil {
		return ""
	}
	return strings.Join(QRLines(bits, st), "\n")
}

// RenderQR draws a QR symbol in half-block characters, two module rows per
// text line, with QRQuietZone light modules around it. Dark modules are
// ink (█ ▀ ▄) unless invert is set, for terminals that cannot paint a light
// background (NO_COLOR): then the light modules are ink. Exported so the
// end-to-end test can decode exactly what the screen shows.
func RenderQR(bits [][]bool, invert bool) []string {
	n := len(bits)
	size := n + 2*QRQuietZone
	dark := func(y, x int) bool {
		y, x = y-QRQuietZone, x-QRQuietZone
		d := y >= 0 && x >= 0 && y < n && x < n && bits[y][x]
		return d != invert
	}
	lines := make([]string, 0, (size+1)/2)
	for y := 0; y < size; y += 2 {
		var b strings.Builder
		for x := 0; x < size; x++ {
			top, bottom := dark(y, x), y+1 < size && dark(y+1, x)
			if y+1 >= size {
				bottom = invert // past the symbol: background
			}
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteByte(' ')
			}
		}
		lines = append(lines, b.String())
	}
	return lines
}

// qrStyle paints the code black on white whatever the terminal's theme, so
// scanners see dark modules on a light ground. Made at first use: a
// package-level style is built before main on every start.
var qrStyle = lazy.Value[lipgloss.Style]{New: func() lipgloss.Style {
	return lipgloss.NewStyle().Foreground(lipgloss.Color("#000000")).Background(lipgloss.Color("#FFFFFF"))
}}
