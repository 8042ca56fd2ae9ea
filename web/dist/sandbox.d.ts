// Types for kubesandbox's page API (sandbox.js): a Kubernetes API server
// running in the browser (WebAssembly), answered by a service worker.
// See docs/embedding.md for where the files must be served from.

/** Progress of the start: download of the wasm, its start, then ready (or failed, with the error). */
export interface Progress {
  phase: 'download' | 'start' | 'ready' | 'failed' | string;
  loaded: number;
  total: number;
  /** phase 'failed' only: what went wrong and what to fix */
  error?: string;
}

export interface SandboxOptions {
  /** Folder (URL) holding worker.js, kubesandbox.wasm, kubectl.js; default: the folder of sandbox.js. */
  runtime?: string;
  /** The service worker's URL; default runtime + 'sw.js'. '/kubesandbox-sw.js': a copy at the
   *  site root, for hosts that cannot send Service-Worker-Allowed. */
  swUrl?: string;
  /** The SharedWorker's URL; default runtime + 'worker.js'. */
  workerUrl?: string;
  /** The service worker's scope; default '/'. */
  scope?: string;
  /** API path prefixes the service worker routes; default /api, /apis, /version, /openapi, /livez, /readyz, /healthz. */
  prefixes?: string[];
  /** Name of the SharedWorker and leader lock; default 'kubesandbox'. */
  name?: string;
  /** '' (default): the origin's default cluster at /api/…; else a cluster of its own at /sandbox/<name>/api/… (its own store and IndexedDB database, in the same SharedWorker and Go instance as the page's other sandboxes). */
  sandbox?: string;
  /** Where named sandboxes live; default '/sandbox/'. */
  sandboxes?: string;
  /** false: only /sandbox/<name>/… is routed, a site's own /api/… pages stay its own. Default true. */
  rootAPI?: boolean;
  /** Simulated Nodes (default 3; 0: Pods stay Pending). */
  nodes?: number;
  /** false: the API server alone, no controllers. Default true. */
  controllers?: boolean;
  onProgress?: (p: Progress) => void;
}

/** A watch event as the API server streams it. */
export interface WatchEvent<T = any> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

export interface WatchOptions {
  /** Start from this resourceVersion; default: the collection's current one. */
  resourceVersion?: string;
  signal?: AbortSignal;
  onEvent?: (ev: WatchEvent) => void;
  /** Broken streams in a row before giving up; default 5. */
  retries?: number;
}

export interface KubectlOptions {
  /** Text for `-f -`. */
  stdin?: string;
  /** Files for `-f name`: {name: text}. */
  files?: Record<string, string>;
  signal?: AbortSignal;
  onOutput?: (fd: 1 | 2, text: string) => void;
}

export interface KubectlResult {
  stdout: string;
  stderr: string;
  /** what the kubectl process would exit with */
  code: number;
  millis?: number;
  memoryBytes?: number;
  /** the paths kubectl requested during the call (measurement) */
  requests?: string[];
  /** the first call after the instance loaded: the load's phases (ms after it
   *  began: response, compiled, instantiated, initialized) and when the call
   *  arrived (sinceLoad, ms after it began) */
  phases?: { response: number; compiled: number; instantiated: number; initialized: number };
  sinceLoad?: number;
}

export interface SandboxStats {
  memoryBytes: number;
  served: number;
  live: number;
  db: { writes: number; records: number; snapshots: number; millis: number; failed: number };
  /** The CEL engine, two wasm parts each loaded the first time a CRD rule
   *  (cel-crd.wasm), a policy (cel-policy.wasm) needs it. The fields are the
   *  part loaded last's (loads: of both); parts has each. millis = fetch +
   *  compile + instantiate + Go init; phases: ms since the load began at
   *  fetch, compile, main (Go's package init done), warm, ready. */
  cel: CELLoad & { parts: { crd: CELLoad; policy: CELLoad } };
  /** The sandboxes the worker's one Go instance runs now ('' is the default);
   *  memoryBytes, served and cel are the instance's, live and db this sandbox's. */
  sandboxes: string[];
}

/** One load of a part of the CEL engine (SandboxStats.cel). */
export interface CELLoad {
  state: 'absent' | 'loading' | 'ready' | 'failed'; millis: number; compileMillis: number; loaded: number; total: number;
  loads: number; error: string | null; phases: Record<string, number>; firstCallMillis: number | null;
}

/** The handle createSandbox returns. */
export interface Sandbox {
  /** Resolves once the page is controlled and the core runs; rejects with what to fix. */
  readonly ready: Promise<void>;
  /** '' or '/sandbox/<name>': added to root-relative paths by fetch() and watch(). */
  readonly base: string;
  readonly info: { portsHanded: number; leader: boolean | null; instance?: string; startMillis?: number };
  readonly worker: SharedWorker | Worker | null;
  /** fetch() against the sandbox's API, after ready. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Watch events of a collection path, resumed across broken streams; throws WatchError (410: list again). */
  watch<T = any>(path: string, opts?: WatchOptions): AsyncGenerator<WatchEvent<T>, void, unknown>;
  stats(): Promise<SandboxStats>;
  /** Every user object as YAML (a v1 List), for `kubectl apply -f`. */
  export(): Promise<string>;
  /** Create or update (server-side apply) every object of YAML/JSON text. */
  import(text: string): Promise<unknown>;
  /** Drop the saved state and restart empty; resourceVersions keep increasing. */
  reset(): Promise<void>;
  /** The real kubectl (v1.37.2, wasm), loaded on first use from runtime + 'kubectl.js'
   *  (the optional kubesandbox-kubectl package). */
  kubectl(args: string[], opts?: KubectlOptions): Promise<KubectlResult>;
  /** Start loading kubectl (download, compile, init) without running a command,
   *  e.g. when a terminal is shown; once it and the API are up with no command
   *  asked for, an unseen `kubectl get namespaces` warms it. */
  preloadKubectl(): void;
}

export function createSandbox(opts?: SandboxOptions): Sandbox;

/** Reads any watch response (application/json;stream=watch) as client-go does. */
export function readWatch<T = any>(res: Response | ReadableStream<Uint8Array>): AsyncGenerator<WatchEvent<T>, void, unknown>;

export class WatchError extends Error {
  constructor(message: string, status: number, body: unknown);
  /** HTTP status; 410: the resourceVersion is too old, list again. */
  status: number;
  body: unknown;
}
