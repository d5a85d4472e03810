package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
)

// Server is an http.Server around a Handler with the Config's limits.
type Server struct {
	cfg Config
	h   *Handler
}

// New returns a server for p. It refuses a non-loopback Config.Addr
// without a Config.Token.
func New(p Predictor, cfg Config) (*Server, error) {
	h, err := NewHandler(p, cfg)
	if err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if cfg.Token == "" && !IsLoopback(cfg.Addr) {
		return nil, fmt.Errorf("serve: %s is not a loopback address: serving beyond this machine needs a bearer token (--token-file)", cfg.Addr)
	}
	return &Server{cfg: cfg, h: h}, nil
}

// Handler returns the server's handler.
func (s *Server) Handler() *Handler { return s.h }

// IsLoopback reports whether the host of addr (host:port) is a loopback
// address or "localhost". An empty host (every interface) is not.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// ListenAndServe listens on Config.Addr and serves until ctx ends (see
// Serve). ready, when not nil, is called with the bound address once the
// server accepts connections (the port is known then even for ":0").
func (s *Server) ListenAndServe(ctx context.Context, ready func(addr net.Addr)) error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if ready != nil {
		ready(ln.Addr())
	}
	return s.Serve(ctx, ln)
}

// Serve answers connections on ln until ctx ends, then shuts down
// gracefully: it stops accepting, lets the requests in flight finish (up to
// Config.ShutdownTimeout) and returns nil. It closes ln.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.h,
		ReadTimeout:       s.cfg.ReadTimeout,
		ReadHeaderTimeout: s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.cfg.Logger.Info("shutting down: waiting for requests in flight", "timeout", s.cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// maxTokenFile is the longest token file ReadToken reads.
const maxTokenFile = 4096

// ReadToken reads a bearer token from a file: its content without the
// surrounding white space, which must be non-empty and hold no white space.
func ReadToken(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	defer f.Close()
	// A token is short: read one byte past the limit and no more, so that a
	// device or a FIFO (/dev/zero, say) is refused instead of read forever.
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", fmt.Errorf("--token-file %s: %w", path, err)
	}
	if len(b) > maxTokenFile {
		return "", fmt.Errorf("--token-file %s: more than %d bytes, longer than a token", path, maxTokenFile)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("--token-file %s is empty", path)
	}
	if strings.ContainsAny(tok, " \t\r\n") {
		return "", fmt.Errorf("--token-file %s: the token must be one word (no white space inside)", path)
	}
	return tok, nil
}
