// Package modelfile reads and writes .gssl model files: a versioned,
// checksummed, self-describing container for a fitted model, made of plain
// data only (a JSON metadata object and typed numeric and string arrays).
// Opening a file runs no code of the file's choosing, unlike Python's
// pickle: a model file from a stranger is safe to open, and a damaged one is
// an error, never a panic or a large allocation.
//
// # Layout (format version 1)
//
// All integers are little-endian and unsigned. A file is a fixed header,
// the descriptive block, the sections in the order they were put, and a
// SHA-256 trailer:
//
//	offset  size  field
//	0       8     magic "GSSLMODL"
//	8       4     format version (1)
//	12      4     flags, 0 (other values are refused)
//	16      8     file size in bytes, trailer included
//	24      4     kind version (the model's own layout version, ≥ 1)
//	28      4     section count (≤ MaxSections)
//	32      2     kind length k (1..MaxKindLen)
//	34      2     writer length v (≤ MaxWriterLen)
//	36      4     metadata length m
//	40      4     CRC-32C of bytes 0..39
//	44      k     kind, e.g. "labelprop.Spreading" (ASCII letters, digits, . _ -)
//	44+k    v     writer: the gssl build that wrote the file (UTF-8)
//	44+k+v  m     metadata: one JSON object (UTF-8)
//	…       4     CRC-32C of the kind, writer and metadata bytes
//
// then each section:
//
//	0       2     name length s (1..MaxNameLen; names are unique in a file)
//	2       1     element type: 1 bytes, 2 int32, 3 int64, 4 float64, 5 strings
//	3       5     zero
//	8       8     element count
//	16      8     payload length p in bytes
//	24      s     name (ASCII letters, digits, . _ -)
//	24+s    p     payload
//	24+s+p  4     CRC-32C of bytes 0 .. 24+s+p−1 of the section
//
// and finally 32 bytes: the SHA-256 of every byte before them.
//
// Numbers are stored as their little-endian bytes (float64 as IEEE 754 bits,
// so NaN payloads and signed zeros survive), p = count × size. A strings
// section stores each string as a 4-byte length and its bytes, p = 4·count
// + the total length; strings must be valid UTF-8.
//
// # What Unmarshal checks
//
// In this order, each failure a clear error (wrapping ErrFormat, ErrVersion
// or, from File.Expect, ErrKind): the magic; the format version (a newer one
// is refused by name, ErrVersion); the flags; that the file is exactly as
// long as its header says (a cut file is reported as truncated with both
// sizes); the header checksum; every length against the bytes that remain
// before the trailer, before anything is allocated for it (so a file that
// declares 2⁶⁰ floats is refused without allocating them); the section count
// against MaxSections; names, element types, zero fields and UTF-8; each
// section's checksum; that the sections end exactly at the trailer; and the
// SHA-256 of the whole file. Decoding allocates at most a few times the
// file's size in total.
//
// CRC-32C is Castagnoli's CRC (hash/crc32); it locates damage to a section,
// and the SHA-256 covers the file as a whole.
//
// # What a model stores
//
// The kind names the model type and the kind version its layout; the
// package that owns the model refuses other kinds and newer kind versions
// (File.Expect). The metadata holds the hyperparameters, the class names and
// what the model needs of the graph (GraphRef: the graph's size, and either
// the arrays it needs stored as sections, or the SHA-256 of the graph file
// it was fitted on). Large arrays (scores, degrees, node ids) go in
// sections.
//
// A table of probabilities (a model's fitted class probabilities, a class
// prior) is read with Distributions or Distribution, which refuse a row
// that is not a distribution (an entry negative or not finite, or a sum
// farther than SumTol = 1e-9 from 1), naming the section, the row and what
// is wrong: `model file, section "probabilities": row 17 sums to 0.43, not
// 1`. CheckDistributions is the same check on any table, such as one in the
// metadata.
//
// Section names that start with "data." are reserved for the data set's
// context that the saving command adds (node ids, class names; package
// savedmodel); models never use them.
//
// Files are written atomically (a temporary file beside the destination,
// flushed, then renamed over it): a reader never sees half a model.
package modelfile
