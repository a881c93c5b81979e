package apiclient

import (
	"context"
	"net/http"
)

// User fetches the signed-in user's profile, including the verification
// state that decides which card and wallet operations are allowed.
func (c *Client) User(ctx context.Context) (User, error) {
	return answer[User](ctx, c, request{
		op:     "User",
		method: http.MethodGet,
		path:   "/v1/user",
		family: familyUser,
	})
}
