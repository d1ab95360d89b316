#!/usr/bin/env node
// Deploys out/Marketplace.json (argument-less constructor) and records the deployment per chain id.
//
// Usage:
//   node scripts/deploy.mjs --rpc-url URL --private-key 0xKEY --out deployments.json [--artifact path]
//   (or RPC_URL / DEPLOYER_PRIVATE_KEY in the environment)
//
// The output file is a JSON object keyed by chain id (as a decimal string); other chains already in
// it are kept:
//   { "80001": { "contract": "Marketplace", "address": "0x…", "deploymentBlock": 1, "txHash": "0x…" } }
// It prints the same record for this chain on stdout as one JSON line.
// It uses `cast` from node_modules (npm @foundry-rs/cast) to sign and send.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const contractsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cast = join(contractsDir, 'node_modules', '.bin', 'cast');

function usage(message) {
  process.stderr.write(`deploy: ${message}\n`);
  process.stderr.write('usage: node scripts/deploy.mjs --rpc-url URL --private-key 0xKEY --out FILE [--artifact FILE]\n');
  process.exit(2);
}

const options = {
  rpcUrl: process.env.RPC_URL,
  privateKey: process.env.DEPLOYER_PRIVATE_KEY,
  out: undefined,
  artifact: join(contractsDir, 'out', 'Marketplace.json'),
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const [flag, inline] = argv[i].split(/=(.*)/s);
  const value = inline ?? argv[++i];
  if (value === undefined) usage(`missing value for ${flag}`);
  if (flag === '--rpc-url') options.rpcUrl = value;
  else if (flag === '--private-key') options.privateKey = value;
  else if (flag === '--out') options.out = value;
  else if (flag === '--artifact') options.artifact = value;
  else usage(`unknown argument ${flag}`);
}
if (!options.rpcUrl) usage('--rpc-url (or RPC_URL) is required');
if (!options.privateKey) usage('--private-key (or DEPLOYER_PRIVATE_KEY) is required');
if (!options.out) usage('--out is required');
if (!existsSync(cast)) usage(`cast not found at ${cast}: run npm ci in ${contractsDir}`);

function runCast(args) {
  return execFileSync(cast, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 }).trim();
}

const artifact = JSON.parse(readFileSync(options.artifact, 'utf8'));
const chainId = runCast(['chain-id', '--rpc-url', options.rpcUrl]);
const receipt = JSON.parse(
  runCast(['send', '--rpc-url', options.rpcUrl, '--private-key', options.privateKey, '--json', '--create', artifact.bytecode]),
);
if (receipt.status !== '0x1' && receipt.status !== 1 && receipt.status !== '1') {
  process.stderr.write(`deploy: transaction ${receipt.transactionHash} failed (status ${receipt.status})\n`);
  process.exit(1);
}
const address = runCast(['to-check-sum-address', receipt.contractAddress]);
const code = runCast(['code', address, '--rpc-url', options.rpcUrl]);
if (code.toLowerCase() !== artifact.deployedBytecode.toLowerCase()) {
  process.stderr.write(`deploy: the code at ${address} differs from the artifact's deployedBytecode\n`);
  process.exit(1);
}

const record = {
  contract: artifact.contractName,
  address,
  deploymentBlock: Number(BigInt(receipt.blockNumber)),
  txHash: receipt.transactionHash,
};
const outPath = resolve(options.out);
const all = existsSync(outPath) ? JSON.parse(readFileSync(outPath, 'utf8')) : {};
all[chainId] = record;
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(`${outPath}.tmp`, `${JSON.stringify(all, null, 2)}\n`);
renameSync(`${outPath}.tmp`, outPath);
process.stdout.write(`${JSON.stringify({ chainId: Number(chainId), ...record })}\n`);
