package sandbox

import (
	"encoding/json"
	"log/slog"
	"net/http"
)

// A handler changes state under s.mu and calls a keep…Locked helper, which
// encodes the changed part at once for the store to commit (Store.keep);
// committingWriter commits before the answer's first byte leaves. Changes
// made outside a request commit when done (commitLogged). Without a store
// every helper returns at once.

// persistence is the Server's side of a data directory.
type persistence struct{ store *Store }

// openPersistence applies the directory's state to a freshly seeded s.
func (s *Server) openPersistence(store *Store) {
	s.persist.store = store
	// OpenStore applied the same state to the same seed, so this cannot fail.
	if err := s.applyFixture(store.state); err != nil {
		slog.Error("sandbox: the data directory's state no longer applies", "err", err)
	}
}

// keepLocked records the new state of one record (nil: delete it). Call
// with s.mu held.
func (s *Server) keepLocked(key string, v any) {
	var data []byte
	if v != nil {
		var err error
		if data, err = json.Marshal(v); err != nil {
			slog.Error("sandbox: encoding a record for the data directory", "record", key, "err", err)
			return
		}
	}
	s.persist.store.keep(key, data)
}

// keepUserLocked records u's card, verification, wallets, delegation and
// orders; the first time u's wallets are kept, their whitelist entries too.
func (s *Server) keepUserLocked(u *userRecord) {
	if s.persist.store == nil {
		return
	}
	s.keepLocked(userKey(u.ID), userFixture(u, false))
	if ws := u.wallets; ws != nil && !ws.whitelistStored {
		for _, e := range ws.whitelist {
			s.keepLocked(whitelistKey(u.ID, e.Seq), e)
		}
		ws.whitelistStored = true
	}
}

// keepWhitelistLocked records the entries added to u's whitelist or
// removed from it.
func (s *Server) keepWhitelistLocked(u *userRecord, added, removed []*whitelistRecord) {
	if s.persist.store == nil {
		return
	}
	s.keepUserLocked(u)
	for _, e := range added {
		s.keepLocked(whitelistKey(u.ID, e.Seq), e)
	}
	for _, e := range removed {
		s.keepLocked(whitelistKey(u.ID, e.Seq), nil)
	}
}

// keepPartnerLocked records a partner's webhook configurations; its
// events and deliveries are records of their own (keepEventsLocked,
// keepDeliveriesLocked), which a start reads only below a partner's.
func (s *Server) keepPartnerLocked(p *webhookPartner) {
	if s.persist.store != nil {
		s.keepLocked(partnerKey(p.home), partnerFixture(p, false))
		p.stored = true
	}
}

// keepEventsLocked records an event added to p's history and the ones it
// pushed out.
func (s *Server) keepEventsLocked(p *webhookPartner, added keptEvent, removed []keptEvent) {
	if s.persist.store == nil {
		return
	}
	if !p.stored {
		s.keepPartnerLocked(p)
	}
	s.keepLocked(eventKey(p.home, added.seq), added)
	for _, e := range removed {
		s.keepLocked(eventKey(p.home, e.seq), nil)
	}
}

// keepDeliveriesLocked records a delivery of h started or changed (when
// not nil) and the ones removed from h's history.
func (s *Server) keepDeliveriesLocked(p *webhookPartner, h *webhookConfig, changed *webhookDeliveryRecord, removed []*webhookDeliveryRecord) {
	if s.persist.store == nil {
		return
	}
	if !p.stored {
		s.keepPartnerLocked(p)
	}
	if changed != nil {
		s.keepLocked(deliveryKey(p.home, h.ID, changed.seq), changed)
	}
	for _, d := range removed {
		s.keepLocked(deliveryKey(p.home, h.ID, d.seq), nil)
	}
}

// keepConsentLocked records be's consent data.
func (s *Server) keepConsentLocked(be *backend) {
	if s.persist.store != nil && be.consent != nil {
		s.keepLocked(consentKey(be.key), consentFixture(be, be.consent))
	}
}

// keepPINLocked records a PIN set on the hosted page.
func (s *Server) keepPINLocked(cardID, pin string) {
	if s.persist.store != nil {
		s.keepLocked(pinKey(cardID), fixturePIN{CardID: cardID, PIN: pin})
	}
}

// commit writes what was kept, on disk when it returns.
func (s *Server) commit() error {
	if s.persist.store == nil {
		return nil
	}
	return s.persist.store.commit()
}

// commitLogged commits a change made outside a request.
func (s *Server) commitLogged() {
	if err := s.commit(); err != nil {
		slog.Error("sandbox: saving the state to the data directory failed", "err", err)
	}
}

// committingWriter commits before the answer's first byte (or its status)
// leaves: a client never sees an answer to a change that is not on disk.
// A failed commit makes the answer a 500 saying so.
type committingWriter struct {
	http.ResponseWriter
	s      *Server
	done   bool
	failed bool
}

// ready commits once; it reports whether the handler's answer may go out.
func (w *committingWriter) ready() bool {
	if !w.done {
		w.done = true
		if err := w.s.commit(); err != nil {
			slog.Error("sandbox: saving the state to the data directory failed", "err", err)
			w.failed = true
			writeMessage(w.ResponseWriter, http.StatusInternalServerError, "The sandbox could not save its state: "+err.Error())
		}
	}
	return !w.failed
}

func (w *committingWriter) WriteHeader(status int) {
	if w.ready() {
		w.ResponseWriter.WriteHeader(status)
	}
}

func (w *committingWriter) Write(b []byte) (int, error) {
	if !w.ready() {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Flush lets streaming answers (GET /sandbox/logs) through.
func (w *committingWriter) Flush() {
	if w.ready() {
		if f, ok := w.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// Unwrap serves http.ResponseController.
func (w *committingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
