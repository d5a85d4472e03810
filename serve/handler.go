package serve

import (
	"bytes"
	"context"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gssl/gssl/estimator"
)

// Defaults of Config.
const (
	DefaultAddr          = "127.0.0.1:8080"
	DefaultMaxBatch      = 1000
	DefaultMaxGraphNodes = 10000
	DefaultMaxGraphEdges = 100000
	// DefaultMaxBatchNodes and DefaultMaxBatchEdges bound the graphs of one
	// request together: a graph's node count is one number in the body, so
	// per-graph limits alone let a small body stand for MaxBatch ×
	// MaxGraphNodes nodes.
	DefaultMaxBatchNodes   = 100000
	DefaultMaxBatchEdges   = 1000000
	DefaultMaxBody         = 8 << 20
	DefaultReadTimeout     = 30 * time.Second
	DefaultWriteTimeout    = 60 * time.Second
	DefaultIdleTimeout     = 120 * time.Second
	DefaultShutdownTimeout = 30 * time.Second
)

// Config holds the server's settings; zero values mean the Default
// constants. The flag tags are gssl serve's flags.
type Config struct {
	// Addr is host:port to listen on (ListenAndServe); "" means
	// DefaultAddr. A non-loopback host needs Token.
	Addr string `flag:"addr"`
	// Token, when set, is the bearer token every request but /healthz and
	// the page at / must carry ("Authorization: Bearer <token>").
	Token string
	// MaxBatch is the most nodes, points or graphs in one request.
	MaxBatch int `flag:"max-batch"`
	// MaxGraphNodes and MaxGraphEdges bound each graph of a request of
	// graphs.
	MaxGraphNodes int `flag:"max-graph-nodes"`
	MaxGraphEdges int `flag:"max-graph-edges"`
	// MaxBatchNodes and MaxBatchEdges bound the total nodes and edges of
	// the graphs of one request.
	MaxBatchNodes int `flag:"max-batch-nodes"`
	MaxBatchEdges int `flag:"max-batch-edges"`
	// MaxBody is the largest request body in bytes.
	MaxBody int64 `flag:"max-body"`
	// Timeouts of the http.Server.
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// ShutdownTimeout bounds how long Serve waits for requests in flight
	// after its context ends.
	ShutdownTimeout time.Duration
	// Logger receives one line per request; nil means no request logs.
	Logger *slog.Logger
}

// DefaultConfig is the configuration with every setting at its default
// (gssl serve's flag defaults).
func DefaultConfig() Config { return Config{}.withDefaults() }

