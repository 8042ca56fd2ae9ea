// Package openapi checks kubesandbox's generated OpenAPI documents and
// aggregated discovery (core/openapi) with the libraries real clients
// use: kube-openapi's spec3/spec types, client-go's openapi3 root and
// discovery client, kubectl's explain and OpenAPI v2 models,
// apimachinery's strategic merge patch and managed-fields type converter,
// and the apidiscovery.k8s.io/v2 types. It holds tests only.
package openapi
