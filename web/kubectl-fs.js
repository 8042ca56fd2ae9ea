// kubesandbox kubectl filesystem: a small in-memory filesystem for Go's
// js/wasm syscall package (wasm_exec.js's own `globalThis.fs` answers
// ENOSYS to nearly everything). Load it before wasm_exec.js:
//
//   importScripts('kubectl-fs.js', 'wasm_exec.js');
//   const kfs = kubesandboxKubectlFS({ home: '/home/user' });
//   kfs.begin({ stdin: 'apiVersion: v1\n…', files: { 'cm.yaml': '…' },
//               output: (fd, bytes) => … });   // before each kubectl call
//
// It serves kubectl's needs and no more:
//   - fd 0 reads the call's stdin (`kubectl apply -f -`), then EOF;
//   - fds 1 and 2 go to the call's output callback as they are written
//     (so `kubectl get -w` streams), and so does the runtime's writeSync;
//   - files: a tree of directories and files under /, whose relative
//     paths resolve against `home` (the process's cwd). The page's files
//     are written there per call (`kubectl apply -f cm.yaml`), and kubectl
//     writes its kubeconfig and discovery cache (~/.kube/cache) there: the
//     cache lives as long as the worker, so later commands skip discovery.
// Error codes are Node's (ENOENT, EEXIST, …), which Go maps to syscall errors.
'use strict';

