//go:build !js

package gotypes

import (
	"strconv"
	"strings"
)

// quantity is the part of a resource.Quantity that ParseQuantity fills
// on its int64 path (i, s, Format); s is kept only for canonical input.
type quantity struct {
	value     int64
	scale     int32
	s, format string
}

var decimalSuffixes = map[string]int32{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
var binarySuffixes = map[string]int32{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}

// parseQuantity is ParseQuantity's int64 path, e.g. "100m" → {100, -3,
// "100m", DecimalSI}, "1Gi" → {1073741824, 0, "1Gi", BinarySI}. Values
// that ParseQuantity keeps as an inf.Dec (more than 18 digits, binary
// fractions) are outside it and come out as zero.
func parseQuantity(str string) quantity {
	if str == "0" {
		return quantity{format: "DecimalSI", s: str}
	}
	body := strings.TrimLeft(str, "+-")
	positive := !strings.HasPrefix(str, "-")
	i := strings.IndexFunc(body, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(body)
	}
	num, denom, _ := strings.Cut(body[:i], ".")
	num = strings.TrimLeft(num, "0")
	if num == "" {
		num = "0"
	}
	suffix := body[i:]
	format, exponent := "DecimalSI", decimalSuffixes[suffix]
	if e, ok := binarySuffixes[suffix]; ok {
		format, exponent = "BinarySI", e
	} else if _, ok := decimalSuffixes[suffix]; !ok {
		e, err := strconv.ParseInt(suffix[min(1, len(suffix)):], 10, 32)
		if err != nil || len(suffix) < 2 || (suffix[0] != 'e' && suffix[0] != 'E') {
			return quantity{}
		}
		format, exponent = "DecimalExponent", int32(e)
	}
	precision, scale, mantissa := int32(0), int32(0), int64(1)
	if format == "BinarySI" {
		if denom != "" {
			return quantity{}
		}
		mantissa = 1 << exponent
		precision = 15 - int32(len(num)) - int32(float32(exponent)*3/10) - 1
	} else {
		scale = exponent
		precision = 18 - int32(len(num)+len(denom))
	}
	if precision < 0 {
		return quantity{}
	}
	scale -= int32(len(denom))
	if scale < -9 {
		return quantity{}
	}
	shifted := num + denom
	value, err := strconv.ParseInt(shifted, 10, 64)
	if err != nil || value != 0 && (value*mantissa)/mantissa != value {
		return quantity{}
	}
	q := quantity{value: value * mantissa, scale: scale, format: format}
	if !positive {
		q.value = -q.value
	}
	if format == "BinarySI" && exponent%10 == 0 && value&0x07 != 0 ||
		format != "BinarySI" && scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0' {
		q.s = str
	}
	return q
}
