package selector

import "fmt"

// token is a lexical item of the label selector language.
type token int

const (
	tokError token = iota
	tokEnd
	tokClosePar
	tokComma
	tokNot // "!"
	tokDoubleEquals
	tokEquals
	tokGreater
	tokIdent
	tokIn
	tokLess
	tokNotEquals
	tokNotIn
	tokOpenPar
)

// keywords maps the literal of every token except identifiers.
var keywords = map[string]token{
	")":     tokClosePar,
	",":     tokComma,
	"!":     tokNot,
	"==":    tokDoubleEquals,
	"=":     tokEquals,
	">":     tokGreater,
	"in":    tokIn,
	"<":     tokLess,
	"!=":    tokNotEquals,
	"notin": tokNotIn,
	"(":     tokOpenPar,
}

// item is a token with the text it was read from.
type item struct {
	tok token
	lit string
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isSymbol(c byte) bool {
	switch c {
	case '=', '!', '(', ')', ',', '>', '<':
		return true
	}
	return false
}

// lexer splits a selector into items. It works on bytes, like
// apimachinery's, including its NUL quirk: a NUL byte where an item starts
// ends the input, and a NUL inside an item ends that item (and is dropped).
type lexer struct {
	s   string
	pos int
}

// word reads an identifier or a keyword ("in", "notin").
func (l *lexer) word() item {
	start := l.pos
	for l.pos < len(l.s) {
		c := l.s[l.pos]
		if c == 0 {
			lit := l.s[start:l.pos]
			l.pos++
			return classify(lit)
		}
		if isSymbol(c) || isSpace(c) {
			break
		}
		l.pos++
	}
	return classify(l.s[start:l.pos])
}

func classify(s string) item {
	if t, ok := keywords[s]; ok {
		return item{t, s}
	}
	return item{tokIdent, s}
}

// symbol reads the longest operator made of symbol characters: "!=" rather
// than "!", and "==" rather than "=". "=!" is "=" followed by "!".
func (l *lexer) symbol() item {
	var buf []byte
	last := item{}
	for l.pos < len(l.s) {
		c := l.s[l.pos]
		if c == 0 {
			l.pos++
			break
		}
		if !isSymbol(c) {
			break
		}
		buf = append(buf, c)
		if t, ok := keywords[string(buf)]; ok {
			last = item{t, string(buf)}
		} else if last.tok != tokError {
			break
		}
		l.pos++
	}
	if last.tok == tokError {
		return item{tokError, fmt.Sprintf("error expected: keyword found '%s'", buf)}
	}
	return last
}

// lex returns the next item, skipping white space.
func (l *lexer) lex() item {
	for l.pos < len(l.s) && isSpace(l.s[l.pos]) {
		l.pos++
	}
	if l.pos >= len(l.s) {
		return item{tokEnd, ""}
	}
	c := l.s[l.pos]
	switch {
	case c == 0:
		l.pos++
		return item{tokEnd, ""}
	case isSymbol(c):
		return l.symbol()
	default:
		return l.word()
	}
}

// scanAll lexes the whole input; the last item is always tokEnd.
func scanAll(s string) []item {
	l := &lexer{s: s}
	var items []item
	for {
		it := l.lex()
		items = append(items, it)
		if it.tok == tokEnd {
			return items
		}
	}
}
