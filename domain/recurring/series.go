package recurring

import (
	"math/big"
	"slices"
	"time"
)

// seriesOf judges a merchant's payments (oldest first): the longest run
// at the end that keeps one rhythm for similar amounts is the series.
func seriesOf(merchant, currency string, payments []Payment, now time.Time) (Series, bool) {
	for _, iv := range Intervals {
		run := rhythmRun(payments, iv)
		if len(run) < iv.Least {
			continue
		}
		return describe(merchant, currency, iv, run, now), true
	}
	return Series{}, false
}

// rhythmRun is the payments at the end of the list that come one
// interval apart (within its tolerance) for amounts like the usual one.
func rhythmRun(payments []Payment, iv Interval) []Payment {
	end := len(payments) - 1
	start := end
	for i := end - 1; i >= 0; i-- {
		gap := days(payments[i].At, payments[start].At)
		if gap < iv.Days-iv.Tolerance || gap > iv.Days+iv.Tolerance {
			break
		}
		start = i
	}
	run := payments[start:]
	if len(run) < iv.Least {
		return nil
	}
	usual := median(run)
	// The latest may carry a new price; the others must be alike.
	for _, p := range run[:len(run)-1] {
		if !alike(p.units, usual) {
			return nil
		}
	}
	return run
}

// describe writes up a series.
func describe(merchant, currency string, iv Interval, run []Payment, now time.Time) Series {
	last := run[len(run)-1]
	s := Series{Merchant: merchant, Currency: currency, Interval: iv, Payments: run, Amount: last.Amount}
	s.Next = iv.next(last.At)
	s.Missed = now.After(s.Next.AddDate(0, 0, iv.Tolerance))
	if before := run[len(run)-2]; before.units != last.units {
		s.PriceChanged, s.Previous = true, before.Amount
	}
	s.New = len(run) == iv.Least && !s.Missed
	cost, _ := new(big.Rat).SetString(last.Amount)
	s.MonthlyCost = cost.Mul(cost, big.NewRat(iv.PerYear, 12)).FloatString(2)
	return s
}

// days is the whole days from a to b, rounded to the nearest.
func days(a, b time.Time) int {
	return int((b.Sub(a) + 12*time.Hour) / (24 * time.Hour))
}

// median is the middle amount of the run, in units.
func median(run []Payment) int64 {
	units := make([]int64, len(run))
	for i, p := range run {
		units[i] = p.units
	}
	slices.Sort(units)
	return units[len(units)/2]
}

// alike says an amount is within similar percent of the usual one.
func alike(units, usual int64) bool {
	diff := units - usual
	if diff < 0 {
		diff = -diff
	}
	return diff*100 <= usual*similar
}
