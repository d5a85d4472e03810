package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newTestHandler(t *testing.T, p Predictor, cfg Config) *Handler {
	t.Helper()
	h, err := NewHandler(p, cfg)
	require.NoError(t, err)
	return h
}

// do sends one request straight to the handler (no server: a panic
// reaches the test).
func do(h http.Handler, method, path, body string, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func decodeInto[T any](t *testing.T, w *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(w.Body)
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&v), "body %q", w.Body.String())
	return v
}

func TestPredictNodes(t *testing.T) {
	h := newTestHandler(t, newFake(), Config{})
	w := do(h, "POST", "/v1/predict", `{"nodes":[{"id":"x","edges":[{"to":"a1","weight":1},{"to":"b1","weight":3}]},{"id":"lonely","edges":[]},{"id":"y","edges":[{"to":"a2"}]}]}`)
	require.Equal(t, 200, w.Code, w.Body.String())
	assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
	resp := decodeInto[Response](t, w)
	assert.Equal(t, "test.Fake", resp.Kind)
	assert.Equal(t, []string{"A", "B"}, resp.Classes)
	require.Len(t, resp.Predictions, 3)
	x := resp.Predictions[0]
	assert.Equal(t, "x", x.ID)
	assert.Equal(t, "B", x.Label)
	assert.InDeltaSlice(t, []float64{(0.9 + 3*0.2) / 4, (0.1 + 3*0.8) / 4}, x.Probabilities, 1e-15)
	assert.Equal(t, Prediction{ID: "lonely", Label: "A", Probabilities: []float64{0.5, 0.5}, Prior: true}, resp.Predictions[1])
	assert.Equal(t, Prediction{ID: "y", Label: "A", Probabilities: []float64{0.7, 0.3}}, resp.Predictions[2], "weight defaults to 1")
}

func TestPredictPoints(t *testing.T) {
	h := newTestHandler(t, newFake(), Config{})
	w := do(h, "POST", "/v1/predict", `{"points":[[1,2],[-3,0.5]]}`)
	require.Equal(t, 200, w.Code, w.Body.String())
	resp := decodeInto[Response](t, w)
	require.Len(t, resp.Predictions, 2)
	assert.Equal(t, "B", resp.Predictions[0].Label)
	assert.Equal(t, "A", resp.Predictions[1].Label)

	h = newTestHandler(t, regFake{}, Config{})
	w = do(h, "POST", "/v1/predict", `{"points":[[1.5,2]]}`)
	require.Equal(t, 200, w.Code, w.Body.String())
	assert.JSONEq(t, `{"kind":"test.Reg","predictions":[{"mean":1.5,"variance":5}]}`, w.Body.String())
}