function kubesandboxKubectlFS({ home = '/home/user' } = {}) {
  const S_IFDIR = 0o040000;
  const S_IFREG = 0o100000;
  // Node's values (Go reads them from fs.constants)
  const constants = { O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536 };
  const nodes = new Map(); // absolute path → {dir, data: Uint8Array, size, mode, mtimeMs, ino}
  const open = new Map(); // fd → {path, flags, pos}
  let nextFd = 3;
  let nextIno = 1;
  let stdin = new Uint8Array(0);
  let stdinPos = 0;
  let output = () => {};
  const enc = new TextEncoder();

  const fail = (code) => { const e = new Error(code); e.code = code; return e; };

  // resolve makes an absolute, normalised path: 'a/../b.yaml' → '/home/user/b.yaml'.
  function resolve(...parts) {
    let p = '';
    for (const x of parts) p = String(x).startsWith('/') ? String(x) : (p || home) + '/' + x;
    const out = [];
    for (const seg of (p || home).split('/')) {
      if (!seg || seg === '.') continue;
      if (seg === '..') out.pop(); else out.push(seg);
    }
    return '/' + out.join('/');
  }
  const parent = (p) => p.slice(0, p.lastIndexOf('/')) || '/';

  function mkdirp(p) {
    p = resolve(p);
    if (nodes.has(p)) return;
    if (p !== '/') mkdirp(parent(p));
    nodes.set(p, { dir: true, mode: S_IFDIR | 0o755, mtimeMs: Date.now(), ino: nextIno++ });
  }
  mkdirp(home);

  function node(p) {
    const n = nodes.get(resolve(p));
    if (!n) throw fail('ENOENT');
    return n;
  }

  function stat(n) {
    const size = n.dir ? 4096 : n.size;
    return {
      dev: 1, ino: n.ino, mode: n.mode, nlink: 1, uid: 0, gid: 0, rdev: 0, size, blksize: 4096,
      blocks: Math.ceil(size / 512), atimeMs: n.mtimeMs, mtimeMs: n.mtimeMs, ctimeMs: n.mtimeMs,
      isDirectory: () => !!n.dir,
    };
  }

  function writeFile(p, data) {
    p = resolve(p);
    mkdirp(parent(p));
    const bytes = typeof data === 'string' ? enc.encode(data) : new Uint8Array(data);
    nodes.set(p, { dir: false, data: bytes, size: bytes.length, mode: S_IFREG | 0o644, mtimeMs: Date.now(), ino: nextIno++ });
  }

  // grow makes room for size bytes in a file's buffer (doubling).
  function grow(n, size) {
    if (size <= n.data.length) return;
    const b = new Uint8Array(Math.max(size, n.data.length * 2, 256));
    b.set(n.data.subarray(0, n.size));
    n.data = b;
  }

  function writeOut(fd, buf) {
    output(fd, buf.slice());
    return buf.length;
  }

  // Each call below is one Node fs function: (…args, callback(err, result)).
  const sync = (fn) => (...args) => {
    const cb = args.pop();
    let r;
    try { r = fn(...args); } catch (e) { cb(e.code ? e : fail('EIO')); return; }
    cb(null, r);
  };

  globalThis.fs = {
    constants,
    writeSync(fd, buf) { return writeOut(fd, buf); },
    write: sync((fd, buf, offset, length, position) => {
      const chunk = buf.subarray(offset, offset + length);
      if (fd === 1 || fd === 2) return writeOut(fd, chunk);
      const f = open.get(fd);
      if (!f) throw fail('EBADF');
      const n = node(f.path);
      let at = position !== null && position !== undefined ? position : (f.flags & constants.O_APPEND ? n.size : f.pos);
      grow(n, at + length);
      n.data.set(chunk, at);
      n.size = Math.max(n.size, at + length);
      n.mtimeMs = Date.now();
      if (position === null || position === undefined) f.pos = at + length;
      return length;
    }),
    read: sync((fd, buf, offset, length, position) => {
      if (fd === 0) {
        const n = Math.min(length, stdin.length - stdinPos);
        buf.set(stdin.subarray(stdinPos, stdinPos + n), offset);
        stdinPos += n;
        return n;
      }
      const f = open.get(fd);
      if (!f) throw fail('EBADF');
      const nd = node(f.path);
      if (nd.dir) throw fail('EISDIR');
      const at = position !== null && position !== undefined ? position : f.pos;
      const n = Math.max(0, Math.min(length, nd.size - at));
      buf.set(nd.data.subarray(at, at + n), offset);
      if (position === null || position === undefined) f.pos = at + n;
      return n;
    }),
    open: sync((path, flags, mode) => {
      const p = resolve(path);
      let n = nodes.get(p);
      if (n && (flags & constants.O_CREAT) && (flags & constants.O_EXCL)) throw fail('EEXIST');
      if (!n) {
        if (!(flags & constants.O_CREAT)) throw fail('ENOENT');
        const dir = nodes.get(parent(p));
        if (!dir) throw fail('ENOENT');
        if (!dir.dir) throw fail('ENOTDIR');
        n = { dir: false, data: new Uint8Array(0), size: 0, mode: S_IFREG | (mode & 0o777), mtimeMs: Date.now(), ino: nextIno++ };
        nodes.set(p, n);
      }
      if (n.dir && (flags & (constants.O_WRONLY | constants.O_RDWR))) throw fail('EISDIR');
      if ((flags & constants.O_DIRECTORY) && !n.dir) throw fail('ENOTDIR');
      if (flags & constants.O_TRUNC && !n.dir) n.size = 0;
      const fd = nextFd++;
      open.set(fd, { path: p, flags, pos: 0 });
      return fd;
    }),
    close: sync((fd) => { open.delete(fd); }),
    fstat: sync((fd) => {
      if (fd <= 2) return { ...stat({ mode: 0o020000 | 0o620, size: 0, ino: 0, mtimeMs: Date.now() }), isDirectory: () => false };
      const f = open.get(fd);
      if (!f) throw fail('EBADF');
      return stat(node(f.path));
    }),
    stat: sync((path) => stat(node(path))),
    lstat: sync((path) => stat(node(path))),
    mkdir: sync((path, perm) => {
      const p = resolve(path);
      if (nodes.has(p)) throw fail('EEXIST');
      const dir = nodes.get(parent(p));
      if (!dir) throw fail('ENOENT');
      if (!dir.dir) throw fail('ENOTDIR');
      nodes.set(p, { dir: true, mode: S_IFDIR | (perm & 0o777), mtimeMs: Date.now(), ino: nextIno++ });
    }),
    readdir: sync((path) => {
      const p = resolve(path);
      if (!node(p).dir) throw fail('ENOTDIR');
      const prefix = p === '/' ? '/' : p + '/';
      const names = [];
      for (const k of nodes.keys()) {
        if (k !== p && k.startsWith(prefix) && !k.slice(prefix.length).includes('/')) names.push(k.slice(prefix.length));
      }
      return names.sort();
    }),
    unlink: sync((path) => {
      const p = resolve(path);
      if (node(p).dir) throw fail('EISDIR');
      nodes.delete(p);
    }),
    rmdir: sync((path) => {
      const p = resolve(path);
      if (!node(p).dir) throw fail('ENOTDIR');
      for (const k of nodes.keys()) if (k.startsWith(p + '/')) throw fail('ENOTEMPTY');
      nodes.delete(p);
    }),
    rename: sync((from, to) => {
      const a = resolve(from);
      const b = resolve(to);
      const n = node(a);
      if (!nodes.has(parent(b))) throw fail('ENOENT');
      const moved = [...nodes.keys()].filter((k) => k === a || k.startsWith(a + '/'));
      for (const k of moved) {
        const v = nodes.get(k);
        nodes.delete(k);
        nodes.set(b + k.slice(a.length), v);
      }
      if (!moved.length) nodes.set(b, n);
    }),
    truncate: sync((path, length) => { const n = node(path); grow(n, length); n.size = length; }),
    ftruncate: sync((fd, length) => {
      const f = open.get(fd);
      if (!f) throw fail('EBADF');
      const n = node(f.path);
      grow(n, length);
      if (length > n.size) n.data.fill(0, n.size, length);
      n.size = length;
    }),
    chmod: sync((path, mode) => { const n = node(path); n.mode = (n.mode & ~0o777) | (mode & 0o777); }),
    fchmod: sync((fd, mode) => { const f = open.get(fd); if (!f) throw fail('EBADF'); const n = node(f.path); n.mode = (n.mode & ~0o777) | (mode & 0o777); }),
    chown: sync(() => {}),
    fchown: sync(() => {}),
    lchown: sync(() => {}),
    utimes: sync((path, atime, mtime) => { node(path).mtimeMs = mtime * 1000; }),
    fsync: sync(() => {}),
    link: sync(() => { throw fail('ENOSYS'); }),
    symlink: sync(() => { throw fail('ENOSYS'); }),
    readlink: sync(() => { throw fail('EINVAL'); }),
  };

  const unsupported = () => { throw fail('ENOSYS'); };
  globalThis.process = {
    getuid: () => 0, getgid: () => 0, geteuid: () => 0, getegid: () => 0,
    getgroups: unsupported, pid: 1, ppid: 0, umask: () => 0o022,
    cwd: () => home, chdir: unsupported,
  };
  globalThis.path = { resolve };

  return {
    home,
    /** begin sets up one kubectl call: its stdin (string or bytes), the
     *  page's files ({name: text}, relative names land in home), and where
     *  fds 1 and 2 go (output(fd, Uint8Array)). */
    begin({ stdin: input = '', files = {}, output: out = () => {} } = {}) {
      stdin = typeof input === 'string' ? enc.encode(input) : new Uint8Array(input || 0);
      stdinPos = 0;
      output = out;
      for (const [name, text] of Object.entries(files || {})) writeFile(name, text);
    },
    writeFile,
    readFile: (p) => { const n = node(p); return n.dir ? null : n.data.slice(0, n.size); },
    exists: (p) => nodes.has(resolve(p)),
  };
}
