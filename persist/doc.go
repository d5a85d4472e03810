// Package persist is the registry of the model kinds a gssl model file can
// hold: for each kind, the constructor of an empty model that reads it.
// Every front end (gssl predict and serve through package savedmodel, the C
// ABI under the Python package) opens a model file through it, so a kind
// added here is readable everywhere.
//
// A model file is a modelfile container whose header names the model's
// kind; the model writes its own sections (ModelFile) and reads them back
// (ReadModelFile), validating every value as user input: nothing in a file
// is executed, and a damaged or hostile file is an error naming what is
// wrong. Tables of probabilities must be distributions: the nodeclass
// models' "probabilities", labelprop's "prior", the class prior in an STKR
// classifier's metadata (modelfile.Distributions and CheckDistributions),
// and linbp's centred "beliefs" must have rows summing to 0.
package persist