func (c Config) withDefaults() Config {
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	if c.MaxBatch == 0 {
		c.MaxBatch = DefaultMaxBatch
	}
	if c.MaxBody == 0 {
		c.MaxBody = DefaultMaxBody
	}
	if c.MaxGraphNodes == 0 {
		c.MaxGraphNodes = DefaultMaxGraphNodes
	}
	if c.MaxGraphEdges == 0 {
		c.MaxGraphEdges = DefaultMaxGraphEdges
	}
	if c.MaxBatchNodes == 0 {
		c.MaxBatchNodes = DefaultMaxBatchNodes
	}
	if c.MaxBatchEdges == 0 {
		c.MaxBatchEdges = DefaultMaxBatchEdges
	}
	if c.ReadTimeout == 0 {
		c.ReadTimeout = DefaultReadTimeout
	}
	if c.WriteTimeout == 0 {
		c.WriteTimeout = DefaultWriteTimeout
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.ShutdownTimeout == 0 {
		c.ShutdownTimeout = DefaultShutdownTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Validate checks the limits: none may be negative (0 means its
// default), and the token must not contain white space. An invalid limit
// is an *estimator.FieldError naming the Config field.
func (c Config) Validate() error {
	for _, l := range []struct {
		field    string
		v, deflt int64
		unit     string
	}{{"MaxBatch", int64(c.MaxBatch), DefaultMaxBatch, ""}, {"MaxGraphNodes", int64(c.MaxGraphNodes), DefaultMaxGraphNodes, ""},
		{"MaxGraphEdges", int64(c.MaxGraphEdges), DefaultMaxGraphEdges, ""}, {"MaxBatchNodes", int64(c.MaxBatchNodes), DefaultMaxBatchNodes, ""},
		{"MaxBatchEdges", int64(c.MaxBatchEdges), DefaultMaxBatchEdges, ""}, {"MaxBody", c.MaxBody, DefaultMaxBody, " byte"}} {
		if l.v < 0 {
			return fmt.Errorf("serve: %w", &estimator.FieldError{Field: l.field, Value: l.v, Reason: fmt.Sprintf("it must be ≥ 1%s (0 means %d)", l.unit, l.deflt)})
		}
	}
	if strings.ContainsAny(c.Token, " \t\r\n") {
		return errors.New("serve: the token must not contain white space")
	}
	return nil
}

//go:embed static
var static embed.FS

// Handler answers the endpoints of the package documentation for one
// model. It is safe for concurrent use.
type Handler struct {
	p       Predictor
	meta    Metadata
	metaRaw []byte
	cfg     Config
	m       *metrics
	mux     *http.ServeMux
}

// NewHandler returns the handler for p under cfg (Addr and the timeouts are
// the server's and are not used here).
func NewHandler(p Predictor, cfg Config) (*Handler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	h := &Handler{p: p, meta: p.Metadata(), cfg: cfg, m: newMetrics(), mux: http.NewServeMux()}
	raw, err := json.Marshal(h.meta)
	if err != nil {
		return nil, fmt.Errorf("serve: the model's metadata does not encode: %w", err)
	}
	h.metaRaw = append(raw, '\n')
	metricsHandler := promhttp.HandlerFor(h.m.reg, promhttp.HandlerOpts{})
	h.route("/v1/predict", "predict", http.MethodPost, true, h.predict)
	h.route("/v1/model", "model", http.MethodGet, true, h.model)
	h.route("/healthz", "healthz", http.MethodGet, false, func(w http.ResponseWriter, r *http.Request) *httpError {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
		return nil
	})
	h.route("/metrics", "metrics", http.MethodGet, true, func(w http.ResponseWriter, r *http.Request) *httpError {
		metricsHandler.ServeHTTP(w, r)
		return nil
	})
	h.route("/{$}", "page", http.MethodGet, false, h.file("static/index.html", "text/html; charset=utf-8"))
	h.route("/app.js", "page", http.MethodGet, false, h.file("static/app.js", "text/javascript; charset=utf-8"))
	h.mux.HandleFunc("/", h.wrap("other", "", false, func(w http.ResponseWriter, r *http.Request) *httpError {
		return &httpError{status: http.StatusNotFound, msg: fmt.Sprintf("no endpoint %s: use POST /v1/predict, GET /v1/model, /healthz or /metrics", r.URL.Path)}
	}))
	return h, nil
}

// ServeHTTP answers one request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

func (h *Handler) route(path, name, method string, auth bool, fn func(http.ResponseWriter, *http.Request) *httpError) {
	h.mux.HandleFunc(path, h.wrap(name, method, auth, fn))
}

// statusWriter remembers the status and size of an answer for the logs and
// metrics.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// wrap adds what every endpoint shares: security headers, the method and
// token checks, JSON errors, metrics and the request log.
func (h *Handler) wrap(name, method string, auth bool, fn func(http.ResponseWriter, *http.Request) *httpError) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		h.m.inflight.Inc()
		defer h.m.inflight.Dec()
		w := &statusWriter{ResponseWriter: rw}
		hdr := w.Header()
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
		hdr.Set("Cache-Control", "no-store")
		var herr *httpError
		switch {
		case method != "" && r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead):
			hdr.Set("Allow", method)
			herr = &httpError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf("%s %s: use %s", r.Method, r.URL.Path, method)}
		case auth && !h.authorized(r):
			hdr.Set("WWW-Authenticate", `Bearer realm="gssl"`)
			herr = &httpError{status: http.StatusUnauthorized, field: "Authorization", msg: "missing or wrong bearer token: send the header Authorization: Bearer <token>"}
		default:
			herr = fn(w, r)
		}
		if herr != nil {
			writeJSON(w, herr.status, ErrorBody{Error: herr.msg, Field: herr.field})
		}
		if w.status == 0 {
			w.status = http.StatusOK
		}
		d := time.Since(start)
		h.m.observe(name, w.status, d)
		level := slog.LevelInfo
		if w.status >= 500 {
			level = slog.LevelError
		}
		attrs := []slog.Attr{
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", w.status), slog.Int("bytes", w.bytes),
			slog.Duration("duration", d), slog.String("remote", r.RemoteAddr),
		}
		if herr != nil {
			attrs = append(attrs, slog.String("error", herr.msg))
		}
		h.cfg.Logger.LogAttrs(r.Context(), level, "request", attrs...)
	}
}

// authorized checks the bearer token in constant time.
func (h *Handler) authorized(r *http.Request) bool {
	if h.cfg.Token == "" {
		return true
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(h.cfg.Token)) == 1
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, "{\"error\":%q}\n", "the answer does not encode as JSON: "+err.Error())
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (h *Handler) model(w http.ResponseWriter, r *http.Request) *httpError {
	w.Header().Set("Content-Type", "application/json")
	w.Write(h.metaRaw)
	return nil
}

