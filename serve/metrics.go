package serve

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the server's own collectors, on a registry of its own (not
// the process-global one), so that two servers in a process, or a test, do
// not share counts.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	errors   *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	items    *prometheus.CounterVec
	inflight prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gssl_http_requests_total",
			Help: "HTTP requests answered, by handler and status code.",
		}, []string{"handler", "code"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gssl_http_errors_total",
			Help: "HTTP requests answered with a 4xx or 5xx status, by handler and status code.",
		}, []string{"handler", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "gssl_http_request_duration_seconds",
			Help: "Time from reading the request to writing the answer, by handler.",
			// 100 µs to about 6.5 s: a small batch on a loaded model up to a
			// batch at the size limit.
			Buckets: prometheus.ExponentialBuckets(100e-6, 2, 17),
		}, []string{"handler"}),
		items: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gssl_predictions_total",
			Help: "Nodes and points predicted, by input kind.",
		}, []string{"input"}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gssl_http_requests_in_flight",
			Help: "Requests being answered.",
		}),
	}
	m.reg.MustRegister(m.requests, m.errors, m.latency, m.items, m.inflight,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) observe(handler string, code int, d time.Duration) {
	c := strconv.Itoa(code)
	m.requests.WithLabelValues(handler, c).Inc()
	if code >= 400 {
		m.errors.WithLabelValues(handler, c).Inc()
	}
	m.latency.WithLabelValues(handler).Observe(d.Seconds())
}
