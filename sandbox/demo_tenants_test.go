package sandbox

import "testing"

// The second tenant's key reaches its own users and secret key.
func TestDemoUsersFollowTheClientKey(t *testing.T) {
	users := DemoUsersFor("ck_sandbox_globex")
	if len(users) == 0 {
		t.Fatal("no demo users for globex")
	}
	for _, u := range users {
		if u.Username == "alice@demo.test" {
			t.Fatal("globex's key lists acme's alice")
		}
	}
	if c, ok := CredentialFor("ck_sandbox_globex"); !ok || c.SecretKey != "sk_sandbox_globex" {
		t.Fatalf("credential %+v", c)
	}
	if len(DemoUsersFor("ck_nope")) != 0 {
		t.Fatal("an unknown key lists users")
	}
	if got, want := len(DemoUsersFor(DemoClientKey)), len(DemoUsers()); got != want {
		t.Fatalf("acme: %d users, DemoUsers has %d", got, want)
	}
}
