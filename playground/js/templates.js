// The minimal spec of the common kinds for the console's "new object"
// templates (schema.js newObject adds apiVersion, kind, metadata.name and
// what the schema marks required): the smallest body the API server
// accepts as it is, with the fields people change first. Keyed by
// "group/Kind" ('' for the core group). Each one is created (dry run) by
// tests/browser/playground-schema.test.mjs.
//
//   minimalSpec('apps', 'Deployment', 'web') → {spec: {replicas: 1, selector: {matchLabels: {app: 'web'}}, template: …}}

const container = (name, image = 'nginx:1.27') => ({ name, image, ports: [{ containerPort: 80 }] });
const podTemplate = (app) => ({ metadata: { labels: { app } }, spec: { containers: [container('app')] } });
const selector = (app) => ({ matchLabels: { app } });
const job = () => ({ template: { spec: { restartPolicy: 'Never', containers: [{ name: 'job', image: 'busybox:1.36', command: ['sh', '-c', 'echo hello'] }] } } });
const rules = [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }];

const SPECS = {
  '/ConfigMap': () => ({ data: { 'app.properties': 'color=blue\n', mode: 'demo' } }),
  '/Secret': () => ({ type: 'Opaque', stringData: { password: 's3cr3t' } }),
  '/Pod': () => ({ spec: { containers: [container('app')] } }),
  '/Service': (n) => ({ spec: { selector: { app: n }, ports: [{ port: 80, targetPort: 80 }] } }),
  '/Namespace': () => ({}),
  '/ServiceAccount': () => ({}),
  '/PersistentVolumeClaim': () => ({ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
  '/PersistentVolume': () => ({ spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } }),
  '/ResourceQuota': () => ({ spec: { hard: { pods: '10', 'requests.cpu': '4' } } }),
  '/LimitRange': () => ({ spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' } }] } }),
  '/Endpoints': () => ({ subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] }),
  '/Node': () => ({ spec: {} }),
  'apps/Deployment': (n) => ({ spec: { replicas: 1, selector: selector(n), template: podTemplate(n) } }),
  'apps/ReplicaSet': (n) => ({ spec: { replicas: 1, selector: selector(n), template: podTemplate(n) } }),
  'apps/StatefulSet': (n) => ({ spec: { replicas: 1, serviceName: n, selector: selector(n), template: podTemplate(n) } }),
  'apps/DaemonSet': (n) => ({ spec: { selector: selector(n), template: podTemplate(n) } }),
  'batch/Job': () => ({ spec: job() }),
  'batch/CronJob': () => ({ spec: { schedule: '*/5 * * * *', jobTemplate: { spec: job() } } }),
  'autoscaling/HorizontalPodAutoscaler': (n) => ({ spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: n }, minReplicas: 1, maxReplicas: 5,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
  } }),
  'policy/PodDisruptionBudget': (n) => ({ spec: { minAvailable: 1, selector: selector(n) } }),
  'networking.k8s.io/Ingress': (n) => ({ spec: { rules: [{ host: 'example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: n, port: { number: 80 } } } }] } }] } }),
  'networking.k8s.io/IngressClass': () => ({ spec: { controller: 'example.com/ingress-controller' } }),
  'networking.k8s.io/NetworkPolicy': (n) => ({ spec: { podSelector: { matchLabels: { app: n } }, policyTypes: ['Ingress'] } }),
  'rbac.authorization.k8s.io/Role': () => ({ rules }),
  'rbac.authorization.k8s.io/ClusterRole': () => ({ rules }),
  'rbac.authorization.k8s.io/RoleBinding': (n) => ({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: n }, subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'default' }] }),
  'rbac.authorization.k8s.io/ClusterRoleBinding': (n) => ({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: n }, subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'default' }] }),
  'scheduling.k8s.io/PriorityClass': () => ({ value: 1000, description: 'for the important workloads' }),
  'storage.k8s.io/StorageClass': () => ({ provisioner: 'example.com/local', reclaimPolicy: 'Delete' }),
  'coordination.k8s.io/Lease': (n) => ({ spec: { holderIdentity: n, leaseDurationSeconds: 15 } }),
  'discovery.k8s.io/EndpointSlice': () => ({ addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }),
  'apiextensions.k8s.io/CustomResourceDefinition': () => ({ spec: {
    group: 'example.com', scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
  } }),
};

/** minimalSpec gives the top-level fields (besides apiVersion, kind, metadata) of a kind's template, or {}. */
export function minimalSpec(group, kind, name) {
  const f = SPECS[`${group || ''}/${kind}`];
  return f ? f(name) : {};
}

/** templated lists the "group/Kind" keys that have a minimal spec. */
export const templated = Object.keys(SPECS);

/** templateName is a new object's default name: 'Deployment' → 'my-deployment'. The CRD's must be <plural>.<group>. */
export function templateName(group, kind) {
  if (group === 'apiextensions.k8s.io' && kind === 'CustomResourceDefinition') return 'widgets.example.com';
  return 'my-' + kind.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}
