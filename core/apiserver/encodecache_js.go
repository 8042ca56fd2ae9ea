package apiserver

// encodeCacheBytes bounds the protobuf messages kept of stored objects
// (rawread.go). In the browser Go's memory never shrinks and protobuf
// clients are rare (kubectl asks for JSON): 4 MiB.
const encodeCacheBytes = 4 << 20
