// The official x402 facilitator (npm @x402/core's x402Facilitator with @x402/evm's upto scheme)
// behind a small HTTP server: GET /supported, POST /verify, POST /settle, as a hosted facilitator
// serves them. Only the chain is stubbed: balances and allowances are ample, contract reads that
// simulate a settlement succeed, and a settlement "transaction" is recorded instead of sent.
// Signatures are checked for real (viem's verifyTypedData).
//
// argv[2]: the facilitator's private key (0x + 64 hex). Prints {"port": N} once listening.
// GET /_settlements (test only) lists what was settled: [{payer, amount, transaction}].
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { x402Facilitator } from '@x402/core/facilitator';
import { UptoEvmScheme } from '@x402/evm/upto/facilitator';
import { verifyTypedData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const account = privateKeyToAccount(process.argv[2]);

/** USDC on Base Sepolia (the README's asset), Permit2, and x402's upto Permit2 proxy. */
const CONTRACTS = new Set(
  [
    '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    '0x000000000022D473030F116dDEE9F6B43aC78BA3',
    '0x4020A4f3b7b90ccA423B9fabCc0CE57C6C240002',
  ].map((a) => a.toLowerCase()),
);
const settlements = [];

const signer = {
  getAddresses: () => [account.address],
  async readContract({ functionName }) {
    switch (functionName) {
      case 'settle':
      case 'settleWithPermit':
        return undefined; // the simulated settlement succeeds
      case 'balanceOf':
      case 'allowance':
        return 10n ** 30n;
      case 'PERMIT2':
        return '0x000000000022D473030F116dDEE9F6B43aC78BA3';
      default:
        return 0n;
    }
  },
  verifyTypedData: (args) => verifyTypedData(args),
  async writeContract(args) {
    const plain = JSON.stringify(args.args ?? [], (k, v) => (typeof v === 'bigint' ? v.toString() : v));
    const transaction = '0x' + createHash('sha256').update(args.functionName + plain).digest('hex');
    // The upto proxy's settle(permit, amount, owner, witness, signature).
    const [, amount, owner] = JSON.parse(plain);
    settlements.push({ functionName: args.functionName, payer: owner, amount, transaction });
    return transaction;
  },
  async sendTransaction({ to, data }) {
    const transaction = '0x' + createHash('sha256').update(to + data).digest('hex');
    settlements.push({ to, data, transaction });
    return transaction;
  },
  waitForTransactionReceipt: async () => ({ status: 'success', logs: [] }),
  // Contracts have code; payers are plain accounts (with code, a payer would be checked as a
  // smart-contract wallet, EIP-1271).
  getCode: async ({ address }) => (CONTRACTS.has(address.toLowerCase()) ? '0x6080604052' : '0x'),
};

const facilitator = new x402Facilitator().register(['eip155:84532'], new UptoEvmScheme(signer));

const json = (res, status, body) => {
  const text = JSON.stringify(body, (k, v) => (typeof v === 'bigint' ? v.toString() : v));
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(text);
};

const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  try {
    if (req.method === 'GET' && req.url === '/supported') {
      return json(res, 200, facilitator.getSupported());
    }
    if (req.method === 'GET' && req.url === '/_settlements') {
      return json(res, 200, settlements);
    }
    if (req.method === 'POST' && (req.url === '/verify' || req.url === '/settle')) {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const answer =
        req.url === '/verify'
          ? await facilitator.verify(body.paymentPayload, body.paymentRequirements)
          : await facilitator.settle(body.paymentPayload, body.paymentRequirements);
      return json(res, 200, answer);
    }
    json(res, 404, { error: 'no such endpoint' });
  } catch (e) {
    json(res, 500, { error: String(e && e.message ? e.message : e) });
  }
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port, address: account.address }) + '\n');
});
