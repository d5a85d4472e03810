package protocol

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/stkr"
)

func TestSTKRGridSpecGrid(t *testing.T) {
	g, err := STKRGridSpec{Transform: "inverse-laplacian", Eta: "0.9", Ridge: "auto", MaxIter: "0,8", Solver: "cg", Tol: 1e-6}.Grid()
	require.NoError(t, err)
	want := STKRGrid{Base: stkr.Regressor{Transform: stkr.InverseLaplacian{}, Solver: stkr.SolverCG, Tol: 1e-6, Eigen: g.Base.Eigen},
		Etas: []float64{0.9}, Betas: stkr.BetaGrid(), Iterations: []int{0, 8}}
	assert.Equal(t, want, g)
	assert.NotNil(t, g.Base.Eigen)
	assert.Len(t, g.Candidates(), 1*len(stkr.BetaGrid())*2)

	g, err = STKRGridSpec{Transform: "poly:4", Eta: "auto", Ridge: "10", MaxIter: "auto", Solver: "auto"}.Grid()
	require.NoError(t, err)
	assert.Equal(t, stkr.Power(4), g.Base.Transform)
	assert.Equal(t, stkr.EtaGrid(), g.Etas)
	assert.Equal(t, []float64{10}, g.Betas)
	assert.Equal(t, stkr.IterationsGrid(), g.Iterations)
}

func TestSTKRGridSpecNamesTheField(t *testing.T) {
	ok := STKRGridSpec{Transform: "inverse-laplacian", Eta: "auto", Ridge: "auto", MaxIter: "0", Solver: "auto"}
	require.NoError(t, ok.Validate())
	for _, c := range []struct {
		edit  func(*STKRGridSpec)
		field string
	}{
		{func(s *STKRGridSpec) { s.Solver = "lu" }, "Solver"},
		{func(s *STKRGridSpec) { s.Transform = "heat" }, "Transform"},
		{func(s *STKRGridSpec) { s.Transform = "poly:0" }, "Transform"},
		{func(s *STKRGridSpec) { s.Tol = 1 }, "Tol"},
		{func(s *STKRGridSpec) { s.Eta = "1" }, "Eta"},
		{func(s *STKRGridSpec) { s.Eta = "big" }, "Eta"},
		{func(s *STKRGridSpec) { s.Transform, s.Eta = "poly:8", "0.5" }, "Eta"},
		{func(s *STKRGridSpec) { s.Ridge = "0" }, "Ridge"},
		{func(s *STKRGridSpec) { s.Ridge = "+Inf" }, "Ridge"},
		{func(s *STKRGridSpec) { s.MaxIter = "-2" }, "MaxIter"},
		{func(s *STKRGridSpec) { s.MaxIter = "8,1000000000" }, "MaxIter"},
		{func(s *STKRGridSpec) { s.MaxIter = "0,8,x" }, "MaxIter"},
		{func(s *STKRGridSpec) { s.Transform, s.MaxIter = "topd:8", "8" }, "MaxIter"},
		{func(s *STKRGridSpec) { s.Transform, s.MaxIter = "topd:8", "auto" }, "MaxIter"},
	} {
		s := ok
		c.edit(&s)
		var fe *estimator.FieldError
		err := s.Validate()
		require.True(t, errors.As(err, &fe), "%+v: %v", s, err)
		assert.Equal(t, c.field, fe.Field, "%+v", s)
	}
}

func TestSTKRSettingSpec(t *testing.T) {
	for _, name := range settingNames {
		got, err := STKRSettingSpec{Setting: name, PTest: DefaultPTest, TestChunks: true}.Parse()
		require.NoError(t, err)
		want, _ := ParseSetting(name)
		assert.Equal(t, want, got)
	}
	for _, c := range []struct {
		spec  STKRSettingSpec
		field string
	}{
		{STKRSettingSpec{Setting: "online"}, "Setting"},
		{STKRSettingSpec{Setting: "transductive", PTest: 1}, "PTest"},
		{STKRSettingSpec{Setting: "transductive", PTest: -0.1}, "PTest"},
		{STKRSettingSpec{Setting: "transductive", TestChunks: true}, "PTest"},
	} {
		var fe *estimator.FieldError
		_, err := c.spec.Parse()
		require.True(t, errors.As(err, &fe), "%+v: %v", c.spec, err)
		assert.Equal(t, c.field, fe.Field, "%+v", c.spec)
	}
}

func TestSTKRGridSpecTransformReason(t *testing.T) {
	for in, want := range map[string]string{
		"heat":   "want inverse-laplacian, poly:P, krr or topd:D",
		"poly:0": "the power p must be a positive integer",
	} {
		var fe *estimator.FieldError
		require.True(t, errors.As(STKRGridSpec{Transform: in, Solver: "auto"}.Validate(), &fe), in)
		assert.Equal(t, want, fe.Reason, in)
	}
}
