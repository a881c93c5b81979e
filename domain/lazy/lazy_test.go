package lazy

import (
	"sync"
	"sync/atomic"
	"testing"
)

var made atomic.Int32

var counted = Value[[]string]{New: func() []string {
	made.Add(1)
	return []string{"made"}
}}

// Many goroutines asking at once get one value, made once.
func TestGetMakesOnceForAllGoroutines(t *testing.T) {
	if made.Load() != 0 {
		t.Fatal("the value was made before its first Get")
	}
	var wait sync.WaitGroup
	got := make([][]string, 16)
	for i := range got {
		wait.Go(func() { got[i] = counted.Get() })
	}
	wait.Wait()
	if n := made.Load(); n != 1 {
		t.Fatalf("New ran %d times, want 1", n)
	}
	for i, value := range got {
		if len(value) != 1 || &value[0] != &got[0][0] {
			t.Fatalf("goroutine %d got %v, not the shared value", i, value)
		}
	}
}

func BenchmarkGet(b *testing.B) {
	v := Value[[]string]{New: func() []string { return []string{"a"} }}
	for b.Loop() {
		_ = v.Get()
	}
}

var digits = Regexp{Pattern: `^\d+$`}

// A Regexp compiles its pattern once and matches as the pattern says.
func TestRegexpCompilesOnce(t *testing.T) {
	first := digits.Get()
	if first != digits.Get() {
		t.Fatal("a second Get compiled the pattern again")
	}
	for text, want := range map[string]bool{"123": true, "12a": false, "": false} {
		if got := first.MatchString(text); got != want {
			t.Errorf("MatchString(%q) = %v, want %v", text, got, want)
		}
	}
}
