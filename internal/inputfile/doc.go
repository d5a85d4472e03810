// Package inputfile opens the files a user names as inputs so that a
// stream reads like a regular file.
//
// gssl's readers open an input more than once: a format is sniffed from the
// first bytes and the file is then opened again to be read, an edge table is
// walked twice, a .npz archive and a .gsg graph need random access. A pipe
// (shell process substitution <(…), a FIFO made by mkfifo, /dev/stdin) or
// standard input named "-" can be read once only. Open reads such an input
// once, up to a cap, into a private temporary file, and serves this and
// every later Open of the same path from that copy; a regular file (or a
// folder), and a device that opens afresh each time (/dev/zero), is opened
// as it is. The cap is DefaultCap unless a command sets its own (SetCap,
// from --max-memory), and a copy never takes the temporary folder's last
// DiskReserve bytes: an endless stream ends in an error naming the cap or
// the folder, not in a full disk. Error messages keep the user's path:
// Display names "-" as "standard input" and any other path as given.
package inputfile
