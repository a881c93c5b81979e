package apiclient

// The syntax checks of the array stream (jsonstream.go): each scan finds
// where one JSON value ends while checking it as encoding/json would, so
// an element is handed on only when it is whole and well formed.

func skipSpaceBytes(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanValue checks the JSON value starting at b[i] (after white space) and
// returns the index just past it.
func scanValue(b []byte, i, depth int) (int, scanStatus) {
	i = skipSpaceBytes(b, i)
	if i >= len(b) {
		return i, scanShort
	}
	switch c := b[i]; {
	case c == '"':
		return scanString(b, i)
	case c == '{' || c == '[':
		if depth >= maxNesting {
			return i, scanBad
		}
		return scanContainer(b, i, depth+1)
	case c == 't':
		return scanLiteral(b, i, "true")
	case c == 'f':
		return scanLiteral(b, i, "false")
	case c == 'n':
		return scanLiteral(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return scanNumber(b, i)
	}
	return i, scanBad
}

// scanContainer checks an object or an array starting at b[i].
func scanContainer(b []byte, i, depth int) (int, scanStatus) {
	object := b[i] == '{'
	closing := byte(']')
	if object {
		closing = '}'
	}
	i = skipSpaceBytes(b, i+1)
	if i >= len(b) {
		return i, scanShort
	}
	if b[i] == closing {
		return i + 1, scanOK
	}
	for {
		var st scanStatus
		if object {
			if b[i] != '"' {
				return i, scanBad
			}
			if i, st = scanString(b, i); st != scanOK {
				return i, st
			}
			if i = skipSpaceBytes(b, i); i >= len(b) {
				return i, scanShort
			}
			if b[i] != ':' {
				return i, scanBad
			}
			i++
		}
		if i, st = scanValue(b, i, depth); st != scanOK {
			return i, st
		}
		if i = skipSpaceBytes(b, i); i >= len(b) {
			return i, scanShort
		}
		switch b[i] {
		case ',':
			if i = skipSpaceBytes(b, i+1); i >= len(b) {
				return i, scanShort
			}
		case closing:
			return i + 1, scanOK
		default:
			return i, scanBad
		}
	}
}

// scanString checks a string literal starting at b[i] (a quote).
func scanString(b []byte, i int) (int, scanStatus) {
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1, scanOK
		case c < 0x20:
			return j, scanBad
		case c == '\\':
			if j+1 >= len(b) {
				return j, scanShort
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				for k := j + 2; k < j+6; k++ {
					if k >= len(b) {
						return k, scanShort
					}
					if !isHex(b[k]) {
						return k, scanBad
					}
				}
				j += 5
			default:
				return j, scanBad
			}
		}
	}
	return len(b), scanShort
}

// scanLiteral checks true, false or null at b[i].
func scanLiteral(b []byte, i int, lit string) (int, scanStatus) {
	for k := 0; k < len(lit); k++ {
		if i+k >= len(b) {
			return i + k, scanShort
		}
		if b[i+k] != lit[k] {
			return i + k, scanBad
		}
	}
	return i + len(lit), scanOK
}

// scanNumber checks a number at b[i]: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
// A number running to the end of b is scanShort: more digits may follow.
func scanNumber(b []byte, i int) (int, scanStatus) {
	digits := func(j int) (int, scanStatus) {
		start := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j >= len(b) {
			return j, scanShort
		}
		if j == start {
			return j, scanBad
		}
		return j, scanOK
	}
	j := i
	if b[j] == '-' {
		j++
	}
	if j >= len(b) {
		return j, scanShort
	}
	var st scanStatus
	switch {
	case b[j] == '0':
		j++
	case b[j] >= '1' && b[j] <= '9':
		if j, st = digits(j); st != scanOK {
			return j, st
		}
	default:
		return j, scanBad
	}
	if j >= len(b) {
		return j, scanShort
	}
	if b[j] == '.' {
		if j, st = digits(j + 1); st != scanOK {
			return j, st
		}
	}
	if b[j] == 'e' || b[j] == 'E' {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if j, st = digits(j); st != scanOK {
			return j, st
		}
	}
	return j, scanOK
}
