package persist

import (
	"encoding"
	"fmt"
	"slices"
	"strings"

	"github.com/gssl/gssl/diffusion"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/linbp"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/spectral"
	"github.com/gssl/gssl/stkr"
	"github.com/gssl/gssl/svm"
)

// Model is a model that writes itself as a modelfile container and reads
// itself back.
type Model interface {
	// ModelFile returns the fitted model as a container of its kind.
	ModelFile() (*modelfile.File, error)
	// ReadModelFile replaces the model by the one in f, or returns an
	// error and leaves it unchanged.
	ReadModelFile(f *modelfile.File) error
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// kind is one entry of the registry.
type kind struct {
	name string
	new  func() Model
}

// registry lists every kind a model file can hold, in the order Kinds
// reports them.
var registry = []kind{
	{labelprop.SpreadingKind, func() Model { return new(labelprop.Spreading) }},
	{labelprop.HarmonicKind, func() Model { return new(labelprop.Harmonic) }},
	{stkr.RegressorKind, func() Model { return new(stkr.Regressor) }},
	{stkr.ClassifierKind, func() Model { return new(stkr.Classifier) }},
	{gp.RegressorKind, func() Model { return new(gp.Regressor) }},
	{krr.ExactKind, func() Model { return new(krr.Exact) }},
	{krr.NystromKind, func() Model { return new(krr.Nystrom) }},
	{krr.FalkonKind, func() Model { return new(krr.Falkon) }},
	{krr.RandomFeaturesKind, func() Model { return new(krr.RandomFeatures) }},
	{krr.ClassifierKind, func() Model { return new(krr.Classifier) }},
	{imgp.RegressorKind, func() Model { return new(imgp.Regressor) }},
	{svm.PointSVCKind, func() Model { return new(svm.PointSVC) }},
	{svm.SVCKind, func() Model { return new(svm.SVC) }},
	{svm.KernelRidgeKind, func() Model { return new(svm.KernelRidge) }},
	{spectral.SpectralClusteringKind, func() Model { return new(spectral.SpectralClustering) }},
	{nodeclass.SGCKind, func() Model { return new(nodeclass.SGC) }},
	{nodeclass.APPNPKind, func() Model { return new(nodeclass.APPNP) }},
	{nodeclass.CorrectSmoothKind, func() Model { return new(nodeclass.CorrectSmooth) }},
	{nodeclass.SepGNNKind, func() Model { return new(nodeclass.SepGNN) }},
	{nodeclass.LINKXKind, func() Model { return new(nodeclass.LINKX) }},
	{nodeclass.ChannelMLPKind, func() Model { return new(nodeclass.ChannelMLP) }},
	{nodeclass.APPNPNetKind, func() Model { return new(nodeclass.APPNPNet) }},
	{linbp.PropagationKind, func() Model { return new(linbp.Propagation) }},
	{graphkernels.WLClassifierKind, func() Model { return new(graphkernels.WLClassifier) }},
	{diffusion.HeatClassifierKind, func() Model { return new(diffusion.HeatClassifier) }},
}

// Kinds lists the registered kinds.
func Kinds() []string {
	out := make([]string, len(registry))
	for i, k := range registry {
		out[i] = k.name
	}
	return out
}

// New returns an empty model of the named kind, or an error listing the
// kinds there are.
func New(name string) (Model, error) {
	for _, k := range registry {
		if k.name == name {
			return k.new(), nil
		}
	}
	known := Kinds()
	slices.Sort(known)
	return nil, fmt.Errorf("unknown model kind %q: this build reads %s", name, strings.Join(known, ", "))
}

// Read builds the model held in f, whatever its registered kind.
func Read(f *modelfile.File) (Model, error) {
	m, err := New(f.Kind)
	if err != nil {
		return nil, err
	}
	if err := m.ReadModelFile(f); err != nil {
		return nil, err
	}
	return m, nil
}

// Unmarshal builds the model encoded in data (a model's MarshalBinary, or
// the bytes of a .gssl file).
func Unmarshal(data []byte) (Model, error) {
	f, err := modelfile.Unmarshal(data)
	if err != nil {
		return nil, err
	}
	return Read(f)
}

// ReadFile builds the model in the file at path; errors name the path.
func ReadFile(path string) (Model, error) {
	f, err := modelfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}
