// Helpers of dist.test.mjs and dist-recipes.test.mjs: the npm package
// built, packed and installed as a docs site would, and a plain static
// server.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, writeFileSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, extname, normalize } from 'node:path';
import { repo } from './lib.mjs';

const web = join(repo, process.env.BIN || 'bin', 'web');

/** packAndInstall builds the package (web/tools/dist.mjs, without kubectl)
 *  into tmp/dist, packs it (npm pack) and installs the tarball into a new
 *  project, tmp/project → {tarball: {file, size, unpackedSize, files}, project}. */
export function packAndInstall(tmp) {
  execFileSync(process.execPath, [join(repo, 'web', 'tools', 'dist.mjs'), web, join(tmp, 'dist'), '--no-kubectl'], { stdio: 'inherit' });
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: join(tmp, 'dist', 'kubesandbox') }).toString());
  const tarball = { file: join(tmp, packed[0].filename), size: packed[0].size, unpackedSize: packed[0].unpackedSize, files: packed[0].files.map((f) => f.path) };
  console.log(`npm pack: ${packed[0].filename} ${tarball.size} bytes (unpacked ${tarball.unpackedSize}), ${tarball.files.length} files`);
  const project = join(tmp, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'docs-site', private: true }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball.file], { cwd: project, stdio: 'ignore' });
  return { tarball, project };
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm' };

// serve answers GET of prefix… from root like a plain static host: a file or
// dir/index.html, its MIME type, no other header. seen: the paths asked for.
export function serve(root, prefix = '/') {
  const seen = [];
  const srv = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    seen.push(path);
    let file = path.startsWith(prefix) ? normalize(join(root, path.slice(prefix.length))) : '/nonexistent';
    try {
      if (!file.startsWith(root) || !existsSync(file)) throw new Error('not found');
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const body = readFileSync(file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream' });
      res.end(body);
    } catch (e) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 not found');
    }
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${srv.address().port}`, seen, stop: () => srv.close(),
  })));
}

