package cli

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"cardterm/apiclient"
)

func TestExitCodeForEachFailureClass(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, exitOK},
		{usageError{"PAGE must be a number"}, exitUsage},
		{fmt.Errorf("get: %w", usageError{"x"}), exitUsage},
		{&apiclient.Error{Status: 404, Message: "no card"}, exitRefused},
		{&apiclient.Error{Status: 500}, exitRefused},
		{&apiclient.Error{Status: 401}, exitAuth},
		{&apiclient.Error{Status: 403}, exitAuth},
		{&apiclient.Error{Status: 498}, exitAuth},
		{&apiclient.Error{Status: 499}, exitAuth},
		{&apiclient.Error{Status: 0, Message: "cannot reach the gateway"}, exitNetwork},
		{fmt.Errorf("x: %w", context.Canceled), exitInterrupted},
		{errors.New("something else"), exitRefused},
	} {
		if got := exitCodeFor(c.err); got != c.want {
			t.Errorf("exitCodeFor(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}
