package load_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/sweep-dev/sweep/sweep/load"
)

// Example runs one closed-loop window of 4 workers against a local server,
// stopping after 100 requests.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "hello")
	}))
	defer srv.Close()
	g, err := load.New(load.Options{URL: srv.URL, Concurrency: 4, MaxRequests: 100})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()
	r, err := g.Run(context.Background(), 10*time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Requests, r.StatusCodes, r.Errors5xx, r.TransportErrors)
	// Output: 100 map[200:100] 0 map[]
}