// TestErrors: every refusal is a 4xx JSON error naming the field.
func TestErrors(t *testing.T) {
	h := newTestHandler(t, newFake(), Config{MaxBatch: 2, MaxBody: 200})
	cases := []struct {
		name, method, path, body string
		status                   int
		field, msg               string
	}{
		{"malformed", "POST", "/v1/predict", `{"nodes":[{"id":"x",}]}`, 400, "", "malformed JSON at byte"},
		{"truncated", "POST", "/v1/predict", `{"nodes":[{"id":"x"`, 400, "", "ends inside a value"},
		{"empty body", "POST", "/v1/predict", ``, 415, "Content-Type", "no Content-Type"},
		{"not an object", "POST", "/v1/predict", `[1,2]`, 400, "", "must be a JSON object"},
		{"trailing data", "POST", "/v1/predict", `{"points":[[1,2]]} {}`, 400, "", "nothing after it"},
		{"unknown field", "POST", "/v1/predict", `{"node":[]}`, 400, "node", `unknown field "node"`},
		{"unknown nested field", "POST", "/v1/predict", `{"nodes":[{"id":"x","edge":[]}]}`, 400, "nodes[0].edge", `unknown field "edge"`},
		{"neither", "POST", "/v1/predict", `{}`, 400, "", `must have "nodes"`},
		{"both", "POST", "/v1/predict", `{"nodes":[{"id":"x"}],"points":[[1,2]]}`, 400, "points", "not both"},
		{"null node", "POST", "/v1/predict", `{"nodes":[null]}`, 400, "nodes[0]", "null"},
		{"node not object", "POST", "/v1/predict", `{"nodes":[{"id":"x"},[1]]}`, 400, "nodes[1]", "an array, want an object"},
		{"edge syntax", "POST", "/v1/predict", `{"nodes":[{"id":"x","edges":[{"to":1}]}]}`, 400, "nodes[0].edges[0].to", "a number, want a string"},
		{"empty nodes", "POST", "/v1/predict", `{"nodes":[]}`, 400, "nodes", "empty batch"},
		{"empty point", "POST", "/v1/predict", `{"points":[[1,2],[]]}`, 400, "points[1]", "empty feature vector"},
		{"missing id", "POST", "/v1/predict", `{"nodes":[{"edges":[]}]}`, 400, "nodes[0].id", "missing"},
		{"missing to", "POST", "/v1/predict", `{"nodes":[{"id":"x","edges":[{"weight":2}]}]}`, 400, "nodes[0].edges[0].to", "missing"},
		{"weight type", "POST", "/v1/predict", `{"nodes":[{"id":"x","edges":[{"to":"a1","weight":"1"}]}]}`, 400, "nodes[0].edges[0].weight", "a string, want a number"},
		{"negative weight", "POST", "/v1/predict", `{"nodes":[{"id":"x","edges":[{"to":"a1"},{"to":"a1","weight":-1}]}]}`, 422, "nodes[0].edges[1].weight", "must be finite and ≥ 0"},
		{"huge weight", "POST", "/v1/predict", `{"points":[[1e400,1]]}`, 400, "points[0]", "number 1e400 is out of the range of a float64"},
		{"unknown id", "POST", "/v1/predict", `{"nodes":[{"id":"x","edges":[{"to":"a1"}]},{"id":"y","edges":[{"to":"zz"}]}]}`, 422, "nodes[1].edges[0].to", `unknown node id "zz"`},
		{"dimension", "POST", "/v1/predict", `{"points":[[1,2],[1,2,3]]}`, 422, "points[1]", "3 features, the model was fitted on 2"},
		{"batch", "POST", "/v1/predict", `{"points":[[1,2],[1,2],[1,2]]}`, 413, "points", "more than the server's limit of 2"},
		{"body", "POST", "/v1/predict", `{"points":[[` + strings.Repeat("1,", 200) + `1]]}`, 413, "", "larger than the server's limit of 200 bytes"},
		{"method", "GET", "/v1/predict", ``, 405, "", "use POST"},
		{"method model", "POST", "/v1/model", `{}`, 405, "", "use GET"},
		{"not found", "GET", "/v2/predict", ``, 404, "", "no endpoint /v2/predict"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := do(h, c.method, c.path, c.body)
			require.Equal(t, c.status, w.Code, w.Body.String())
			assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
			e := decodeInto[ErrorBody](t, w)
			assert.Equal(t, c.field, e.Field)
			assert.Contains(t, e.Error, c.msg)
		})
	}
	r := httptest.NewRequest("POST", "/v1/predict", strings.NewReader(`{"points":[[1,2]]}`))
	r.Header.Set("Content-Type", "text/plain")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	assert.Equal(t, 415, w.Code)
	assert.Equal(t, "POST", do(h, "GET", "/v1/predict", "").Header().Get("Allow"))
}

func TestModelHealthPage(t *testing.T) {
	h := newTestHandler(t, newFake(), Config{})
	w := do(h, "GET", "/v1/model", "")
	require.Equal(t, 200, w.Code)
	m := decodeInto[Metadata](t, w)
	assert.Equal(t, newFake().Metadata(), m)
	w = do(h, "GET", "/healthz", "")
	assert.Equal(t, 200, w.Code)
	assert.Equal(t, "ok\n", w.Body.String())
	w = do(h, "GET", "/", "")
	require.Equal(t, 200, w.Code)
	assert.Contains(t, w.Header().Get("Content-Type"), "text/html")
	assert.Contains(t, w.Body.String(), `<script src="app.js"></script>`)
	assert.NotContains(t, w.Body.String(), "http://", "no external assets")
	assert.NotContains(t, w.Body.String(), "https://", "no external assets")
	assert.Equal(t, "default-src 'self'; frame-ancestors 'none'", w.Header().Get("Content-Security-Policy"))
	w = do(h, "GET", "/app.js", "")
	require.Equal(t, 200, w.Code)
	assert.Contains(t, w.Body.String(), `fetch("v1/predict"`)
	assert.NotContains(t, w.Body.String(), "http")
}

func TestMetrics(t *testing.T) {
	h := newTestHandler(t, newFake(), Config{})
	do(h, "POST", "/v1/predict", `{"points":[[1,2],[3,4]]}`)
	do(h, "POST", "/v1/predict", `{"points":[[1,2,3]]}`)
	do(h, "POST", "/v1/predict", `{"points":`)
	w := do(h, "GET", "/metrics", "")
	require.Equal(t, 200, w.Code)
	body := w.Body.String()
	for _, want := range []string{
		`gssl_http_requests_total{code="200",handler="predict"} 1`,
		`gssl_http_requests_total{code="422",handler="predict"} 1`,
		`gssl_http_errors_total{code="400",handler="predict"} 1`,
		`gssl_http_errors_total{code="422",handler="predict"} 1`,
		`gssl_http_request_duration_seconds_count{handler="predict"} 3`,
		`gssl_predictions_total{input="points"} 2`,
		`go_goroutines`,
	} {
		assert.Contains(t, body, want)
	}
	// A second handler has its own counts.
	h2 := newTestHandler(t, newFake(), Config{})
	assert.NotContains(t, do(h2, "GET", "/metrics", "").Body.String(), `handler="predict"`)
}

