package serve

import dto "github.com/prometheus/client_model/go"

func gaugeValue(h *Handler) float64 {
	var m dto.Metric
	if err := h.m.inflight.Write(&m); err != nil {
		return -1
	}
	return m.GetGauge().GetValue()
}
