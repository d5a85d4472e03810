package pipeline_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/gssl/gssl/beam/pipeline"
)

// Label spreading on a path a – b – c – d with a labelled x and d labelled
// y, in-process on Prism.
func ExampleLabelProp() {
	dir, _ := os.MkdirTemp("", "gssl-beam-example")
	defer os.RemoveAll(dir)
	edges, labels, out := filepath.Join(dir, "edges.csv"), filepath.Join(dir, "labels.csv"), filepath.Join(dir, "pred.csv")
	os.WriteFile(edges, []byte("source,target\na,b\nb,c\nc,d\n"), 0o644)
	os.WriteFile(labels, []byte("id,label\na,x\nd,y\n"), 0o644)

	job := pipeline.LabelProp{Edges: edges, Labels: labels, Spreading: pipeline.Spreading{Alpha: 0.5, Tol: 1e-9}, Out: out}
	p, s := beam.NewPipelineWithRoot()
	if err := job.Build(context.Background(), s); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := prism.Execute(context.Background(), p); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(out)
	fmt.Printf("%d iterations\n%s", job.Spreading.K(), b)
	// Output:
	// 17 iterations
	// id,predicted,p_x,p_y
	// b,x,0.7777777777777779,0.22222222222222215
	// c,y,0.22222222222222215,0.7777777777777779
}

// The run of ExampleLabelProp as jobs of 6 rounds, one after the other,
// passing the state through checkpoint files: the same predictions.
func ExampleLabelProp_Run() {
	dir, _ := os.MkdirTemp("", "gssl-beam-example")
	defer os.RemoveAll(dir)
	edges, labels, out := filepath.Join(dir, "edges.csv"), filepath.Join(dir, "labels.csv"), filepath.Join(dir, "pred.csv")
	os.WriteFile(edges, []byte("source,target\na,b\nb,c\nc,d\n"), 0o644)
	os.WriteFile(labels, []byte("id,label\na,x\nd,y\n"), 0o644)

	job := pipeline.LabelProp{Edges: edges, Labels: labels, Spreading: pipeline.Spreading{Alpha: 0.5, Tol: 1e-9}, Out: out,
		RoundsPerJob: 6, Work: filepath.Join(dir, "work")}
	exec := func(ctx context.Context, p *beam.Pipeline) error {
		_, err := prism.Execute(ctx, p)
		return err
	}
	progress := func(j, jobs, first, last int) { fmt.Printf("job %d/%d: rounds %d–%d\n", j+1, jobs, first, last) }
	if err := job.Run(context.Background(), exec, progress); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(out)
	fmt.Printf("%s", b)
	// Output:
	// job 1/3: rounds 0–5
	// job 2/3: rounds 6–11
	// job 3/3: rounds 12–16
	// id,predicted,p_x,p_y
	// b,x,0.7777777777777779,0.22222222222222215
	// c,y,0.22222222222222215,0.7777777777777779
}
