package common

import (
	"math/big"
	"strings"
)

// Quantity is a parsed resource.Quantity: value = m × 10^e, plus the
// format its suffix chose (which decides its canonical spelling).
type Quantity struct {
	m      *big.Int
	e      int
	binary bool // BinarySI (Ki, Mi, ...)
	exp    bool // DecimalExponent (1e3)
}

var (
	decSuffix = map[string]int{"": 0, "n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
	binSuffix = map[string]uint{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
	big10     = big.NewInt(10)
)

// pow10 is 10^n, as new(big.Int).Exp(big10, big.NewInt(n), nil) computes
// it (1 for n ≤ 0), by multiplications: Exp links big.Int's modular
// exponentiation (Montgomery, windowed) into the browser build for
// nothing here. E.g. pow10(20) = 100000000000000000000.
func pow10(n int) *big.Int {
	r := big.NewInt(1)
	if n <= 0 {
		return r
	}
	e18 := big.NewInt(1e18)
	for ; n >= 18; n -= 18 {
		r.Mul(r, e18)
	}
	p := int64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return r.Mul(r, big.NewInt(p))
}

// ParseQuantity parses a quantity as written in JSON: a string such as
// "100m", "1.5Gi", "2e3", or a number.
func ParseQuantity(v any) (Quantity, bool) {
	switch t := v.(type) {
	case string:
		return parseQuantity(t)
	case int64:
		return Quantity{m: big.NewInt(t)}.normal(), true
	case float64:
		return parseQuantity(big.NewFloat(t).Text('f', -1))
	}
	return Quantity{}, false
}

func parseQuantity(s string) (Quantity, bool) {
	q := Quantity{}
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	whole := s[:i]
	frac := ""
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		frac, i = s[i+1:j], j
	}
	if whole == "" && frac == "" {
		return q, false
	}
	suffix := s[i:]
	m, ok := new(big.Int).SetString(whole+frac, 10)
	if !ok {
		return q, false
	}
	q.m, q.e = m, -len(frac)
	if e, ok := decSuffix[suffix]; ok {
		q.e += e
	} else if b, ok := binSuffix[suffix]; ok {
		q.m.Lsh(q.m, b)
		q.binary = true
	} else if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		n, ok := atoi(suffix[1:])
		if !ok {
			return q, false
		}
		q.e += n
		q.exp = true
	} else {
		return q, false
	}
	if neg {
		q.m.Neg(q.m)
	}
	return q.normal(), true
}

