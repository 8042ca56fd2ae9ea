package common

import (
	"math/big"
	"testing"
)

// pow10 stands in for math/big's Exp (kept out of the browser build).
func TestPow10IsExp(t *testing.T) {
	for n := -3; n <= 400; n++ {
		want := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
		if got := pow10(n); got.Cmp(want) != 0 {
			t.Fatalf("pow10(%d) = %s, want %s", n, got, want)
		}
	}
}
