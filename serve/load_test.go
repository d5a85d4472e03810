package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// LoadPredictor, when set (by a test file that can load saved models), is
// the model of TestLoadTest, with LoadBody its request; the fake otherwise.
var (
	LoadPredictor Predictor
	LoadBody      string
)

// TestLoadTest is a bounded load test on loopback, skipped unless
// GSSL_LOAD_TEST=1 (scripts/load-serve.sh runs it): GSSL_LOAD_REQUESTS
// requests (20 000) from GSSL_LOAD_CLIENTS clients (32), capped at
// GSSL_LOAD_SECONDS (60); every answer must equal the answer to the same
// request sent alone. It logs throughput and the p50/p99 latency. With
// GSSL_LOAD_SHUTDOWN=1 the server shuts down halfway: every request it
// answered must be right, and only requests it never accepted may fail.
func TestLoadTest(t *testing.T) {
	if os.Getenv("GSSL_LOAD_TEST") != "1" {
		t.Skip("load test: set GSSL_LOAD_TEST=1 (scripts/load-serve.sh)")
	}
	total := envInt(t, "GSSL_LOAD_REQUESTS", 20000)
	clients := envInt(t, "GSSL_LOAD_CLIENTS", 32)
	limit := time.Duration(envInt(t, "GSSL_LOAD_SECONDS", 60)) * time.Second
	shutdown := os.Getenv("GSSL_LOAD_SHUTDOWN") == "1"

	p, body := Predictor(newFake()), `{"nodes":[{"id":"x","edges":[{"to":"a1","weight":1},{"to":"b1","weight":3}]},{"id":"y","edges":[{"to":"a2"}]}]}`
	if LoadPredictor != nil {
		p, body = LoadPredictor, LoadBody
	}
	h, err := NewHandler(p, Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := do(h, "POST", "/v1/predict", body).Body.String()
	if !strings.Contains(want, `"predictions"`) {
		t.Fatalf("the request alone is answered %s", want)
	}
	s, err := New(p, Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1/predict"
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	tr := &http.Transport{MaxIdleConnsPerHost: clients, DisableKeepAlives: shutdown}
	client := &http.Client{Transport: tr, Timeout: limit}
	deadline := time.Now().Add(limit)

	var (
		next, wrong, refused, lost atomic.Int64
		stopped                    atomic.Bool
		mu                         sync.Mutex
		lat                        []time.Duration
		firstErr                   atomic.Value
	)
	start := time.Now()
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, total/clients+1)
			for {
				i := next.Add(1)
				if i > int64(total) || time.Now().After(deadline) {
					break
				}
				if shutdown && i == int64(total/2) {
					stopped.Store(true)
					stop()
				}
				t0 := time.Now()
				resp, err := client.Post(url, "application/json", strings.NewReader(body))
				if err != nil {
					if stopped.Load() && (errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF)) {
						refused.Add(1)
					} else {
						lost.Add(1)
						firstErr.CompareAndSwap(nil, err.Error())
					}
					continue
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				d := time.Since(t0)
				if err != nil || resp.StatusCode != 200 || string(b) != want {
					wrong.Add(1)
					firstErr.CompareAndSwap(nil, fmt.Sprintf("%s %q %v", resp.Status, b, err))
					continue
				}
				mine = append(mine, d)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	stop()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	slices.Sort(lat)
	q := func(f float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(f*float64(len(lat))))]
	}
	t.Logf("load: %d ok of %d sent by %d clients in %v: %.0f requests/s, p50 %v, p99 %v; wrong %d, lost %d, refused after shutdown %d",
		len(lat), min(next.Load()-1, int64(total)), clients, elapsed.Round(time.Millisecond), float64(len(lat))/elapsed.Seconds(), q(0.50), q(0.99), wrong.Load(), lost.Load(), refused.Load())
	if wrong.Load() > 0 || lost.Load() > 0 {
		t.Errorf("%d wrong answers and %d lost requests; first: %v", wrong.Load(), lost.Load(), firstErr.Load())
	}
	if !shutdown && len(lat) < total && time.Now().Before(deadline) {
		t.Errorf("only %d of %d requests answered", len(lat), total)
	}
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return v
}
