#!/usr/bin/env node
// Makes solc-js (npm `solc`, WebAssembly) answer like a native solc binary, so that forge can use it:
//   solc --version                 -> "solc, the solidity compiler commandline interface\nVersion: <v>"
//   solc --standard-json [opts]    -> reads Standard JSON input on stdin, writes Standard JSON output on stdout
// Options forge may pass (--base-path, --include-path, --allow-paths) are used to resolve imports that are
// not already inlined in the input's "sources". Anything else is rejected so that a misuse is visible.
'use strict';
const fs = require('fs');
const path = require('path');

const contractsDir = path.resolve(__dirname, '..');
const solc = require(require.resolve('solc', { paths: [contractsDir] }));

const args = process.argv.slice(2);
let basePath = process.cwd();
const includePaths = [];
let mode = null;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const takeValue = () => {
    if (a.includes('=')) return a.slice(a.indexOf('=') + 1);
    i += 1;
    return args[i];
  };
  if (a === '--version' || a === '-v') mode = 'version';
  else if (a === '--standard-json') mode = 'standard-json';
  else if (a.startsWith('--base-path')) basePath = path.resolve(takeValue());
  else if (a.startsWith('--include-path')) includePaths.push(path.resolve(takeValue()));
  else if (a.startsWith('--allow-paths')) takeValue();
  else if (a === '--help' || a === '-h') mode = 'help';
  else {
    process.stderr.write(`solc (solc-js wrapper): unsupported argument ${a}\n`);
    process.exit(2);
  }
}

if (mode === 'version') {
  // forge reads the last non-empty line and strips "Version: ".
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
  process.exit(0);
}
if (mode !== 'standard-json') {
  process.stdout.write('usage: solc --version | solc --standard-json [--base-path P] [--include-path P]\n');
  process.exit(mode === 'help' ? 0 : 2);
}

// Imports missing from the input are read from disk: relative to the base path, the include paths,
// and the contracts folder with its node_modules (for "@openzeppelin/..." style paths).
const roots = [basePath, ...includePaths, contractsDir, path.join(contractsDir, 'node_modules')];
function findImports(importPath) {
  const candidates = path.isAbsolute(importPath) ? [importPath] : roots.map((r) => path.join(r, importPath));
  for (const c of candidates) {
    try {
      return { contents: fs.readFileSync(c, 'utf8') };
    } catch (_) {
      /* try the next root */
    }
  }
  return { error: `File not found: ${importPath} (searched ${roots.join(', ')})` };
}

const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const input = Buffer.concat(chunks).toString('utf8');
  const output = solc.compile(input, { import: findImports });
  process.stdout.write(output);
});
