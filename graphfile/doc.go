// Package graphfile reads and writes .gsg files: a graph.CSR and its node
// ids in a binary layout that opens by memory mapping, so that a graph of
// 10⁸ edges is ready without parsing and its pages are shared by every
// process that opens the same file.
//
// # Layout (format version 1)
//
// All integers are little-endian. The file is a 256-byte header followed by
// up to six sections, in this order, each starting at the first multiple of
// 64 bytes after the end of the one before (zero bytes in between) so that
// every array is aligned for use in place; the file ends where its last
// section ends.
//
//	offset  size  field
//	0       8     magic "GSSLGRPH"
//	8       4     format version (1)
//	12      4     header size (256)
//	16      8     flags: bit 0 = every weight is 1; other bits must be 0
//	24      8     n, the number of nodes (≤ 2³¹−1)
//	32      8     nnz, the number of stored entries (2 per edge, 1 per self loop)
//	40      8     number of self loops
//	48      8     file size in bytes
//	56      4     weight type: 0 none (every weight 1), 1 float32, 2 float64
//	60      4     id type: 0 identity (node i has id "i"), 1 int64, 2 text
//	64      144   section table: 6 entries of {offset u64, length u64, CRC-32C u32, 0 u32}
//	208     44    reserved, zero
//	252     4     CRC-32C of bytes 0..251
//
//	section  content                          length in bytes
//	0        row offsets, int64 × (n+1)        8(n+1)
//	1        columns, int32 × nnz              4·nnz
//	2        weights, float32 or float64 × nnz 4·nnz or 8·nnz; absent for type none
//	3        degrees (row sums), float64 × n   8n
//	4        int64 ids × n, or text-id offsets 8n or 8(n+1); absent for identity
//	         uint64 × (n+1) into section 5
//	5        text ids, UTF-8 bytes             any; present for text ids only
//
// An absent section has offset, length and checksum 0. The arrays are those
// of graph.CSR (graph.CSRArrays): row i lists its columns strictly
// ascending, W is symmetric, the degrees are the row sums summed in column
// order. Checksums are CRC-32C (Castagnoli, hash/crc32) of each section's
// bytes; readers compute them in parallel chunks joined by the CRC
// combination rule (zlib's crc32_combine).
//
// # What Open checks
//
// Always, before any use of the data: the magic, the version, the header
// checksum, known flags and types, and that every section's offset and
// length are exactly those the header's n, nnz and types imply and that the
// file is as long as the header says. A file cut anywhere or with a damaged
// header is therefore an error before any section is read. Then, by
// OpenOptions.Verify:
//
//   - VerifyAll (the default): the checksum of every section and the zero
//     padding, then the structure as graph.FromCSRArrays checks it (offsets,
//     column range and order, weights, degrees, symmetry) and the ids.
//   - VerifyStructure: the structure and the ids, not the checksums.
//   - VerifyNone: the ids only (text offsets in range, ids distinct); the
//     arrays are trusted, which is for files this process or a pipeline it
//     trusts wrote. Each check is O(n + nnz) and parallel.
//
// # Memory
//
// Open reads the file into a private snapshot: anonymous memory outside the
// Go heap, page-aligned and read-only once filled. On little-endian 64-bit
// platforms the row offsets, columns, float64 weights and degrees of the CSR
// are the snapshot's bytes themselves (graph.CSR's int row offsets are
// 64-bit there). float32 weights are converted into a new float64 slice (8
// bytes per stored entry). A graph without weights stores none in memory
// either (graph.CSR keeps no weights for a 0/1 graph). The snapshot makes a
// reader safe from a file replaced in place while it is open (cp new.gsg
// old.gsg truncates and rewrites it): a mapped file's truncated pages would
// fault (SIGBUS) and kill the process. OpenOptions.Shared maps the file
// read-only and shared instead, without the copy and with pages shared by
// every process that opens the file, for files that nothing replaces while
// they are in use. Read copies the file into the Go heap. The graph of a
// File must not be used after Close.
package graphfile
