package uitest

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// ReadQR decodes a QR symbol's module matrix (dark true, no quiet zone,
// as DecodeHalfBlocks gives it) to its text: the format information, the
// mask, the data modules in their zigzag order and the numeric,
// alphanumeric and byte segments. It reads what a screen drew, so a test
// proves the code says the right text without trusting the encoder. It
// reads the symbols whose codewords are one block (versions 1 to 5 at
// level L, the app's; fewer at the higher levels), which hold any wallet
// address, and corrects no error: a symbol drawn wrong is refused.
func ReadQR(matrix [][]bool) (string, error) {
	n := len(matrix)
	version := (n - 17) / 4
	if n < 21 || (n-17)%4 != 0 || version > 5 {
		return "", fmt.Errorf("a %d-module symbol is not a version 1 to 5 QR code", n)
	}
	for _, row := range matrix {
		if len(row) != n {
			return "", errors.New("the symbol is not square")
		}
	}
	level, mask, err := readFormat(matrix)
	if err != nil {
		return "", err
	}
	// The last version whose codewords are one block, by level bits
	// (01 L, 00 M, 11 Q, 10 H).
	if oneBlock := [4]int{3, 5, 2, 2}[level]; version > oneBlock {
		return "", fmt.Errorf("version %d at this level interleaves blocks: not read here", version)
	}
	reserved := functionModules(n, version)
	var stream []bool
	for col := n - 1; col > 0; col -= 2 {
		if col == 6 {
			col-- // the vertical timing pattern
		}
		upward := ((n-1-col)/2)%2 == 0
		for k := range n {
			row := k
			if upward {
				row = n - 1 - k
			}
			for _, c := range []int{col, col - 1} {
				if !reserved[row][c] {
					stream = append(stream, matrix[row][c] != masked(mask, row, c))
				}
			}
		}
	}
	return readSegments(stream)
}

// readFormat finds the mask from the 15 format bits by the top-left
// finder: the valid format word nearest to them (at most 3 bits off).
func readFormat(m [][]bool) (level, mask int, err error) {
	word := 0
	add := func(row, col int) {
		word <<= 1
		if m[row][col] {
			word |= 1
		}
	}
	for col := 0; col <= 5; col++ {
		add(8, col)
	}
	add(8, 7)
	add(8, 8)
	add(7, 8)
	for row := 5; row >= 0; row-- {
		add(row, 8)
	}
	for data := range 32 {
		code := data << 10
		for i := 14; i >= 10; i-- {
			if code&(1<<i) != 0 {
				code ^= 0x537 << (i - 10)
			}
		}
		if valid := (data<<10 | code) ^ 0x5412; bits.OnesCount(uint(valid^word)) <= 3 {
			return data >> 3, data & 7, nil
		}
	}
	return 0, 0, errors.New("the format information cannot be read")
}

// masked is whether mask inverts the module at row, col.
func masked(mask, i, j int) bool {
	switch mask {
	case 0:
		return (i+j)%2 == 0
	case 1:
		return i%2 == 0
	case 2:
		return j%3 == 0
	case 3:
		return (i+j)%3 == 0
	case 4:
		return (i/2+j/3)%2 == 0
	case 5:
		return (i*j)%2+(i*j)%3 == 0
	case 6:
		return ((i*j)%2+(i*j)%3)%2 == 0
	}
	return ((i+j)%2+(i*j)%3)%2 == 0
}

// functionModules marks the finders with their separators and format
// areas, the timing patterns and the alignment pattern (versions 2 to 5).
func functionModules(n, version int) [][]bool {
	r := make([][]bool, n)
	for i := range r {
		r[i] = make([]bool, n)
	}
	box := func(top, left, size int) {
		for i := max(top, 0); i < min(top+size, n); i++ {
			for j := max(left, 0); j < min(left+size, n); j++ {
				r[i][j] = true
			}
		}
	}
	box(0, 0, 9)
	box(0, n-8, 8)
	r[8] = fillFrom(r[8], n-8)
	box(n-8, 0, 8)
	for i := n - 8; i < n; i++ {
		r[i][8] = true
	}
	for i := range n {
		r[6][i], r[i][6] = true, true
	}
	if version >= 2 {
		c := 4*version + 10 // the alignment pattern's centre
		box(c-2, c-2, 5)
	}
	return r
}

func fillFrom(row []bool, from int) []bool {
	for j := from; j < len(row); j++ {
		row[j] = true
	}
	return row
}

const alphanumeric = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"

// readSegments reads the data bits' segments until the terminator.
func readSegments(stream []bool) (string, error) {
	at := 0
	take := func(k int) (int, bool) {
		if at+k > len(stream) {
			return 0, false
		}
		v := 0
		for _, b := range stream[at : at+k] {
			v <<= 1
			if b {
				v |= 1
			}
		}
		at += k
		return v, true
	}
	var out strings.Builder
	for {
		mode, ok := take(4)
		if !ok || mode == 0 {
			return out.String(), nil
		}
		var err error
		switch mode {
		case 1:
			err = readNumeric(take, &out)
		case 2:
			err = readAlphanumeric(take, &out)
		case 4:
			err = readBytes(take, &out)
		default:
			err = fmt.Errorf("segment mode %04b is not read here", mode)
		}
		if err != nil {
			return "", err
		}
	}
}

var errShort = errors.New("the data ends inside a segment")

func readNumeric(take func(int) (int, bool), out *strings.Builder) error {
	count, ok := take(10)
	for ok && count > 0 {
		digits := min(count, 3)
		var v int
		if v, ok = take([]int{0, 4, 7, 10}[digits]); ok {
			fmt.Fprintf(out, "%0*d", digits, v)
		}
		count -= digits
	}
	if !ok {
		return errShort
	}
	return nil
}

func readAlphanumeric(take func(int) (int, bool), out *strings.Builder) error {
	count, ok := take(9)
	for ok && count > 1 {
		var v int
		if v, ok = take(11); ok && v/45 < 45 {
			out.WriteByte(alphanumeric[v/45])
			out.WriteByte(alphanumeric[v%45])
		}
		count -= 2
	}
	if ok && count == 1 {
		var v int
		if v, ok = take(6); ok && v < 45 {
			out.WriteByte(alphanumeric[v])
		}
	}
	if !ok {
		return errShort
	}
	return nil
}

func readBytes(take func(int) (int, bool), out *strings.Builder) error {
	count, ok := take(8)
	for ; ok && count > 0; count-- {
		var v int
		if v, ok = take(8); ok {
			out.WriteByte(byte(v))
		}
	}
	if !ok {
		return errShort
	}
	return nil
}
