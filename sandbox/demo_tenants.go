package sandbox

// CredentialFor finds the tenant environment a client key belongs to, so
// the app can prefill the sign-in form and use the secret key of the tenant
// it talks to (not always the first one).
func CredentialFor(clientKey string) (Credential, bool) { return credByKey(clientKey) }

// DemoUsersFor lists the seeded accounts that a client key reaches (its
// tenant and environment), in seed order; the first is the prefill.
func DemoUsersFor(clientKey string) []DemoUser {
	cred, ok := credByKey(clientKey)
	if !ok {
		return nil
	}
	var out []DemoUser
	for _, u := range seedUsers.get() {
		if u.tenant == cred.Tenant && u.env == cred.Environment {
			out = append(out, DemoUser{Username: u.username, Password: demoPassword, Region: u.region, Summary: u.summary})
		}
	}
	return out
}
