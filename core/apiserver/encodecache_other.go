//go:build !js

package apiserver

// encodeCacheBytes bounds the protobuf messages kept of stored objects
// (rawread.go): 64 MiB, about 50,000 ConfigMaps of 1 KiB.
const encodeCacheBytes = 64 << 20