func atoi(s string) (int, bool) {
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	if s == "" || len(s) > 6 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// normal rounds to nano precision (away from zero, as Quantity does) and
// strips trailing zeros from the mantissa.
func (q Quantity) normal() Quantity {
	if q.m.Sign() == 0 {
		q.e = 0
		return q
	}
	if q.e < -9 {
		d := pow10(-9 - q.e)
		r := new(big.Int)
		neg := q.m.Sign() < 0
		a := new(big.Int).Abs(q.m)
		a.QuoRem(a, d, r)
		if r.Sign() != 0 {
			a.Add(a, big.NewInt(1))
		}
		if neg {
			a.Neg(a)
		}
		q.m, q.e = a, -9
	}
	r := new(big.Int)
	for q.m.Sign() != 0 {
		qq, rr := new(big.Int).QuoRem(q.m, big10, r)
		if rr.Sign() != 0 {
			break
		}
		q.m = qq
		q.e++
	}
	return q
}

// Sign is -1, 0 or 1.
func (q Quantity) Sign() int { return q.mant().Sign() }

// mant is the mantissa, zero for the zero Quantity (never nil: a hook
// comparing an unparsed quantity must not panic).
func (q Quantity) mant() *big.Int {
	if q.m == nil {
		return new(big.Int)
	}
	return q.m
}

// Cmp compares two quantities.
func (q Quantity) Cmp(o Quantity) int {
	a, b := new(big.Int).Set(q.mant()), new(big.Int).Set(o.mant())
	switch {
	case q.e > o.e:
		a.Mul(a, pow10(q.e-o.e))
	case o.e > q.e:
		b.Mul(b, pow10(o.e-q.e))
	}
	return a.Cmp(b)
}

// IsInteger reports whether MilliValue()%1000 == 0, i.e. a whole number
// once rounded up to milli units.
func (q Quantity) IsInteger() bool {
	return q.e >= 0 // normalised: a negative exponent means a fraction
}

// String is the canonical spelling (resource.Quantity.String()).
func (q Quantity) String() string {
	if q.mant().Sign() == 0 {
		return "0"
	}
	binary := q.binary
	if binary {
		lim := Quantity{m: big.NewInt(1024)}
		abs := Quantity{m: new(big.Int).Abs(q.m), e: q.e}
		if abs.Cmp(lim) < 0 || q.e < 0 {
			binary = false
		}
	}
	if binary {
		n := new(big.Int).Mul(q.m, pow10(q.e))
		times := 0
		k := big.NewInt(1024)
		r := new(big.Int)
		for times < 6 {
			qq, rr := new(big.Int).QuoRem(n, k, r)
			if rr.Sign() != 0 || qq.Sign() == 0 {
				break
			}
			n = qq
			times++
		}
		return n.String() + []string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}[times]
	}
	m, e := new(big.Int).Set(q.m), q.e
	switch ((e % 3) + 3) % 3 {
	case 1:
		m.Mul(m, big10)
		e--
	case 2:
		m.Mul(m, big.NewInt(100))
		e -= 2
	}
	s := m.String()
	if e == 0 {
		return s
	}
	if !q.exp {
		for k, v := range decSuffix {
			if v == e && k != "" {
				return s + k
			}
		}
	}
	return s + "e" + itoa(int64(e))
}

// ScaledValue is the quantity in units of 10^scale, rounded away from
// zero (as resource.Quantity.ScaledValue): "100m".ScaledValue(-3) is 100,
// "1Gi".ScaledValue(0) is 1073741824, "1.5m".ScaledValue(-3) is 2,
// "-500m".ScaledValue(0) is -1.
func (q Quantity) ScaledValue(scale int) int64 {
	if q.m == nil {
		return 0
	}
	v := new(big.Int).Set(q.m)
	d := q.e - scale
	if d >= 0 {
		v.Mul(v, pow10(d))
		return v.Int64()
	}
	div := pow10(-d)
	quo, rem := new(big.Int).QuoRem(v, div, new(big.Int))
	if rem.Sign() != 0 { // away from zero, as kube's negativeScaleInt64
		quo.Add(quo, big.NewInt(int64(rem.Sign())))
	}
	return quo.Int64()
}

// Valid reports a parsed quantity (the zero Quantity is not one).
func (q Quantity) Valid() bool { return q.m != nil }

// Add is q + o in q's format (o's when q is zero), as resource.Quantity's
// Add: "100m" + "1" is "1100m", "1Gi" + "512Mi" is "1536Mi".
func (q Quantity) Add(o Quantity) Quantity {
	if !q.Valid() || q.m.Sign() == 0 {
		r := o
		if !r.Valid() {
			r.m = new(big.Int)
		}
		return Quantity{m: new(big.Int).Add(q.mant(), r.mant()), e: r.e, binary: r.binary, exp: r.exp}.normal()
	}
	a, b := new(big.Int).Set(q.m), new(big.Int).Set(o.mant())
	e := q.e
	switch {
	case q.e > o.e:
		a.Mul(a, pow10(q.e-o.e))
		e = o.e
	case o.e > q.e:
		b.Mul(b, pow10(o.e-q.e))
	}
	return Quantity{m: a.Add(a, b), e: e, binary: q.binary, exp: q.exp}.normal()
}

// Neg is −q.
func (q Quantity) Neg() Quantity {
	q.m = new(big.Int).Neg(q.mant())
	return q
}
