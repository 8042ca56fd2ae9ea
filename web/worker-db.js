// kubesandbox worker: the IndexedDB store behind each sandbox's Go store
// (wasm/idb.go) — a snapshot and an event log per sandbox, in a database
// of its own: 'kubesandbox:<name>' for a named sandbox
// (createSandbox({sandbox: 'ex1'})), the worker's default ('kubesandbox',
// or worker.js?db=…) for the page's own. web/worker.js loads it with
// importScripts (a classic worker) and asks it for each sandbox's database:
//
//   importScripts('worker-db.js');
//   const dbs = kubesandboxWorkerDB({ durability: 'strict', defaultName: 'kubesandbox', lookup: (name) => sandboxes.get(name)?.db });
//   const db = dbs.open('ex1');   // the database 'kubesandbox:ex1'; its first read starts at once
//   db.stats → {writes, records, snapshots, millis, failed, loadMillis, loadedRecords}; dbs.noStats() the same, all 0
//
// Go reaches a database through self.kubesandboxDBFor(sandbox) (set here;
// lookup names the sandbox's db, null: memory only) and calls its
// load() → {snapshot, revs, records}, write(revs, records, snapshot,
// snapRev) and clear(). durability: IndexedDB's transaction durability,
// 'strict' (waits for the disk flush) or 'relaxed' (for the OS write).
'use strict';

function kubesandboxWorkerDB({ durability = 'strict', defaultName = 'kubesandbox', lookup }) {
  const NO_DB_STATS = { writes: 0, records: 0, snapshots: 0, millis: 0, failed: 0, loadMillis: 0, loadedRecords: 0 };

  // self.kubesandboxDBFor(sandbox): that sandbox's database (null: memory only).
  self.kubesandboxDBFor = (name) => lookup(String(name)) || null;

  function txDone(tx) {
    return new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error || new DOMException('the IndexedDB transaction was aborted', 'AbortError'));
    });
  }

  // sandboxDB is one sandbox's database DB_NAME: its first load starts at
  // once (opening IndexedDB takes ~0.5 s), overlapping the wasm download and
  // compile; Go's first load() takes it. fault: a DOMException name every
  // write fails with (tests).
  function sandboxDB(DB_NAME) {
    let dbOpen = null;
    let preloaded = null;
    const dbStats = { ...NO_DB_STATS };
    function openDB() {
      if (!dbOpen) {
        dbOpen = new Promise((resolve, reject) => {
          const req = indexedDB.open(DB_NAME, 1);
          req.onupgradeneeded = () => {
            req.result.createObjectStore('log'); // revision → record (Uint8Array)
            req.result.createObjectStore('meta'); // 'snapshot' → {rev, data: Uint8Array}
          };
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => { dbOpen = null; reject(req.error); };
          req.onblocked = () => { dbOpen = null; reject(new Error('IndexedDB is blocked by another connection')); };
        });
      }
      return dbOpen;
    }
    const db = {
      stats: dbStats,
      fault: null,
      load() {
        const p = preloaded || this.read();
        preloaded = null;
        return p;
      },
      async read() {
        const t0 = performance.now();
        const idb = await openDB();
        const tx = idb.transaction(['log', 'meta'], 'readonly');
        const out = { snapshot: null, revs: [], records: [] };
        tx.objectStore('meta').get('snapshot').onsuccess = (e) => { out.snapshot = e.target.result ? e.target.result.data : null; };
        tx.objectStore('log').getAllKeys().onsuccess = (e) => { out.revs = e.target.result; };
        tx.objectStore('log').getAll().onsuccess = (e) => { out.records = e.target.result; };
        await txDone(tx);
        dbStats.loadMillis = performance.now() - t0;
        dbStats.loadedRecords = out.revs.length;
        return out;
      },
      // write stores one group of records (and maybe a snapshot) atomically.
      async write(revs, records, snapshot, snapRev) {
        const t0 = performance.now();
        const idb = await openDB();
        const tx = idb.transaction(['log', 'meta'], 'readwrite', { durability: durability === 'relaxed' ? 'relaxed' : 'strict' });
        const done = txDone(tx);
        const log = tx.objectStore('log');
        for (let i = 0; i < revs.length; i++) log.put(records[i], revs[i]);
        if (snapshot) {
          tx.objectStore('meta').put({ rev: snapRev, data: snapshot }, 'snapshot');
          log.delete(IDBKeyRange.upperBound(snapRev));
        }
        if (db.fault) {
          const name = db.fault;
          tx.abort(); // nothing of the group is stored
          await done.catch(() => {});
          dbStats.failed++;
          throw new DOMException(`simulated: the storage quota for this origin is used up (${name})`, name);
        }
        try {
          await done;
        } catch (e) {
          dbStats.failed++;
          throw e;
        }
        dbStats.writes++;
        dbStats.records += revs.length;
        if (snapshot) dbStats.snapshots++;
        dbStats.millis += performance.now() - t0;
      },
      async clear() {
        const idb = await openDB();
        const tx = idb.transaction(['log', 'meta'], 'readwrite');
        const done = txDone(tx);
        tx.objectStore('log').clear();
        tx.objectStore('meta').clear();
        await done;
      },
    };
    preloaded = db.read();
    preloaded.catch(() => {}); // reported when Go asks for it
    return db;
  }

  return {
    /** open is the database of sandbox name ('': the worker's default one). */
    open: (name) => sandboxDB(name ? `kubesandbox:${name}` : defaultName),
    /** noStats is what stats say of a sandbox without a database. */
    noStats: () => ({ ...NO_DB_STATS }),
  };
}
