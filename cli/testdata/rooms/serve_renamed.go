package rooms

import web "net/http"

func renamedServe() error { return web.ListenAndServe("127.0.0.1:0", nil) }
