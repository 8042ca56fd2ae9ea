module github.com/kubesandbox/kubesandbox

go 1.26.8

require (
	github.com/evanphx/json-patch/v5 v5.9.11
	github.com/google/uuid v1.6.0
	sigs.k8s.io/structured-merge-diff/v4 v4.7.0
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/robfig/cron/v3 v3.0.1 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
)
