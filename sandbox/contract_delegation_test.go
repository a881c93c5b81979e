package sandbox_test

import (
	"net/http"
	"strings"
	"testing"

	"cardterm/sandbox"
)

func init() { familyScripts = append(familyScripts, delegationContract) }

// Addresses of the delegation contract calls.
const (
	delegationEVM       = "0x52908400098527886E0F7030069857D2E4169EE7"
	delegationEVMDead   = "0x000000000000000000000000000000000000dEaD"
	delegationSolana    = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"
	delegationTxEVM     = "0xab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12"
	delegationSigEVM    = "0xcd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34cd34"
	delegationSolanaSig = "2c2KnYaPmjMmmtTSvHqXHP9Gbn2CuDUfqSdGrj8fTyi435VZLX1Y8eWpj6HEhHFTxh5bQnfuWSvCAg5M44gSrUtf"
)

// delegationContract exercises the delegation token, the chain
// configuration and both post-approvals, with each status the interface
// names that a request can provoke.
func delegationContract(t *testing.T, h *harness, login loginFunc) {
	alice := login("alice@demo.test")
	faye := login("faye@demo.test")
	umar := login("umar@demo.test")
	sam := login("sam@demo.test", "x-us-env", "true")

	// ---------------------------------------------------------------- token
	r := h.do("delegation token 200", req{method: "GET", path: "/v1/delegation/token", hdr: withBearer(alice), want: 200})
	checkf(t, r.str("token") != "" && r.str("nonce") != "" && r.obj()["faucet"] == nil, "token without faucet: %s", r.raw)
	r = h.do("delegation token 207 faucet declined", req{method: "GET",
		path: "/v1/delegation/token?faucet=true&network=linea&address=" + delegationEVMDead, hdr: withBearer(alice), want: 207})
	f, _ := r.obj()["faucet"].(map[string]any)
	checkf(t, f["success"] == false && f["status"] == "declined" && f["error"] != nil && r.str("token") != "", "declined faucet: %s", r.raw)
	r = h.do("delegation token 200 faucet confirmed", req{method: "GET",
		path: "/v1/delegation/token?faucet=true&network=linea&address=" + delegationEVM, hdr: withBearer(alice), want: 200})
	f, _ = r.obj()["faucet"].(map[string]any)
	checkf(t, f["success"] == true && f["status"] == "confirmed" && strings.HasPrefix(f["transactionHash"].(string), "0x"), "confirmed faucet: %s", r.raw)
	aliceTok, aliceNonce := r.str("token"), r.str("nonce")
	r = h.do("delegation token 207 faucet once per user", req{method: "GET",
		path: "/v1/delegation/token?faucet=true&network=solana&address=" + delegationSolana, hdr: withBearer(alice), want: 207})
	f, _ = r.obj()["faucet"].(map[string]any)
	checkf(t, f["success"] == false && f["network"] == "linea" && f["transactionHash"] != nil, "second faucet: %s", r.raw)
	r = h.do("delegation token 207 faye already received", req{method: "GET",
		path: "/v1/delegation/token?faucet=true&network=base&address=" + delegationEVM, hdr: withBearer(faye), want: 207})
	f, _ = r.obj()["faucet"].(map[string]any)
	checkf(t, f["success"] == false && strings.Contains(f["error"].(string), "already") && f["transactionHash"] != nil, "faye: %s", r.raw)
	h.do("delegation token 422 faucet without address", req{method: "GET",
		path: "/v1/delegation/token?faucet=true&network=linea", hdr: withBearer(alice), want: 422})
	h.do("delegation token US", req{method: "GET", path: "/v1/delegation/token", hdr: withBearer(sam, "x-us-env", "true"), want: 200})
	h.do("delegation token 403 unverified", req{method: "GET", path: "/v1/delegation/token", hdr: withBearer(umar), want: 403})
	h.do("delegation token 401", req{method: "GET", path: "/v1/delegation/token", hdr: withKey(), want: 401})
	h.do("delegation token 499", req{method: "GET", path: "/v1/delegation/token", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})
	h.do("delegation token 498", req{method: "GET", path: "/v1/delegation/token", hdr: hdrs("x-client-key", "ck_nope", "Authorization", "Bearer "+alice), want: 498})

	// ---------------------------------------------------------------- chain configuration
	r = h.do("chain config 200 all", req{method: "GET", path: "/v1/delegation/chain/config", hdr: withBearer(alice), want: 200})
	checkf(t, r.obj()["count"] == float64(4) && len(r.obj()["networks"].([]any)) == 4, "all networks: %s", r.raw)
	r = h.do("chain config 200 linea", req{method: "GET", path: "/v1/delegation/chain/config?network=linea", hdr: withBearer(alice), want: 200})
	links, _ := r.obj()["_links"].(map[string]any)
	checkf(t, r.obj()["count"] == float64(1) && links["self"] == "/v1/delegation/chain/config?network=linea", "linea: %s", r.raw)
	euLinea := r.obj()["networks"].([]any)[0].(map[string]any)["delegationContract"]
	r = h.do("chain config 200 US", req{method: "GET", path: "/v1/delegation/chain/config?network=linea&region=us",
		hdr: withBearer(sam, "x-us-env", "true"), want: 200})
	usLinea := r.obj()["networks"].([]any)[0].(map[string]any)["delegationContract"]
	checkf(t, usLinea != euLinea, "the US linea contract must differ from the EU one: %v", usLinea)
	r = h.do("chain config 404 not in US", req{method: "GET", path: "/v1/delegation/chain/config?network=etherlink&region=us",
		hdr: withBearer(sam, "x-us-env", "true"), want: 404})
	checkf(t, r.str("error") != "" && r.str("message") != "", "404 shape: %s", r.raw)
	h.do("chain config 404 unknown network", req{method: "GET", path: "/v1/delegation/chain/config?network=base",
		hdr: withBearer(alice), want: 404, badRequest: true})
	h.do("chain config 403", req{method: "GET", path: "/v1/delegation/chain/config", hdr: withBearer(umar), want: 403})
	h.do("chain config 401", req{method: "GET", path: "/v1/delegation/chain/config", hdr: withKey(), want: 401})
	h.do("chain config 499", req{method: "GET", path: "/v1/delegation/chain/config", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})
	h.do("chain config 498", req{method: "GET", path: "/v1/delegation/chain/config", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+alice), want: 498})

	// ---------------------------------------------------------------- post-approval
	evm := map[string]any{"address": delegationEVM, "network": "linea", "currency": "usdc", "amount": "150.00",
		"txHash": delegationTxEVM, "sigHash": delegationSigEVM, "sigMessage": "approve 150 USDC", "token": aliceTok, "nonce": aliceNonce}
	with := func(k, v string) map[string]any {
		out := map[string]any{}
		for kk, vv := range evm {
			out[kk] = vv
		}
		out[k] = v
		return out
	}
	h.do("post-approval 422 bad address", req{method: "POST", path: "/v1/delegation/evm/post-approval", hdr: withBearer(alice), body: with("address", "0x123"), want: 422})
	h.do("post-approval 400 nonce mismatch", req{method: "POST", path: "/v1/delegation/evm/post-approval", hdr: withBearer(alice), body: with("nonce", "00"), want: 400})
	r = h.do("post-approval 200", req{method: "POST", path: "/v1/delegation/evm/post-approval", hdr: withBearer(alice), body: evm, want: 200})
	checkf(t, r.obj()["success"] == true, "post-approval: %s", r.raw)
	h.do("post-approval 400 token used", req{method: "POST", path: "/v1/delegation/evm/post-approval", hdr: withBearer(alice), body: evm, want: 400})
	h.do("post-approval 403", req{method: "POST", path: "/v1/delegation/evm/post-approval", hdr: withBearer(umar), body: evm, want: 403})
	h.do("post-approval 401", req{method: "POST", path: "/v1/delegation/evm/post-approval", hdr: withKey(), body: evm, want: 401})
	h.do("post-approval 499", req{method: "POST", path: "/v1/delegation/evm/post-approval", hdr: hdrs("Authorization", "Bearer "+alice), body: evm, want: 499, badRequest: true})
	h.do("post-approval 498", req{method: "POST", path: "/v1/delegation/evm/post-approval", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+alice), body: evm, want: 498})

	r = h.do("delegation token for solana", req{method: "GET", path: "/v1/delegation/token", hdr: withBearer(alice), want: 200})
	sol := map[string]any{"address": delegationSolana, "network": "solana", "currency": "usdc", "amount": "25",
		"txHash": delegationSolanaSig, "sigHash": delegationSolanaSig, "sigMessage": "approve 25 USDC", "token": r.str("token"), "nonce": r.str("nonce")}
	h.do("solana post-approval 422 EVM address", req{method: "POST", path: "/v1/delegation/solana/post-approval", hdr: withBearer(alice),
		body: map[string]any{"address": delegationEVM, "network": "solana", "currency": "usdc", "amount": "25", "txHash": delegationSolanaSig,
			"sigHash": delegationSolanaSig, "sigMessage": "m", "token": r.str("token"), "nonce": r.str("nonce")}, want: 422})
	h.do("solana post-approval 200", req{method: "POST", path: "/v1/delegation/solana/post-approval", hdr: withBearer(alice), body: sol, want: 200})
	h.do("solana post-approval 400 token used", req{method: "POST", path: "/v1/delegation/solana/post-approval", hdr: withBearer(alice), body: sol, want: 400})
	h.do("solana post-approval 401", req{method: "POST", path: "/v1/delegation/solana/post-approval", hdr: withKey(), body: sol, want: 401})

	// ---------------------------------------------------------------- faults in the delegation family
	h.srv.SetFaults(sandbox.Faults{Burst429: 1})
	h.do("429 delegation token", req{method: "GET", path: "/v1/delegation/token", hdr: withBearer(alice), want: http.StatusTooManyRequests})
	h.srv.SetFaults(sandbox.Faults{ErrorRate: 1})
	h.do("500 delegation token", req{method: "GET", path: "/v1/delegation/token", hdr: withBearer(alice), want: 500})
	h.do("500 chain config", req{method: "GET", path: "/v1/delegation/chain/config", hdr: withBearer(alice), want: 500})
	h.srv.SetFaults(sandbox.Faults{})
}
