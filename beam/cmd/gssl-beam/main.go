// Command gssl-beam runs gssl's label spreading and feature propagation as
// Apache Beam pipelines: in-process on Prism, or on a Flink, Spark or
// Google Dataflow cluster (see beam/README.md).
//
//	gssl-beam labelprop --edges E --labels L [--alpha A] [--tol T] --out F --runner prism
//	gssl-beam labelprop --edges E --labels L --out F --rounds-per-job 4 --work gs://b/w --runner dataflow
//	gssl-beam propagate --edges E --features X [--k K] --out F --runner flink --endpoint host:8099
//
// Flags gssl-beam does not know, and everything after "--", go to the Beam
// SDK (--endpoint, --environment_type, --environment_config, --job_name,
// --parallelism, the Dataflow flags …).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs" // gs:// inputs and outputs
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
)

func main() {
	// A runner starts this binary as its worker with Beam's own flags
	// (--worker, --id, …): beam.Init takes over and does not return.
	if len(os.Args) < 2 || len(os.Args[1]) > 0 && os.Args[1][0] == '-' {
		flag.Parse()
		beam.Init()
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}