func (h *Handler) file(name, contentType string) func(http.ResponseWriter, *http.Request) *httpError {
	b, err := static.ReadFile(name)
	if err != nil {
		panic("serve: embedded " + name + " missing")
	}
	return func(w http.ResponseWriter, r *http.Request) *httpError {
		w.Header().Set("Content-Type", contentType)
		w.Write(b)
		return nil
	}
}

func (h *Handler) predict(w http.ResponseWriter, r *http.Request) *httpError {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return &httpError{status: http.StatusUnsupportedMediaType, field: "Content-Type", msg: fmt.Sprintf("Content-Type %q: send application/json", ct)}
		}
	} else {
		return &httpError{status: http.StatusUnsupportedMediaType, field: "Content-Type", msg: "no Content-Type: send application/json"}
	}
	body := http.MaxBytesReader(w, r.Body, h.cfg.MaxBody)
	req, herr := decodeRequest(body, h.cfg.limits())
	if herr != nil {
		return herr
	}
	ctx := r.Context()
	var (
		preds []Prediction
		err   error
		input string
		n     int
	)
	switch {
	case req.Graphs != nil:
		input, n = "graphs", len(req.Graphs)
		gp, ok := h.p.(GraphPredictor)
		if !ok {
			return &httpError{status: http.StatusUnprocessableEntity, field: "graphs", msg: h.notGraphs()}
		}
		preds, err = gp.PredictGraphs(ctx, req.Graphs)
	case req.Nodes != nil:
		input, n = "nodes", len(req.Nodes)
		preds, err = h.p.PredictNodes(ctx, req.Nodes)
	default:
		input, n = "points", len(req.Points)
		preds, err = h.p.PredictPoints(ctx, req.Points)
	}
	if err != nil {
		var ie *InputError
		switch {
		case errors.As(err, &ie):
			return &httpError{status: http.StatusUnprocessableEntity, field: ie.Field, msg: ie.Msg}
		case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
			return &httpError{status: http.StatusServiceUnavailable, msg: "the request was cancelled"}
		}
		h.cfg.Logger.Error("prediction failed", slog.String("error", err.Error()))
		return &httpError{status: http.StatusInternalServerError, msg: "the model failed to predict; the server log has the cause"}
	}
	if len(preds) != n {
		h.cfg.Logger.Error("prediction count mismatch", slog.Int("want", n), slog.Int("got", len(preds)))
		return &httpError{status: http.StatusInternalServerError, msg: "the model returned the wrong number of predictions"}
	}
	if herr := checkFinite(input, preds); herr != nil {
		h.cfg.Logger.Warn("non-finite prediction refused", slog.String("field", herr.field))
		return herr
	}
	for i := range preds {
		switch {
		case req.Nodes != nil:
			preds[i].ID = req.Nodes[i].ID
		case req.Graphs != nil:
			preds[i].ID = req.Graphs[i].ID
		}
	}
	h.m.items.WithLabelValues(input).Add(float64(n))
	writeJSON(w, http.StatusOK, Response{Kind: h.meta.Kind, Classes: h.meta.Classes, Predictions: preds})
	return nil
}

// notGraphs says what a model that is not a GraphPredictor predicts.
func (h *Handler) notGraphs() string {
	switch {
	case h.meta.Nodes > 0:
		return fmt.Sprintf("a %s model predicts new nodes from their edges to fitted nodes, not graphs: send \"nodes\"", h.meta.Kind)
	case h.meta.Features > 0:
		return fmt.Sprintf("a %s model predicts points from their features (%d each), not graphs: send \"points\"", h.meta.Kind, h.meta.Features)
	}
	return fmt.Sprintf("a %s model does not predict graphs", h.meta.Kind)
}

// checkFinite refuses an answer that holds NaN or ±Inf (which JSON cannot
// carry): finite input whose values are so large that the model's
// arithmetic overflows (features of 1e308, say) is the client's to scale,
// so the answer is a 422 naming the item, not a 500 or a silent default.
func checkFinite(input string, preds []Prediction) *httpError {
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	for i, p := range preds {
		vals := append(append([]float64(nil), p.Probabilities...), p.Scores...)
		if p.Mean != nil {
			vals = append(vals, *p.Mean)
		}
		if p.Variance != nil {
			vals = append(vals, *p.Variance)
		}
		for _, v := range vals {
			if bad(v) {
				return &httpError{status: http.StatusUnprocessableEntity, field: fmt.Sprintf("%s[%d]", input, i),
					msg: fmt.Sprintf("the prediction is not a finite number (%v): the item's values are too large for the model's arithmetic; scale them to the range the model was fitted on", v)}
			}
		}
	}
	return nil
}