func TestToken(t *testing.T) {
	h := newTestHandler(t, newFake(), Config{Token: "s3cret-token"})
	body := `{"points":[[1,2]]}`
	for _, auth := range []string{"", "Bearer wrong", "Bearer s3cret-toke", "Basic s3cret-token", "Bearer s3cret-token2"} {
		w := do(h, "POST", "/v1/predict", body, "Authorization", auth)
		require.Equal(t, 401, w.Code, auth)
		assert.Equal(t, "Authorization", decodeInto[ErrorBody](t, w).Field)
		assert.Equal(t, 401, do(h, "GET", "/v1/model", "", "Authorization", auth).Code)
		assert.Equal(t, 401, do(h, "GET", "/metrics", "", "Authorization", auth).Code)
	}
	assert.Equal(t, 200, do(h, "POST", "/v1/predict", body, "Authorization", "Bearer s3cret-token").Code)
	assert.Equal(t, 200, do(h, "GET", "/healthz", "").Code, "health needs no token")
	assert.Equal(t, 200, do(h, "GET", "/", "").Code, "the page holds no data and needs no token")

	_, err := New(newFake(), Config{Addr: "0.0.0.0:8080"})
	assert.ErrorContains(t, err, "needs a bearer token")
	_, err = New(newFake(), Config{Addr: ":8080"})
	assert.Error(t, err)
	_, err = New(newFake(), Config{Addr: "0.0.0.0:8080", Token: "x"})
	assert.NoError(t, err)
	for _, a := range []string{"127.0.0.1:1", "[::1]:80", "localhost:8080", "127.1.2.3:9"} {
		assert.True(t, IsLoopback(a), a)
	}
	for _, a := range []string{":80", "0.0.0.0:80", "192.168.1.2:80", "example.com:80", "[::]:80"} {
		assert.False(t, IsLoopback(a), a)
	}

	dir := t.TempDir()
	p := filepath.Join(dir, "tok")
	require.NoError(t, os.WriteFile(p, []byte("  abc123\n"), 0o600))
	tok, err := ReadToken(p)
	require.NoError(t, err)
	assert.Equal(t, "abc123", tok)
	require.NoError(t, os.WriteFile(p, []byte("\n"), 0o600))
	_, err = ReadToken(p)
	assert.ErrorContains(t, err, "is empty")
	require.NoError(t, os.WriteFile(p, []byte("a b"), 0o600))
	_, err = ReadToken(p)
	assert.ErrorContains(t, err, "one word")
}

// TestConcurrent: many goroutines on one handler and one model get the
// answers a lone request gets (run with -race in CI).
func TestConcurrent(t *testing.T) {
	srv := httptest.NewServer(newTestHandler(t, newFake(), Config{}))
	defer srv.Close()
	body := `{"nodes":[{"id":"x","edges":[{"to":"a1","weight":1},{"to":"b1","weight":3}]}]}`
	want := do(newTestHandler(t, newFake(), Config{}), "POST", "/v1/predict", body).Body.String()
	var wg sync.WaitGroup
	errs := make(chan string, 16*20)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				resp, err := http.Post(srv.URL+"/v1/predict", "application/json", strings.NewReader(body))
				if err != nil {
					errs <- err.Error()
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || string(b) != want {
					errs <- resp.Status + " " + string(b)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestGracefulShutdown: a request in flight when shutdown starts is
// answered; new connections are refused afterwards; Serve returns nil.
func TestGracefulShutdown(t *testing.T) {
	f := newFake()
	f.block = make(chan struct{})
	var logs bytes.Buffer
	var mu sync.Mutex
	s, err := New(f, Config{Addr: "127.0.0.1:0", Logger: slog.New(slog.NewJSONHandler(lockedWriter{&mu, &logs}, nil))})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()

	type result struct {
		code int
		body string
		err  error
	}
	res := make(chan result, 1)
	go func() {
		resp, err := http.Post(url+"/v1/predict", "application/json", strings.NewReader(`{"points":[[1,2]]}`))
		if err != nil {
			res <- result{err: err}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		res <- result{code: resp.StatusCode, body: string(b)}
	}()
	// Wait until the request is inside the model.
	require.Eventually(t, func() bool {
		return s.Handler().m.inflight != nil && gaugeValue(s.Handler()) == 1
	}, 5*time.Second, time.Millisecond)
	cancel()
	// Shutdown has begun: the listener closes while the request waits.
	require.Eventually(t, func() bool {
		c, err := net.DialTimeout("tcp", ln.Addr().String(), 100*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err != nil
	}, 5*time.Second, 5*time.Millisecond)
	select {
	case <-done:
		t.Fatal("Serve returned before the request in flight finished")
	default:
	}
	close(f.block)
	r := <-res
	require.NoError(t, r.err)
	assert.Equal(t, 200, r.code, r.body)
	assert.Contains(t, r.body, `"label":"B"`)
	require.NoError(t, <-done)
	mu.Lock()
	defer mu.Unlock()
	assert.Contains(t, logs.String(), `"path":"/v1/predict","status":200`)
	assert.Contains(t, logs.String(), "shutting down")
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
