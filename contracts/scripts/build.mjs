#!/usr/bin/env node
// Builds the shipped contracts' artifacts (ABI + bytecode) with solc-js, deterministically:
// out/Marketplace.json (the market) and out/SignatureValidator.json (the server's deployless
// signature check, never deployed).
// Usage: node scripts/build.mjs [output-dir]   (default: <contracts>/out)
// The Rust crates (alloy `sol!`) and the UI (viem) read these committed files; they never need node.
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const contractsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(contractsDir, 'package.json'));
const solc = require('solc');

const CONTRACTS = ['Marketplace', 'SignatureValidator'];
const outDir = resolve(process.argv[2] ?? join(contractsDir, 'out'));

// Must match foundry.toml, so that forge tests exactly what is shipped.
const settings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  metadata: { bytecodeHash: 'none' },
  remappings: ['@openzeppelin/contracts/=node_modules/@openzeppelin/contracts/'],
};

function findImports(path) {
  try {
    return { contents: readFileSync(join(contractsDir, path), 'utf8') };
  } catch {
    return { error: `File not found: ${path}` };
  }
}

for (const CONTRACT of CONTRACTS) {
  const SOURCE = `src/${CONTRACT}.sol`;
  const input = {
    language: 'Solidity',
    sources: { [SOURCE]: { content: readFileSync(join(contractsDir, SOURCE), 'utf8') } },
    settings: { ...settings, outputSelection: { [SOURCE]: { [CONTRACT]: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  for (const e of output.errors ?? []) process.stderr.write(`${e.formattedMessage ?? e.message}\n`);
  if (errors.length > 0) {
    process.stderr.write(`build failed: ${errors.length} error(s)\n`);
    process.exit(1);
  }

  const compiled = output.contracts[SOURCE][CONTRACT];
  const artifact = {
    contractName: CONTRACT,
    abi: compiled.abi,
    bytecode: `0x${compiled.evm.bytecode.object}`,
    deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
    compiler: { name: 'solc', version: solc.version(), settings },
  };
  const outPath = join(outDir, `${CONTRACT}.json`);
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, `${JSON.stringify(artifact, null, 2)}\n`);
  process.stdout.write(
    `wrote ${outPath}: ${compiled.abi.length} ABI entries, ${(compiled.evm.deployedBytecode.object.length / 2) | 0} bytes deployed\n`,
  );
}
