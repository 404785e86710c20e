// Compiles the contracts with solc from npm (no compiler download) and starts a hardhat node on a
// free loopback port; shared by the contract's tests and, later, the server's.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import solc from 'solc';

/** {name: {abi, bytecode}} for every contract in contracts/. */
export function compile() {
  const sources = {};
  for (const file of ['AgenticCommerce.sol', 'TestToken.sol']) {
    sources[file] = { content: readFileSync(new URL(`contracts/${file}`, import.meta.url), 'utf8') };
  }
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources,
        settings: {
          optimizer: { enabled: true, runs: 200 },
          evmVersion: 'cancun',
          outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
        },
      }),
    ),
  );
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  }
  const out = {};
  for (const file of Object.keys(output.contracts)) {
    for (const [name, c] of Object.entries(output.contracts[file])) {
      out[name] = { abi: c.abi, bytecode: '0x' + c.evm.bytecode.object };
    }
  }
  return out;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A hardhat node (chain id 31337, its twenty funded test accounts); stop() ends it. */
export async function startNode() {
  const port = await freePort();
  const dir = new URL('.', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    [dir + 'node_modules/hardhat/internal/cli/cli.js', '--config', dir + 'hardhat.config.cjs', 'node', '--hostname', '127.0.0.1', '--port', String(port)],
    { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error('hardhat node did not start:\n' + seen)), 60_000);
    child.stdout.on('data', (d) => {
      seen += d;
      if (seen.includes('Started HTTP')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`hardhat node exited (${code}):\n${seen}`)));
  });
  child.stdout.resume();
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}
